// SynthesisRun: tasks that each drive a Synth over the missing clips.
#include "book/synthesis.h"

#include <algorithm>
#include <unordered_set>

namespace narrate {

SynthesisRun::SynthesisRun(const std::vector<SynthRequest>& requests,
                           const std::vector<std::string>& keys, ClipCache* cache,
                           ThreadPool* pool, int jobs, SynthSource first,
                           std::function<void(int, int)> progress)
    : requests_(requests),
      keys_(keys),
      cache_(cache),
      first_(std::move(first)),
      progress_(std::move(progress)),
      tasks_(pool) {
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (cache->Has(keys[i]) || !seen.insert(keys[i]).second) {
      ++reused_;
    } else {
      missing_.push_back(i);
    }
  }
  if (missing_.empty()) {
    cache_->Close(Status::Ok());
    return;
  }
  running_ = std::max(1, std::min<int>(jobs, static_cast<int>(missing_.size())));
  for (int k = 0; k < running_; ++k) tasks_.Run([this, k] { Drive(k == 0); });
}

SynthesisRun::~SynthesisRun() { tasks_.Wait(); }

Status SynthesisRun::Wait() {
  tasks_.Wait();
  std::lock_guard<std::mutex> lock(mutex_);
  return failure_;
}

void SynthesisRun::Drive(bool first) {
  StatusOr<std::unique_ptr<Synth>> synth = first ? first_() : Synth::Create();
  const int total = static_cast<int>(missing_.size());
  for (;;) {
    size_t request;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!synth.ok() && failure_.ok()) failure_ = synth.status();
      if (!failure_.ok() || next_ == missing_.size()) break;
      request = missing_[next_++];
    }
    StatusOr<Clip> clip = (*synth)->Synthesize(requests_[request]);
    Status stored = clip.ok() ? cache_->Store(keys_[request], *clip) : clip.status();
    int done;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!stored.ok() && failure_.ok()) failure_ = stored;
      done = ++done_;
    }
    if (progress_) {
      std::lock_guard<std::mutex> lock(progress_mutex_);
      if (done > reported_) progress_(reported_ = done, total);
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (--running_ == 0 || !failure_.ok()) cache_->Close(failure_);
}

}  // namespace narrate
