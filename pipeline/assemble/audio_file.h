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

// Metadata written into every file (UTF-8).
struct AudioTags {
  std::string title;     // the chapter title, or the book title for the book file
  std::string album;     // the book title
  std::string artist;    // the author
  std::string narrator;  // e.g. "eSpeak NG"
  std::string language;  // "zh", "sk"
  int track = 0;         // 1-based chapter number; 0: none (the book file)
  int track_total = 0;
};

// A chapter mark in the whole-book file.
struct ChapterMark {
  int64_t start_frame = 0;  // samples at the writer's input rate
  int64_t end_frame = 0;
  std::string title;
};

// An audio file being written to `path + ".part"`, renamed by Commit().
// Destroying it uncommitted removes the partial file.
class AudioWriter {
 public:
  // `format` is one of kFormats. `sample_rate` is the rate of the samples given
  // to Write(). IoError naming the path when it cannot open.
  static StatusOr<std::unique_ptr<AudioWriter>> Open(const std::string& path,
                                                     const std::string& format,
                                                     int sample_rate,
                                                     const AudioTags& tags);
  ~AudioWriter();
  Status Write(const std::vector<int16_t>& samples);
  // Chapter marks of the whole-book file (WAV cue points).
  void AddChapter(const ChapterMark& mark) { chapters_.push_back(mark); }
  Status Commit();

 private:
  AudioWriter() = default;
  std::string path_;
  std::string part_;
  SNDFILE* file_ = nullptr;
  std::vector<ChapterMark> chapters_;
  bool wav_ = false;
};

// The audio formats narrate writes; the file extension is the format name.
bool IsKnownFormat(const std::string& name);

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
