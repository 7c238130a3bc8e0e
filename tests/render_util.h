// A chapter's timeline as one buffer at the clips' rate, unmastered: the
// clips where LayOutChapter puts them, silence between. What the build
// masters, and what the preview plays.
#pragma once

#include <vector>

#include "assemble/assemble.h"

namespace narrate_test {

inline std::vector<narrate::ClipSummary> Summaries(const std::vector<narrate::Clip>& clips) {
  std::vector<narrate::ClipSummary> summaries;
  for (const narrate::Clip& clip : clips) summaries.push_back(narrate::SummarizeClip(clip));
  return summaries;
}

inline std::vector<int16_t> RenderTimeline(const narrate::Chapter& chapter,
                                           const std::vector<narrate::Clip>& clips,
                                           const narrate::PauseOptions& pauses) {
  narrate::StatusOr<narrate::ChapterLayout> layout =
      narrate::LayOutChapter(chapter, Summaries(clips), pauses);
  if (!layout.ok()) return {};
  std::vector<int16_t> pcm;
  for (size_t i = 0; i < clips.size(); ++i) {
    pcm.resize(pcm.size() + static_cast<size_t>(layout->silence_before[i]), 0);
    pcm.insert(pcm.end(), clips[i].samples.begin(), clips[i].samples.end());
  }
  pcm.resize(static_cast<size_t>(layout->length), 0);
  return pcm;
}

}  // namespace narrate_test
