// The assemble stage: clips to chapter files, the book file with chapter marks,
// the manifest (text-audio sync) and the QC report.
//
// A chapter streams from its clips, one at a time, through mastering into its
// files and the book files, so memory does not grow with the length of a
// chapter or the number of chapters. Every file is written to a temporary name
// and renamed into place. Thread-compatible: no shared state.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "assemble/records.h"
#include "core/core.h"

namespace narrate {

// Silences placed between clips (never through SSML <break>). Milliseconds.
struct PauseOptions {
  int head_ms = 700;            // room tone at the start of every file (0.5-1 s)
  int tail_ms = 2000;           // at the end of every file (1-5 s)
  int sentence_ms = 350;        // between sentences of one paragraph
  int paragraph_ms = 750;       // between paragraphs
  int speaker_change_ms = 250;  // added when the voice changes
  int heading_ms = 1200;        // after a heading
};

struct AssembleOptions {
  std::string out_dir;  // required
  // Records of rendered chapters and stamps of written files are kept here
  // (in chapters/), so a rebuild re-renders and rewrites only what changed.
  // Default: OUT_DIR/.cache.
  std::string cache_dir;
  std::vector<std::string> formats = {"wav"};  // any of "wav", "flac", "mp3", "opus"
  int sample_rate = 44100;                     // Hz of every written file
  PauseOptions pauses;
  // The session's thread budget: the chapters rendered ahead, the mastering
  // stages and the encoders run as its tasks. Default null: all on the
  // calling thread.
  ThreadPool* pool = nullptr;
};

// Where each utterance landed in its chapter file.
struct UtteranceTiming {
  int64_t start_ms = 0;  // within the chapter file
  int64_t end_ms = 0;
  std::vector<std::pair<int64_t, int64_t>> word_ms;  // parallel to clip words
};

// Where a chapter's clips go on its timeline, at the clips' rate: the silence
// before each clip (the file's head before the first), the tail after the
// last, and each utterance's timings.
struct ChapterLayout {
  int rate = 22050;
  std::vector<int64_t> silence_before;   // samples, parallel to the clips
  int64_t tail = 0;                      // samples
  int64_t length = 0;                    // samples in all
  std::vector<UtteranceTiming> timings;  // parallel to chapter.utterances
};

// The silence before utterance `i` (> 0) of a chapter, in milliseconds: after a
// heading, between paragraphs or sentences, plus a change of voice.
int PauseBeforeMs(const Chapter& chapter, size_t i, const PauseOptions& pauses);

// Lays out clips (parallel to chapter.utterances) with the configured pauses.
StatusOr<ChapterLayout> LayOutChapter(const Chapter& chapter, const std::vector<ClipSummary>& clips,
                                      const PauseOptions& pauses);

// Supplies the clips of a chapter, loaded on demand, one at a time.
struct ClipSource {
  // A key that changes whenever any clip of the chapter would (e.g. the
  // synthesis cache keys of its utterances).
  std::function<std::string(const Chapter& chapter)> content_key;
  // The summary of the clip of utterance `i` of the chapter, and the clip.
  std::function<StatusOr<ClipSummary>(const Chapter& chapter, size_t i)> summary;
  std::function<StatusOr<Clip>(const Chapter& chapter, size_t i)> load;
};

// What AssembleBook wrote and did.
struct AssembleResult {
  Manifest manifest;          // as in manifest.json
  Report report;              // as in report.json: every chapter file and book file
  int chapters_rendered = 0;  // chapters rendered in this run
  int chapters_reused = 0;    // chapters whose files were already up to date
};

// Renders, masters (loudness once per file) and writes every chapter file
// with its WebVTT captions, the whole-book file with chapter marks and a cue
// sheet, report.json and manifest.json (last: its presence means the build
// finished). `progress(chapter_index)` is called after each chapter.
StatusOr<AssembleResult> AssembleBook(const Script& script, const ClipSource& clips,
                                      const AssembleOptions& options,
                                      const std::vector<Diagnostic>& diagnostics,
                                      const std::function<void(int)>& progress);

// Writes OUT_DIR/<stem>.epub: an EPUB 3 with Media Overlays (one XHTML
// document and one SMIL overlay per chapter, the chapter MP3s, navigation by
// chapter and section, accessibility metadata). `manifest` is the one
// AssembleBook returned (and wrote to OUT_DIR/manifest.json, which errors
// name); the chapter MP3 files it lists are read from `out_dir`. DataError
// naming what is missing or does not fit when they do not match the script.
Status WriteEpub(const Script& script, const Manifest& manifest, const std::string& out_dir,
                 const std::string& stem, Reporter* reporter);

}  // namespace narrate
