// End to end: a finished audiobook from the small test book in MP3 and FLAC,
// checked as a listener's player and a producer's QC would: silences where the
// manifest says, QC figures, tags and chapter marks read back with TagLib,
// captions, credits. Plus a build killed with SIGKILL at moments of its
// progress and run again.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <taglib/chapterframe.h>
#include <taglib/id3v2tag.h>
#include <taglib/mpegfile.h>
#include <taglib/tableofcontentsframe.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "assemble/records.h"
#include "process_util.h"

namespace {

using narrate::FileQc;
using narrate::Manifest;
using narrate::ManifestChapter;
using narrate::ManifestUtterance;
using narrate::ManifestWord;
using narrate::Report;
using narrate::StatusOr;
using narrate_test::Decode;
using narrate_test::Decoded;
using narrate_test::RunNarrate;
using narrate_test::ScratchDir;

const std::string kBook = std::string(NARRATE_TEST_DATA) + "/books/mini";

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

double Rms(const Decoded& d, long long from_ms, long long to_ms) {
  const size_t a = from_ms * d.sample_rate / 1000, b = to_ms * d.sample_rate / 1000;
  double sum = 0;
  for (size_t i = a; i < b && i < d.samples.size(); ++i) sum += d.samples[i] * d.samples[i];
  return b > a ? std::sqrt(sum / (b - a)) : 0;
}

class AudiobookTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_ = new std::string(ScratchDir() + "/out");
    run_ = new narrate_test::RunResult(
        RunNarrate("build " + kBook + " -o " + *out_ + " --format flac --format mp3 --strict"));
    manifest_ = new StatusOr<Manifest>(narrate::ReadManifest(*out_ + "/manifest.json"));
    report_ = new StatusOr<Report>(narrate::ReadReport(*out_ + "/report.json"));
  }
  // The build's records (a failed read fails the test that asks for them).
  static const Manifest& manifest() { return manifest_->value(); }
  static const Report& report() { return report_->value(); }
  static std::string* out_;
  static narrate_test::RunResult* run_;
  static StatusOr<Manifest>* manifest_;
  static StatusOr<Report>* report_;
};
std::string* AudiobookTest::out_;
narrate_test::RunResult* AudiobookTest::run_;
StatusOr<Manifest>* AudiobookTest::manifest_;
StatusOr<Report>* AudiobookTest::report_;

TEST_F(AudiobookTest, BuildsAndPassesQcUnderStrict) {
  ASSERT_EQ(run_->exit_code, 0) << run_->output;
  ASSERT_TRUE(report_->ok()) << report_->status().message();
  ASSERT_EQ(report().files.size(), 6u);  // 2 chapters + the book, 2 formats
  for (const FileQc& f : report().files) {
    EXPECT_TRUE(f.failures.empty()) << f.file << ": " << f.failures.front();
    EXPECT_GE(f.rms_db, -23) << f.file;
    EXPECT_LE(f.rms_db, -18) << f.file;
    EXPECT_LE(f.peak_db, -3) << f.file;
    EXPECT_LE(f.noise_floor_db, -60) << f.file;
    EXPECT_GE(f.head_silence_ms, 500) << f.file;
    EXPECT_LE(f.head_silence_ms, 1000) << f.file;
    EXPECT_GE(f.tail_silence_ms, 1000) << f.file;
    EXPECT_LE(f.tail_silence_ms, 5000) << f.file;
  }
}

TEST_F(AudiobookTest, ReportFiguresMatchTheDecodedAudio) {
  for (const FileQc& f : report().files) {
    const std::string& file = f.file;
    if (file.size() < 5 || file.compare(file.size() - 5, 5, ".flac") != 0) continue;
    Decoded d = Decode(*out_ + "/" + file);
    ASSERT_GT(d.sample_rate, 0) << file;
    double sum = 0, peak = 0;
    for (float s : d.samples) {
      sum += s * s;
      peak = std::max(peak, static_cast<double>(std::fabs(s)));
    }
    EXPECT_NEAR(10 * std::log10(sum / d.samples.size()), f.rms_db, 0.05);
    EXPECT_NEAR(20 * std::log10(peak), f.peak_db, 0.05);
  }
}

TEST_F(AudiobookTest, SilentBetweenUtterancesAndVoicedInside) {
  std::map<int, Decoded> audio;
  for (const ManifestChapter& c : manifest().chapters) {
    audio[c.index] = Decode(*out_ + "/" + c.files[0]);
    ASSERT_EQ(audio[c.index].sample_rate, 44100);
  }
  const std::vector<ManifestUtterance>& u = manifest().utterances;
  for (size_t i = 0; i < u.size(); ++i) {
    const Decoded& d = audio[u[i].chapter];
    const long long start = u[i].start_ms, end = u[i].end_ms;
    EXPECT_GT(Rms(d, start, end), 0.02) << u[i].id;
    if (i + 1 < u.size() && u[i + 1].chapter == u[i].chapter) {
      const long long next = u[i + 1].start_ms;
      ASSERT_GT(next - end, 100) << u[i].id;
      // The pause: digital silence, give or take the codec's ringing.
      EXPECT_LT(Rms(d, end + 30, next - 30), 0.001) << "after " << u[i].id;
    }
  }
}

TEST_F(AudiobookTest, WordTimingsLieInsideTheirUtterance) {
  for (const ManifestUtterance& u : manifest().utterances) {
    ASSERT_FALSE(u.words.empty()) << u.id;
    std::string joined;
    long long last = u.start_ms;
    for (const ManifestWord& w : u.words) {
      EXPECT_GE(w.start_ms, last) << u.id;
      EXPECT_LE(w.end_ms, u.end_ms) << u.id;
      last = w.start_ms;
      joined += w.text;
    }
    EXPECT_EQ(joined, u.text) << u.id;
  }
}

TEST_F(AudiobookTest, CreditsOpenAndCloseTheBook) {
  const std::vector<ManifestUtterance>& u = manifest().utterances;
  ASSERT_GE(u.size(), 3u);
  EXPECT_NE(u[0].id.find("credits-open"), std::string::npos);
  EXPECT_NE(u[0].text.find("小书"), std::string::npos);
  EXPECT_NE(u[0].text.find("测试"), std::string::npos);
  // Then the chapter title, read aloud.
  EXPECT_EQ(u[1].kind, narrate::UtteranceKind::kHeading);
  EXPECT_EQ(u[1].text, "春天");
  EXPECT_EQ(u.back().text, "全书完。");
}

TEST_F(AudiobookTest, Mp3TagsAndChapterMarksReadBackWithTagLib) {
  const std::string book = *out_ + "/" + manifest().book_files[1];
  ASSERT_EQ(book.substr(book.size() - 4), ".mp3");
  TagLib::MPEG::File file(book.c_str());
  ASSERT_TRUE(file.isValid());
  EXPECT_EQ(file.audioProperties()->sampleRate(), 44100);
  EXPECT_NEAR(file.audioProperties()->bitrate(), 192, 1);
  TagLib::ID3v2::Tag* tag = file.ID3v2Tag();
  ASSERT_NE(tag, nullptr);
  EXPECT_EQ(tag->header()->majorVersion(), 4u);
  EXPECT_EQ(tag->title().to8Bit(true), "小书");
  EXPECT_EQ(tag->artist().to8Bit(true), "测试");
  const auto& chapters = tag->frameListMap()["CHAP"];
  ASSERT_EQ(chapters.size(), 2u);
  size_t i = 0;
  for (auto* frame : chapters) {
    auto* chap = dynamic_cast<TagLib::ID3v2::ChapterFrame*>(frame);
    ASSERT_NE(chap, nullptr);
    const ManifestChapter& c = manifest().chapters[i++];
    EXPECT_NEAR(chap->startTime(), c.book_start_ms, 2);
    EXPECT_NEAR(chap->endTime() - chap->startTime(), c.duration_ms, 2);
  }
  EXPECT_EQ(tag->frameListMap()["CTOC"].size(), 1u);
}

TEST_F(AudiobookTest, CaptionsFollowTheWords) {
  for (const ManifestChapter& c : manifest().chapters) {
    const std::string vtt = ReadText(*out_ + "/" + c.captions);
    ASSERT_EQ(vtt.rfind("WEBVTT\n", 0), 0u) << c.captions;
    std::regex cue(R"((\d\d):(\d\d):(\d\d)\.(\d\d\d) --> (\d\d):(\d\d):(\d\d)\.(\d\d\d))");
    long long last_end = 0;
    int cues = 0;
    for (auto it = std::sregex_iterator(vtt.begin(), vtt.end(), cue); it != std::sregex_iterator();
         ++it, ++cues) {
      auto ms = [&](int k) {
        return ((std::stoll((*it)[k]) * 60 + std::stoll((*it)[k + 1])) * 60 +
                std::stoll((*it)[k + 2])) *
                   1000 +
               std::stoll((*it)[k + 3]);
      };
      EXPECT_GE(ms(1), last_end);
      EXPECT_GT(ms(5), ms(1));
      EXPECT_LE(ms(5), c.duration_ms);
      last_end = ms(5);
    }
    EXPECT_GT(cues, 2);
  }
}

// How many files in `dir` have names ending in `suffix` (0 when there is no `dir`).
int CountFiles(const std::string& dir, const std::string& suffix) {
  int n = 0;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* entry = ::readdir(d)) {
      const std::string name = entry->d_name;
      if (name.size() > suffix.size() &&
          name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        ++n;
      }
    }
    ::closedir(d);
  }
  return n;
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Starts `narrate build` of the test book into `out` (WAV and MP3), waits until
// `reached()` holds and kills it with SIGKILL. Returns its wait status: killed
// by SIGKILL only if it was still running then; when it ends before the moment
// comes it is not killed and its exit is returned.
int KillBuildWhen(const std::string& out, const std::function<bool()>& reached) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::execl(NARRATE_BINARY, NARRATE_BINARY, "build", kBook.c_str(), "-o", out.c_str(), "--format",
            "wav", "--format", "mp3", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  while (!reached()) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    ::usleep(200);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return status;
}

// A build killed with SIGKILL at moments of its progress, each run going on
// from what the one before left, finishes when run again, with the same bytes
// as a build never interrupted. Each kill must have interrupted a build: the
// process ended by the signal and no manifest.json (written last) is there.
TEST(Resume, BuildKilledWithSigkillFinishesWhenRunAgain) {
  const std::string reference = ScratchDir() + "/out";
  auto whole = RunNarrate("build " + kBook + " -o " + reference + " --format wav --format mp3");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const int clips = CountFiles(reference + "/.cache", ".clip");
  ASSERT_GE(clips, 4);

  const std::string out = ScratchDir() + "/out";
  const std::string cache = out + "/.cache", chapters = out + "/chapters";
  const std::vector<std::pair<std::string, std::function<bool()>>> moments = {
      {"its cache folder made", [&] { return Exists(cache); }},
      {"the first clip synthesized", [&] { return CountFiles(cache, ".clip") >= 1; }},
      {"half the clips synthesized", [&] { return CountFiles(cache, ".clip") >= clips / 2; }},
      {"every clip synthesized", [&] { return CountFiles(cache, ".clip") >= clips; }},
      {"a chapter's WAV file finished", [&] { return CountFiles(chapters, ".wav") >= 1; }},
      {"a chapter's MP3 file finished", [&] { return CountFiles(chapters, ".mp3") >= 1; }},
  };
  for (const auto& [moment, reached] : moments) {
    const int status = KillBuildWhen(out, reached);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the build ended before " << moment << " (wait status " << status << ")";
    EXPECT_FALSE(Exists(out + "/manifest.json"))
        << "a finished build's manifest.json is there at " << moment;
  }
  auto again = RunNarrate("build " + kBook + " -o " + out + " --format wav --format mp3");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const StatusOr<Manifest> manifest = narrate::ReadManifest(out + "/manifest.json");
  ASSERT_TRUE(manifest.ok()) << manifest.status().message();
  for (const ManifestChapter& c : manifest->chapters) {
    for (const std::string& f : c.files) {
      Decoded d = Decode(out + "/" + f);
      ASSERT_GT(d.sample_rate, 0) << f;
      EXPECT_NEAR(d.samples.size() * 1000.0 / d.sample_rate, c.duration_ms, 2) << f;
    }
  }
  // Nothing half-written is left where a final file belongs.
  EXPECT_NE(std::system(("find " + out + " -name '*.part' | grep -q .").c_str()), 0);
  // Byte for byte what the build never interrupted wrote (the caches aside).
  auto diff = narrate_test::RunShell("diff -r -x .cache " + reference + " " + out + " 2>&1");
  EXPECT_EQ(diff.exit_code, 0) << diff.output;
}

TEST(BadChapter, UndecodableChapterFailsWithDataErrorAndTheOthersAreStillRead) {
  const std::string dir = ScratchDir() + "/book";
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/text").c_str()), 0);
  std::ofstream(dir + "/text/bad.txt", std::ios::binary)
      << std::string("\x00\x01\x02\xff\xfe\x00", 6) << std::string(200, '\0');
  std::ofstream(dir + "/text/good.txt") << "Dobrý deň.\xEF\xBF\xBD Ako sa máš?\n";
  std::ofstream(dir + "/book.toml")
      << "title = \"T\"\n[[chapters]]\nfile = \"text/bad.txt\"\nlanguage = \"sk\"\n"
         "[[chapters]]\nfile = \"text/good.txt\"\nlanguage = \"sk\"\n";
  auto r = RunNarrate("build " + dir + " -o " + ScratchDir() + "/out");
  EXPECT_EQ(r.exit_code, 65) << r.output;
  EXPECT_NE(r.output.find("bad.txt"), std::string::npos) << r.output;
  // The good chapter was still read: its own repair is reported.
  EXPECT_NE(r.output.find("good.txt:1"), std::string::npos) << r.output;
}

}  // namespace
