// Synthesis with the real eSpeak NG: audio, word timings, voices, cache files.
#include "synth/synth.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "process_util.h"
#include "synth/engine.h"

namespace narrate {
namespace {

std::vector<Token> Words(const std::string& text) { return {{TokenKind::kWord, text, text, ""}}; }

double Rms(const std::vector<int16_t>& s, int64_t a, int64_t b) {
  double sum = 0;
  for (int64_t i = a; i < b; ++i) sum += double(s[i]) * s[i];
  return b > a ? std::sqrt(sum / (b - a)) / 32768.0 : 0;
}

// The worker loads the library beside it for libpcaudio.so.0, which has no
// audio device, and so none of the sound-server libraries of the real one.
TEST(SynthWorker, LinksTheLibpcaudioWithoutADevice) {
  const std::string binary = NARRATE_BINARY;
  const std::string dir = binary.substr(0, binary.rfind('/'));
  const std::string libraries =
      narrate_test::RunShell("LD_TRACE_LOADED_OBJECTS=1 " + dir + "/narrate-synth-worker").output;
  EXPECT_NE(libraries.find("libpcaudio.so.0 => " + dir + "/libpcaudio.so.0"), std::string::npos)
      << libraries;
  EXPECT_NE(libraries.find("libespeak-ng.so.1"), std::string::npos) << libraries;
  EXPECT_EQ(libraries.find("libpulse"), std::string::npos) << libraries;
  EXPECT_EQ(libraries.find("libasound"), std::string::npos) << libraries;
}

class SynthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto s = Synth::Create();
    ASSERT_TRUE(s.ok()) << s.status().message();
    synth_ = std::move(s).value().release();
  }
  static void TearDownTestSuite() { delete synth_; }
  static Synth* synth_;
};
Synth* SynthTest::synth_;

TEST_F(SynthTest, TwoSynthsInParallelThreadsAgree) {
  // Each Synth has its own eSpeak worker process, so threads may share work.
  SynthRequest r{"sk", Timbre(), Words("Jeseň prišla skoro a zima bola dlhá.")};
  StatusOr<Clip> a = Status::Failure("not run"), b = Status::Failure("not run");
  std::thread other([&] {
    auto second = Synth::Create();
    if (second.ok()) b = (*second)->Synthesize(r);
  });
  a = synth_->Synthesize(r);
  other.join();
  ASSERT_TRUE(a.ok() && b.ok()) << b.status().message();
  EXPECT_EQ(a->samples, b->samples);
}

TEST_F(SynthTest, SlovakSentenceHasSpeechAndWordTimings) {
  auto clip = synth_->Synthesize({"sk", Timbre(), Words("Dobrý deň, ako sa máte?")});
  ASSERT_TRUE(clip.ok()) << clip.status().message();
  EXPECT_EQ(clip->sample_rate, 22050);
  const double seconds = clip->samples.size() / 22050.0;
  EXPECT_GT(seconds, 0.8);
  EXPECT_LT(seconds, 4.0);
  EXPECT_GT(Rms(clip->samples, 0, clip->samples.size()), 0.02);
  ASSERT_EQ(clip->words.size(), 5u);
  EXPECT_EQ(clip->words[0].text, "Dobrý ");
  EXPECT_EQ(clip->words[1].text, "deň, ");
  EXPECT_EQ(clip->words[4].text, "máte?");
  for (size_t i = 0; i < clip->words.size(); ++i) {
    EXPECT_LT(clip->words[i].start, clip->words[i].end) << i;
    if (i > 0) {
      EXPECT_GE(clip->words[i].start, clip->words[i - 1].start);
    }
    // Each word is voiced.
    EXPECT_GT(Rms(clip->samples, clip->words[i].start, clip->words[i].end), 0.01) << i;
  }
}

TEST_F(SynthTest, ChineseIsSpokenNotSkipped) {
  auto clip = synth_->Synthesize({"zh", Timbre(), Words("春天来了，孩子们在草地上放风筝。")});
  ASSERT_TRUE(clip.ok()) << clip.status().message();
  // Fifteen syllables take well over a second.
  EXPECT_GT(clip->samples.size() / 22050.0, 1.5);
  EXPECT_GE(clip->words.size(), 6u);
  std::string joined;
  for (const WordTiming& w : clip->words) joined += w.text;
  EXPECT_EQ(joined, "春天来了，孩子们在草地上放风筝。");
}

TEST_F(SynthTest, SameRequestGivesTheSameSamplesWhateverCameBefore) {
  SynthRequest sk{"sk", Timbre(), Words("Dobrý deň, ako sa máte? Toto je skúška.")};
  auto first = synth_->Synthesize(sk);
  Timbre other;
  other.variant = "f2";
  other.pitch = 70;
  ASSERT_TRUE(synth_->Synthesize({"zh", other, Words("他们向拿破仑提出停战要求。")}).ok());
  auto second = synth_->Synthesize(sk);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->samples, second->samples);
  ASSERT_EQ(first->words.size(), second->words.size());
  for (size_t i = 0; i < first->words.size(); ++i) {
    EXPECT_EQ(first->words[i].start, second->words[i].start);
  }
}

// Requests that exercise what eSpeak carries from call to call: languages,
// variants, speeds, a foreign span, the same sentence twice.
std::vector<SynthRequest> VariedRequests() {
  Timbre document;
  document.variant = "m1";
  document.rate = 150;
  document.range = 25;
  Timbre high;
  high.variant = "f2";
  high.pitch = 70;
  const SynthRequest zh_document{"zh", document, Words("各国代表在会议上宣读了和约的全文。")};
  return {
      {"en", Timbre(), Words("Good evening, and welcome.")},
      zh_document,
      {"sk", high, Words("Vietor fúkal celú noc a ráno bolo ticho.")},
      {"zh",
       Timbre(),
       {{TokenKind::kWord, "他唱起", "他唱起", ""},
        {TokenKind::kForeign, "La Marseillaise", "La Marseillaise", "fr"},
        {TokenKind::kPunctuation, "。", "。", ""}}},
      zh_document,
      {"sk", Timbre(), Words("Dobrý deň, ako sa máte?")},
  };
}

void ExpectSameClip(const Clip& a, const Clip& b, size_t i) {
  EXPECT_EQ(a.samples, b.samples) << "request " << i;
  ASSERT_EQ(a.words.size(), b.words.size()) << "request " << i;
  for (size_t w = 0; w < a.words.size(); ++w) {
    EXPECT_EQ(a.words[w].start, b.words[w].start) << "request " << i << " word " << w;
    EXPECT_EQ(a.words[w].end, b.words[w].end) << "request " << i << " word " << w;
  }
}

TEST_F(SynthTest, ClipsDoNotDependOnTheVoicesUsedBefore) {
  // The same request in a worker that has only just started and in one that
  // has been through other languages and variants first.
  const std::vector<SynthRequest> requests = VariedRequests();
  for (size_t i = 0; i < requests.size(); ++i) {
    auto fresh = Synth::Create();
    ASSERT_TRUE(fresh.ok()) << fresh.status().message();
    auto alone = (*fresh)->Synthesize(requests[i]);
    auto after = synth_->Synthesize(requests[i]);
    ASSERT_TRUE(alone.ok() && after.ok()) << i;
    ExpectSameClip(*alone, *after, i);
  }
}

TEST_F(SynthTest, WorkerResetsInPlaceUnlessToldToFork) {
  // The self-check passes with this eSpeak: no request needs a fork.
  for (const bool fork : {false, true}) {
    const std::string trace = ::testing::TempDir() + "synth-trace-" + std::to_string(fork);
    std::remove(trace.c_str());
    ::setenv("NARRATE_SYNTH_TRACE", trace.c_str(), 1);
    if (fork) ::setenv("NARRATE_SYNTH_FORK", "1", 1);
    auto synth = Synth::Create();
    ::unsetenv("NARRATE_SYNTH_TRACE");
    ::unsetenv("NARRATE_SYNTH_FORK");
    ASSERT_TRUE(synth.ok()) << synth.status().message();
    for (const SynthRequest& r : VariedRequests()) ASSERT_TRUE((*synth)->Synthesize(r).ok());
    synth->reset();  // the worker exits, its trace is complete
    std::FILE* f = std::fopen(trace.c_str(), "r");
    ASSERT_NE(f, nullptr);
    char line[256];
    int lines = 0;
    while (std::fgets(line, sizeof line, f) != nullptr) {
      ++lines;
      EXPECT_EQ(std::string(line).rfind(fork ? "forked " : "in-place ", 0), 0u) << line;
    }
    std::fclose(f);
    EXPECT_EQ(lines, static_cast<int>(VariedRequests().size()));
  }
}

TEST_F(SynthTest, AnUtteranceLongerThanTheSharedBufferComesThroughWhole) {
  // The buffer the worker shares with narrate starts at 4 MB (95 s of
  // samples) and grows for a longer utterance, on both sides. Over two
  // minutes of one sentence, after a short one: the same bytes as from a
  // fresh worker, and a short one after it is unharmed.
  std::string text;
  for (int i = 0; i < 50; ++i) text += "Vojsko pochodovalo celú noc cez lesy a polia, ";
  text += "až ráno dorazilo k rieke.";
  const SynthRequest long_one{"sk", Timbre(), Words(text)};
  const SynthRequest short_one{"sk", Timbre(), Words("Dobrý deň.")};
  auto before = synth_->Synthesize(short_one);
  auto clip = synth_->Synthesize(long_one);
  auto after = synth_->Synthesize(short_one);
  ASSERT_TRUE(before.ok() && clip.ok() && after.ok());
  EXPECT_GT(clip->samples.size() * sizeof(int16_t), size_t{4} << 20);
  auto fresh = Synth::Create();
  ASSERT_TRUE(fresh.ok());
  auto again = (*fresh)->Synthesize(long_one);
  ASSERT_TRUE(again.ok());
  ExpectSameClip(*clip, *again, 0);
  ExpectSameClip(*before, *after, 1);
}

TEST(SynthWorker, AnotherESpeakVersionIsRefused) {
  // A stand-in worker that says it runs eSpeak NG 0.0: clips made with it
  // would be cached under this build's version, so narrate refuses it.
  const std::string fake = ::testing::TempDir() + "fake-synth-worker";
  {
    std::FILE* f = std::fopen(fake.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#!/bin/sh\nprintf '\\004\\000\\000\\000R0.0' >&3\nexec sleep 5\n", f);
    std::fclose(f);
    ::chmod(fake.c_str(), 0755);
  }
  ::setenv("NARRATE_SYNTH_WORKER", fake.c_str(), 1);
  auto synth = Synth::Create();
  ::unsetenv("NARRATE_SYNTH_WORKER");
  ASSERT_FALSE(synth.ok());
  // Names the version the worker runs and the one narrate was built with.
  const std::string built =
      synth_internal::EngineVersion().substr(std::string("espeak-ng ").size());
  EXPECT_NE(synth.status().message().find("0.0"), std::string::npos) << synth.status().message();
  EXPECT_NE(synth.status().message().find(built), std::string::npos) << synth.status().message();
  std::remove(fake.c_str());
}

TEST_F(SynthTest, ResetInPlaceMatchesAForkedProcess) {
  // The worker resets eSpeak in place (worker.cc); NARRATE_SYNTH_FORK makes it
  // synthesize each request in a forked child of a just-initialized process
  // instead. Both must give the same bytes, in any order.
  ::setenv("NARRATE_SYNTH_FORK", "1", 1);
  auto forking = Synth::Create();
  ::unsetenv("NARRATE_SYNTH_FORK");
  ASSERT_TRUE(forking.ok()) << forking.status().message();
  const std::vector<SynthRequest> requests = VariedRequests();
  std::vector<Clip> forked(requests.size());
  for (size_t i = requests.size(); i-- > 0;) {
    auto clip = (*forking)->Synthesize(requests[i]);
    ASSERT_TRUE(clip.ok()) << clip.status().message();
    forked[i] = std::move(clip).value();
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    auto clip = synth_->Synthesize(requests[i]);
    ASSERT_TRUE(clip.ok()) << clip.status().message();
    ExpectSameClip(*clip, forked[i], i);
  }
}

TEST_F(SynthTest, ForeignSpanIsSpokenInItsLanguage) {
  std::vector<Token> tokens = {
      {TokenKind::kWord, "歌曲", "歌曲", ""},
      {TokenKind::kForeign, "Le Chant du Départ", "Le Chant du Départ", "fr"},
      {TokenKind::kWord, "很有名", "很有名", ""}};
  auto clip = synth_->Synthesize({"zh", Timbre(), tokens});
  ASSERT_TRUE(clip.ok()) << clip.status().message();
  ASSERT_EQ(clip->words.size(), 4u);  // 歌曲, the span, 很, 有名 (ICU words)
  EXPECT_EQ(clip->words[1].text, "Le Chant du Départ");
  EXPECT_EQ(clip->words[0].text, "歌曲");
  // Four French syllables take a real stretch of audio.
  EXPECT_GT(clip->words[1].end - clip->words[1].start, 22050 / 2);
}

TEST_F(SynthTest, SilenceIsTrimmed) {
  auto clip = synth_->Synthesize({"sk", Timbre(), Words("Áno.")});
  ASSERT_TRUE(clip.ok());
  const int64_t n = clip->samples.size();
  ASSERT_GT(n, 2205);
  EXPECT_GT(Rms(clip->samples, 0, 1102), 0.001);  // speech within 50 ms
  EXPECT_GT(Rms(clip->samples, n - 1102, n), 0.0005);
}

TEST_F(SynthTest, MarkupInTheTextIsNotObeyed) {
  auto plain = synth_->Synthesize({"sk", Timbre(), Words("a < b a b > c & d")});
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_GT(plain->samples.size(), 11025u);
}

TEST_F(SynthTest, UnknownVoiceFailsLoudly) {
  Timbre t;
  t.variant = "no-such-variant";
  auto clip = synth_->Synthesize({"xx-nope", t, Words("text")});
  EXPECT_FALSE(clip.ok());
}

TEST_F(SynthTest, TimbresDiffer) {
  Timbre low, high;
  low.pitch = 20;
  high.pitch = 80;
  high.rate = 250;
  auto a = synth_->Synthesize({"sk", low, Words("Dobrý večer, páni.")});
  auto b = synth_->Synthesize({"sk", high, Words("Dobrý večer, páni.")});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->samples.size(), b->samples.size() * 1.2);  // faster rate is shorter
}

TEST(ClipFile, RoundTripsAndRejectsPartialFiles) {
  Clip c;
  c.samples = {0, 1, -1, 32767, -32768};
  c.words = {{"slovo", 0, 3}, {"字", 3, 5}};
  const std::string path = ::testing::TempDir() + "roundtrip.clip";
  ASSERT_TRUE(WriteClip(path, c).ok());
  auto back = ReadClip(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->samples, c.samples);
  ASSERT_EQ(back->words.size(), 2u);
  EXPECT_EQ(back->words[1].text, "字");
  EXPECT_EQ(back->words[1].end, 5);
  auto summary = ReadClipSummary(path);
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(summary->length, 5);
  EXPECT_EQ(summary->words.size(), 2u);

  // One byte short, or not a clip at all: an error naming the file.
  std::string bytes = *ReadFile(path);
  ASSERT_TRUE(WriteFileAtomic(path, bytes.substr(0, bytes.size() - 1)).ok());
  EXPECT_FALSE(ReadClip(path).ok());
  EXPECT_FALSE(ReadClipSummary(path).ok());
  ASSERT_TRUE(WriteFileAtomic(path, "garbage").ok());
  EXPECT_NE(ReadClip(path).status().message().find(path), std::string::npos);
  std::remove(path.c_str());
}

TEST(ClipKey, DependsOnTextAndVoice) {
  SynthRequest a{"sk", Timbre(), Words("Áno.")};
  SynthRequest b = a;
  EXPECT_EQ(ClipKey(a), ClipKey(b));
  b.timbre.pitch = 51;
  EXPECT_NE(ClipKey(a), ClipKey(b));
  SynthRequest c{"sk", Timbre(), Words("Nie.")};
  EXPECT_NE(ClipKey(a), ClipKey(c));
  EXPECT_EQ(synth_internal::LanguageVoice("zh"), "cmn-latn-pinyin");
  EXPECT_EQ(synth_internal::LanguageVoice("sk"), "sk");
}

}  // namespace
}  // namespace narrate
