// Private to assemble: the file names and the text artifacts of a build besides
// its records (cue sheet, WebVTT captions; the records are in records.h and
// records_internal.h). Pure functions over values; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "assemble/assemble.h"
#include "records_internal.h"

namespace narrate {
namespace assemble_internal {

// "NN-<slug>" for a chapter file name (ASCII, from the title).
std::string ChapterFileStem(const Chapter& chapter);

// An ASCII slug of a title ("druha-abdikacia", "chun-tian"), "chapter" if empty.
std::string Slug(const std::string& title);

// WebVTT captions of a chapter: one cue per utterance, split at word
// boundaries into cues short enough to read (24 code points of Chinese, 60 of
// other languages).
std::string ChapterVtt(const Chapter& chapter, const ChapterRecord& audio);

// A cue sheet line block for one chapter of the book file.
std::string CueTrack(int index, const std::string& title, int64_t start_ms);

}  // namespace assemble_internal
}  // namespace narrate
