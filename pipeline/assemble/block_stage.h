// Private to assemble: a stage of a pipeline whose blocks are processed by
// tasks on the session's thread pool (the master's loudness and output
// stages, the encoders of AudioWriter). Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace assemble_internal {

// Blocks go in in order, a few may wait, and `process` takes them one by one,
// in order, on one thread at a time: a task on `pool` while the pool has a
// thread free, else the thread that adds a block to a full queue or drains
// the stage (so a stage never waits for a thread). Without a pool every block
// is processed as it is added. The first failure is kept and stops the
// processing of what follows.
template <typename T>
class BlockStage {
 public:
  BlockStage(ThreadPool* pool, std::function<Status(const std::vector<T>&)> process)
      : process_(std::move(process)),
        tasks_(pool != nullptr ? std::make_unique<TaskGroup>(pool) : nullptr) {}
  ~BlockStage() {
    (void)Drain();
    tasks_.reset();  // a task still queued finds nothing to do
  }

  // Queues a copy of the samples (processing some here while the queue is
  // full); the failure of an earlier block, if any.
  Status Add(const T* samples, size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    while (queue_.size() >= kQueued || (tasks_ == nullptr && !queue_.empty())) {
      if (!busy_) {
        ProcessQueued(&lock);
      } else {
        changed_.wait(lock);
      }
    }
    if (!failure_.ok()) return failure_;
    std::vector<T> block;
    if (!spare_.empty()) {
      block = std::move(spare_.back());
      spare_.pop_back();
    }
    block.assign(samples, samples + count);
    queue_.push_back(std::move(block));
    if (tasks_ == nullptr) {
      ProcessQueued(&lock);
      return failure_;
    }
    if (!busy_ && !scheduled_) {
      scheduled_ = true;
      tasks_->Run([this] {
        std::unique_lock<std::mutex> task_lock(mutex_);
        scheduled_ = false;
        if (!busy_) ProcessQueued(&task_lock);
      });
    }
    return Status::Ok();
  }

  // Waits until every queued block is processed (processing them here if no
  // thread is at it); the first failure, if any. After it, the stage is idle
  // until the next Add.
  Status Drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!queue_.empty() || busy_) {
      if (!busy_) {
        ProcessQueued(&lock);
      } else {
        changed_.wait(lock);
      }
    }
    return failure_;
  }

 private:
  static constexpr size_t kQueued = 4;

  // Processes blocks until the queue is empty; one thread at a time (busy_).
  void ProcessQueued(std::unique_lock<std::mutex>* lock) {
    busy_ = true;
    while (!queue_.empty()) {
      std::vector<T> block = std::move(queue_.front());
      queue_.pop_front();
      const bool go = failure_.ok();
      lock->unlock();
      Status s = go ? process_(block) : Status::Ok();
      lock->lock();
      if (failure_.ok()) failure_ = s;
      spare_.push_back(std::move(block));
      changed_.notify_all();
    }
    busy_ = false;
    changed_.notify_all();
  }

  std::function<Status(const std::vector<T>&)> process_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<T>> queue_;
  std::vector<std::vector<T>> spare_;  // processed blocks, for reuse
  bool busy_ = false;                  // a thread is processing the queue
  bool scheduled_ = false;             // a task to process it is queued on the pool
  Status failure_;
  std::unique_ptr<TaskGroup> tasks_;  // null: no pool
};

}  // namespace assemble_internal
}  // namespace narrate
