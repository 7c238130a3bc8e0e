// RenderChapter: clips placed with the configured pauses, timings, resampling.
#include <gtest/gtest.h>

#include <cmath>

#include "assemble/assemble.h"

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

TEST(RenderChapter, PlacesPausesAndKeepsTimings) {
  AssembleOptions options;
  options.sample_rate = 22050;
  const PauseOptions& p = options.pauses;
  auto r = RenderChapter(ThreeUtterances(), {Tone(500), Tone(1000), Tone(300)}, options);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->timings.size(), 3u);
  EXPECT_EQ(r->timings[0].start_ms, p.head_ms);
  EXPECT_EQ(r->timings[0].end_ms, p.head_ms + 500);
  EXPECT_EQ(r->timings[1].start_ms, p.head_ms + 500 + p.heading_ms);
  EXPECT_EQ(r->timings[2].start_ms, r->timings[1].end_ms + p.sentence_ms);
  // Pauses are whole samples, so the end is exact to within a millisecond.
  const double total_ms = r->samples.size() * 1000.0 / 22050;
  EXPECT_NEAR(total_ms, r->timings[2].end_ms + p.tail_ms, 1.0);
  EXPECT_EQ(r->timings[1].word_ms[1].first, r->timings[1].start_ms + 500);
}

TEST(RenderChapter, ChangeOfVoiceAndParagraphLengthensThePause) {
  AssembleOptions options;
  options.sample_rate = 22050;
  Chapter c = ThreeUtterances();
  c.utterances[2].paragraph = 2;
  c.utterances[2].voice = "male1";
  auto r = RenderChapter(c, {Tone(100), Tone(100), Tone(100)}, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->timings[2].start_ms - r->timings[1].end_ms,
            options.pauses.paragraph_ms + options.pauses.speaker_change_ms);
}

TEST(RenderChapter, ResamplesOnceToTheOutputRate) {
  AssembleOptions options;  // 44100 Hz by default
  auto r = RenderChapter(ThreeUtterances(), {Tone(500), Tone(500), Tone(500)}, options);
  ASSERT_TRUE(r.ok());
  const auto& t = r->timings.back();
  const double expected_ms = t.end_ms + options.pauses.tail_ms;
  EXPECT_NEAR(r->samples.size() * 1000.0 / 44100, expected_ms, 1.0);
  // The tone survives resampling: loud in the middle of the first clip.
  const size_t mid = (r->timings[0].start_ms + 250) * 44100 / 1000;
  int peak = 0;
  for (size_t i = mid; i < mid + 441; ++i) peak = std::max(peak, std::abs(int(r->samples[i])));
  EXPECT_GT(peak, 7000);
  // And the pause is silent.
  const size_t gap = (r->timings[0].end_ms + 100) * 44100 / 1000;
  for (size_t i = gap; i < gap + 441; ++i) EXPECT_LT(std::abs(int(r->samples[i])), 40);
}

TEST(RenderChapter, MismatchedClipsFail) {
  EXPECT_FALSE(RenderChapter(ThreeUtterances(), {Tone(10)}, AssembleOptions()).ok());
}

TEST(ChapterFileStem, AsciiSlugFromTitle) {
  Chapter c;
  c.index = 3;
  c.title = "Druhá abdikácia";
  EXPECT_EQ(ChapterFileStem(c), "03-druha-abdikacia");
  c.title = "春天";
  EXPECT_EQ(ChapterFileStem(c), "03-chun-tian");
  c.title = "!!!";
  EXPECT_EQ(ChapterFileStem(c), "03-chapter");
}

}  // namespace
}  // namespace narrate
