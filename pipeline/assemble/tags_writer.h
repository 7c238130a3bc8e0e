// Private to assemble: metadata and chapter marks written into a finished
// (closed) audio file, before it is renamed into place: TagLib for MP3, FLAC
// and Opus, our own RIFF chunks for WAV (whose head narrate writes too).
//
// What is written (all strings UTF-8):
//   field      ID3v2.4 (MP3)          Vorbis comment (FLAC, Opus)
//   title      TIT2                   TITLE
//   album      TALB                   ALBUM
//   author     TPE1                   ARTIST
//   narrator   TXXX "NARRATOR", TCOM  NARRATOR, COMPOSER
//   track      TRCK "n/total"         TRACKNUMBER, TRACKTOTAL
//   language   TLAN (ISO 639-2/T)     LANGUAGE (same 3-letter code)
//   genre      TCON "Audiobook"       GENRE "Audiobook"
// The narrator goes to TCOM/COMPOSER too because that is where audiobook
// players (e.g. Audiobookshelf) look for it; NARRATOR says it explicitly.
// Chapters: ID3v2 CHAP frames "chp1".. (start/end ms, embedded TIT2) under one
// top-level ordered CTOC "toc" (embedded TIT2 = title); Vorbis comments
// CHAPTER01=HH:MM:SS.mmm and CHAPTER01NAME=title (the Ogg chapter extension).
//
// TagLib is loaded only when a file needs tags it writes: the functions using
// it make narrate's TagLib module (libnarrate-tags.so, beside narrate in
// build/; tags_module.cc), which AudioWriter loads the first time (TagLib
// loaded at every start would be paid for by every command, tagging or not).
//
// Thread-safety: TagLib objects are local to each call; calls on distinct
// files may run concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "audio_file.h"

namespace narrate {
namespace assemble_internal {

// ISO 639-2/T code of a BCP 47 language tag ("zh" -> "zho", "sk" -> "slk",
// "zh-Hans" -> "zho"); "und" when unknown or empty.
std::string Iso639Part2(const std::string& language);

// "HH:MM:SS.mmm" for a time in milliseconds.
std::string ChapterTimestamp(int64_t ms);

// The TagLib module's writers, as it exports them (kTagWritersSymbol).
struct TagWriters {
  // Replaces the tags of the MP3 at `path` by an ID3v2.4 tag (and removes any
  // ID3v1/APE tag). Chapter times use `rate`, the rate of the marks' frames.
  Status (*id3)(const std::string& path, const AudioTags& tags,
                const std::vector<ChapterMark>& chapters, int rate);
  // Writes the Vorbis comments of the FLAC or Ogg Opus file at `path`
  // (`format` "flac" or "opus"), keeping its vendor string.
  Status (*xiph)(const std::string& path, const std::string& format, const AudioTags& tags,
                 const std::vector<ChapterMark>& chapters, int rate);
};
constexpr char kTagWritersSymbol[] = "narrate_tag_writers";

// In the module only (tags_id3.cc, tags_xiph.cc): the writers above.
Status TagLibId3Tags(const std::string& path, const AudioTags& tags,
                     const std::vector<ChapterMark>& chapters, int rate);
Status TagLibXiphTags(const std::string& path, const std::string& format, const AudioTags& tags,
                      const std::vector<ChapterMark>& chapters, int rate);

// The head narrate writes ahead of a WAV file's samples: RIFF, a "fmt " chunk
// (PCM, mono, 16-bit) and the "data" chunk's header; and the most a WAV file
// may hold ahead of its tags (RIFF sizes are 32-bit).
constexpr uint64_t kWavHeadBytes = 44;
constexpr uint64_t kWavMaxBytes = 0xFFFFFFFFu;

// That head for `data_bytes` of samples at `rate` followed by `tail_bytes`
// (WavTail).
std::string WavHead(int rate, uint64_t data_bytes, uint64_t tail_bytes);

// The number of samples in the WAV file open at `fd`, if it starts with the
// head narrate writes at `rate` and holds that many; DataError if not.
StatusOr<int64_t> WavFrames(int fd, int rate);

// What follows a WAV file's samples: a LIST/INFO chunk (INAM title, IPRD
// album, IART author, UTF-8), and if there are chapters a "cue " chunk (one
// point per chapter start, frames) and a LIST/adtl chunk of "labl" titles
// (UTF-8). Nothing but the head is ahead of the samples, so the file can be
// reopened to replace its end (see AudioWriter::Resume); that drops this
// tail, and Commit writes it anew.
std::string WavTail(const AudioTags& tags, const std::vector<ChapterMark>& chapters);

}  // namespace assemble_internal
}  // namespace narrate
