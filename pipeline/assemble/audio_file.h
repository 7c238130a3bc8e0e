// Private to assemble: writing PCM with libsndfile behind a temporary name,
// and measuring QC figures.
#pragma once

#include <sndfile.h>

#include <memory>
#include <string>
#include <vector>

#include "assemble/assemble.h"

namespace narrate {
namespace assemble_internal {

// An audio file being written to `path + ".part"`, renamed by Commit().
// Destroying it uncommitted removes the partial file.
class AudioWriter {
 public:
  // `format` is "wav" or "flac". IoError naming the path when it cannot open.
  static StatusOr<std::unique_ptr<AudioWriter>> Open(
      const std::string& path, const std::string& format, int sample_rate,
      const std::string& title, const std::string& artist);
  ~AudioWriter();
  Status Write(const std::vector<int16_t>& samples);
  // WAV only: a cue point at `frame` (chapter marks of the book file).
  void AddCue(int64_t frame) { cues_.push_back(frame); }
  Status Commit();

 private:
  AudioWriter() = default;
  std::string path_;
  std::string part_;
  SNDFILE* file_ = nullptr;
  std::vector<int64_t> cues_;
  bool wav_ = false;
};

// File extension and libsndfile format of a format name; false if unknown.
bool LookupFormat(const std::string& name, int* sf_format);

// Accumulates QC figures over a stream of samples.
class QcMeter {
 public:
  explicit QcMeter(int sample_rate) : rate_(sample_rate) {}
  void Add(const std::vector<int16_t>& samples);
  FileQc Finish(const std::string& file) const;

 private:
  int rate_;
  int64_t count_ = 0;
  double sum_squares_ = 0;
  int peak_ = 0;
  double window_sum_ = 0;  // current 500 ms window
  int64_t window_count_ = 0;
  double quietest_ = -1;   // mean square of the quietest full window
};

}  // namespace assemble_internal
}  // namespace narrate
