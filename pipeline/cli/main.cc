// Entry point of the `narrate` command; everything else is in narrate_cli.
#include <malloc.h>

#include "cli/cli.h"

int main(int argc, char** argv) {
  // Chapters are rendered one after another into buffers of tens to hundreds
  // of MB. By default glibc serves each from a fresh mmap and unmaps it when
  // freed, so every chapter page-faults its buffers in again (slow under a
  // sandboxing kernel: ~20 us a fault here). Keeping freed memory in the heap
  // lets the next chapter reuse it; peak memory is unchanged.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return narrate::RunNarrate(argc, argv);
}
