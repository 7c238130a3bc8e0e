// ThreadPool and TaskGroup (core.h): one queue, one mutex; a waiting thread
// runs its group's queued tasks itself.
#include <algorithm>

#include "core/core.h"

namespace narrate {

ThreadPool::ThreadPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closing_ = true;
  }
  queued_.notify_all();
  for (std::thread& t : threads_) t.join();
  // Without threads, what was never waited for runs now.
  std::unique_lock<std::mutex> lock(mutex_);
  while (!queue_.empty()) {
    Task task = std::move(queue_.front());
    queue_.pop_front();
    RunTask(std::move(task), &lock);
  }
}

void ThreadPool::Work() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    queued_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    if (queue_.empty()) return;  // closing
    Task task = std::move(queue_.front());
    queue_.pop_front();
    RunTask(std::move(task), &lock);
  }
}

void ThreadPool::RunTask(Task task, std::unique_lock<std::mutex>* lock) {
  lock->unlock();
  task.run();
  task.run = nullptr;  // what it holds goes before its group hears it is done
  lock->lock();
  --task.group->unfinished_;
  done_.notify_all();
}

void TaskGroup::Run(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(pool_->mutex_);
    ++unfinished_;
    pool_->queue_.push_back({this, std::move(task)});
  }
  pool_->queued_.notify_one();
}

void TaskGroup::Wait() {
  std::unique_lock<std::mutex> lock(pool_->mutex_);
  while (unfinished_ > 0) {
    auto mine = std::find_if(pool_->queue_.begin(), pool_->queue_.end(),
                             [this](const ThreadPool::Task& t) { return t.group == this; });
    if (mine == pool_->queue_.end()) {
      pool_->done_.wait(lock);
      continue;
    }
    ThreadPool::Task task = std::move(*mine);
    pool_->queue_.erase(mine);
    pool_->RunTask(std::move(task), &lock);
  }
}

}  // namespace narrate
