// WriteEpub on whole books: a small book with a manifest and MP3s made here,
// and the real `narrate build --epub`. epubcheck must find nothing, and every
// overlay clip is checked against the manifest.
#include <sndfile.h>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "assemble/assemble.h"
#include "assemble/epub_zip.h"
#include "assemble/outputs.h"
#include "epub_test_util.h"

namespace narrate {
namespace {

using epub_internal::ReadZip;
using epub_internal::ZipMember;
using narrate_test::XmlReader;

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

Token Tok(const std::string& text, TokenKind kind = TokenKind::kWord,
          const std::string& spoken = "", const Lang& lang = "") {
  return {kind, text, spoken.empty() ? text : spoken, lang};
}

Utterance U(const std::string& id, int paragraph, UtteranceKind kind, const Lang& lang,
            std::vector<Token> tokens) {
  Utterance u;
  u.id = id;
  u.paragraph = paragraph;
  u.kind = kind;
  u.lang = lang;
  u.voice = "narrator";
  u.tokens = std::move(tokens);
  u.text = PrintedText(u.tokens);
  u.spoken = SpokenText(u.tokens);
  return u;
}

// A two-chapter book written for this test: numbers, a French span, quoted
// speech, a section heading, markup characters, a document paragraph.
Script SmallBook() {
  const auto N = UtteranceKind::kNarration;
  const auto P = TokenKind::kPunctuation;
  const auto S = TokenKind::kSpace;
  Script script;
  script.title = "小书";
  script.author = "测试";
  script.lang = "zh";
  Chapter zh;
  zh.index = 1;
  zh.title = "春天";
  zh.lang = "zh";
  zh.source = "text/zh.txt";
  Utterance speech =
      U("c01-p0002-s01", 2, UtteranceKind::kSpeech, "zh",
        {Tok("“", P), Tok("我们"), Tok("明天"), Tok("去"), Tok("公园"), Tok("。”", P)});
  speech.speaker = "老师";
  zh.utterances = {
      U("c01-p0000-s00", 0, UtteranceKind::kHeading, "zh", {Tok("春天")}),
      U("c01-p0001-s01", 1, N, "zh",
        {Tok("1815年", TokenKind::kNumber, "一八一五年"), Tok("春天"), Tok("来了"), Tok("。", P)}),
      U("c01-p0001-s02", 1, N, "zh",
        {Tok("士兵"), Tok("高呼"), Tok("Vive", TokenKind::kForeign, "", "fr"),
         Tok(" ", S, "", "fr"), Tok("la", TokenKind::kForeign, "", "fr"), Tok(" ", S, "", "fr"),
         Tok("France", TokenKind::kForeign, "", "fr"), Tok("。", P)}),
      speech,
      U("c01-p0002-s02", 2, N, "zh",
        {Tok("大家"), Tok("都"), Tok("很"), Tok("高兴"), Tok("。", P)}),
      U("c01-p0003-s01", 3, UtteranceKind::kHeading, "zh", {Tok("第二节")}),
      U("c01-p0004-s01", 4, N, "zh", {Tok("a<b"), Tok(" & ", P), Tok("c>d"), Tok("。", P)}),
  };
  Chapter sk;
  sk.index = 2;
  sk.title = "Jeseň";
  sk.lang = "sk";
  sk.source = "text/sk.txt";
  sk.utterances = {
      U("c02-p0000-s00", 0, UtteranceKind::kHeading, "sk", {Tok("Jeseň")}),
      U("c02-p0001-s01", 1, N, "sk",
        {Tok("Na"), Tok(" ", S), Tok("jeseň"), Tok(" ", S), Tok("padá"), Tok(" ", S), Tok("lístie"),
         Tok(".", P), Tok(" ", S)}),
      U("c02-p0001-s02", 1, N, "sk",
        {Tok("Ráno"), Tok(" ", S), Tok("je"), Tok(" ", S), Tok("chladno"), Tok(".", P)}),
      U("c02-p0002-s01", 2, UtteranceKind::kDocument, "sk",
        {Tok("Milý"), Tok(" ", S), Tok("priateľ"), Tok(",", P)}),
  };
  script.chapters = {zh, sk};
  return script;
}

// A tone of `ms` milliseconds as an MP3 at 44.1 kHz.
bool WriteToneMp3(const std::string& path, int64_t ms) {
  SF_INFO info = {};
  info.samplerate = 44100;
  info.channels = 1;
  info.format = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  if (f == nullptr) return false;
  std::vector<short> samples(static_cast<size_t>(ms * 44100 / 1000));
  for (size_t i = 0; i < samples.size(); ++i) {
    samples[i] = static_cast<short>(3000 * std::sin(2 * M_PI * 220 * i / 44100.0));
  }
  sf_writef_short(f, samples.data(), static_cast<sf_count_t>(samples.size()));
  return sf_close(f) == 0;
}

// Writes the chapter MP3s that `narrate build --epub` leaves in OUT_DIR for
// the book and returns the manifest AssembleBook would (700 ms head, 800 ms a
// sentence, 300 ms pauses, 2 s tail; words carry their spaces and
// punctuation).
Manifest WriteBuild(const Script& script, const std::string& out, bool mp3 = true) {
  MakeDirs(out + "/chapters").ok();
  Manifest manifest;
  manifest.title = script.title;
  manifest.author = script.author;
  manifest.language = script.lang;
  for (const Chapter& c : script.chapters) {
    int64_t t = 700;
    for (const Utterance& u : c.utterances) {
      ManifestUtterance entry;
      const int64_t step = 800 / static_cast<int64_t>(u.tokens.size());
      int64_t w = t;
      for (const Token& token : u.tokens) {
        if (token.kind == TokenKind::kWord || token.kind == TokenKind::kNumber ||
            token.kind == TokenKind::kForeign || entry.words.empty()) {
          entry.words.push_back({token.text, w, w + step});
        } else {
          entry.words.back().text += token.text;
        }
        w += step;
      }
      entry.id = u.id;
      entry.chapter = c.index;
      entry.paragraph = u.paragraph;
      entry.kind = u.kind;
      entry.lang = u.lang;
      entry.speaker = u.speaker;
      entry.voice = u.voice;
      entry.text = u.text;
      entry.start_ms = t;
      entry.end_ms = t + 800;
      manifest.utterances.push_back(std::move(entry));
      t += 800 + 300;
    }
    const std::string stem = "chapters/" + assemble_internal::ChapterFileStem(c);
    ManifestChapter chapter;
    chapter.index = c.index;
    chapter.title = c.title;
    chapter.language = c.lang;
    chapter.file = stem + ".wav";
    chapter.files = {stem + ".wav"};
    chapter.duration_ms = t - 300 + 2000;
    if (mp3) {
      chapter.files.push_back(stem + ".mp3");
      EXPECT_TRUE(WriteToneMp3(out + "/" + stem + ".mp3", chapter.duration_ms));
    }
    manifest.chapters.push_back(std::move(chapter));
  }
  return manifest;
}

std::map<std::string, ZipMember> Members(const std::string& epub) {
  std::map<std::string, ZipMember> out;
  auto members = ReadZip(epub);
  EXPECT_TRUE(members.ok()) << members.status().message();
  if (members.ok()) {
    for (ZipMember& m : *members) out[m.name] = std::move(m);
  }
  return out;
}

// Every utterance with text has exactly one clip, in reading order, without
// overlap, within its audio file, at the manifest's times; every clip points
// to an element of its chapter document.
void CheckOverlays(const std::string& epub, const Manifest& manifest) {
  std::map<std::string, ZipMember> members = Members(epub);
  const std::string tmp = narrate_test::ScratchDir();
  for (const ManifestChapter& chapter : manifest.chapters) {
    char name[16];
    std::snprintf(name, sizeof name, "c%02d", chapter.index);
    SCOPED_TRACE(name);
    ASSERT_EQ(members.count(std::string("OEBPS/") + name + ".smil"), 1u);
    auto smil = XmlReader::Parse(members[std::string("OEBPS/") + name + ".smil"].data);
    auto xhtml = XmlReader::Parse(members[std::string("OEBPS/") + name + ".xhtml"].data);
    ASSERT_NE(smil, nullptr);
    ASSERT_NE(xhtml, nullptr);
    std::set<std::string> element_ids;
    std::vector<const narrate_test::XmlNode*> stack = {xhtml.get()};
    while (!stack.empty()) {
      const auto* n = stack.back();
      stack.pop_back();
      if (n->attributes.count("id")) element_ids.insert(n->attributes.at("id"));
      for (const auto& c : n->children) stack.push_back(&c);
    }
    std::vector<const ManifestUtterance*> expected;
    for (const ManifestUtterance& u : manifest.utterances) {
      if (u.chapter == chapter.index && u.text.find_first_not_of(" \t\n") != std::string::npos) {
        expected.push_back(&u);
      }
    }
    const auto pars = smil->All("par");
    ASSERT_EQ(pars.size(), expected.size());
    long long previous_end = 0;
    std::string audio;
    for (size_t i = 0; i < pars.size(); ++i) {
      const auto& text = pars[i]->All("text");
      const auto& clip = pars[i]->All("audio");
      ASSERT_EQ(text.size(), 1u);
      ASSERT_EQ(clip.size(), 1u);
      const std::string& id = expected[i]->id;
      EXPECT_EQ(text[0]->attributes.at("src"), std::string(name) + ".xhtml#" + id);
      EXPECT_EQ(element_ids.count(id), 1u) << id;
      const long long begin = narrate_test::ClockMs(clip[0]->attributes.at("clipBegin"));
      const long long end = narrate_test::ClockMs(clip[0]->attributes.at("clipEnd"));
      EXPECT_EQ(begin, expected[i]->start_ms) << id;
      EXPECT_EQ(end, expected[i]->end_ms) << id;
      EXPECT_GE(begin, previous_end) << id;
      EXPECT_GT(end, begin) << id;
      previous_end = end;
      audio = clip[0]->attributes.at("src");
    }
    ASSERT_EQ(members.count("OEBPS/" + audio), 1u) << audio;
    EXPECT_TRUE(members["OEBPS/" + audio].stored);
    const std::string mp3 = tmp + "/" + name + ".mp3";
    std::ofstream(mp3) << members["OEBPS/" + audio].data;
    EXPECT_LE(previous_end, narrate_test::DecodedMs(mp3));
  }
}

void ExpectEpubcheckClean(const std::string& epub) {
  const std::string check = narrate_test::EpubcheckCommand();
  ASSERT_FALSE(check.empty()) << "epubcheck is not installed (scripts/setup.sh installs it)";
  // Exit 0 with --failonwarnings: neither errors nor warnings.
  const narrate_test::RunResult r =
      narrate_test::RunShell(check + " --failonwarnings " + epub + " 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

class EpubBook : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = narrate_test::ScratchDir();
    manifest_ = WriteBuild(script_, out_);
  }
  Status Write(const std::string& stem = "mini") {
    return WriteEpub(script_, manifest_, out_, stem, &reporter_);
  }
  Script script_ = SmallBook();
  std::string out_;
  Manifest manifest_;
  CollectingReporter reporter_;
};

TEST_F(EpubBook, PassesEpubcheck) {
  ASSERT_TRUE(Write().ok());
  ExpectEpubcheckClean(out_ + "/mini.epub");
}

TEST_F(EpubBook, EverySentenceHasOneClipMatchingTheManifest) {
  ASSERT_TRUE(Write().ok());
  CheckOverlays(out_ + "/mini.epub", manifest_);
}

TEST_F(EpubBook, MimetypeComesFirstUncompressed) {
  ASSERT_TRUE(Write().ok());
  auto members = ReadZip(out_ + "/mini.epub");
  ASSERT_TRUE(members.ok());
  ASSERT_FALSE(members->empty());
  EXPECT_EQ(members->front().name, "mimetype");
  EXPECT_EQ(members->front().data, "application/epub+zip");
  EXPECT_TRUE(members->front().stored);
  EXPECT_FALSE(Exists(out_ + "/mini.epub.part"));
}

TEST_F(EpubBook, TextIsPrintedNotSpoken) {
  ASSERT_TRUE(Write().ok());
  const std::string xhtml = Members(out_ + "/mini.epub")["OEBPS/c01.xhtml"].data;
  EXPECT_NE(xhtml.find("1815年"), std::string::npos);
  EXPECT_EQ(xhtml.find("一八一五"), std::string::npos);
  EXPECT_NE(xhtml.find("a&lt;b</span> &amp; <span"), std::string::npos) << xhtml;
  EXPECT_NE(xhtml.find("class=\"speech\" data-speaker=\"老师\""), std::string::npos);
  EXPECT_NE(xhtml.find("<span xml:lang=\"fr\" lang=\"fr\">"), std::string::npos);
  EXPECT_NE(xhtml.find("<h2 id=\"c01-p0003-s01\">"), std::string::npos);
}

TEST_F(EpubBook, WordsAreMarkedWhereTheirTimingsFitTheText) {
  ASSERT_TRUE(Write().ok());
  const std::string sk = Members(out_ + "/mini.epub")["OEBPS/c02.xhtml"].data;
  EXPECT_NE(sk.find("<span id=\"c02-p0001-s02-w01\">Ráno</span> <span "
                    "id=\"c02-p0001-s02-w02\">je</span>"),
            std::string::npos)
      << sk;
}

TEST_F(EpubBook, SameInputSameBytesInAnyTimeZone) {
  ::setenv("TZ", "UTC", 1);
  ::tzset();
  ASSERT_TRUE(Write("one").ok());
  ::setenv("TZ", "Asia/Shanghai", 1);
  ::tzset();
  ASSERT_TRUE(Write("two").ok());
  ::unsetenv("TZ");
  ::tzset();
  auto one = ReadFile(out_ + "/one.epub");
  auto two = ReadFile(out_ + "/two.epub");
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_TRUE(*one == *two);
}

TEST_F(EpubBook, ChapterMissingFromTheManifestSaysToBuildWithEpub) {
  manifest_.chapters.pop_back();
  Status s = Write();
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find("manifest.json: chapter 2 \"Jeseň\" is not in the manifest"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("--epub"), std::string::npos) << s.message();
  EXPECT_FALSE(Exists(out_ + "/mini.epub"));
}

TEST_F(EpubBook, TimingOutsideTheAudioIsADataError) {
  manifest_.chapters[1].duration_ms = 100;
  Status s = Write();
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find("lies outside"), std::string::npos) << s.message();
  EXPECT_FALSE(Exists(out_ + "/mini.epub"));
}

TEST_F(EpubBook, MissingMp3SaysNoAudioYet) {
  std::remove((out_ + "/chapters/02-jesen.mp3").c_str());
  Status s = Write();
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find("02-jesen.mp3"), std::string::npos) << s.message();
  EXPECT_FALSE(Exists(out_ + "/mini.epub"));
}

TEST_F(EpubBook, BuildWithoutMp3SaysNoAudioYet) {
  const std::string out = narrate_test::ScratchDir();
  const Manifest manifest = WriteBuild(script_, out, /*mp3=*/false);
  Status s = WriteEpub(script_, manifest, out, "mini", &reporter_);
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find(out + "/manifest.json"), std::string::npos) << s.message();
}

TEST_F(EpubBook, ChapterWithoutTextIsRefused) {
  script_.chapters[1].utterances.resize(1);  // the title alone
  Status s = Write();
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find("text/sk.txt"), std::string::npos) << s.message();
  EXPECT_FALSE(Exists(out_ + "/mini.epub"));
}

TEST_F(EpubBook, ManifestOfAnotherBuildIsRefused) {
  script_.chapters[0].utterances[1].id = "c01-p0001-s09";
  Status s = Write();
  EXPECT_EQ(s.code(), StatusCode::kDataError);
  EXPECT_NE(s.message().find("c01-p0001-s09"), std::string::npos) << s.message();
}

// The real build of the test book, when the binary can write MP3.
TEST(EpubBuild, NarrateBuildEpubPassesEpubcheckAndMatchesTheManifest) {
  ASSERT_TRUE(Exists(NARRATE_BINARY)) << "no " << NARRATE_BINARY;
  const std::string out = narrate_test::ScratchDir();
  const narrate_test::RunResult r = narrate_test::RunNarrate(
      std::string("build ") + NARRATE_TEST_DATA + "/books/mini -o " + out + " --epub");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string epub = out + "/mini.epub";
  ASSERT_TRUE(Exists(epub)) << r.output;
  const StatusOr<Manifest> manifest = ReadManifest(out + "/manifest.json");
  ASSERT_TRUE(manifest.ok()) << manifest.status().message();
  CheckOverlays(epub, *manifest);
  const std::string zh = Members(epub)["OEBPS/c01.xhtml"].data;
  EXPECT_NE(zh.find("data-speaker="), std::string::npos) << zh;
  ExpectEpubcheckClean(epub);
}

}  // namespace
}  // namespace narrate
