// Private to book: synthesis of the clips a build needs, in the background.
// Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "book/clip_cache.h"
#include "core/core.h"
#include "synth/synth.h"

namespace narrate {

// Synthesizes, in book order, each request whose clip `cache` lacks (each
// distinct key once), with `jobs` Synths (each its own eSpeak NG worker
// process) driven by as many tasks on `pool`; the first Synth comes from
// `first` (called on a task). Starts at once; clips are stored as they come,
// and the cache is closed when synthesis is over (with its failure, if any).
// `progress(done, total)` is called from the tasks, one call at a time.
class SynthesisRun {
 public:
  using SynthSource = std::function<StatusOr<std::unique_ptr<Synth>>()>;
  // `requests` and `keys` (their ClipKeys, parallel) outlive the run.
  SynthesisRun(const std::vector<SynthRequest>& requests, const std::vector<std::string>& keys,
               ClipCache* cache, ThreadPool* pool, int jobs, SynthSource first,
               std::function<void(int, int)> progress);
  ~SynthesisRun();  // waits for the tasks
  SynthesisRun(const SynthesisRun&) = delete;
  SynthesisRun& operator=(const SynthesisRun&) = delete;

  // Waits until synthesis is over; its first failure, if any.
  Status Wait();
  int synthesized() const { return static_cast<int>(missing_.size()); }
  int reused() const { return reused_; }

 private:
  void Drive(bool first);

  const std::vector<SynthRequest>& requests_;
  const std::vector<std::string>& keys_;
  ClipCache* cache_;
  SynthSource first_;
  std::function<void(int, int)> progress_;
  std::vector<size_t> missing_;  // indices into requests_, in book order
  int reused_ = 0;

  std::mutex mutex_;
  size_t next_ = 0;     // index into missing_ of the next request to take
  int done_ = 0;
  int running_ = 0;     // driving tasks not yet finished
  Status failure_;
  std::mutex progress_mutex_;  // one progress call at a time, counts only rising
  int reported_ = 0;
  TaskGroup tasks_;     // last: waited for before the rest goes
};

}  // namespace narrate
