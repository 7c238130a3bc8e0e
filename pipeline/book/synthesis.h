// Private to book: synthesis of the clips a build needs, in the background.
// Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "clip_cache.h"
#include "core/core.h"
#include "synth/synth.h"

namespace narrate {

// Synthesizes, in book order, each request whose clip `cache` lacks (each
// distinct key once), with `jobs` Synths, each its own eSpeak NG worker
// process: one task on `pool` keeps them all busy (a Synth is sent its next
// request as soon as it answers), so synthesis holds one of the pool's
// threads however many workers it drives. The first Synth comes from `first`.
// Starts at once; clips are stored as they come, and the cache is closed
// when synthesis is over (with its failure, if any). `progress(done, total)`
// is called from that task.
class SynthesisRun {
 public:
  using SynthSource = std::function<StatusOr<std::unique_ptr<Synth>>()>;
  // `requests` and `keys` (their ClipKeys, parallel) outlive the run.
  SynthesisRun(const std::vector<SynthRequest>& requests, const std::vector<std::string>& keys,
               ClipCache* cache, ThreadPool* pool, int jobs, SynthSource first,
               std::function<void(int, int)> progress);
  ~SynthesisRun();  // waits for the task
  SynthesisRun(const SynthesisRun&) = delete;
  SynthesisRun& operator=(const SynthesisRun&) = delete;

  // Waits until synthesis is over; its first failure, if any.
  Status Wait();
  int synthesized() const { return static_cast<int>(missing_.size()); }
  int reused() const { return reused_; }

 private:
  // The task: synthesizes missing_ with up to `jobs` Synths; the first failure.
  Status Drive(int jobs);

  const std::vector<SynthRequest>& requests_;
  const std::vector<std::string>& keys_;
  ClipCache* cache_;
  SynthSource first_;
  std::function<void(int, int)> progress_;
  std::vector<size_t> missing_;  // indices into requests_, in book order
  int reused_ = 0;
  Status failure_;  // written by the task, read after it
  TaskGroup task_;  // last: waited for before the rest goes
};

}  // namespace narrate
