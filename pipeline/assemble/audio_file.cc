// The assemble stage's audio writer (libsndfile encoders, libsoxr resampling,
// TagLib tags) and QC measurement. Thread-safety: see audio_file.h.
#include "audio_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "block_stage.h"
#include "encode_ogg.h"
#include "encode_resample.h"
#include "sndfile_library.h"
#include "tags_writer.h"

namespace narrate {
namespace assemble_internal {

namespace {

struct FormatSpec {
  const char* name;
  int sf_format;  // 0: written by narrate itself
  int file_rate;  // Hz; 0: the input rate
};

constexpr FormatSpec kFormatSpecs[] = {
    {"wav", 0, 0},
    {"flac", SF_FORMAT_FLAC | SF_FORMAT_PCM_16, 0},
    // 44.1 kHz: MPEG-1, so 192 kbps is allowed (MPEG-2 at 22050 Hz stops at
    // 160).
    {"mp3", SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III, 44100},
    // Opus in Ogg takes 8/12/16/24/48 kHz only.
    {"opus", SF_FORMAT_OGG | SF_FORMAT_OPUS, 48000},
};

constexpr int kMp3Kbps = 192;

// Writes all of `size` bytes at `offset`.
bool WriteAt(int fd, const char* data, size_t size, uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
    offset += static_cast<uint64_t>(n);
  }
  return true;
}

// The writers of narrate's TagLib module (tags_writer.h), loaded on the first
// call; null with `error` set when it cannot be.
const TagWriters* LoadTagWriters(std::string* error) {
  static std::string why;
  static const TagWriters* writers = [] {
    const std::string beside = BesideProgram("libnarrate-tags.so");
    SharedLibrary module({beside.empty() ? NARRATE_TAGS_MODULE : beside.c_str()},
                         "narrate's TagLib module", "libtag1v5");
    const TagWriters* w = nullptr;
    module.Bind(kTagWritersSymbol, &w);
    why = module.error();
    return w;
  }();
  *error = why;
  return writers;
}

const FormatSpec* LookupFormat(const std::string& name) {
  for (const FormatSpec& spec : kFormatSpecs) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

}  // namespace

bool IsKnownFormat(const std::string& name) { return LookupFormat(name) != nullptr; }

bool IsLossless(const std::string& format) { return format == "wav" || format == "flac"; }

Status ForEachBlock(const std::string& path, int sample_rate, int64_t frames,
                    const std::function<Status(const std::vector<int16_t>&)>& fn) {
  const LibSndfile& sf = Sndfile();
  if (!sf.error.empty()) return Status::Failure(path + ": " + sf.error);
  SF_INFO info = {};
  SNDFILE* f = sf.open(path.c_str(), SFM_READ, &info);
  if (f == nullptr) return Status::IoError(path + ": cannot read: " + sf.strerror(nullptr));
  if (info.channels != 1 || info.samplerate != sample_rate || info.frames != frames) {
    sf.close(f);
    return Status::DataError(path + ": not the audio this build expects");
  }
  std::vector<int16_t> block;
  Status s;
  for (int64_t left = frames; left > 0 && s.ok();) {
    block.resize(static_cast<size_t>(std::min<int64_t>(left, 1 << 16)));
    const sf_count_t got = sf.read_short(f, block.data(), static_cast<sf_count_t>(block.size()));
    if (got != static_cast<sf_count_t>(block.size())) {
      s = Status::IoError(path + ": read failed");
      break;
    }
    left -= got;
    s = fn(block);
  }
  sf.close(f);
  return s;
}

AudioWriter::AudioWriter() = default;

StatusOr<std::unique_ptr<AudioWriter>> AudioWriter::Open(const std::string& path,
                                                         const std::string& format, int sample_rate,
                                                         const AudioTags& tags, ThreadPool* pool) {
  const FormatSpec* spec = LookupFormat(format);
  if (spec == nullptr) return Status::Usage("unsupported audio format '" + format + "'");
  if (sample_rate <= 0) {
    return Status::Usage(path + ": bad sample rate " + std::to_string(sample_rate));
  }
  std::unique_ptr<AudioWriter> w(new AudioWriter());
  w->path_ = path;
  w->part_ = path + ".part";
  w->format_ = format;
  w->tags_ = tags;
  w->input_rate_ = sample_rate;
  w->file_rate_ = spec->file_rate != 0 ? spec->file_rate : sample_rate;
  if (w->file_rate_ != sample_rate) {
    auto resampler = StreamResampler::Create(sample_rate, w->file_rate_);
    if (!resampler.ok()) return Status::Failure(path + ": " + resampler.status().message());
    w->resampler_ = std::move(resampler).value();
  }
  if (spec->sf_format == 0) {
    // A file already there is opened before it is moved: one that cannot be
    // written stays where it is.
    w->wav_fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (w->wav_fd_ >= 0) {
      if (std::rename(path.c_str(), w->part_.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::close(w->wav_fd_);
        w->wav_fd_ = -1;
        return Status::IoError(path + ": cannot rewrite: " + why);
      }
    } else if (errno == ENOENT) {
      w->wav_fd_ = ::open(w->part_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    }
    if (w->wav_fd_ < 0) return Status::IoError(path + ": cannot write: " + std::strerror(errno));
    w->wav_end_ = kWavHeadBytes;
    return w;
  }
  if (!Sndfile().error.empty()) return Status::Failure(path + ": " + Sndfile().error);
  SF_INFO info = {};
  info.samplerate = w->file_rate_;
  info.channels = 1;
  info.format = spec->sf_format;
  w->file_ = Sndfile().open(w->part_.c_str(), SFM_WRITE, &info);
  if (w->file_ == nullptr) {
    return Status::IoError(path + ": cannot write: " + Sndfile().strerror(nullptr));
  }
  if (format == "mp3") {
    // CBR needs both calls; the compression level maps 320..32 kbps to 0..1.
    int mode = SF_BITRATE_MODE_CONSTANT;
    double level = (320.0 - kMp3Kbps) / 288.0;
    Sndfile().command(w->file_, SFC_SET_BITRATE_MODE, &mode, sizeof mode);
    if (Sndfile().command(w->file_, SFC_SET_COMPRESSION_LEVEL, &level, sizeof level) != SF_TRUE) {
      return Status::IoError(path +
                             ": cannot set the MP3 bitrate: " + Sndfile().strerror(w->file_));
    }
  }
  // Tags are written in Commit() with TagLib (libsndfile labels ID3 strings
  // Latin-1 and cannot write arbitrary Vorbis comments).
  AudioWriter* raw = w.get();
  w->encoder_ = std::make_unique<BlockStage<int16_t>>(
      pool, [raw](const std::vector<int16_t>& block) { return raw->Encode(block); });
  return w;
}

StatusOr<std::unique_ptr<AudioWriter>> AudioWriter::Resume(const std::string& path, int sample_rate,
                                                           const AudioTags& tags,
                                                           int64_t keep_frames) {
  std::unique_ptr<AudioWriter> w(new AudioWriter());
  w->path_ = path;
  w->part_ = path + ".part";
  w->format_ = "wav";
  w->tags_ = tags;
  w->input_rate_ = w->file_rate_ = sample_rate;
  if (std::rename(path.c_str(), w->part_.c_str()) != 0) {
    return Status::IoError(path + ": cannot reopen: " + std::strerror(errno));
  }
  w->wav_fd_ = ::open(w->part_.c_str(), O_RDWR | O_CLOEXEC);
  if (w->wav_fd_ < 0) {
    ::unlink(w->part_.c_str());
    return Status::IoError(path + ": cannot reopen: " + std::strerror(errno));
  }
  StatusOr<int64_t> frames = WavFrames(w->wav_fd_, sample_rate);
  if (!frames.ok() || *frames < keep_frames) {
    return w->Fail("not the file this build wrote before");  // removes the .part
  }
  w->wav_end_ = kWavHeadBytes + static_cast<uint64_t>(keep_frames) * 2;
  return w;
}

AudioWriter::~AudioWriter() {
  encoder_.reset();  // its tasks end before the file it writes goes
  if (file_ != nullptr || wav_fd_ >= 0) Discard();
}

void AudioWriter::Discard() {
  if (file_ != nullptr) {
    Sndfile().close(file_);
    file_ = nullptr;
  }
  if (wav_fd_ >= 0) {
    ::close(wav_fd_);
    wav_fd_ = -1;
  }
  ::unlink(part_.c_str());
}

Status AudioWriter::Fail(const std::string& what) {
  Discard();
  return Status::IoError(path_ + ": " + what);
}

Status AudioWriter::WriteFloat(const std::vector<float>& samples) {
  const sf_count_t n =
      Sndfile().write_float(file_, samples.data(), static_cast<sf_count_t>(samples.size()));
  if (n != static_cast<sf_count_t>(samples.size())) {
    return Status::IoError(path_ + ": write failed: " + Sndfile().strerror(file_));
  }
  return Status::Ok();
}

Status AudioWriter::Write(const std::vector<int16_t>& samples) {
  if (wav_fd_ >= 0) return WriteWav(samples);
  if (file_ == nullptr) return Status::Failure(path_ + ": write after Commit");
  if (encoder_ != nullptr) return encoder_->Add(samples.data(), samples.size());
  return Encode(samples);
}

Status AudioWriter::Encode(const std::vector<int16_t>& samples) {
  if (resampler_ != nullptr) {
    resampled_.clear();
    Status s = resampler_->Process(samples.data(), samples.size(), &resampled_);
    if (!s.ok()) return Status::Failure(path_ + ": " + s.message());
    return WriteFloat(resampled_);
  }
  const sf_count_t n =
      Sndfile().write_short(file_, samples.data(), static_cast<sf_count_t>(samples.size()));
  if (n != static_cast<sf_count_t>(samples.size())) {
    return Status::IoError(path_ + ": write failed: " + Sndfile().strerror(file_));
  }
  return Status::Ok();
}

Status AudioWriter::WriteWav(const std::vector<int16_t>& samples) {
  const uint64_t bytes = samples.size() * 2;
  if (wav_end_ + bytes > kWavMaxBytes) {
    return Fail(
        "longer than a WAV file can hold (4 GB, 13.5 hours at 44.1 kHz); "
        "write FLAC instead (--format flac)");
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  std::vector<int16_t> little(samples.size());
  for (size_t i = 0; i < samples.size(); ++i) {
    const auto v = static_cast<uint16_t>(samples[i]);
    little[i] = static_cast<int16_t>((v >> 8) | (v << 8));
  }
  const char* data = reinterpret_cast<const char*>(little.data());
#else
  const char* data = reinterpret_cast<const char*>(samples.data());
#endif
  if (!WriteAt(wav_fd_, data, bytes, wav_end_)) {
    return Fail(std::string("write failed: ") + std::strerror(errno));
  }
  wav_end_ += bytes;
  return Status::Ok();
}

Status AudioWriter::FinishWav() {
  // The samples end here (an old file was longer); the tags and chapter marks
  // follow them, then the head, whose RIFF size counts them all.
  const std::string tail = WavTail(tags_, chapters_);
  if (wav_end_ - 8 + tail.size() > kWavMaxBytes) {
    Discard();
    return Status::DataError(path_ + ": cannot add tags to this WAV file");
  }
  const std::string head = WavHead(file_rate_, wav_end_ - kWavHeadBytes, tail.size());
  const bool written = ::ftruncate(wav_fd_, static_cast<off_t>(wav_end_ + tail.size())) == 0 &&
                       WriteAt(wav_fd_, tail.data(), tail.size(), wav_end_) &&
                       WriteAt(wav_fd_, head.data(), head.size(), 0);
  if (!written) return Fail(std::string("cannot finish writing: ") + std::strerror(errno));
  const int closed = ::close(wav_fd_);
  wav_fd_ = -1;
  if (closed != 0) return Fail(std::string("cannot finish writing: ") + std::strerror(errno));
  return Status::Ok();
}

Status AudioWriter::FinishEncoded() {
  const Status encoded = encoder_->Drain();
  encoder_.reset();
  if (!encoded.ok()) {
    Discard();
    return encoded;
  }
  if (resampler_ != nullptr) {
    resampled_.clear();
    Status s = resampler_->Flush(&resampled_);
    if (s.ok()) s = WriteFloat(resampled_);
    if (!s.ok()) return Fail(s.message());
  }
  const int closed = Sndfile().close(file_);
  file_ = nullptr;
  if (closed != 0) {
    return Fail(std::string("cannot finish writing: ") + Sndfile().error_number(closed));
  }
  std::string error;
  const TagWriters* writers = LoadTagWriters(&error);
  Status tagged = writers == nullptr ? Status::Failure(path_ + ": " + error)
                  : format_ == "mp3" ? writers->id3(part_, tags_, chapters_, input_rate_)
                                     : writers->xiph(part_, format_, tags_, chapters_, input_rate_);
  if (tagged.ok() && format_ == "opus") {
    tagged = SetOggSerial(
        part_, OggSerialFor(tags_.album + '\n' + tags_.title + '\n' + std::to_string(tags_.track)));
  }
  if (!tagged.ok()) ::unlink(part_.c_str());
  return tagged;
}

Status AudioWriter::Commit() {
  if (file_ == nullptr && wav_fd_ < 0) return Status::Failure(path_ + ": Commit called twice");
  const Status finished = wav_fd_ >= 0 ? FinishWav() : FinishEncoded();
  if (!finished.ok()) return finished;
  if (std::rename(part_.c_str(), path_.c_str()) != 0) return Fail("cannot rename into place");
  return Status::Ok();
}

}  // namespace assemble_internal
}  // namespace narrate
