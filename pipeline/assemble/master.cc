// StreamMaster: gain, true-peak-aware look-ahead limiter, loudness, resampling
// and QC in one pass over a file's audio.
//
// The limiter works at the input rate, on groups of 8 samples. For each group
// it takes the loudest of its samples and of estimates of the peaks half-way
// to the next sample (an 8-tap half-band interpolator: the points the 2x
// output rate adds), and the gain that keeps that under the ceiling. The gain
// is set at group boundaries, to suit both groups a boundary joins, and moves
// in a straight line within a group, so every sample gets at most the gain it
// needs. It is eased in before a peak (a backward pass, so the limiter looks
// ahead) and out after it (a forward pass). Blocks are processed with a
// margin of look-ahead long enough for the backward pass to settle (its
// influence decays by (1 - 1/lookahead) a sample: after 12 lookaheads it is
// below 1e-5).
#include "master.h"

#include <ebur128.h>
#include <soxr.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "block_stage.h"

namespace narrate {
namespace assemble_internal {
namespace {

constexpr size_t kBlock = 1 << 17;  // input samples emitted at a time (6 s)
constexpr size_t kGroup = 8;        // the limiter sets its gain every 8 samples
constexpr size_t kHistory = 3;      // samples the interpolator reads behind
constexpr size_t kFuture = 4;       // and ahead

// The half-band interpolator: a Hann-windowed sinc at offsets 0.5 .. 3.5,
// scaled so that it passes DC unchanged.
constexpr float kTap0 = 0.61062f, kTap1 = -0.14628f, kTap2 = 0.03919f, kTap3 = -0.00353f;

soxr_t Resampler(void* p) { return static_cast<soxr_t>(p); }

}  // namespace

StatusOr<std::unique_ptr<StreamMaster>> StreamMaster::Create(int in_rate, int out_rate,
                                                             double mean_square,
                                                             const MasterOptions& options,
                                                             Sink sink, ThreadPool* pool) {
  std::unique_ptr<StreamMaster> m(new StreamMaster());
  m->in_rate_ = in_rate;
  m->gain_ =
      mean_square > 0
          ? static_cast<float>(std::pow(10.0, options.target_rms_db / 20) / std::sqrt(mean_square))
          : 1.0f;
  m->ceiling_ = static_cast<float>(std::pow(10.0, options.ceiling_db / 20));
  m->clip_ = static_cast<int>(32768 * std::pow(10.0, options.clip_db / 20));
  const size_t lookahead =
      std::max<size_t>(1, static_cast<size_t>(in_rate) * options.lookahead_ms / 1000);
  const size_t release =
      std::max<size_t>(1, static_cast<size_t>(in_rate) * options.release_ms / 1000);
  // Per group: (1 - 1/n) a sample, compounded over a group.
  m->attack_ = static_cast<float>(1 - std::pow(1 - 1.0 / lookahead, kGroup));
  m->release_ = static_cast<float>(1 - std::pow(1 - 1.0 / release, kGroup));
  m->margin_ = (13 * lookahead + kGroup - 1) / kGroup * kGroup;
  m->pending_.assign(kHistory, 0.0f);
  m->sink_ = std::move(sink);
  m->loudness_state_ = ebur128_init(1, static_cast<unsigned long>(in_rate), EBUR128_MODE_I);
  if (m->loudness_state_ == nullptr) {
    return Status::Failure("cannot measure loudness (libebur128)");
  }
  if (out_rate != in_rate) {
    soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_INT16_I);
    io.flags |= SOXR_NO_DITHER;  // dither is random: same input, same output
    // HQ is 20-bit precise, more than the 16-bit output keeps.
    soxr_quality_spec_t quality = soxr_quality_spec(SOXR_HQ, 0);
    soxr_runtime_spec_t runtime = soxr_runtime_spec(1);  // one thread: deterministic
    soxr_error_t error = nullptr;
    m->resampler_ = soxr_create(in_rate, out_rate, 1, &error, &io, &quality, &runtime);
    if (error != nullptr) {
      return Status::Failure(std::string("cannot resample (libsoxr): ") + error);
    }
  }
  m->qc_ = std::make_unique<QcMeter>(out_rate);
  // Loudness, and resampling with what follows, each a stage of its own on
  // the pool: each costs about as much as the limiter, and a build often has
  // a core to spare.
  StreamMaster* raw = m.get();
  m->loudness_ = std::make_unique<BlockStage<float>>(pool, [raw](const std::vector<float>& block) {
    return ebur128_add_frames_float(raw->loudness_state_, block.data(), block.size()) ==
                   EBUR128_SUCCESS
               ? Status::Ok()
               : Status::Failure("loudness measurement failed (libebur128)");
  });
  m->output_ = std::make_unique<BlockStage<float>>(
      pool, [raw](const std::vector<float>& block) { return raw->Resample(block); });
  const size_t groups = (kBlock + m->margin_) / kGroup + 1;
  m->need_.resize(groups);
  m->peak_.resize(groups * kGroup);
  m->eased_.resize(groups + 1);
  m->gains_.resize(groups + 1);
  m->pending_.reserve(kHistory + kBlock + m->margin_ + kFuture + kBlock);
  return m;
}

StreamMaster::~StreamMaster() {
  output_.reset();  // the stages stop before what they use goes
  loudness_.reset();
  if (loudness_state_ != nullptr) ebur128_destroy(&loudness_state_);
  if (resampler_ != nullptr) soxr_delete(Resampler(resampler_));
}

Status StreamMaster::Add(const int16_t* samples, size_t count) {
  const float scale = gain_ / 32768.0f;
  while (count > 0) {
    const size_t ready = kBlock + margin_ + kFuture;
    const size_t have = pending_.size() - kHistory;
    const size_t take = std::min(count, ready > have ? ready - have : 0);
    const size_t at = pending_.size();
    pending_.resize(at + take);
    for (size_t i = 0; i < take; ++i) pending_[at + i] = samples[i] * scale;
    samples += take;
    count -= take;
    if (pending_.size() - kHistory >= ready) {
      Status s = Emit(kBlock);
      if (!s.ok()) return s;
    }
  }
  return Status::Ok();
}

Status StreamMaster::AddSilence(size_t count) {
  static const int16_t kZeros[4096] = {};
  while (count > 0) {
    const size_t n = std::min(count, sizeof kZeros / sizeof kZeros[0]);
    Status s = Add(kZeros, n);
    if (!s.ok()) return s;
    count -= n;
  }
  return Status::Ok();
}

Status StreamMaster::Emit(size_t count) {
  float* y = pending_.data() + kHistory;
  // The loudest peak of each group of samples, between samples included,
  // over the block and its look-ahead, and the gain the group needs. First
  // per sample (a loop the compiler vectorizes), then per group.
  const size_t span = std::min(count + margin_, pending_.size() - kHistory - kFuture);
  const size_t groups = (span + kGroup - 1) / kGroup;
  float* peak = peak_.data();
  for (size_t k = 0; k < span; ++k) {
    const float mid = kTap0 * (y[k] + y[k + 1]) + kTap1 * (y[k - 1] + y[k + 2]) +
                      kTap2 * (y[k - 2] + y[k + 3]) + kTap3 * (y[k - 3] + y[k + 4]);
    peak[k] = std::max(std::fabs(y[k]), std::fabs(mid));
  }
  std::fill(peak + span, peak + groups * kGroup, 0.0f);
  float loudest = 0;
  for (size_t g = 0; g < groups; ++g) {
    float group = 0;
    for (size_t j = 0; j < kGroup; ++j) group = std::max(group, peak[g * kGroup + j]);
    need_[g] = group > ceiling_ ? ceiling_ / group : 1.0f;
    loudest = std::max(loudest, group);
  }
  const size_t emitted = (count + kGroup - 1) / kGroup;
  if (loudest > ceiling_ || carried_ < 1.0f || last_need_ < 1.0f) {
    // The gain at each group boundary must suit both groups it joins. Ease
    // it in before peaks (backwards), out after them (forwards).
    float eased = 1.0f;
    for (size_t j = groups + 1; j-- > 0;) {
      const float before = j > 0 ? need_[j - 1] : last_need_;
      const float after = j < groups ? need_[j] : 1.0f;
      eased = std::min(std::min(before, after), eased + (1.0f - eased) * attack_);
      eased_[j] = eased;
    }
    gains_[0] = carried_;  // fixed by the previous block
    for (size_t j = 1; j <= emitted; ++j) {
      gains_[j] = std::min(eased_[j], gains_[j - 1] + (1.0f - gains_[j - 1]) * release_);
    }
    // Within a group the gain moves in a straight line between its boundaries.
    const size_t whole = count / kGroup;  // groups of kGroup samples
    for (size_t g = 0; g < emitted; ++g) {
      const float step = (gains_[g + 1] - gains_[g]) / kGroup;
      const size_t n = g < whole ? kGroup : count - g * kGroup;
      float* x = y + g * kGroup;
      if (n == kGroup) {
        for (size_t j = 0; j < kGroup; ++j) x[j] *= gains_[g] + step * static_cast<float>(j);
      } else {
        for (size_t j = 0; j < n; ++j) x[j] *= gains_[g] + step * static_cast<float>(j);
      }
    }
    carried_ = gains_[emitted];
    // The release approaches 1 without reaching it in float; a millionth
    // (-120 dB) short of it counts as recovered.
    if (carried_ > 1.0f - 1e-6f) carried_ = 1.0f;
  }
  last_need_ = need_[emitted - 1];
  Status s = loudness_->Add(y, count);
  if (s.ok()) s = output_->Add(y, count);
  // The last kHistory emitted samples stay as the interpolator's history.
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
  return s;
}

Status StreamMaster::Resample(const std::vector<float>& y) {
  const size_t count = y.size();
  if (resampler_ != nullptr) {
    out_.resize(count * 2 + 256);  // room for any rate up to twice the input
    size_t used = 0, made = 0;
    soxr_error_t error = soxr_process(Resampler(resampler_), y.data(), count, &used, out_.data(),
                                      out_.size(), &made);
    if (error != nullptr || used != count) {
      return Status::Failure(std::string("resampling failed (libsoxr): ") +
                             (error != nullptr ? error : "input left over"));
    }
    out_.resize(made);
  } else {
    out_.resize(count);
    for (size_t k = 0; k < count; ++k) {
      out_[k] = static_cast<int16_t>(std::clamp(std::lrint(y[k] * 32768.0f), -32768L, 32767L));
    }
  }
  return Send();
}

Status StreamMaster::Send() {
  if (out_.empty()) return Status::Ok();
  // The block's extremes first (a loop the compiler vectorizes); samples are
  // clipped and counted only if one is over, which the limiter makes rare.
  const auto hi = static_cast<int16_t>(clip_), lo = static_cast<int16_t>(-clip_);
  int16_t least = 0, most = 0;
  for (int16_t v : out_) {
    least = std::min(least, v);
    most = std::max(most, v);
  }
  if (least < lo || most > hi) {
    for (int16_t& v : out_) {
      if (v < lo || v > hi) {
        v = v > 0 ? hi : lo;
        ++clipped_;
      }
    }
  }
  qc_->Add(out_.data(), out_.size());
  return sink_(out_);
}

StatusOr<FileQc> StreamMaster::Finish() {
  // The look-ahead past the end is silence.
  size_t left = pending_.size() - kHistory;
  pending_.resize(pending_.size() + margin_ + kFuture, 0.0f);
  while (left > 0) {
    const size_t n = std::min(left, kBlock);
    Status s = Emit(n);
    if (!s.ok()) return s;
    left -= n;
  }
  Status drained = output_->Drain();  // the output stage is idle from here
  if (!drained.ok()) return drained;
  if (resampler_ != nullptr) {
    // Drain what the resampler still holds.
    for (;;) {
      out_.resize(kBlock);
      size_t made = 0;
      soxr_error_t error =
          soxr_process(Resampler(resampler_), nullptr, 0, nullptr, out_.data(), out_.size(), &made);
      if (error != nullptr) return Status::Failure(std::string("resampling failed: ") + error);
      if (made == 0) break;
      out_.resize(made);
      Status s = Send();
      if (!s.ok()) return s;
    }
  }
  drained = loudness_->Drain();
  if (!drained.ok()) return drained;
  double lufs = -HUGE_VAL;
  if (ebur128_loudness_global(loudness_state_, &lufs) != EBUR128_SUCCESS || !std::isfinite(lufs)) {
    lufs = -120.0;
  }
  return qc_->Finish("", lufs);
}

}  // namespace assemble_internal
}  // namespace narrate
