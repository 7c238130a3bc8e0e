// Private to assemble: writing PCM to WAV, FLAC, MP3 or Ogg Opus behind a
// temporary name (libsndfile, libsoxr, TagLib), and measuring QC figures.
// Thread-safety: an AudioWriter is used by one thread at a time;
// distinct writers are independent.
#pragma once

#include <sndfile.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "assemble/assemble.h"

namespace narrate {
namespace assemble_internal {

template <typename T>
class BlockStage;

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

// A chapter mark in the whole-book file (WAV cue points; ID3v2 CHAP/CTOC in
// MP3; CHAPTERnn/CHAPTERnnNAME Vorbis comments in FLAC and Opus).
struct ChapterMark {
  int64_t start_frame = 0;  // samples at the writer's input rate
  int64_t end_frame = 0;
  std::string title;
};

class StreamResampler;

// An audio file being written to `path + ".part"`, renamed by Commit().
// Destroying it uncommitted removes the partial file.
//   wav   PCM 16 at the input rate; title/artist/album in LIST INFO; cues.
//         Written by narrate itself (a 44-byte head, the samples, then the
//         chunks of tags_writer.h), over the file already at `path` if there
//         is one: that file becomes the .part and is overwritten in place.
//         A rebuild so reuses its pages and disk blocks, and the rename at
//         Commit() replaces nothing (ext4 writes a new file's data out before
//         renaming it over an old one, a cost that grows with the file). At
//         most 4 GB (13.5 hours at 44.1 kHz): RIFF sizes are 32-bit.
//   flac  PCM 16 at the input rate; Vorbis comments (tags_writer.h).
//   mp3   MPEG-1 Layer III, CBR 192 kbps, 44100 Hz (resampled if needed);
//         ID3v2.4 UTF-8 tags written after encoding (libsndfile writes none).
//   opus  Ogg Opus at 48000 Hz (resampled with libsoxr VHQ); Vorbis comments;
//         a fixed Ogg serial derived from the tags, so encodes are repeatable.
// Decoded through libsndfile, every format gives back exactly the number of
// samples written (at the file's rate): the MP3 LAME header and the Opus
// pre-skip carry the encoder delay and padding.
//
// Every format but WAV is encoded by a stage of the writer's own, as tasks on
// `pool` (see BlockStage; without a pool, in Write()): Write() queues a copy
// of the block (a failure shows at a later Write or at Commit), so the
// chapter and book files of a build encode side by side.
class AudioWriter {
 public:
  // `format` is one of "wav", "flac", "mp3", "opus". `sample_rate` is the rate
  // of the samples given to Write(). Usage for an unknown format; IoError
  // naming the path when it cannot open.
  static StatusOr<std::unique_ptr<AudioWriter>> Open(const std::string& path,
                                                     const std::string& format, int sample_rate,
                                                     const AudioTags& tags,
                                                     ThreadPool* pool = nullptr);
  ~AudioWriter();
  AudioWriter(const AudioWriter&) = delete;
  AudioWriter& operator=(const AudioWriter&) = delete;

  // Reopens the WAV file that a Commit() left at `path` to replace all but its
  // first `keep_frames` samples: the file goes back to `path + ".part"`, and
  // what is written next follows those samples. Failure (not a WAV file
  // narrate wrote at this rate, shorter) leaves no file at `path`.
  static StatusOr<std::unique_ptr<AudioWriter>> Resume(const std::string& path, int sample_rate,
                                                       const AudioTags& tags, int64_t keep_frames);

  // Mono samples at the rate given to Open().
  Status Write(const std::vector<int16_t>& samples);
  // A chapter mark of the whole-book file, frames at the input rate; written
  // by Commit().
  void AddChapter(const ChapterMark& mark) { chapters_.push_back(mark); }
  // Finishes encoding, writes tags and chapters, renames the file into place.
  // After a failure the partial file is removed.
  Status Commit();

 private:
  AudioWriter();
  // Resamples if needed and hands the block to libsndfile.
  Status Encode(const std::vector<int16_t>& samples);
  // Writes WAV samples at wav_end_.
  Status WriteWav(const std::vector<int16_t>& samples);
  // Commit() up to the rename: the WAV file's tail and head, or the encoded
  // file's last samples, then its tags. After a failure the partial file is
  // removed.
  Status FinishWav();
  Status FinishEncoded();
  Status WriteFloat(const std::vector<float>& samples);
  // Closes and removes the partial file.
  void Discard();
  Status Fail(const std::string& what);

  std::string path_;
  std::string part_;
  std::string format_;
  AudioTags tags_;
  int input_rate_ = 0;
  int file_rate_ = 0;                           // the rate on disk (48000 for Opus)
  SNDFILE* file_ = nullptr;                     // every format but WAV
  int wav_fd_ = -1;                             // WAV
  uint64_t wav_end_ = 0;                        // where the next WAV sample goes, in bytes
  std::unique_ptr<StreamResampler> resampler_;  // null when rates match
  std::vector<float> resampled_;                // scratch for the resampler
  std::vector<ChapterMark> chapters_;
  std::unique_ptr<BlockStage<int16_t>> encoder_;  // null for WAV: written in Write()
};

// The audio formats narrate writes ("wav", "flac", "mp3", "opus"); the file
// extension is the format name.
bool IsKnownFormat(const std::string& name);

// Whether a format keeps the samples exactly (WAV, FLAC), so that a file of it
// can be read back instead of rendering its audio again.
bool IsLossless(const std::string& format);

// Reads a lossless file back in blocks, if it holds `frames` mono samples at
// `sample_rate`; DataError when it does not.
Status ForEachBlock(const std::string& path, int sample_rate, int64_t frames,
                    const std::function<Status(const std::vector<int16_t>&)>& fn);

}  // namespace assemble_internal
}  // namespace narrate
