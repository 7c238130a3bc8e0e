// The synthesis worker's restorable heap (pipeline/synth/worker_heap.h). This
// test program links it, so its malloc is the worker's: everything outside an
// EngineScope goes to the C library, as in the worker.
#include "synth/worker_heap.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

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
  PageStore store;
  PageStore::Copy state;
  SaveHeap(&store, &state);
  return state.size;
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
  PageStore store;
  PageStore::Copy state;
  SaveHeap(&store, &state);
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
  EXPECT_EQ(Used(), state.size);
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
  const size_t before = Used();
  void* p = malloc(1000);
  EXPECT_EQ(Used(), before);
  {
    EngineScope scope;
    free(p);  // by address: back to the C library
    SuspendEngineScope ours;
    void* q = malloc(1000);
    EXPECT_EQ(Used(), before);
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

// Page-aligned memory of `pages` pages, filled with `fill`.
char* Pages(size_t pages, char fill) {
  void* m = nullptr;
  if (posix_memalign(&m, PageStore::kPage, pages * PageStore::kPage) != 0) return nullptr;
  std::memset(m, fill, pages * PageStore::kPage);
  return static_cast<char*>(m);
}

TEST(PageStore, IdenticalPagesAreStoredOnce) {
  constexpr size_t kPage = PageStore::kPage;
  char* a = Pages(3, 'a');
  char* b = Pages(3, 'a');
  b[2 * kPage + 7] = 'b';  // b's last page differs
  PageStore store;
  const PageStore::Copy ca = store.Take(a, 3 * kPage);
  EXPECT_EQ(store.stored_pages(), 1u);  // a's three pages are one page
  const PageStore::Copy cb = store.Take(b, 3 * kPage);
  EXPECT_EQ(store.stored_pages(), 2u);
  std::memset(a, 0, 3 * kPage);
  PageStore::PutBack(cb, a);
  EXPECT_EQ(std::memcmp(a, b, 3 * kPage), 0);
  PageStore::PutBack(ca, b);
  for (size_t i = 0; i < 3 * kPage; ++i) ASSERT_EQ(b[i], 'a') << i;
  free(a);
  free(b);
}

TEST(PageStore, APartPageIsPutBackAloneAndComparedAsItsBytes) {
  constexpr size_t kPage = PageStore::kPage;
  char* a = Pages(2, 'x');
  PageStore store;
  const PageStore::Copy part = store.Take(a, kPage + 10);  // 10 bytes of the second page
  a[kPage + 5] = 'y';
  a[kPage + 10] = 'z';  // past the copy
  PageStore::PutBack(part, a);
  EXPECT_EQ(a[kPage + 5], 'x');
  EXPECT_EQ(a[kPage + 10], 'z');
  // A whole page of 'x' is not the part page (its padding is zeros).
  store.Take(a, kPage);
  EXPECT_EQ(store.stored_pages(), 2u);
  free(a);
}

TEST(PageStore, PagesThatAlreadyMatchAreNotWritten) {
  constexpr size_t kPage = PageStore::kPage;
  char* a = Pages(2, 'q');
  PageStore store;
  const PageStore::Copy copy = store.Take(a, 2 * kPage);
  a[kPage] = 'r';
  // The first page cannot be written now: putting the copy back must not try.
  ASSERT_EQ(::mprotect(a, kPage, PROT_READ), 0);
  PageStore::PutBack(copy, a);
  ASSERT_EQ(::mprotect(a, kPage, PROT_READ | PROT_WRITE), 0);
  EXPECT_EQ(a[kPage], 'q');
  free(a);
}

}  // namespace
}  // namespace synth_internal
}  // namespace narrate
