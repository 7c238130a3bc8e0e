// libsndfile writing and QC measurement for the assemble stage.
#include "assemble/audio_file.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace narrate {
namespace assemble_internal {

namespace {

bool LookupFormat(const std::string& name, int* sf_format) {
  if (name == "wav") {
    *sf_format = SF_FORMAT_WAV | SF_FORMAT_PCM_16;
  } else if (name == "flac") {
    *sf_format = SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool IsKnownFormat(const std::string& name) {
  int unused;
  return LookupFormat(name, &unused);
}

StatusOr<std::unique_ptr<AudioWriter>> AudioWriter::Open(
    const std::string& path, const std::string& format, int sample_rate,
    const AudioTags& tags) {
  SF_INFO info = {};
  info.samplerate = sample_rate;
  info.channels = 1;
  if (!LookupFormat(format, &info.format)) {
    return Status::Usage("unsupported audio format '" + format + "'");
  }
  std::unique_ptr<AudioWriter> w(new AudioWriter());
  w->path_ = path;
  w->part_ = path + ".part";
  w->wav_ = format == "wav";
  w->file_ = sf_open(w->part_.c_str(), SFM_WRITE, &info);
  if (w->file_ == nullptr) {
    return Status::IoError(path + ": cannot write: " + sf_strerror(nullptr));
  }
  // Strings must be set before the first write (FLAC Vorbis comments are UTF-8).
  if (!tags.title.empty()) sf_set_string(w->file_, SF_STR_TITLE, tags.title.c_str());
  if (!tags.artist.empty()) sf_set_string(w->file_, SF_STR_ARTIST, tags.artist.c_str());
  if (!tags.album.empty()) sf_set_string(w->file_, SF_STR_ALBUM, tags.album.c_str());
  return w;
}

AudioWriter::~AudioWriter() {
  if (file_ != nullptr) {
    sf_close(file_);
    ::unlink(part_.c_str());
  }
}

Status AudioWriter::Write(const std::vector<int16_t>& samples) {
  sf_count_t n = sf_write_short(file_, samples.data(),
                                static_cast<sf_count_t>(samples.size()));
  if (n != static_cast<sf_count_t>(samples.size())) {
    return Status::IoError(path_ + ": write failed: " + sf_strerror(file_));
  }
  return Status::Ok();
}

Status AudioWriter::Commit() {
  if (wav_ && !chapters_.empty()) {
    SF_CUES cues = {};
    cues.cue_count = 0;
    for (const ChapterMark& mark : chapters_) {
      const int64_t frame = mark.start_frame;
      if (cues.cue_count >= 100) break;
      SF_CUE_POINT& p = cues.cue_points[cues.cue_count];
      p.indx = static_cast<int32_t>(cues.cue_count + 1);
      p.position = static_cast<uint32_t>(frame);
      p.fcc_chunk = 0x61746164;  // "data"
      p.sample_offset = static_cast<uint32_t>(frame);
      ++cues.cue_count;
    }
    sf_command(file_, SFC_SET_CUE, &cues, sizeof cues);
  }
  sf_write_sync(file_);
  int closed = sf_close(file_);
  file_ = nullptr;
  if (closed != 0 || std::rename(part_.c_str(), path_.c_str()) != 0) {
    ::unlink(part_.c_str());
    return Status::IoError(path_ + ": cannot finish writing");
  }
  return Status::Ok();
}

void QcMeter::Add(const std::vector<int16_t>& samples) {
  const int64_t window = rate_ / 2;
  for (int16_t s : samples) {
    const double x = s / 32768.0;
    sum_squares_ += x * x;
    peak_ = std::max(peak_, std::abs(static_cast<int>(s)));
    window_sum_ += x * x;
    if (++window_count_ == window) {
      const double mean = window_sum_ / window;
      if (quietest_ < 0 || mean < quietest_) quietest_ = mean;
      window_sum_ = 0;
      window_count_ = 0;
    }
  }
  count_ += static_cast<int64_t>(samples.size());
}

FileQc QcMeter::Finish(const std::string& file) const {
  auto db = [](double power) {
    return power <= 1e-12 ? -120.0 : 10.0 * std::log10(power);
  };
  FileQc qc;
  qc.file = file;
  qc.duration_ms = (count_ * 1000 + rate_ / 2) / rate_;
  qc.rms_db = db(count_ ? sum_squares_ / count_ : 0);
  qc.peak_db = peak_ == 0 ? -120.0 : 20.0 * std::log10(peak_ / 32768.0);
  qc.noise_floor_db = db(quietest_ < 0 ? 0 : quietest_);
  return qc;
}

}  // namespace assemble_internal
}  // namespace narrate
