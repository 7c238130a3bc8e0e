// Vorbis comments and CHAPTERnn marks for FLAC and Ogg Opus files, with
// TagLib 1.13 (libsndfile cannot write arbitrary comments). Part of narrate's
// TagLib module (tags_writer.h).
// Thread-safety: see tags_writer.h.
#include <taglib/flacfile.h>
#include <taglib/opusfile.h>
#include <taglib/xiphcomment.h>

#include <cstdio>

#include "samples.h"
#include "tags_writer.h"

namespace narrate {
namespace assemble_internal {

namespace {

TagLib::String Utf8(const std::string& s) { return TagLib::String(s, TagLib::String::UTF8); }

void Set(TagLib::Ogg::XiphComment* c, const char* key, const std::string& value) {
  c->removeFields(key);
  if (!value.empty()) c->addField(key, Utf8(value));
}

void Fill(TagLib::Ogg::XiphComment* c, const AudioTags& tags,
          const std::vector<ChapterMark>& chapters, int rate) {
  Set(c, "TITLE", tags.title);
  Set(c, "ALBUM", tags.album);
  Set(c, "ARTIST", tags.artist);
  Set(c, "NARRATOR", tags.narrator);
  Set(c, "COMPOSER", tags.narrator);
  Set(c, "TRACKNUMBER", tags.track > 0 ? std::to_string(tags.track) : "");
  Set(c, "TRACKTOTAL",
      tags.track > 0 && tags.track_total > 0 ? std::to_string(tags.track_total) : "");
  Set(c, "LANGUAGE", Iso639Part2(tags.language));
  Set(c, "GENRE", "Audiobook");
  for (size_t i = 0; i < chapters.size(); ++i) {
    char key[32];
    std::snprintf(key, sizeof key, "CHAPTER%02zu", i + 1);
    Set(c, key, ChapterTimestamp(SamplesToMs(chapters[i].start_frame, rate)));
    Set(c, (std::string(key) + "NAME").c_str(), chapters[i].title);
  }
}

}  // namespace

Status TagLibXiphTags(const std::string& path, const std::string& format, const AudioTags& tags,
                      const std::vector<ChapterMark>& chapters, int rate) {
  bool saved = false;
  if (format == "flac") {
    TagLib::FLAC::File file(path.c_str(), false);
    if (!file.isValid()) return Status::IoError(path + ": TagLib cannot open the FLAC file");
    Fill(file.xiphComment(true), tags, chapters, rate);
    saved = file.save();
  } else if (format == "opus") {
    TagLib::Ogg::Opus::File file(path.c_str(), false);
    if (!file.isValid()) return Status::IoError(path + ": TagLib cannot open the Opus file");
    Fill(file.tag(), tags, chapters, rate);
    saved = file.save();
  } else {
    return Status::Failure("no Vorbis comments for format '" + format + "'");
  }
  if (!saved) return Status::IoError(path + ": cannot write Vorbis comments");
  return Status::Ok();
}

}  // namespace assemble_internal
}  // namespace narrate
