// Private to assemble: the text artifacts of a build (manifest, report, cue
// sheet, WebVTT captions) and the chapter cache files. Pure functions over
// values; thread-safe.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assemble/assemble.h"

namespace narrate {
namespace assemble_internal {

// An ASCII slug of a title ("druha-abdikacia", "chun-tian"), "chapter" if empty.
std::string Slug(const std::string& title);

// What the chapter cache keeps of a rendered chapter (its audio is in the
// chapter files; see AssembleBook).
struct ChapterRecord {
  int64_t sample_count = 0;              // at the output rate
  std::vector<UtteranceTiming> timings;  // parallel to chapter.utterances
  std::vector<std::vector<std::string>> word_texts;  // parallel to timings' words
  FileQc qc;  // measured when rendered; `file` is empty
};

// <dir>/<key>.json. Loading fails (DataError) on a damaged entry.
StatusOr<ChapterRecord> LoadChapterRecord(const std::string& dir, const std::string& key);
Status SaveChapterRecord(const std::string& dir, const std::string& key,
                         const ChapterRecord& chapter);

// WebVTT captions of a chapter: one cue per utterance, split at word
// boundaries into cues short enough to read (24 code points of Chinese, 60 of
// other languages).
std::string ChapterVtt(const Chapter& chapter, const ChapterRecord& audio);

// A cue sheet line block for one chapter of the book file.
std::string CueTrack(int index, const std::string& title, int64_t start_ms);

// The manifest entries of one chapter and its utterances.
nlohmann::json ChapterJson(const Chapter& chapter, const std::string& stem,
                           const std::vector<std::string>& formats,
                           int64_t duration_ms, int64_t book_start_ms);
nlohmann::json UtteranceJson(const Utterance& u, const UtteranceTiming& t,
                             const std::vector<std::string>& word_texts);

nlohmann::json QcJson(const FileQc& qc);
nlohmann::json DiagnosticJson(const Diagnostic& d);

}  // namespace assemble_internal
}  // namespace narrate
