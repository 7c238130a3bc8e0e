// Private to assemble: QC figures of one file, measured as its samples stream
// by (ACX-style checks; loudness with libebur128). Not thread-safe.
#pragma once

#include <ebur128.h>

#include <cstdint>
#include <string>
#include <vector>

#include "assemble/assemble.h"

namespace narrate {
namespace assemble_internal {

class QcMeter {
 public:
  explicit QcMeter(int sample_rate);
  ~QcMeter();
  QcMeter(const QcMeter&) = delete;
  QcMeter& operator=(const QcMeter&) = delete;
  void Add(const std::vector<int16_t>& samples);
  FileQc Finish(const std::string& file) const;

 private:
  int rate_;
  ebur128_state* loudness_ = nullptr;
  int64_t count_ = 0;
  double sum_squares_ = 0;
  int peak_ = 0;
  double window_sum_ = 0;  // current 500 ms window
  int64_t window_count_ = 0;
  double quietest_ = -1;   // mean square of the quietest full window
  int64_t first_sound_ = -1;  // first sample above the silence threshold
  int64_t last_sound_ = -1;   // last one
};

// The figures of files played one after another (the whole-book file from its
// chapters), without measuring again: exact for duration, RMS, peak, noise
// floor and silences; the loudness is the duration-weighted power mean of the
// parts' integrated loudness (EBU R 128 gating is not repeated over the whole).
FileQc JoinQc(const std::vector<FileQc>& parts, const std::string& file);

// The ACX-style checks a file fails, as readable reasons; empty if it passes.
std::vector<std::string> QcFailures(const FileQc& qc);

}  // namespace assemble_internal
}  // namespace narrate
