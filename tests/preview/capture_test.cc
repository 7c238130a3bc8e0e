// End to end: the real `narrate preview` plays through a real PortAudio
// stream into ALSA's `file` plugin (a WAV file over the `null` device), and
// what it captured is, sample for sample after the leading silence, what
// RenderTimeline (LayOutChapter) makes at 22050 Hz of the same utterances at the same rate.
// The null device is not paced in real time: no timing is asserted.
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "assemble/assemble.h"
#include "book/book.h"
#include "preview/preview.h"
#include "process_util.h"
#include "render_util.h"

namespace narrate {
namespace {

const std::string kBook = std::string(NARRATE_TEST_DATA) + "/preview/book";

constexpr const char* kAsoundConf = R"(pcm.!default {
    type plug
    slave.pcm {
        type file
        slave.pcm { type null }
        file { @func getenv vars [ PA_CAPTURE_FILE ] default "/tmp/pa_capture.wav" }
        format "wav"
    }
}
)";

struct Played {
  int exit_code = -1;
  std::string output;
  std::vector<int16_t> captured;  // empty when nothing was written
};

// Runs `narrate ARGS` (shell-safe) with ALSA pointed at the file plugin, under
// `timeout` so that a hang fails the test instead of blocking it.
Played RunPreview(const std::string& args) {
  const std::string dir = narrate_test::ScratchDir();
  std::ofstream(dir + "/asound.conf") << kAsoundConf;
  const std::string wav = dir + "/capture.wav";
  const std::string cmd = "ALSA_CONFIG_PATH=" + dir + "/asound.conf PA_CAPTURE_FILE=" + wav +
                          " NARRATE_PREVIEW_TRACE=1 timeout 120 " + NARRATE_BINARY + " " + args +
                          " </dev/null 2>&1";
  Played run;
  const narrate_test::RunResult result = narrate_test::RunShell(cmd);
  run.output = result.output;
  run.exit_code = result.exit_code;
  SF_INFO info = {};
  if (SNDFILE* f = sf_open(wav.c_str(), SFM_READ, &info)) {
    EXPECT_EQ(info.samplerate, kPreviewSampleRate);
    EXPECT_EQ(info.channels, 1);
    run.captured.resize(static_cast<size_t>(info.frames));
    sf_readf_short(f, run.captured.data(), info.frames);
    sf_close(f);
  }
  return run;
}

// Where the reference clips are kept.
const std::string& ReferenceCache() {
  static const std::string cache = [] {
    const std::string dir = narrate_test::ScratchDir() + "/reference-cache";
    EXPECT_TRUE(MakeDirs(dir).ok());
    return dir;
  }();
  return cache;
}

// A session of the book, as `narrate` opens it, keeping its clips in the
// reference cache.
BookSession& Session() {
  static const std::unique_ptr<BookSession> session = [] {
    StatusOr<Book> book = LoadBook(kBook);
    EXPECT_TRUE(book.ok());
    auto opened = BookSession::Open(*book, SessionOptions{1, ReferenceCache(), ""});
    EXPECT_TRUE(opened.ok());
    return std::move(opened).value();
  }();
  return *session;
}

// The book's script, prepared as `narrate` prepares it.
const Script& BookScript() {
  static const Script script = [] {
    CollectingReporter reporter;
    StatusOr<Script> s = Session().Prepare(&reporter);
    EXPECT_TRUE(s.ok());
    return s.ok() ? *s : Script();
  }();
  return script;
}

// What the pipeline renders at 22050 Hz for chapter `c` from utterance `first`
// at `rate` percent: the session's clips (synthesized by a worker process in
// this test, kept in the reference cache), placed where LayOutChapter puts
// them with the build's pauses.
std::vector<int16_t> Rendered(size_t c, size_t first, int rate) {
  const Chapter& chapter = BookScript().chapters.at(c);
  Chapter part = chapter;
  part.utterances.assign(chapter.utterances.begin() + first, chapter.utterances.end());
  std::vector<Clip> clips;
  for (const Utterance& u : part.utterances) {
    StatusOr<Clip> clip = Session().ClipFor(u, rate);
    EXPECT_TRUE(clip.ok()) << clip.status().message();
    clips.push_back(clip.ok() ? *clip : Clip());
  }
  return narrate_test::RenderTimeline(part, clips, PauseOptions());
}

size_t FirstNonZero(const std::vector<int16_t>& s) {
  size_t i = 0;
  while (i < s.size() && s[i] == 0) ++i;
  return i;
}

// The capture, from its first sound, equals the rendering from its first
// sound, for the `for_seconds` that were played (or until the rendering
// ends); after them the device got silence only.
void ExpectSameAudio(const Played& run, const std::vector<int16_t>& rendered, double for_seconds) {
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const size_t a = FirstNonZero(run.captured), b = FirstNonZero(rendered);
  ASSERT_LT(a, run.captured.size()) << "nothing audible was captured\n" << run.output;
  // The stream starts with the first clip; the rendering with the head pause.
  const size_t head = PauseOptions().head_ms * kPreviewSampleRate / 1000;
  ASSERT_GE(b, head);
  const size_t played = static_cast<size_t>(for_seconds * kPreviewSampleRate);
  const size_t prime = a - (b - head);  // zeros PortAudio sent before the stream
  const size_t n = std::min({run.captured.size() - a, rendered.size() - b, played - (b - head)});
  EXPECT_GE(n, played / 2);
  for (size_t i = prime + played; i < run.captured.size(); ++i) {
    ASSERT_EQ(run.captured[i], 0) << "sound after the --for limit, at " << i;
  }
  size_t mismatch = n;
  for (size_t i = 0; i < n; ++i) {
    if (run.captured[a + i] != rendered[b + i]) {
      mismatch = i;
      break;
    }
  }
  EXPECT_EQ(mismatch, n) << "first difference at sample " << mismatch << " of " << n;
  EXPECT_NE(run.output.find("underruns 0"), std::string::npos) << run.output;
}

size_t IndexOf(size_t c, const std::string& id) {
  const auto& us = BookScript().chapters.at(c).utterances;
  for (size_t i = 0; i < us.size(); ++i) {
    if (us[i].id == id) return i;
  }
  ADD_FAILURE() << "no utterance " << id;
  return 0;
}

TEST(PreviewCapture, BookStartWithAColdCacheIsWhatThePipelineRenders) {
  const Played run =
      RunPreview("preview " + kBook + " --cache /nonexistent/cache --for 5 --prebuffer 30");
  ExpectSameAudio(run, Rendered(0, 0, 100), 5);
  EXPECT_NE(run.output.find("first sound"), std::string::npos) << run.output;
}

TEST(PreviewCapture, FromAnIdInTheSecondChapter) {
  const Script& script = BookScript();
  ASSERT_EQ(script.chapters.size(), 2u);
  const std::string id = script.chapters[1].utterances.at(2).id;
  const Played run = RunPreview("preview " + kBook + " --cache /nonexistent/cache --from " + id +
                                " --for 4 --prebuffer 30");
  ExpectSameAudio(run, Rendered(1, IndexOf(1, id), 100), 4);
}

TEST(PreviewCapture, FromASnippetOfText) {
  // "孩子们常在河边捉鱼" is in the second sentence of the first paragraph.
  const Played run = RunPreview(
      "preview " + kBook + " --cache /nonexistent/cache --from 河边捉鱼 --for 3 --prebuffer 30");
  const auto& us = BookScript().chapters[0].utterances;
  size_t index = 0;
  while (index < us.size() && us[index].text.find("河边捉鱼") == std::string::npos) ++index;
  ASSERT_LT(index, us.size());
  ExpectSameAudio(run, Rendered(0, index, 100), 3);
}

TEST(PreviewCapture, ChapterOptionStartsAtTheChapterHeading) {
  const Played run = RunPreview("preview " + kBook +
                                " --cache /nonexistent/cache --chapter 2 --for 4 --prebuffer 30");
  ExpectSameAudio(run, Rendered(1, 0, 100), 4);
}

TEST(PreviewCapture, FasterRateIsThePipelineAtThatRate) {
  const Played run =
      RunPreview("preview " + kBook +
                 " --cache /nonexistent/cache --chapter 2 --rate 150 --for 4 --prebuffer 30");
  ExpectSameAudio(run, Rendered(1, 0, 150), 4);
}

TEST(PreviewCapture, WarmCacheIsReadInsteadOfSynthesized) {
  // The reference cache holds chapter 2 at 100 %: the preview reads it.
  // A clip it synthesized would be written to the cache, as a new file.
  const std::vector<int16_t> rendered = Rendered(1, 0, 100);
  const narrate_test::Inodes cache = narrate_test::FileInodes(ReferenceCache());
  ASSERT_FALSE(cache.empty());
  const Played run = RunPreview("preview " + kBook + " --cache " + ReferenceCache() +
                                " --chapter 2 --for 3 --prebuffer 30");
  ExpectSameAudio(run, rendered, 3);
  EXPECT_TRUE(narrate_test::WrittenFiles(cache, narrate_test::FileInodes(ReferenceCache())).empty())
      << run.output;
}

TEST(PreviewCapture, UnknownDeviceFailsClearlyWithoutHanging) {
  const Played run = RunPreview("preview " + kBook + " --device nosuchdevice --for 2");
  EXPECT_EQ(run.exit_code, 74) << run.output;
  EXPECT_NE(run.output.find("nosuchdevice"), std::string::npos) << run.output;
}

TEST(PreviewCapture, UnknownStartIsABadUsage) {
  const Played run = RunPreview("preview " + kBook + " --from 这句话不在书里 --for 1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("这句话不在书里"), std::string::npos) << run.output;
}

TEST(PreviewCapture, ChapterOutOfRangeIsABadUsage) {
  const Played run = RunPreview("preview " + kBook + " --chapter 9 --for 1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
}

TEST(PreviewCapture, DevicesListsTheDefaultOutput) {
  const Played run = RunPreview("devices");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("default"), std::string::npos) << run.output;
}

TEST(PreviewCapture, SaySpeaksOneText) {
  const Played run = RunPreview("say 'Dobrý deň, pán mlynár.' --lang sk --speaker female2 --for 1");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_LT(FirstNonZero(run.captured), run.captured.size()) << run.output;
}

TEST(PreviewCapture, SayRejectsAnUnknownVoice) {
  const Played run = RunPreview("say 'Dobrý deň.' --lang sk --speaker nobody --for 1");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("narrator"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace narrate
