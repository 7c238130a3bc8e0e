// The records a build leaves in OUT_DIR, as typed values: manifest.json (the
// book's files and where every utterance and word is in them) and report.json
// (QC figures and diagnostics). Each has one serializer and one parser; a
// parser never throws: text that is not JSON, or a record of the wrong shape,
// is a DataError naming the file and what is wrong.
//
// Plain values and pure functions: thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/core.h"

namespace narrate {

// One word's place in its chapter file.
struct ManifestWord {
  std::string text;      // as printed, with the spaces and punctuation after it
  int64_t start_ms = 0;  // milliseconds from the start of the chapter file
  int64_t end_ms = 0;    // milliseconds from the start of the chapter file
};

// One utterance of the script and where it is in its chapter file.
struct ManifestUtterance {
  std::string id;     // e.g. "c02-p0005-s03"
  int chapter = 0;    // 1-based chapter index
  int paragraph = 0;  // 1-based within the chapter; 0: its title
  UtteranceKind kind = UtteranceKind::kNarration;
  Lang lang;                           // "zh", "sk"
  std::optional<std::string> speaker;  // null for narration and headings
  std::string voice;                   // timbre name
  std::string text;                    // as printed
  int64_t start_ms = 0;                // milliseconds from the start of the chapter file
  int64_t end_ms = 0;                  // milliseconds from the start of the chapter file
  std::vector<ManifestWord> words;     // in order; they concatenate to `text`
};

// One chapter and its files. Paths are relative to OUT_DIR.
struct ManifestChapter {
  int index = 0;  // 1-based, reading order
  std::string title;
  Lang language;
  std::string source;              // the chapter's source file
  std::string file;                // the file of the first format
  std::vector<std::string> files;  // one per format, in the order built
  std::string captions;            // WebVTT
  int64_t book_start_ms = 0;       // milliseconds from the start of the book files
  int64_t duration_ms = 0;         // milliseconds
};

// manifest.json: text-audio sync of the whole book. Paths are relative to
// OUT_DIR.
struct Manifest {
  std::string title;
  std::string author;
  Lang language;                              // the book's main language
  int sample_rate = 44100;                    // Hz of every file
  std::vector<std::string> book_files;        // one per format, in the order built
  std::string cue_sheet;                      // of the book file of the first format
  std::vector<ManifestChapter> chapters;      // in reading order
  std::vector<ManifestUtterance> utterances;  // in reading order, all chapters
};

// Per-file QC figures (ACX-style limits).
struct FileQc {
  std::string file;                   // relative to OUT_DIR
  int64_t duration_ms = 0;            // milliseconds
  double rms_db = 0;                  // dBFS over the whole file
  double peak_db = 0;                 // dBFS
  double noise_floor_db = 0;          // dBFS of the quietest 500 ms window
  double loudness_lufs = 0;           // LUFS, integrated (EBU R 128, libebur128)
  int64_t head_silence_ms = 0;        // milliseconds before the first sound above -60 dBFS
  int64_t tail_silence_ms = 0;        // milliseconds after the last one
  std::vector<std::string> failures;  // failed ACX-style checks; empty: pass
};

// report.json: the QC figures of every file written and the diagnostics of
// the build.
struct Report {
  std::vector<FileQc> files;            // the chapter files, then the book files
  std::vector<Diagnostic> diagnostics;  // in the order reported
};

// The text of manifest.json (two-space indents, keys sorted, a final newline).
std::string ManifestToJson(const Manifest& manifest);
// A manifest from its text; DataError "<file>: ..." when it is not one.
StatusOr<Manifest> ParseManifest(std::string_view text, const std::string& file);
// A manifest from a file: IoError when it cannot be read, else as ParseManifest.
StatusOr<Manifest> ReadManifest(const std::string& path);

// The same for report.json.
std::string ReportToJson(const Report& report);
StatusOr<Report> ParseReport(std::string_view text, const std::string& file);
StatusOr<Report> ReadReport(const std::string& path);

}  // namespace narrate
