// LayOutChapter: clips placed with the configured pauses, and their timings.
#include <gtest/gtest.h>

#include <cmath>

#include "assemble/assemble.h"
#include "assemble/outputs.h"
#include "render_util.h"

namespace narrate {
namespace {

// A clip of `ms` milliseconds of a 440 Hz tone at 22050 Hz.
Clip Tone(int ms) {
  Clip c;
  const int n = ms * 22050 / 1000;
  for (int i = 0; i < n; ++i) {
    c.samples.push_back(static_cast<int16_t>(8000 * std::sin(2 * M_PI * 440 * i / 22050.0)));
  }
  c.words = {{"a", 0, n / 2}, {"b", n / 2, n}};
  return c;
}

Chapter ThreeUtterances() {
  Chapter c;
  c.index = 1;
  c.title = "T";
  Utterance heading, s1, s2;
  heading.kind = UtteranceKind::kHeading;
  heading.voice = s1.voice = s2.voice = "narrator";
  s1.paragraph = s2.paragraph = 1;
  c.utterances = {heading, s1, s2};
  return c;
}

TEST(LayOutChapter, PlacesPausesAndKeepsTimings) {
  const PauseOptions p;
  const std::vector<Clip> clips = {Tone(500), Tone(1000), Tone(300)};
  auto r = LayOutChapter(ThreeUtterances(), narrate_test::Summaries(clips), p);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->timings.size(), 3u);
  EXPECT_EQ(r->timings[0].start_ms, p.head_ms);
  EXPECT_EQ(r->timings[0].end_ms, p.head_ms + 500);
  EXPECT_EQ(r->timings[1].start_ms, p.head_ms + 500 + p.heading_ms);
  EXPECT_EQ(r->timings[2].start_ms, r->timings[1].end_ms + p.sentence_ms);
  // Pauses are whole samples, so the end is exact to within a millisecond.
  EXPECT_NEAR(r->length * 1000.0 / 22050, r->timings[2].end_ms + p.tail_ms, 1.0);
  EXPECT_EQ(r->timings[1].word_ms[1].first, r->timings[1].start_ms + 500);
  // The rendered timeline has the clips where the layout says.
  const std::vector<int16_t> pcm = narrate_test::RenderTimeline(ThreeUtterances(), clips, p);
  ASSERT_EQ(static_cast<int64_t>(pcm.size()), r->length);
  const size_t second = static_cast<size_t>(r->silence_before[0] + 11025 + r->silence_before[1]);
  EXPECT_EQ(pcm[second - 1], 0);
  EXPECT_EQ(pcm[second + 1], clips[1].samples[1]);
}

TEST(LayOutChapter, ChangeOfVoiceAndParagraphLengthensThePause) {
  const PauseOptions p;
  Chapter c = ThreeUtterances();
  c.utterances[2].paragraph = 2;
  c.utterances[2].voice = "male1";
  auto r = LayOutChapter(c, narrate_test::Summaries({Tone(100), Tone(100), Tone(100)}), p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->timings[2].start_ms - r->timings[1].end_ms, p.paragraph_ms + p.speaker_change_ms);
}

TEST(LayOutChapter, MismatchedClipsFail) {
  EXPECT_FALSE(
      LayOutChapter(ThreeUtterances(), narrate_test::Summaries({Tone(10)}), PauseOptions()).ok());
  Clip other = Tone(10);
  other.sample_rate = 16000;
  EXPECT_FALSE(LayOutChapter(ThreeUtterances(),
                             narrate_test::Summaries({Tone(10), other, Tone(10)}), PauseOptions())
                   .ok());
}

TEST(ChapterFileStem, AsciiSlugFromTitle) {
  Chapter c;
  c.index = 3;
  c.title = "Druhá abdikácia";
  EXPECT_EQ(assemble_internal::ChapterFileStem(c), "03-druha-abdikacia");
  c.title = "春天";
  EXPECT_EQ(assemble_internal::ChapterFileStem(c), "03-chun-tian");
  c.title = "!!!";
  EXPECT_EQ(assemble_internal::ChapterFileStem(c), "03-chapter");
}

}  // namespace
}  // namespace narrate
