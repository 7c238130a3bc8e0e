// Private to narrate-synth-worker: a heap whose whole state can be saved and
// put back, so that eSpeak NG can be returned to a known state after every
// utterance without a new process.
//
// Why: eSpeak keeps state from one synthesis to the next (speaking rate,
// pitch flutter phase, filter memories, ...), spread over its static data and
// the memory it allocates. Everything eSpeak allocates while an EngineScope is
// open comes from this heap; together with eSpeak's own static data (see
// worker.cc) it is all of eSpeak's state, and copying both back makes the next
// utterance start exactly where a fresh copy of the process would.
//
// The worker replaces malloc and friends (worker_heap.cc): outside an
// EngineScope they forward to the C library's allocator; inside, they use this
// heap. free and realloc go by address, so either side may release a block.
// Single-threaded, like the worker.
#pragma once

#include <cstddef>
#include <string>

namespace narrate {
namespace synth_internal {

// Allocations made while one is alive (and not suspended) come from the
// restorable heap. Open one around every eSpeak call; suspend it in eSpeak's
// callbacks, where the worker's own code allocates.
class EngineScope {
 public:
  EngineScope();
  ~EngineScope();
  EngineScope(const EngineScope&) = delete;
  EngineScope& operator=(const EngineScope&) = delete;

 private:
  bool was_;
};

class SuspendEngineScope {
 public:
  SuspendEngineScope();
  ~SuspendEngineScope();
  SuspendEngineScope(const SuspendEngineScope&) = delete;
  SuspendEngineScope& operator=(const SuspendEngineScope&) = delete;

 private:
  bool was_;
};

// The heap's state (its bookkeeping and every block in use), and putting it
// back. Blocks allocated after SaveHeap and not freed are simply forgotten by
// RestoreHeap, and the memory past the saved state is zeroed, as it was before
// anything used it; it stays mapped for reuse.
void SaveHeap(std::string* state);
void RestoreHeap(const std::string& state);

}  // namespace synth_internal
}  // namespace narrate
