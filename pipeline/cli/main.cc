// Entry point of the `narrate` command; everything else is in narrate_cli.
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

#include "cli.h"

namespace {

// Memory. A build streams audio through buffers of a few hundred KB (clips,
// blocks, file writes); fresh memory costs a page fault per 4 KB page, and
// a page fault is dear (under a virtual machine all the more), while one 2 MB
// page takes the place of 512 of them. So: every thread allocates from
// the one main heap, which keeps what is freed (no trimming, no per-buffer
// mmap) and starts 64 MB large, backed by transparent huge pages where the
// kernel allows them (advice: without it, nothing changes but the speed).
// Peak memory stays that of the buffers in use.
void SetUpMemory() {
  constexpr size_t kHeap = size_t{64} << 20;
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_TOP_PAD, static_cast<int>(kHeap));
  void* grow = std::malloc(1 << 20);  // makes the heap grow by the pad now
  if (grow == nullptr) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(grow) + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t end = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(kHugePage - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  std::free(grow);
}

}  // namespace

int main(int argc, char** argv) {
  SetUpMemory();
  return narrate::RunNarrate(argc, argv);
}
