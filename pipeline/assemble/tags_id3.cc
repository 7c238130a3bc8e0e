// ID3v2.4 tags and CHAP/CTOC chapter frames for MP3 files, with TagLib 1.13.
// Part of narrate's TagLib module (tags_writer.h). Thread-safety: see
// tags_writer.h.
#include <taglib/chapterframe.h>
#include <taglib/id3v2tag.h>
#include <taglib/mpegfile.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/textidentificationframe.h>

#include <cstdio>

#include "samples.h"
#include "tags_writer.h"

namespace narrate {
namespace assemble_internal {

namespace {

constexpr char kGenre[] = "Audiobook";
constexpr unsigned int kNoOffset = 0xFFFFFFFFu;  // CHAP byte offsets unused

TagLib::String Utf8(const std::string& s) { return TagLib::String(s, TagLib::String::UTF8); }

TagLib::ID3v2::Frame* TextFrame(const char* id, const std::string& text) {
  auto* frame =
      new TagLib::ID3v2::TextIdentificationFrame(TagLib::ByteVector(id), TagLib::String::UTF8);
  frame->setText(Utf8(text));
  return frame;
}

void SetText(TagLib::ID3v2::Tag* tag, const char* id, const std::string& text) {
  tag->removeFrames(id);
  if (!text.empty()) tag->addFrame(TextFrame(id, text));
}

}  // namespace

Status TagLibId3Tags(const std::string& path, const AudioTags& tags,
                     const std::vector<ChapterMark>& chapters, int rate) {
  TagLib::MPEG::File file(path.c_str(), false);
  if (!file.isValid()) return Status::IoError(path + ": TagLib cannot open the MP3");
  TagLib::ID3v2::Tag* tag = file.ID3v2Tag(true);
  SetText(tag, "TIT2", tags.title);
  SetText(tag, "TALB", tags.album);
  SetText(tag, "TPE1", tags.artist);
  SetText(tag, "TCOM", tags.narrator);
  if (!tags.narrator.empty()) {
    tag->addFrame(new TagLib::ID3v2::UserTextIdentificationFrame(
        "NARRATOR", TagLib::StringList(Utf8(tags.narrator)), TagLib::String::UTF8));
  }
  if (tags.track > 0) {
    std::string track = std::to_string(tags.track);
    if (tags.track_total > 0) track += "/" + std::to_string(tags.track_total);
    SetText(tag, "TRCK", track);
  }
  SetText(tag, "TLAN", Iso639Part2(tags.language));
  SetText(tag, "TCON", kGenre);

  if (!chapters.empty()) {
    TagLib::ByteVectorList ids;
    for (size_t i = 0; i < chapters.size(); ++i) {
      const ChapterMark& mark = chapters[i];
      const TagLib::ByteVector id(("chp" + std::to_string(i + 1)).c_str());
      ids.append(id);
      TagLib::ID3v2::FrameList embedded;
      embedded.append(TextFrame("TIT2", mark.title));
      tag->addFrame(new TagLib::ID3v2::ChapterFrame(
          id, static_cast<unsigned int>(SamplesToMs(mark.start_frame, rate)),
          static_cast<unsigned int>(SamplesToMs(mark.end_frame, rate)), kNoOffset, kNoOffset,
          embedded));
    }
    TagLib::ID3v2::FrameList embedded;
    if (!tags.title.empty()) embedded.append(TextFrame("TIT2", tags.title));
    auto* toc = new TagLib::ID3v2::TableOfContentsFrame("toc", ids, embedded);
    toc->setIsTopLevel(true);
    toc->setIsOrdered(true);
    tag->addFrame(toc);
  }
  if (!file.save(TagLib::MPEG::File::ID3v2, TagLib::File::StripOthers, TagLib::ID3v2::v4,
                 TagLib::File::DoNotDuplicate)) {
    return Status::IoError(path + ": cannot write ID3v2 tags");
  }
  return Status::Ok();
}

}  // namespace assemble_internal
}  // namespace narrate
