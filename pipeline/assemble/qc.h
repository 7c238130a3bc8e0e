// Private to assemble: QC figures of one file, measured as its samples stream
// by (ACX-style checks). Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "assemble/assemble.h"

namespace narrate {
namespace assemble_internal {

class QcMeter {
 public:
  explicit QcMeter(int sample_rate);
  void Add(const int16_t* samples, size_t count);
  // The figures; the loudness is measured elsewhere (see StreamMaster).
  FileQc Finish(const std::string& file, double loudness_lufs) const;

 private:
  int rate_;
  int64_t count_ = 0;
  int64_t sum_squares_ = 0;
  int peak_ = 0;
  int64_t window_sum_ = 0;  // sum of squares of the current 500 ms window
  int64_t window_count_ = 0;
  int64_t quietest_ = -1;     // sum of squares of the quietest full window
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
