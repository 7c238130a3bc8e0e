// Private to assemble: mastering of one file's audio as it streams by, once
// per file (never per sentence). Deterministic. Not thread-safe.
#pragma once

#include <ebur128.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "assemble/assemble.h"
#include "qc.h"

namespace narrate {
namespace assemble_internal {

struct MasterOptions {
  double target_rms_db = -20.0;  // dBFS over the whole file (ACX: -23..-18)
  double ceiling_db = -3.2;      // the limiter keeps peaks, between samples too, under this
  double clip_db = -3.0;         // and no output sample exceeds this (ACX: -3)
  int lookahead_ms = 3;          // the limiter starts reducing before a peak
  int release_ms = 60;           // and recovers after it
};

template <typename T>
class BlockStage;

// One file's audio in, at the clips' rate, in order: mastered, resampled and
// measured on the way out. The whole file's mean square is known before it
// starts (from the clips), so one gain brings it to the target RMS; a
// look-ahead limiter keeps the peaks under the ceiling, including the peaks
// the output rate will show between input samples; the loudness (EBU R 128,
// libebur128) is measured on the mastered signal; libsoxr resamples it to the
// output rate; the int16 result goes to `sink` in blocks, and its QC figures
// (RMS, peak, noise floor, silences) are measured as it goes. A last-resort
// clip keeps every output sample within the peak limit. The limiter runs on
// the caller's thread; the loudness measurement, and the resampling with the
// clipping, QC and sink, are two stages that run as tasks on `pool` (see
// BlockStage; without a pool, on the caller's thread): the sink is called
// one block at a time, in order, and Finish() returns once it is done.
//
// Memory stays a few blocks whatever the length of the file.
class StreamMaster {
 public:
  using Sink = std::function<Status(const std::vector<int16_t>&)>;

  // `mean_square`: of the whole input, full scale = 1.
  static StatusOr<std::unique_ptr<StreamMaster>> Create(int in_rate, int out_rate,
                                                        double mean_square,
                                                        const MasterOptions& options, Sink sink,
                                                        ThreadPool* pool = nullptr);
  ~StreamMaster();
  StreamMaster(const StreamMaster&) = delete;
  StreamMaster& operator=(const StreamMaster&) = delete;

  Status Add(const int16_t* samples, size_t count);
  Status AddSilence(size_t count);
  // Sends the rest to the sink; the QC figures of all it was sent (`file`
  // empty). Nothing may be added after.
  StatusOr<FileQc> Finish();

  // Output samples the last-resort clip at `clip_db` had to lower: the
  // limiter's estimate of the peaks between samples is close but not exact.
  int64_t clipped() const { return clipped_; }

 private:
  StreamMaster() = default;
  // Limits, measures, resamples and sends the first `count` pending samples.
  Status Emit(size_t count);
  // Resamples a limited block into out_ and sends it (on the output stage).
  Status Resample(const std::vector<float>& block);
  // Clips, measures and sends out_.
  Status Send();

  int in_rate_ = 0;
  float gain_ = 1;
  float ceiling_ = 1;
  float attack_ = 1;  // per-sample coefficients of the limiter's gain
  float release_ = 1;
  size_t margin_ = 0;    // look-ahead the limiter needs to settle, in samples
  float carried_ = 1;    // the limiter's gain after the last emitted sample
  float last_need_ = 1;  // the gain the last emitted group needed
  int clip_ = 32767;     // the largest output sample allowed
  int64_t clipped_ = 0;
  // Gained input not yet emitted, after kHistory samples already emitted.
  std::vector<float> pending_;
  std::vector<float> peak_;                  // per sample of a block and its look-ahead
  std::vector<float> need_, eased_, gains_;  // per group, per group boundary
  std::vector<int16_t> out_;
  ebur128_state* loudness_state_ = nullptr;
  std::unique_ptr<BlockStage<float>> loudness_;  // measures the limited signal
  std::unique_ptr<BlockStage<float>> output_;    // resamples, clips, measures, sends
  void* resampler_ = nullptr;                    // soxr_t
  std::unique_ptr<QcMeter> qc_;
  Sink sink_;
};

}  // namespace assemble_internal
}  // namespace narrate
