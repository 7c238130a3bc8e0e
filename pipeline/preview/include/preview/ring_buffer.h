// A lock-free single-producer single-consumer ring buffer of int16 samples:
// the only thing the real-time audio callback reads from.
//
// Thread-safety: exactly one producer thread may call Write() and exactly one
// consumer thread (the audio callback) may call Read() and DiscardAll(); the
// index accessors may be called from any thread. No call allocates, locks or
// blocks, so Read() is safe inside a PortAudio callback.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace narrate {

class SampleRing {
 public:
  // `capacity` samples, rounded up to a power of two (at least 2).
  explicit SampleRing(size_t capacity) {
    size_t size = 2;
    while (size < capacity) size <<= 1;
    buffer_.assign(size, 0);
    mask_ = size - 1;
  }
  SampleRing(const SampleRing&) = delete;
  SampleRing& operator=(const SampleRing&) = delete;

  size_t capacity() const { return buffer_.size(); }

  // Producer: copies up to `n` samples in; returns how many fitted.
  size_t Write(const int16_t* data, size_t n) {
    const uint64_t w = write_.load(std::memory_order_relaxed);
    const uint64_t r = read_.load(std::memory_order_acquire);
    const size_t free_space = capacity() - static_cast<size_t>(w - r);
    n = std::min(n, free_space);
    CopyIn(w, data, n);
    write_.store(w + n, std::memory_order_release);
    return n;
  }

  // Producer: writes up to `n` zero samples; returns how many fitted.
  size_t WriteSilence(size_t n) {
    const uint64_t w = write_.load(std::memory_order_relaxed);
    const uint64_t r = read_.load(std::memory_order_acquire);
    n = std::min(n, capacity() - static_cast<size_t>(w - r));
    for (size_t done = 0; done < n;) {
      const size_t at = static_cast<size_t>((w + done) & mask_);
      const size_t run = std::min(n - done, capacity() - at);
      std::memset(&buffer_[at], 0, run * sizeof(int16_t));
      done += run;
    }
    write_.store(w + n, std::memory_order_release);
    return n;
  }

  // Consumer: copies up to `n` samples out; returns how many there were.
  size_t Read(int16_t* out, size_t n) {
    const uint64_t r = read_.load(std::memory_order_relaxed);
    const uint64_t w = write_.load(std::memory_order_acquire);
    n = std::min(n, static_cast<size_t>(w - r));
    for (size_t done = 0; done < n;) {
      const size_t at = static_cast<size_t>((r + done) & mask_);
      const size_t run = std::min(n - done, capacity() - at);
      std::memcpy(out + done, &buffer_[at], run * sizeof(int16_t));
      done += run;
    }
    read_.store(r + n, std::memory_order_release);
    return n;
  }

  // Consumer: drops everything written so far; returns how many samples.
  size_t DiscardAll() {
    const uint64_t r = read_.load(std::memory_order_relaxed);
    const uint64_t w = write_.load(std::memory_order_acquire);
    read_.store(w, std::memory_order_release);
    return static_cast<size_t>(w - r);
  }

  // Samples ever read (or discarded) and ever written: positions on one
  // monotonic stream timeline, in samples.
  uint64_t read_index() const { return read_.load(std::memory_order_acquire); }
  uint64_t write_index() const { return write_.load(std::memory_order_acquire); }
  // Samples waiting to be read.
  size_t size() const {
    const uint64_t r = read_index();  // first: r <= any later write index
    return static_cast<size_t>(write_index() - r);
  }

 private:
  void CopyIn(uint64_t w, const int16_t* data, size_t n) {
    for (size_t done = 0; done < n;) {
      const size_t at = static_cast<size_t>((w + done) & mask_);
      const size_t run = std::min(n - done, capacity() - at);
      std::memcpy(&buffer_[at], data + done, run * sizeof(int16_t));
      done += run;
    }
  }

  std::vector<int16_t> buffer_;
  size_t mask_ = 1;
  alignas(64) std::atomic<uint64_t> read_{0};   // written by the consumer only
  alignas(64) std::atomic<uint64_t> write_{0};  // written by the producer only
};

}  // namespace narrate
