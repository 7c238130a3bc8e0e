// Streaming QC measurement for the assemble stage.
#include "qc.h"
#include "samples.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace narrate {
namespace assemble_internal {
namespace {

constexpr int kSilence = 33;  // |sample| below this is silence (-60 dBFS)

double PowerDb(double power) { return power <= 1e-12 ? -120.0 : 10.0 * std::log10(power); }

// The sum of squares and the largest magnitude of `n` samples, exactly.
struct Energy {
  int64_t squares = 0;
  int peak = 0;
};

Energy Measure(const int16_t* s, size_t n) {
  Energy e;
  size_t k = 0;
#if defined(__SSE2__)
  // Eight samples a step: pmaddwd sums the squares of pairs (at most 2^31,
  // exact as unsigned 32-bit), widened to 64-bit sums; the extremes by
  // min/max (the magnitude of -32768 does not fit 16 bits). About six times
  // fewer instructions than the compiler's own loop.
  __m128i sums = _mm_setzero_si128(), least = _mm_setzero_si128(), most = _mm_setzero_si128();
  const __m128i zero = _mm_setzero_si128();
  for (; k + 8 <= n; k += 8) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k));
    const __m128i pairs = _mm_madd_epi16(v, v);
    sums = _mm_add_epi64(sums, _mm_unpacklo_epi32(pairs, zero));
    sums = _mm_add_epi64(sums, _mm_unpackhi_epi32(pairs, zero));
    least = _mm_min_epi16(least, v);
    most = _mm_max_epi16(most, v);
  }
  alignas(16) uint64_t lanes[2];
  alignas(16) int16_t lows[8], highs[8];
  _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sums);
  _mm_store_si128(reinterpret_cast<__m128i*>(lows), least);
  _mm_store_si128(reinterpret_cast<__m128i*>(highs), most);
  e.squares = static_cast<int64_t>(lanes[0] + lanes[1]);
  for (int j = 0; j < 8; ++j) e.peak = std::max({e.peak, -int{lows[j]}, int{highs[j]}});
#endif
  for (; k < n; ++k) {
    const int v = s[k];
    e.squares += v * v;
    e.peak = std::max(e.peak, std::abs(v));
  }
  return e;
}

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

QcMeter::QcMeter(int sample_rate) : rate_(sample_rate) {}

void QcMeter::Add(const int16_t* samples, size_t count) {
  const int64_t window = rate_ / 2;
  for (size_t i = 0; i < count;) {
    // Up to the end of the current 500 ms window, in integers (exact).
    const size_t n = std::min<size_t>(count - i, static_cast<size_t>(window - window_count_));
    const auto [squares, peak] = Measure(samples + i, n);
    sum_squares_ += squares;
    window_sum_ += squares;
    window_count_ += static_cast<int64_t>(n);
    peak_ = std::max(peak_, peak);
    if (peak >= kSilence) {
      size_t first = i;
      while (std::abs(int{samples[first]}) < kSilence) ++first;
      size_t last = i + n - 1;
      while (std::abs(int{samples[last]}) < kSilence) --last;
      // count_ is the position of samples[i].
      if (first_sound_ < 0) first_sound_ = count_ + static_cast<int64_t>(first - i);
      last_sound_ = count_ + static_cast<int64_t>(last - i);
    }
    if (window_count_ == window) {
      if (quietest_ < 0 || window_sum_ < quietest_) quietest_ = window_sum_;
      window_sum_ = 0;
      window_count_ = 0;
    }
    count_ += static_cast<int64_t>(n);
    i += n;
  }
}

FileQc QcMeter::Finish(const std::string& file, double loudness_lufs) const {
  constexpr double kFullScale = 32768.0 * 32768.0;
  FileQc qc;
  qc.file = file;
  auto ms = [&](int64_t samples) { return SamplesToMs(samples, rate_); };
  qc.duration_ms = ms(count_);
  qc.rms_db = PowerDb(count_ ? static_cast<double>(sum_squares_) / count_ / kFullScale : 0);
  qc.peak_db = peak_ == 0 ? -120.0 : 20.0 * std::log10(peak_ / 32768.0);
  qc.noise_floor_db =
      PowerDb(quietest_ < 0 ? 0 : static_cast<double>(quietest_) / (rate_ / 2) / kFullScale);
  qc.head_silence_ms = first_sound_ < 0 ? qc.duration_ms : ms(first_sound_);
  qc.tail_silence_ms = last_sound_ < 0 ? qc.duration_ms : ms(count_ - 1 - last_sound_);
  qc.loudness_lufs = loudness_lufs;
  return qc;
}

FileQc JoinQc(const std::vector<FileQc>& parts, const std::string& file) {
  FileQc all;
  all.file = file;
  if (parts.empty()) return all;
  double power = 0, loudness = 0;
  all.peak_db = -120.0;
  all.noise_floor_db = 0.0;
  for (const FileQc& p : parts) {
    all.duration_ms += p.duration_ms;
    power += std::pow(10.0, p.rms_db / 10) * p.duration_ms;
    loudness += std::pow(10.0, p.loudness_lufs / 10) * p.duration_ms;
    all.peak_db = std::max(all.peak_db, p.peak_db);
    all.noise_floor_db = std::min(all.noise_floor_db, p.noise_floor_db);
  }
  const double ms = std::max<int64_t>(1, all.duration_ms);
  all.rms_db = PowerDb(power / ms);
  all.loudness_lufs = PowerDb(loudness / ms);
  all.head_silence_ms = parts.front().head_silence_ms;
  all.tail_silence_ms = parts.back().tail_silence_ms;
  return all;
}

std::vector<std::string> QcFailures(const FileQc& qc) {
  std::vector<std::string> failures;
  if (qc.rms_db < -23 || qc.rms_db > -18) {
    failures.push_back("RMS " + Fixed(qc.rms_db) + " dB is outside -23..-18 dB");
  }
  if (qc.peak_db > -3) failures.push_back("peak " + Fixed(qc.peak_db) + " dBFS is above -3 dBFS");
  if (qc.noise_floor_db > -60) {
    failures.push_back("noise floor " + Fixed(qc.noise_floor_db) + " dB is above -60 dB");
  }
  if (qc.head_silence_ms < 500 || qc.head_silence_ms > 1000) {
    failures.push_back("head silence " + std::to_string(qc.head_silence_ms) +
                       " ms is outside 500-1000 ms");
  }
  if (qc.tail_silence_ms < 1000 || qc.tail_silence_ms > 5000) {
    failures.push_back("tail silence " + std::to_string(qc.tail_silence_ms) +
                       " ms is outside 1000-5000 ms");
  }
  if (qc.duration_ms > 120 * 60 * 1000) failures.push_back("longer than 120 minutes");
  return failures;
}

}  // namespace assemble_internal
}  // namespace narrate
