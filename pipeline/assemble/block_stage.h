// Private to assemble: a stage of a pipeline on a thread of its own (the
// master's loudness and output stages, the encoders of AudioWriter).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace assemble_internal {

// A stage of the pipeline on a thread of its own: blocks go in in order, a
// few may wait, and `process` takes them one by one. The first failure is kept
// and stops the processing of what follows.
template <typename T>
class BlockStage {
 public:
  explicit BlockStage(std::function<Status(const std::vector<T>&)> process)
      : process_(std::move(process)), thread_([this] { Run(); }) {}
  ~BlockStage() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  // Queues a copy of the samples (waits while a few blocks are queued); the
  // failure of an earlier block, if any.
  Status Add(const T* samples, size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < kQueued; });
    if (!failure_.ok()) return failure_;
    std::vector<T> block;
    if (!spare_.empty()) {
      block = std::move(spare_.back());
      spare_.pop_back();
    }
    block.assign(samples, samples + count);
    queue_.push_back(std::move(block));
    changed_.notify_all();
    return Status::Ok();
  }

  // Waits until every queued block is processed; the first failure, if any.
  // After it, the stage is idle until the next Add.
  Status Drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.empty() && !busy_; });
    return failure_;
  }

 private:
  static constexpr size_t kQueued = 4;

  void Run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closed
      std::vector<T> block = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      const bool go = failure_.ok();
      lock.unlock();
      Status s = go ? process_(block) : Status::Ok();
      lock.lock();
      if (failure_.ok()) failure_ = s;
      busy_ = false;
      spare_.push_back(std::move(block));
      changed_.notify_all();
    }
  }

  std::function<Status(const std::vector<T>&)> process_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<T>> queue_;
  std::vector<std::vector<T>> spare_;  // processed blocks, for reuse
  bool busy_ = false;                      // a block is being processed
  bool closed_ = false;
  Status failure_;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace assemble_internal
}  // namespace narrate
