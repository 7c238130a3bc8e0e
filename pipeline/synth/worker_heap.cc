// The restorable heap and the malloc family that routes to it (see
// worker_heap.h). Linked into narrate-synth-worker only.
//
// Layout: one large reserved mapping. Its first bytes are the bookkeeping
// (the bump pointer and one free list per size class), so saving the prefix up
// to the bump pointer saves everything. Block sizes go in two steps per octave
// from 32 bytes (32, 48, 64, 96, ...), header included: a 16-byte header (size
// class, distance back to the block's start, for aligned allocations) precedes
// each pointer handed out. Freed blocks go on their class's list and are
// reused first. Simple, deterministic and fast for eSpeak's pattern: a few
// megabytes allocated at start-up, small short-lived blocks per utterance.
#include "worker_heap.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

extern "C" {
// The C library's own allocator, which glibc exports under these names.
void* __libc_malloc(size_t size);
void __libc_free(void* ptr);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* ptr, size_t size);
void* __libc_memalign(size_t alignment, size_t size);
}

namespace narrate {
namespace synth_internal {
namespace {

constexpr size_t kReserve = size_t{1} << 34;  // address space only (MAP_NORESERVE)
constexpr int kClasses = 2 * (34 - 5);        // 32 bytes up to the reserve
constexpr size_t kHeader = 16;

// Bytes in a block of `size_class`: 32, 48, 64, 96, 128, ... (multiples of 16,
// so blocks placed one after another stay 16-byte aligned).
size_t ClassSize(int size_class) {
  const size_t base = size_t{32} << (size_class / 2);
  return size_class % 2 == 0 ? base : base + base / 2;
}

struct Bookkeeping {
  size_t top;  // bytes of the mapping in use, bookkeeping included
  char* free_list[kClasses];
};

struct BlockHeader {
  uint32_t size_class;
  uint32_t offset;  // from the block's start to the user pointer
  uint64_t unused;
};

char* g_base = nullptr;
size_t g_high_water = 0;  // the most of the mapping ever used
bool g_engine = false;    // inside an EngineScope

Bookkeeping* Book() { return reinterpret_cast<Bookkeeping*>(g_base); }

bool Owns(const void* p) {
  const char* c = static_cast<const char*>(p);
  return g_base != nullptr && c >= g_base && c < g_base + kReserve;
}

bool EnsureMapped() {
  if (g_base != nullptr) return true;
  void* m = ::mmap(nullptr, kReserve, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return false;
  // Transparent huge pages where the kernel allows them: eSpeak loads a few
  // megabytes (dictionaries, phoneme data), a page fault per 4 KB page without
  // them, one per 2 MB with. Advice only: ignore failure.
  ::madvise(m, kReserve, MADV_HUGEPAGE);
  g_base = static_cast<char*>(m);
  Book()->top = (sizeof(Bookkeeping) + 15) & ~size_t{15};
  g_high_water = Book()->top;
  return true;
}

BlockHeader* HeaderOf(void* p) {
  return reinterpret_cast<BlockHeader*>(static_cast<char*>(p) - kHeader);
}

size_t Capacity(void* p) {
  const BlockHeader* h = HeaderOf(p);
  return ClassSize(static_cast<int>(h->size_class)) - h->offset;
}

void* Allocate(size_t size, size_t alignment) {
  if (!EnsureMapped()) return nullptr;
  if (alignment < kHeader) alignment = kHeader;
  const size_t need = size + kHeader + (alignment - kHeader);
  if (need < size) return nullptr;  // overflow
  int size_class = 0;
  while (size_class < kClasses && ClassSize(size_class) < need) ++size_class;
  if (size_class >= kClasses) return nullptr;
  Bookkeeping* book = Book();
  char* block = book->free_list[size_class];
  if (block != nullptr) {
    std::memcpy(&book->free_list[size_class], block, sizeof(char*));
  } else {
    if (book->top + ClassSize(size_class) > kReserve) return nullptr;
    block = g_base + book->top;
    book->top += ClassSize(size_class);
    if (book->top > g_high_water) g_high_water = book->top;
  }
  const uintptr_t first = reinterpret_cast<uintptr_t>(block) + kHeader;
  char* user = reinterpret_cast<char*>((first + alignment - 1) & ~(alignment - 1));
  BlockHeader* h = HeaderOf(user);
  h->size_class = static_cast<uint32_t>(size_class);
  h->offset = static_cast<uint32_t>(user - block);
  return user;
}

void Release(void* p) {
  const BlockHeader* h = HeaderOf(p);
  const uint32_t size_class = h->size_class;  // the link below overwrites the header
  char* block = static_cast<char*>(p) - h->offset;
  Bookkeeping* book = Book();
  std::memcpy(block, &book->free_list[size_class], sizeof(char*));
  book->free_list[size_class] = block;
}

void* AllocateOrFail(size_t size, size_t alignment) {
  void* p = Allocate(size, alignment);
  if (p == nullptr) errno = ENOMEM;
  return p;
}

// A hash of one page, only to find candidate equal pages (compared in full):
// four multiply-xor lanes over its 64-bit words, several times faster than a
// general-purpose byte hash, which made saving a state slower than copying it.
size_t PageHash(const char* page) {
  uint64_t lane[4] = {1, 2, 3, 4};
  for (size_t i = 0; i < PageStore::kPage; i += sizeof lane) {
    for (int j = 0; j < 4; ++j) {
      uint64_t word;
      std::memcpy(&word, page + i + j * sizeof word, sizeof word);
      lane[j] = (lane[j] ^ word) * 0x9E3779B97F4A7C15ull;
    }
  }
  uint64_t h = 0;
  for (uint64_t l : lane) h = (h ^ (l >> 29) ^ l) * 0xBF58476D1CE4E5B9ull;
  return static_cast<size_t>(h);
}

}  // namespace

EngineScope::EngineScope() : was_(g_engine) { g_engine = true; }
EngineScope::~EngineScope() { g_engine = was_; }
SuspendEngineScope::SuspendEngineScope() : was_(g_engine) { g_engine = false; }
SuspendEngineScope::~SuspendEngineScope() { g_engine = was_; }

PageStore::Copy PageStore::Take(const char* begin, size_t size) {
  constexpr size_t kChunkPages = 64;
  Copy copy;
  copy.size = size;
  copy.pages.reserve((size + kPage - 1) / kPage);
  char page[kPage];
  for (size_t at = 0; at < size; at += kPage) {
    // The last page, if partial, is compared and kept zero-padded: only its
    // first bytes are ever put back.
    const size_t n = std::min(kPage, size - at);
    const char* source = begin + at;
    if (n < kPage) {
      std::memcpy(page, source, n);
      std::memset(page + n, 0, kPage - n);
      source = page;
    }
    const size_t hash = PageHash(source);
    const char* kept = nullptr;
    for (auto [it, end] = index_.equal_range(hash); it != end && kept == nullptr; ++it) {
      if (std::memcmp(it->second, source, kPage) == 0) kept = it->second;
    }
    if (kept == nullptr) {
      if (free_in_chunk_ == 0) {
        chunks_.emplace_back(new char[kChunkPages * kPage]);
        free_in_chunk_ = kChunkPages;
      }
      char* fresh = chunks_.back().get() + (kChunkPages - free_in_chunk_) * kPage;
      --free_in_chunk_;
      std::memcpy(fresh, source, kPage);
      index_.emplace(hash, fresh);
      kept = fresh;
    }
    copy.pages.push_back(kept);
  }
  return copy;
}

void PageStore::PutBack(const Copy& copy, char* begin) {
  for (size_t i = 0; i < copy.pages.size(); ++i) {
    const size_t n = std::min(kPage, copy.size - i * kPage);
    char* to = begin + i * kPage;
    if (std::memcmp(to, copy.pages[i], n) != 0) std::memcpy(to, copy.pages[i], n);
  }
}

void SaveHeap(PageStore* store, PageStore::Copy* state) {
  const bool was = g_engine;
  g_engine = false;  // the copy itself belongs to the worker
  *state = EnsureMapped() ? store->Take(g_base, Book()->top) : PageStore::Copy();
  g_engine = was;
}

void RestoreHeap(const PageStore::Copy& state) {
  if (g_base == nullptr || state.size == 0) return;
  PageStore::PutBack(state, g_base);
  // Beyond the saved part the heap reads as never used: zeros, as in a fresh
  // process, so that nothing an utterance left there can reach the next one.
  if (g_high_water > state.size) {
    std::memset(g_base + state.size, 0, g_high_water - state.size);
  }
  g_high_water = state.size;
}

}  // namespace synth_internal
}  // namespace narrate

using narrate::synth_internal::AllocateOrFail;
using narrate::synth_internal::Capacity;
using narrate::synth_internal::g_engine;
using narrate::synth_internal::Owns;
using narrate::synth_internal::Release;

extern "C" {

void* malloc(size_t size) { return g_engine ? AllocateOrFail(size, 16) : __libc_malloc(size); }

void free(void* p) {
  if (p == nullptr) return;
  if (Owns(p)) {
    Release(p);
  } else {
    __libc_free(p);
  }
}

void* calloc(size_t count, size_t size) {
  if (!g_engine) return __libc_calloc(count, size);
  if (size != 0 && count > SIZE_MAX / size) {
    errno = ENOMEM;
    return nullptr;
  }
  void* p = AllocateOrFail(count * size, 16);
  if (p != nullptr) std::memset(p, 0, count * size);
  return p;
}

void* realloc(void* p, size_t size) {
  if (p == nullptr) return malloc(size);
  if (!Owns(p)) return __libc_realloc(p, size);
  if (size <= Capacity(p)) return p;
  void* q = AllocateOrFail(size, 16);
  if (q == nullptr) return nullptr;
  std::memcpy(q, p, Capacity(p));
  Release(p);
  return q;
}

void* memalign(size_t alignment, size_t size) {
  return g_engine ? AllocateOrFail(size, alignment) : __libc_memalign(alignment, size);
}

void* aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void** out, size_t alignment, size_t size) {
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

void* valloc(size_t size) { return memalign(4096, size); }

void* pvalloc(size_t size) { return memalign(4096, (size + 4095) & ~size_t{4095}); }
}
