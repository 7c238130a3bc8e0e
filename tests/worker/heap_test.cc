// The synthesis worker's restorable heap (pipeline/synth/worker_heap.h). This
// test program links it, so its malloc is the worker's: everything outside an
// EngineScope goes to the C library, as in the worker.
#include "synth/worker_heap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace narrate {
namespace synth_internal {
namespace {

// Bytes of the heap in use (its saved state is exactly that long).
size_t Used() {
  std::string state;
  SaveHeap(&state);
  return state.size();
}

TEST(WorkerHeap, FreedBlocksAreReused) {
  {
    EngineScope scope;
    free(malloc(100));
    free(malloc(5000));
  }
  const size_t used = Used();
  {
    EngineScope scope;
    for (int i = 0; i < 1000; ++i) {
      void* a = malloc(100);
      void* b = malloc(5000);
      free(a);
      free(b);
    }
  }
  EXPECT_EQ(Used(), used);
}

TEST(WorkerHeap, TheCLibrarysOwnAllocationsAreReusedToo) {
  // fopen and fclose allocate and free inside the C library (the FILE and its
  // buffer); eSpeak opens files while it synthesizes.
  auto open_close = [] {
    EngineScope scope;
    FILE* f = std::fopen("/proc/self/stat", "r");
    ASSERT_NE(f, nullptr);
    char line[64];
    EXPECT_NE(std::fgets(line, sizeof line, f), nullptr);
    std::fclose(f);
  };
  open_close();
  const size_t used = Used();
  for (int i = 0; i < 200; ++i) open_close();
  EXPECT_EQ(Used(), used);
}

TEST(WorkerHeap, RestorePutsContentsAndBookkeepingBack) {
  char* kept;
  {
    EngineScope scope;
    kept = static_cast<char*>(malloc(64));
  }
  std::strcpy(kept, "before");
  std::string state;
  SaveHeap(&state);
  char* later;
  {
    EngineScope scope;
    std::strcpy(kept, "after");
    free(kept);
    later = static_cast<char*>(malloc(300));
    std::memset(later, 0x5a, 300);
  }
  RestoreHeap(state);
  EXPECT_STREQ(kept, "before");
  EXPECT_EQ(Used(), state.size());
  // What was allocated after the save is gone, and reads as never used.
  for (int i = 0; i < 300; ++i) ASSERT_EQ(later[i], 0) << i;
  // `kept` is in use again: the next block of its size is another one.
  {
    EngineScope scope;
    char* next = static_cast<char*>(malloc(64));
    EXPECT_NE(next, kept);
    free(next);
  }
}

TEST(WorkerHeap, OutsideAScopeTheCLibraryAllocates) {
  std::string before;
  SaveHeap(&before);
  void* p = malloc(1000);
  EXPECT_EQ(Used(), before.size());
  {
    EngineScope scope;
    free(p);  // by address: back to the C library
    SuspendEngineScope ours;
    void* q = malloc(1000);
    EXPECT_EQ(Used(), before.size());
    free(q);
  }
}

TEST(WorkerHeap, ReallocCallocAndAlignment) {
  EngineScope scope;
  char* p = static_cast<char*>(malloc(10));
  std::memcpy(p, "0123456789", 10);
  p = static_cast<char*>(realloc(p, 100000));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(std::string(p, 10), "0123456789");
  free(p);

  unsigned char* z = static_cast<unsigned char*>(calloc(1000, 3));
  ASSERT_NE(z, nullptr);
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(z[i], 0) << i;
  std::memset(z, 0xff, 3000);
  free(z);
  z = static_cast<unsigned char*>(calloc(1000, 3));  // the same block, zeroed again
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(z[i], 0) << i;
  free(z);
  volatile size_t huge = SIZE_MAX / 2;  // count * size overflows
  EXPECT_EQ(calloc(huge, 4), nullptr);

  for (size_t alignment : {16, 64, 4096}) {
    void* a = nullptr;
    ASSERT_EQ(posix_memalign(&a, alignment, 123), 0);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % alignment, 0u) << alignment;
    free(a);
  }
  for (size_t size : {1, 17, 33, 100, 1000, 70000}) {
    void* m = malloc(size);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m) % 16, 0u) << size;
    free(m);
  }
}

}  // namespace
}  // namespace synth_internal
}  // namespace narrate
