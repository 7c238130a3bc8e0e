// Private to assemble: the records of the chapter cache (CACHE/chapters/), as
// typed values with one serializer and one parser each, like the public ones
// in records.h (records.cc has them all). A record that cannot be parsed is a
// DataError naming the file; AssembleBook takes it for a cache miss.
//
// Plain values and pure functions: thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "assemble/records.h"

namespace narrate {
namespace assemble_internal {

// Where one utterance landed in its chapter file, with its words.
struct RecordedUtterance {
  int64_t start_ms = 0;             // milliseconds from the start of the chapter file
  int64_t end_ms = 0;               // milliseconds from the start of the chapter file
  std::vector<ManifestWord> words;  // parallel to its clip's words
};

// What the chapter cache keeps of a rendered chapter, in <key>.json (its audio
// is in the chapter files; see AssembleBook).
struct ChapterRecord {
  int64_t sample_count = 0;                   // samples at the output rate
  std::vector<RecordedUtterance> utterances;  // parallel to chapter.utterances
  FileQc qc;  // measured when rendered; `file` and `failures` are empty
};

std::string ChapterRecordToJson(const ChapterRecord& record);
StatusOr<ChapterRecord> ParseChapterRecord(std::string_view text, const std::string& file);
StatusOr<ChapterRecord> ReadChapterRecord(const std::string& path);

// What a written audio file holds, in the cache beside the chapter records
// (<file name>.key): the chapters in it, in order. A chapter file holds its
// one chapter, a book file all of them. A file is current when its stamp names
// the keys it would be written from now.
struct Stamp {
  struct Part {
    std::string key;      // the chapter's key (see ChapterKey in assemble.cc)
    int64_t samples = 0;  // the chapter's length, samples at the output rate
  };
  std::vector<Part> chapters;
};

std::string StampToJson(const Stamp& stamp);
StatusOr<Stamp> ParseStamp(std::string_view text, const std::string& file);
StatusOr<Stamp> ReadStamp(const std::string& path);

}  // namespace assemble_internal
}  // namespace narrate
