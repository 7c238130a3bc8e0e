// Places a chapter's clips on one timeline with pauses.
#include <algorithm>

#include "assemble/assemble.h"
#include "samples.h"

namespace narrate {
namespace {

int64_t MsToSamples(int64_t ms, int rate) { return ms * rate / 1000; }

}  // namespace

int PauseBeforeMs(const Chapter& chapter, size_t i, const PauseOptions& p) {
  const Utterance& prev = chapter.utterances[i - 1];
  const Utterance& cur = chapter.utterances[i];
  int ms = prev.kind == UtteranceKind::kHeading ? p.heading_ms
           : prev.paragraph != cur.paragraph    ? p.paragraph_ms
                                                : p.sentence_ms;
  if (cur.kind == UtteranceKind::kHeading) ms = std::max(ms, p.heading_ms);
  if (prev.voice != cur.voice) ms += p.speaker_change_ms;
  return ms;
}

StatusOr<ChapterLayout> LayOutChapter(const Chapter& chapter, const std::vector<ClipSummary>& clips,
                                      const PauseOptions& pauses) {
  if (clips.size() != chapter.utterances.size()) {
    return Status::Failure("chapter " + std::to_string(chapter.index) +
                           ": clip count does not match utterances");
  }
  ChapterLayout layout;
  layout.rate = clips.empty() ? 22050 : clips.front().sample_rate;
  const int rate = layout.rate;
  int64_t at = 0;
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].sample_rate != rate) {
      return Status::Failure("clips of one chapter differ in sample rate");
    }
    const int64_t silence =
        MsToSamples(i == 0 ? pauses.head_ms : PauseBeforeMs(chapter, i, pauses), rate);
    layout.silence_before.push_back(silence);
    const int64_t start = at + silence;
    at = start + clips[i].length;
    UtteranceTiming t;
    t.start_ms = SamplesToMs(start, rate);
    t.end_ms = SamplesToMs(at, rate);
    for (const WordTiming& w : clips[i].words) {
      t.word_ms.emplace_back(SamplesToMs(start + w.start, rate), SamplesToMs(start + w.end, rate));
    }
    layout.timings.push_back(std::move(t));
  }
  layout.tail = MsToSamples(pauses.tail_ms, rate);
  if (clips.empty()) at = MsToSamples(pauses.head_ms, rate);
  layout.length = at + layout.tail;
  return layout;
}

}  // namespace narrate
