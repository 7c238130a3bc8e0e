// Player and PlaybackFeed with synthetic clips and a sink that the test
// drives by hand (the test thread is the audio callback): the stream carries
// the clips with the same pauses LayOutChapter places, and the controls
// (limit, seek, rate, pause, speaker filter) do what they say.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "preview/preview.h"
#include "render_util.h"

namespace narrate {
namespace {

Utterance U(int chapter, int paragraph, UtteranceKind kind, const std::string& voice,
            const std::string& speaker = "") {
  Utterance u;
  u.chapter = chapter;
  u.paragraph = paragraph;
  u.kind = kind;
  u.voice = voice;
  if (!speaker.empty()) u.speaker = speaker;
  static int serial = 0;
  u.id = "u" + std::to_string(chapter) + "-" + std::to_string(paragraph) + "-" +
         std::to_string(++serial);
  u.text = u.id;
  return u;
}

// Chapter 1: heading; two sentences of paragraph 1; a speech in paragraph 2.
// Chapter 2: heading; one sentence.
Script TestScript() {
  Script s;
  Chapter a;
  a.index = 1;
  a.utterances = {U(1, 0, UtteranceKind::kHeading, "narrator"),
                  U(1, 1, UtteranceKind::kNarration, "narrator"),
                  U(1, 1, UtteranceKind::kNarration, "narrator"),
                  U(1, 2, UtteranceKind::kSpeech, "female1", "Marie")};
  Chapter b;
  b.index = 2;
  b.utterances = {U(2, 0, UtteranceKind::kHeading, "narrator"),
                  U(2, 1, UtteranceKind::kNarration, "narrator")};
  s.chapters = {a, b};
  return s;
}

// A clip whose every sample names its utterance: (chapter * 1000 + index * 10
// + 1); its length shrinks with the rate. Two words, at 0 and half way.
struct FakeProvider {
  const Script* script;
  std::mutex mu;
  std::vector<std::pair<std::string, int>> calls;  // (text, rate)
  std::string fail_on;

  static int16_t Value(size_t chapter, size_t index) {
    return static_cast<int16_t>((chapter + 1) * 1000 + index * 10 + 1);
  }
  // A code the player itself never returns, so that it is told apart.
  static Status FailureFor(const Utterance& u) {
    return Status::DataError(u.text + ": synthesis failed");
  }
  StatusOr<Clip> operator()(const Utterance& u, int rate) {
    {
      std::lock_guard<std::mutex> lock(mu);
      calls.emplace_back(u.text, rate);
    }
    if (u.text == fail_on) return FailureFor(u);
    const auto& us = script->chapters[u.chapter - 1].utterances;
    size_t index = 0;
    while (&us[index] != &u) ++index;
    Clip clip;
    const size_t length = (300 + 50 * index) * 100 / rate;
    clip.samples.assign(length, Value(u.chapter - 1, index));
    clip.words = {{"one", 0, static_cast<int64_t>(length / 2)},
                  {"two", static_cast<int64_t>(length / 2), static_cast<int64_t>(length)}};
    return clip;
  }
};

// The test thread plays the audio callback.
class ManualSink : public AudioSink {
 public:
  Status Start(PlaybackFeed* feed) override {
    feed_ = feed;
    return Status::Ok();
  }
  Status Stop(bool) override { return Status::Ok(); }
  Status Health() override { return Status::Ok(); }
  std::vector<int16_t> Pull(size_t n, bool* more = nullptr) {
    std::vector<int16_t> out(n);
    const bool go_on = feed_->Pull(out.data(), n);
    if (more) *more = go_on;
    return out;
  }

 private:
  PlaybackFeed* feed_ = nullptr;
};

class PlayerTest : public ::testing::Test {
 protected:
  PlayerTest() : script_(TestScript()) { provider_.script = &script_; }

  std::unique_ptr<Player> MakePlayer(PlayerOptions options = {}) {
    if (options.prebuffer_samples == 0) options.prebuffer_samples = 1 << 20;
    auto player = Player::Create(
        &script_, [this](const Utterance& u, int rate) { return provider_(u, rate); }, options);
    EXPECT_TRUE(player.ok());
    return std::move(player).value();
  }

  // Pulls in small blocks until `done` or about 5 s pass.
  template <typename Pred>
  bool PullUntil(Pred done, std::vector<int16_t>* seen = nullptr) {
    for (int i = 0; i < 5000; ++i) {
      std::vector<int16_t> block = sink_.Pull(32);
      if (seen) seen->insert(seen->end(), block.begin(), block.end());
      if (done(block)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }

  Script script_;
  FakeProvider provider_;
  ManualSink sink_;
};

std::vector<int16_t> Render(const Chapter& chapter, FakeProvider* provider) {
  std::vector<Clip> clips;
  for (const Utterance& u : chapter.utterances) clips.push_back(*(*provider)(u, 100));
  return narrate_test::RenderTimeline(chapter, clips, PauseOptions());
}

TEST(ScaledTimbre, ScalesAndClampsTheRate) {
  Timbre t;
  t.rate = 160;
  EXPECT_EQ(ScaledTimbre(t, 100).rate, 160);
  EXPECT_EQ(ScaledTimbre(t, 150).rate, 240);
  EXPECT_EQ(ScaledTimbre(t, 125).rate, 200);
  EXPECT_EQ(ScaledTimbre(t, 10).rate, 80);
  EXPECT_EQ(ScaledTimbre(t, 400).rate, 450);
}

TEST_F(PlayerTest, StreamIsTheRenderedChaptersWithoutTheFirstHead) {
  const PauseOptions pauses;
  const size_t head = pauses.head_ms * kPreviewSampleRate / 1000;
  const size_t tail = pauses.tail_ms * kPreviewSampleRate / 1000;
  std::vector<int16_t> expected = Render(script_.chapters[0], &provider_);
  expected.erase(expected.begin(), expected.begin() + head);
  std::vector<int16_t> second = Render(script_.chapters[1], &provider_);
  expected.insert(expected.end(), second.begin(), second.end() - tail);

  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 0, &sink_).ok());
  const std::vector<int16_t> got = sink_.Pull(expected.size() + 100);
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), got.begin()));
  EXPECT_EQ(got.back(), 0);
  EXPECT_TRUE(player->finished());
  EXPECT_EQ(player->feed().underruns(), 0);
  EXPECT_TRUE(player->Stop(true).ok());
}

TEST_F(PlayerTest, StartsAtTheChosenSentenceWithoutALeadingPause) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 2, &sink_).ok());
  EXPECT_EQ(sink_.Pull(1)[0], FakeProvider::Value(0, 2));
  const PlayPosition p = player->Now();
  EXPECT_TRUE(p.valid);
  EXPECT_EQ(p.chapter, 0u);
  EXPECT_EQ(p.utterance, 2u);
}

TEST_F(PlayerTest, LimitStopsAfterExactlyThatManySamples) {
  PlayerOptions options;
  options.limit_samples = 200;  // within the first clip (350 samples)
  auto player = MakePlayer(options);
  ASSERT_TRUE(player->Start(0, 1, &sink_).ok());
  bool more = true;
  std::vector<int16_t> a = sink_.Pull(150, &more);
  EXPECT_TRUE(more);
  std::vector<int16_t> b = sink_.Pull(100, &more);
  EXPECT_FALSE(more);
  EXPECT_EQ(player->feed().played(), 200);
  EXPECT_EQ(b[49], FakeProvider::Value(0, 1));
  EXPECT_EQ(b[50], 0);  // the rest of the block is silence
  EXPECT_TRUE(player->finished());
}

TEST_F(PlayerTest, NowFollowsTheWordBeingPlayed) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 1, &sink_).ok());
  sink_.Pull(10);
  EXPECT_EQ(player->Now().word, 0);
  sink_.Pull(200);  // clip 1 is 350 samples: the second word starts at 175
  PlayPosition p = player->Now();
  EXPECT_EQ(p.utterance, 1u);
  EXPECT_EQ(p.word, 1);
  EXPECT_EQ(p.words.size(), 2u);
  sink_.Pull(200);  // in the pause after it
  p = player->Now();
  EXPECT_EQ(p.utterance, 1u);
  EXPECT_EQ(p.word, -1);
}

TEST_F(PlayerTest, PauseHoldsThePositionAndPlaysSilence) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 0, &sink_).ok());
  sink_.Pull(10);
  player->TogglePause();
  const uint64_t at = player->feed().position();
  const std::vector<int16_t> quiet = sink_.Pull(500);
  EXPECT_EQ(std::count(quiet.begin(), quiet.end(), 0), 500);
  EXPECT_EQ(player->feed().position(), at);
  player->TogglePause();
  EXPECT_EQ(sink_.Pull(1)[0], FakeProvider::Value(0, 0));
}

TEST_F(PlayerTest, NextSentenceJumpsWithoutThePause) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 1, &sink_).ok());
  sink_.Pull(10);
  player->NextSentence();
  std::vector<int16_t> seen;
  ASSERT_TRUE(PullUntil(
      [](const std::vector<int16_t>& b) { return b[0] == FakeProvider::Value(0, 2); }, &seen));
  EXPECT_EQ(player->Now().utterance, 2u);
}

TEST_F(PlayerTest, PreviousSentenceAndChapterKeys) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(1, 1, &sink_).ok());
  sink_.Pull(10);
  player->PreviousSentence();
  ASSERT_TRUE(
      PullUntil([](const std::vector<int16_t>& b) { return b[0] == FakeProvider::Value(1, 0); }));
  player->PreviousChapter();
  ASSERT_TRUE(
      PullUntil([](const std::vector<int16_t>& b) { return b[0] == FakeProvider::Value(0, 0); }));
  player->NextChapter();
  ASSERT_TRUE(
      PullUntil([](const std::vector<int16_t>& b) { return b[0] == FakeProvider::Value(1, 0); }));
  EXPECT_EQ(player->Now().chapter, 1u);
}

TEST_F(PlayerTest, RateChangeResynthesizesFromTheCurrentSentence) {
  auto player = MakePlayer();
  ASSERT_TRUE(player->Start(0, 1, &sink_).ok());
  sink_.Pull(10);
  player->SetRate(200);
  EXPECT_EQ(player->rate_percent(), 200);
  ASSERT_TRUE(PullUntil([&](const std::vector<int16_t>&) {
    return player->Now().rate_percent == 200 && player->feed().position() > 0;
  }));
  std::lock_guard<std::mutex> lock(provider_.mu);
  bool asked = false;
  for (const auto& [text, rate] : provider_.calls) {
    if (text == script_.chapters[0].utterances[1].text && rate == 200) asked = true;
  }
  EXPECT_TRUE(asked);
}

TEST_F(PlayerTest, SpeakerFilterPlaysOnlyThatSpeaker) {
  PlayerOptions options;
  options.speaker = "Marie";
  auto player = MakePlayer(options);
  ASSERT_TRUE(player->Start(0, 0, &sink_).ok());
  const std::vector<int16_t> got = sink_.Pull(3000);
  for (int16_t v : got) {
    ASSERT_TRUE(v == 0 || v == FakeProvider::Value(0, 3)) << v;
  }
  EXPECT_EQ(got[0], FakeProvider::Value(0, 3));
  EXPECT_TRUE(player->finished());
}

TEST_F(PlayerTest, ProviderFailureIsReported) {
  provider_.fail_on = script_.chapters[0].utterances[1].text;
  auto player = MakePlayer();
  const Status started = player->Start(0, 0, &sink_);
  Status health = started.ok() ? player->health() : started;
  for (int i = 0; i < 1000 && health.ok(); ++i) {
    sink_.Pull(32);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    health = player->health();
  }
  // The provider's own failure, passed on as it was.
  const Status expected = FakeProvider::FailureFor(script_.chapters[0].utterances[1]);
  EXPECT_EQ(health.code(), expected.code()) << health.message();
  EXPECT_EQ(health.message(), expected.message());
}

TEST_F(PlayerTest, CreateRejectsAnAbsurdRate) {
  PlayerOptions options;
  options.rate_percent = 0;
  ClipProvider none = [](const Utterance&, int) { return StatusOr<Clip>(Clip()); };
  EXPECT_EQ(Player::Create(&script_, none, options).status().code(), StatusCode::kUsage);
}

}  // namespace
}  // namespace narrate
