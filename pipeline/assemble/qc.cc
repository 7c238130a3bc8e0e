// Streaming QC measurement for the assemble stage.
#include "assemble/qc.h"

#include <cmath>
#include <cstdio>

namespace narrate {
namespace assemble_internal {
namespace {

constexpr int kSilence = 33;  // |sample| below this is silence (-60 dBFS)

double PowerDb(double power) { return power <= 1e-12 ? -120.0 : 10.0 * std::log10(power); }

std::string Fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

}  // namespace

QcMeter::QcMeter(int sample_rate) : rate_(sample_rate) {
  loudness_ = ebur128_init(1, static_cast<unsigned long>(sample_rate), EBUR128_MODE_I);
}

QcMeter::~QcMeter() {
  if (loudness_ != nullptr) ebur128_destroy(&loudness_);
}

void QcMeter::Add(const std::vector<int16_t>& samples) {
  const int64_t window = rate_ / 2;
  for (size_t i = 0; i < samples.size(); ++i) {
    const int s = samples[i];
    const double x = s / 32768.0;
    sum_squares_ += x * x;
    peak_ = std::max(peak_, std::abs(s));
    if (std::abs(s) >= kSilence) {
      if (first_sound_ < 0) first_sound_ = count_ + static_cast<int64_t>(i);
      last_sound_ = count_ + static_cast<int64_t>(i);
    }
    window_sum_ += x * x;
    if (++window_count_ == window) {
      const double mean = window_sum_ / window;
      if (quietest_ < 0 || mean < quietest_) quietest_ = mean;
      window_sum_ = 0;
      window_count_ = 0;
    }
  }
  if (loudness_ != nullptr && !samples.empty()) {
    ebur128_add_frames_short(loudness_, samples.data(), samples.size());
  }
  count_ += static_cast<int64_t>(samples.size());
}

FileQc QcMeter::Finish(const std::string& file) const {
  FileQc qc;
  qc.file = file;
  auto ms = [&](int64_t samples) { return SamplesToMs(samples, rate_); };
  qc.duration_ms = ms(count_);
  qc.rms_db = PowerDb(count_ ? sum_squares_ / count_ : 0);
  qc.peak_db = peak_ == 0 ? -120.0 : 20.0 * std::log10(peak_ / 32768.0);
  qc.noise_floor_db = PowerDb(quietest_ < 0 ? 0 : quietest_);
  qc.head_silence_ms = first_sound_ < 0 ? qc.duration_ms : ms(first_sound_);
  qc.tail_silence_ms = last_sound_ < 0 ? qc.duration_ms : ms(count_ - 1 - last_sound_);
  double lufs = -HUGE_VAL;
  if (loudness_ != nullptr && ebur128_loudness_global(loudness_, &lufs) == EBUR128_SUCCESS &&
      std::isfinite(lufs)) {
    qc.loudness_lufs = lufs;
  } else {
    qc.loudness_lufs = -120.0;
  }
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
