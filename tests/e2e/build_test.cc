// End to end: `narrate build` on a small two-language book, decoded and checked.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "assemble/records.h"
#include "process_util.h"

namespace {

using narrate::Manifest;
using narrate::ManifestChapter;
using narrate::ManifestUtterance;
using narrate::ReadManifest;
using narrate_test::Decode;
using narrate_test::Decoded;
using narrate_test::FileInodes;
using narrate_test::Inodes;
using narrate_test::RunNarrate;
using narrate_test::ScratchDir;
using narrate_test::WrittenFiles;

const std::string kBook = std::string(NARRATE_TEST_DATA) + "/books/mini";

double Rms(const std::vector<float>& s, size_t from, size_t to) {
  double sum = 0;
  for (size_t i = from; i < to && i < s.size(); ++i) sum += s[i] * s[i];
  return to > from ? std::sqrt(sum / (to - from)) : 0;
}

std::string Listing(const std::string& dir) {
  return narrate_test::RunShell("find " + dir + " -printf '%p %s %T@\\n' | sort").output;
}

class BuildTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    out_ = new std::string(ScratchDir() + "/out");
    before_ = new std::string(Listing(kBook));
    result_ = new narrate_test::RunResult(
        RunNarrate("build " + kBook + " -o " + *out_ + " --format wav --format flac --jobs 2"));
    manifest_ = new narrate::StatusOr<Manifest>(ReadManifest(*out_ + "/manifest.json"));
  }
  // The build's manifest (a failed read fails the test that asks for it).
  static const Manifest& manifest() { return manifest_->value(); }
  static std::string* out_;
  static std::string* before_;
  static narrate_test::RunResult* result_;
  static narrate::StatusOr<Manifest>* manifest_;
  using RunResult = narrate_test::RunResult;
};
std::string* BuildTest::out_;
std::string* BuildTest::before_;
narrate_test::RunResult* BuildTest::result_;
narrate::StatusOr<Manifest>* BuildTest::manifest_;

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_F(BuildTest, Succeeds) {
  ASSERT_EQ(result_->exit_code, 0) << result_->output;
  ASSERT_TRUE(manifest_->ok()) << manifest_->status().message();
}

// Read back and written again, manifest.json and report.json are the bytes
// the build wrote.
TEST_F(BuildTest, RecordsReadBackAndWriteTheSameBytes) {
  EXPECT_EQ(narrate::ManifestToJson(manifest()), Bytes(*out_ + "/manifest.json"));
  const narrate::StatusOr<narrate::Report> report = narrate::ReadReport(*out_ + "/report.json");
  ASSERT_TRUE(report.ok()) << report.status().message();
  EXPECT_EQ(report->files.size(), 6u);  // 2 chapters + the book, 2 formats
  EXPECT_EQ(narrate::ReportToJson(*report), Bytes(*out_ + "/report.json"));
}

TEST_F(BuildTest, ChaptersInOrderWithTitles) {
  const std::vector<ManifestChapter>& chapters = manifest().chapters;
  ASSERT_EQ(chapters.size(), 2u);
  EXPECT_EQ(chapters[0].index, 1);
  EXPECT_EQ(chapters[0].title, "春天");
  EXPECT_EQ(chapters[1].index, 2);
  EXPECT_EQ(chapters[1].title, "Jeseň");
  EXPECT_EQ(chapters[0].file.rfind("chapters/01-", 0), 0u);
  EXPECT_EQ(chapters[1].file.rfind("chapters/02-", 0), 0u);
}

TEST_F(BuildTest, EveryFileDecodesAtFortyFourKhzWithSpeech) {
  for (const ManifestChapter& c : manifest().chapters) {
    for (const char* ext : {".wav", ".flac"}) {
      std::string file = c.file;
      file = file.substr(0, file.rfind('.')) + ext;
      Decoded d = Decode(*out_ + "/" + file);
      ASSERT_EQ(d.sample_rate, 44100) << file;
      EXPECT_EQ(d.channels, 1) << file;
      // Speech present: overall RMS well above silence.
      EXPECT_GT(Rms(d.samples, 0, d.samples.size()), 0.01) << file;
    }
  }
}

TEST_F(BuildTest, ManifestDurationsMatchDecodedFilesToTheMillisecond) {
  for (const ManifestChapter& c : manifest().chapters) {
    Decoded d = Decode(*out_ + "/" + c.file);
    ASSERT_GT(d.sample_rate, 0);
    const long long ms = std::llround(d.samples.size() * 1000.0 / d.sample_rate);
    EXPECT_EQ(c.duration_ms, ms);
  }
}

TEST_F(BuildTest, UtterancesAreInOrderInsideTheirChapterAndVoiced) {
  long long last_end = -1;
  int last_chapter = 0;
  std::map<int, Decoded> audio;
  for (const ManifestChapter& c : manifest().chapters) {
    audio[c.index] = Decode(*out_ + "/" + c.file);
  }
  ASSERT_GT(manifest().utterances.size(), 6u);
  for (const ManifestUtterance& u : manifest().utterances) {
    const int chapter = u.chapter;
    if (chapter != last_chapter) last_end = -1;
    ASSERT_GE(chapter, last_chapter);
    last_chapter = chapter;
    const long long start = u.start_ms, end = u.end_ms;
    EXPECT_GT(start, last_end) << u.id;
    EXPECT_GT(end, start) << u.id;
    last_end = end;
    const Decoded& d = audio[chapter];
    const size_t a = start * d.sample_rate / 1000, b = end * d.sample_rate / 1000;
    ASSERT_LE(b, d.samples.size()) << u.id;
    EXPECT_GT(Rms(d.samples, a, b), 0.01) << u.id << " is silent";
    EXPECT_FALSE(u.voice.empty());
    EXPECT_FALSE(u.words.empty()) << u.id;
  }
}

TEST_F(BuildTest, SilenceAtHeadAndTail) {
  for (const ManifestChapter& c : manifest().chapters) {
    Decoded d = Decode(*out_ + "/" + c.file);
    const size_t head = d.sample_rate / 2, tail = d.sample_rate;
    EXPECT_LT(Rms(d.samples, 0, head), 0.001);
    EXPECT_LT(Rms(d.samples, d.samples.size() - tail, d.samples.size()), 0.001);
  }
}

TEST_F(BuildTest, BookFileHoldsAllChapters) {
  long long total = 0;
  for (const ManifestChapter& c : manifest().chapters) total += c.duration_ms;
  ASSERT_FALSE(manifest().book_files.empty());
  Decoded d = Decode(*out_ + "/" + manifest().book_files[0]);
  ASSERT_GT(d.sample_rate, 0);
  EXPECT_NEAR(d.samples.size() * 1000.0 / d.sample_rate, total, 2.0);
}

TEST_F(BuildTest, WritesNothingIntoTheBookFolder) { EXPECT_EQ(Listing(kBook), *before_); }

TEST_F(BuildTest, SameFilesWhateverTheJobsAndTheCache) {
  // One worker and a cold cache of its own, against the first build's two.
  const std::string other = ScratchDir() + "/out";
  auto r = RunNarrate("build " + kBook + " -o " + other + " --format wav --format flac --jobs 1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const ManifestChapter& c : manifest().chapters) {
    for (const std::string& file : c.files) {
      EXPECT_EQ(Bytes(*out_ + "/" + file), Bytes(other + "/" + file)) << file;
    }
  }
  EXPECT_EQ(Bytes(*out_ + "/manifest.json"), Bytes(other + "/manifest.json"));
  // And a rebuild from a warm cache changes nothing.
  auto warm =
      RunNarrate("build " + kBook + " -o " + other + " --format wav --format flac --jobs 2");
  ASSERT_EQ(warm.exit_code, 0) << warm.output;
  EXPECT_EQ(Bytes(*out_ + "/manifest.json"), Bytes(other + "/manifest.json"));
  for (const std::string& b : manifest().book_files) {
    EXPECT_EQ(Bytes(*out_ + "/" + b), Bytes(other + "/" + b)) << b;
  }
}

// After an edit, a rebuild into the old output gives the same files as a
// fresh build of the edited book; only the edited sentence is synthesized.
void ExpectEditRebuildsLikeAFreshBuild(const std::string& chapter_file, const std::string& sentence,
                                       bool head_kept) {
  const std::string dir = ScratchDir();
  narrate_test::RunShell("cp -r " + kBook + " " + dir + "/book");
  const std::string formats = " --format wav --format flac --jobs 2";
  auto first = RunNarrate("build " + dir + "/book -o " + dir + "/out" + formats);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  // A copy of that output, with a mark in the head of its WAV book file: a
  // sample of the opening silence set to 0x5555.
  narrate_test::RunShell("cp -r " + dir + "/out " + dir + "/marked");
  std::string book_wav = narrate_test::RunShell("ls " + dir + "/marked/*.wav").output;
  book_wav.erase(book_wav.find_last_not_of('\n') + 1);
  const long mark_at = 44 + 2 * 1000;
  auto sample_at = [&](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(mark_at);
    char bytes[2] = {};
    in.read(bytes, 2);
    return std::string(bytes, 2);
  };
  ASSERT_EQ(sample_at(book_wav), std::string(2, '\0'));
  {
    std::fstream marked(book_wav, std::ios::binary | std::ios::in | std::ios::out);
    marked.seekp(mark_at);
    marked.write("\x55\x55", 2);
  }

  std::ofstream(dir + "/book/text/" + chapter_file, std::ios::app) << sentence << "\n";
  const Inodes clips = FileInodes(dir + "/out/.cache");
  const Inodes keys = FileInodes(dir + "/out/.cache/chapters");
  auto edited = RunNarrate("build " + dir + "/book -o " + dir + "/out" + formats);
  ASSERT_EQ(edited.exit_code, 0) << edited.output;
  // One clip synthesized; the edited chapter assembled again, the other kept: a
  // chapter file's cache key (.cache/chapters/01-chun-tian.wav.key) is written
  // when it is assembled.
  EXPECT_EQ(WrittenFiles(clips, FileInodes(dir + "/out/.cache")).size(), 1u) << edited.output;
  const std::vector<std::string> written =
      WrittenFiles(keys, FileInodes(dir + "/out/.cache/chapters"));
  std::set<std::string> assembled, kept;  // chapter numbers ("01")
  for (const auto& [name, inode] : keys) {
    if (name.size() < 6 || !std::isdigit(static_cast<unsigned char>(name[0])) ||
        name.compare(name.size() - 4, 4, ".key") != 0) {
      continue;  // not a chapter file's key
    }
    const bool again = std::find(written.begin(), written.end(), name) != written.end();
    (again ? assembled : kept).insert(name.substr(0, 2));
  }
  EXPECT_EQ(assembled.size(), 1u) << edited.output;
  EXPECT_EQ(kept.size(), 1u) << edited.output;
  // The WAV book file keeps its head as it is (only its end is rewritten)
  // when the head did not change: the mark stays.
  auto remarked = RunNarrate("build " + dir + "/book -o " + dir + "/marked" + formats);
  ASSERT_EQ(remarked.exit_code, 0) << remarked.output;
  EXPECT_EQ(sample_at(book_wav) == "\x55\x55", head_kept);

  auto fresh = RunNarrate("build " + dir + "/book -o " + dir + "/fresh" + formats);
  ASSERT_EQ(fresh.exit_code, 0) << fresh.output;
  const narrate::StatusOr<Manifest> manifest = ReadManifest(dir + "/fresh/manifest.json");
  ASSERT_TRUE(manifest.ok()) << manifest.status().message();
  std::vector<std::string> files = {"manifest.json", "report.json", manifest->cue_sheet};
  for (const std::string& b : manifest->book_files) files.push_back(b);
  for (const ManifestChapter& c : manifest->chapters) {
    for (const std::string& f : c.files) files.push_back(f);
  }
  for (const std::string& f : files) {
    EXPECT_EQ(Bytes(dir + "/out/" + f), Bytes(dir + "/fresh/" + f)) << f;
  }
  EXPECT_EQ(narrate_test::RunShell("ls " + dir + "/out | grep -c part").output, "0\n");
}

TEST(EditRebuild, LastChapterEditedKeepsTheBookFileHead) {
  ExpectEditRebuildsLikeAFreshBuild("sk.txt", "Ďalší riadok.", true);
}

TEST(EditRebuild, FirstChapterEditedRewritesTheBookFile) {
  ExpectEditRebuildsLikeAFreshBuild("zh.txt", "又一句。", false);
}

TEST_F(BuildTest, RebuildReusesEveryClip) {
  const Inodes clips = FileInodes(*out_ + "/.cache");
  ASSERT_FALSE(clips.empty());
  auto again = RunNarrate("build " + kBook + " -o " + *out_ + " --jobs 1");
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_TRUE(WrittenFiles(clips, FileInodes(*out_ + "/.cache")).empty()) << again.output;
}

}  // namespace
