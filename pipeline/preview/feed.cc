// PlaybackFeed: the real-time side of the preview. Pull() runs inside the
// audio callback: atomics and memcpy only, no allocation, lock or I/O.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "preview/preview.h"

namespace narrate {
namespace {

// Taken when the library is initialized, i.e. before main().
const int64_t g_process_start_ns = MonotonicNs();

}  // namespace

int64_t MonotonicNs() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);  // vDSO: no lock, no allocation
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int64_t ProcessStartNs() { return g_process_start_ns; }

Timbre ScaledTimbre(const Timbre& timbre, int rate_percent) {
  Timbre t = timbre;
  const long scaled = (static_cast<long>(timbre.rate) * rate_percent + 50) / 100;
  t.rate = static_cast<int>(std::clamp<long>(scaled, 80, 450));
  return t;
}

PlaybackFeed::PlaybackFeed(size_t ring_capacity) : ring_(ring_capacity) {}

bool PlaybackFeed::Pull(int16_t* out, size_t n) {
  pulls_.fetch_add(1, std::memory_order_relaxed);
  if (discard_.load(std::memory_order_acquire)) {
    ring_.DiscardAll();
    flowing_.store(false, std::memory_order_relaxed);
    discard_.store(false, std::memory_order_release);
  }
  if (limit_reached_.load(std::memory_order_relaxed)) {
    std::memset(out, 0, n * sizeof(int16_t));
    return false;
  }
  if (paused_.load(std::memory_order_relaxed)) {
    std::memset(out, 0, n * sizeof(int16_t));
    return true;
  }
  size_t want = n;
  const int64_t limit = limit_.load(std::memory_order_relaxed);
  const int64_t played = played_.load(std::memory_order_relaxed);
  if (limit > 0) want = static_cast<size_t>(std::min<int64_t>(want, limit - played));
  const size_t got = ring_.Read(out, want);
  std::memset(out + got, 0, (n - got) * sizeof(int16_t));
  if (got > 0) {
    played_.store(played + static_cast<int64_t>(got), std::memory_order_relaxed);
    flowing_.store(true, std::memory_order_relaxed);
    if (first_sound_ns_.load(std::memory_order_relaxed) == 0) {
      for (size_t i = 0; i < got; ++i) {
        if (out[i] != 0) {
          first_sound_ns_.store(MonotonicNs(), std::memory_order_relaxed);
          break;
        }
      }
    }
  }
  if (got < want && flowing_.load(std::memory_order_relaxed) &&
      !producer_done_.load(std::memory_order_acquire)) {
    underruns_.fetch_add(1, std::memory_order_relaxed);
  }
  if (limit > 0 && played + static_cast<int64_t>(got) >= limit) {
    limit_reached_.store(true, std::memory_order_release);
    return false;
  }
  return true;
}

}  // namespace narrate
