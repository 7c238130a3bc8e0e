// SampleRing: capacity, wraparound, and one producer and one consumer thread
// passing a long numbered sequence without loss or duplication.
#include "preview/ring_buffer.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace narrate {
namespace {

TEST(SampleRing, CapacityIsRoundedUpToAPowerOfTwo) {
  EXPECT_EQ(SampleRing(1000).capacity(), 1024u);
  EXPECT_EQ(SampleRing(1024).capacity(), 1024u);
  EXPECT_EQ(SampleRing(1).capacity(), 2u);
}

TEST(SampleRing, ReadsBackWhatWasWritten) {
  SampleRing ring(8);
  const int16_t in[] = {1, -2, 3};
  EXPECT_EQ(ring.Write(in, 3), 3u);
  EXPECT_EQ(ring.size(), 3u);
  int16_t out[3] = {};
  EXPECT_EQ(ring.Read(out, 3), 3u);
  EXPECT_EQ(std::vector<int16_t>(out, out + 3), std::vector<int16_t>(in, in + 3));
  EXPECT_EQ(ring.size(), 0u);
}

TEST(SampleRing, WriteStopsWhenFull) {
  SampleRing ring(4);
  const int16_t in[] = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(ring.Write(in, 6), 4u);
  EXPECT_EQ(ring.Write(in, 1), 0u);
}

TEST(SampleRing, ReadStopsWhenEmpty) {
  SampleRing ring(4);
  int16_t out[4];
  EXPECT_EQ(ring.Read(out, 4), 0u);
  const int16_t in[] = {7};
  ring.Write(in, 1);
  EXPECT_EQ(ring.Read(out, 4), 1u);
  EXPECT_EQ(out[0], 7);
}

TEST(SampleRing, WrapsAroundTheEnd) {
  SampleRing ring(4);
  const int16_t a[] = {1, 2, 3};
  int16_t out[4];
  ring.Write(a, 3);
  ring.Read(out, 2);  // read index 2
  const int16_t b[] = {4, 5, 6};
  EXPECT_EQ(ring.Write(b, 3), 3u);  // indices 3, 4, 5: wraps to slots 0, 1
  EXPECT_EQ(ring.Read(out, 4), 4u);
  EXPECT_EQ(std::vector<int16_t>(out, out + 4), (std::vector<int16_t>{3, 4, 5, 6}));
}

TEST(SampleRing, SilenceIsZeros) {
  SampleRing ring(4);
  const int16_t a[] = {9, 9, 9, 9};
  int16_t out[4];
  ring.Write(a, 4);
  ring.Read(out, 4);
  EXPECT_EQ(ring.WriteSilence(3), 3u);
  EXPECT_EQ(ring.Read(out, 4), 3u);
  EXPECT_EQ(std::vector<int16_t>(out, out + 3), (std::vector<int16_t>{0, 0, 0}));
}

TEST(SampleRing, IndicesAreMonotonicStreamPositions) {
  SampleRing ring(4);
  const int16_t a[] = {1, 2, 3};
  int16_t out[3];
  for (int i = 0; i < 5; ++i) {
    ring.Write(a, 3);
    ring.Read(out, 3);
  }
  EXPECT_EQ(ring.write_index(), 15u);
  EXPECT_EQ(ring.read_index(), 15u);
}

TEST(SampleRing, DiscardDropsEverythingBuffered) {
  SampleRing ring(8);
  const int16_t a[] = {1, 2, 3, 4, 5};
  ring.Write(a, 5);
  EXPECT_EQ(ring.DiscardAll(), 5u);
  EXPECT_EQ(ring.size(), 0u);
  const int16_t b[] = {6};
  ring.Write(b, 1);
  int16_t out[2];
  EXPECT_EQ(ring.Read(out, 2), 1u);
  EXPECT_EQ(out[0], 6);
}

// A producer writes 0, 1, 2, ... (mod 2^15) in odd-sized chunks; a consumer
// reads in other odd sizes: every value arrives once, in order.
TEST(SampleRing, TwoThreadsPassASequenceWithoutLossOrDuplication) {
  constexpr int64_t kTotal = 3000000;
  SampleRing ring(1024);
  std::thread producer([&] {
    std::vector<int16_t> chunk(97);
    int64_t next = 0;
    while (next < kTotal) {
      const size_t n = static_cast<size_t>(std::min<int64_t>(97, kTotal - next));
      for (size_t i = 0; i < n; ++i) chunk[i] = static_cast<int16_t>((next + i) & 0x7fff);
      size_t done = 0;
      while (done < n) {
        done += ring.Write(chunk.data() + done, n - done);
        if (done < n) std::this_thread::yield();
      }
      next += n;
    }
  });
  int64_t expected = 0, errors = 0;
  std::vector<int16_t> out(131);
  while (expected < kTotal) {
    const size_t n = ring.Read(out.data(), out.size());
    if (n == 0) std::this_thread::yield();
    for (size_t i = 0; i < n; ++i) {
      if (out[i] != static_cast<int16_t>(expected & 0x7fff)) ++errors;
      ++expected;
    }
  }
  producer.join();
  EXPECT_EQ(errors, 0);
  EXPECT_EQ(expected, kTotal);
  EXPECT_EQ(ring.size(), 0u);
  EXPECT_EQ(ring.read_index(), static_cast<uint64_t>(kTotal));
}

}  // namespace
}  // namespace narrate
