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
#include <memory>
#include <unordered_map>
#include <vector>

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

// Saved copies of memory, taken 4 KB page by page, each distinct page kept
// once in the store. The worker saves eSpeak's state once per voice, and those
// states are mostly the same pages (the phoneme data; the dictionary, for the
// voices of one language): stored once they take a few megabytes, not several
// per voice, and every fresh page costs a page fault to touch. Putting a
// copy back writes only the pages that differ from what is there: an
// utterance changes a handful of eSpeak's pages, not its megabytes.
// Take and PutBack must run outside an EngineScope (the store is the
// worker's own). Pages stay in the store as long as it lives.
class PageStore {
 public:
  static constexpr size_t kPage = 4096;
  struct Copy {
    std::vector<const char*> pages;  // in the store; the last may be partly used
    size_t size = 0;                 // bytes
  };
  PageStore() = default;
  PageStore(const PageStore&) = delete;
  PageStore& operator=(const PageStore&) = delete;

  // A copy of the `size` bytes at `begin`.
  Copy Take(const char* begin, size_t size);
  // Makes the `copy.size` bytes at `begin` equal to `copy` again.
  static void PutBack(const Copy& copy, char* begin);
  size_t stored_pages() const { return index_.size(); }

 private:
  std::unordered_multimap<size_t, const char*> index_;  // page hash -> page
  std::vector<std::unique_ptr<char[]>> chunks_;         // the pages, many at a time
  size_t free_in_chunk_ = 0;                            // pages left in chunks_.back()
};

// The heap's state (its bookkeeping and every block in use), and putting it
// back. Blocks allocated after SaveHeap and not freed are simply forgotten by
// RestoreHeap, and the memory past the saved state is zeroed, as it was before
// anything used it; it stays mapped for reuse.
void SaveHeap(PageStore* store, PageStore::Copy* state);
void RestoreHeap(const PageStore::Copy& state);

}  // namespace synth_internal
}  // namespace narrate
