// The command-line contracts other tools rely on: `narrate mark` JSON lines
// with exactly the documented fields, `narrate normalize` one spoken paragraph
// a line with diagnostics on stderr, and book.toml's skip_glosses.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <utility>

#include "process_util.h"

namespace {

using narrate_test::RunNarrate;
using narrate_test::ScratchDir;
using nlohmann::json;

const std::string kSample = std::string(NARRATE_SOURCE_DIR) + "/books/napoleon";

std::vector<json> MarkLines(const std::string& args) {
  auto r = narrate_test::RunNarrateRedirected("mark " + args + " 2>/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::vector<json> lines;
  std::istringstream in(r.output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(json::parse(line, nullptr, false));
  }
  return lines;
}

TEST(Mark, ReviewListsTheSpeechesLeastConfidentFirst) {
  const auto run = narrate_test::RunNarrateRedirected("mark " + kSample + " --review 2>/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::istringstream in(run.output);
  std::vector<double> confidences;
  int contexts = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("    ", 0) == 0) {
      ++contexts;  // the line of context: file:line: text
      EXPECT_NE(line.find(".txt:"), std::string::npos) << line;
      continue;
    }
    confidences.push_back(std::stod(line));
  }
  size_t speeches = 0;
  for (const json& u : MarkLines(kSample)) speeches += u["kind"] == "speech";
  EXPECT_EQ(confidences.size(), speeches);
  EXPECT_EQ(contexts, static_cast<int>(speeches));
  EXPECT_TRUE(std::is_sorted(confidences.begin(), confidences.end()));
  EXPECT_LT(confidences.front(), confidences.back());
}

TEST(Mark, JsonLinesHaveExactlyTheDocumentedFields) {
  std::set<std::string> fields = {"id",   "chapter", "chapter_title", "paragraph",
                                  "kind", "speaker", "gender",        "voice",
                                  "lang", "text",    "spoken"};
  std::set<std::string> speech_fields = fields;
  speech_fields.insert({"confidence", "evidence"});
  std::vector<json> lines = MarkLines(kSample);
  ASSERT_GT(lines.size(), 200u);
  std::set<std::string> kinds;
  for (const json& u : lines) {
    ASSERT_TRUE(u.is_object());
    std::set<std::string> keys;
    for (auto it = u.begin(); it != u.end(); ++it) keys.insert(it.key());
    EXPECT_EQ(keys, u["kind"] == "speech" ? speech_fields : fields) << u.dump();
    if (u["kind"] == "speech") {
      EXPECT_GE(u["confidence"].get<double>(), 0.0) << u.dump();
      EXPECT_LE(u["confidence"].get<double>(), 1.0) << u.dump();
      EXPECT_EQ(u["confidence"].get<double>() == 0.0, u["speaker"] == "unknown") << u.dump();
    }
    kinds.insert(u["kind"].get<std::string>());
    if (u["kind"] == "narration" || u["kind"] == "heading") {
      EXPECT_TRUE(u["speaker"].is_null()) << u.dump();
    }
    // Nothing unreadable and no numbers in digits reach the synthesizer (the
    // lexicon's numbered pinyin, such as shou3du1, carries tone digits).
    const std::string spoken = u["spoken"];
    EXPECT_EQ(spoken.find("\xEF\xBF\xBD"), std::string::npos) << u["id"];
    EXPECT_FALSE(std::regex_search(spoken, std::regex("(^|[^a-z0-9])[0-9]")))
        << u["id"] << " " << spoken;
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"heading", "narration", "speech", "document"}));
}

TEST(Mark, TextFormatIsAReadableScript) {
  auto r = narrate_test::RunNarrateRedirected("mark " + kSample + " --format text 2>/dev/null");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("## 1. 巴黎陷落"), std::string::npos);
  EXPECT_NE(r.output.find("[拿破仑] "), std::string::npos);
}

// `narrate mark FILE` cuts a single file at its headings: one chapter per
// heading of tests/data/chapters/*.gold.tsv, titled by it.
TEST(Mark, ASingleFileComesOutChaptered) {
  const std::string data = std::string(NARRATE_TEST_DATA) + "/chapters/";
  const std::vector<std::pair<std::string, std::vector<std::string>>> books = {
      {"zh_novel",
       {"山河故人", "楔子", "第一卷 北方 第一章 风雪夜归人", "第二章　旧信", "第3章重逢",
        "卷二　南方 第4章 远行", "第一百零三章 梦", "后记"}},
      {"sk_novel",
       {"Dom pri rieke", "Časť prvá Prvá kapitola", "Druhá kapitola", "3. kapitola",
        "Časť druhá Kapitola 4", "I.", "II. Návrat", "Epilóg"}}};
  for (const auto& [name, titles] : books) {
    std::vector<std::string> found;
    for (const json& u : MarkLines(data + name + ".txt")) {
      const size_t chapter = u["chapter"].get<size_t>();
      if (chapter > found.size()) found.push_back(u["chapter_title"].get<std::string>());
      EXPECT_EQ(chapter, found.size()) << u["id"];
      // The table of contents is not read.
      EXPECT_NE(u["text"], "目录");
      EXPECT_NE(u["text"], "Obsah");
    }
    EXPECT_EQ(found, titles) << name;
    auto r = narrate_test::RunNarrateRedirected("mark " + data + name + ".txt 2>&1 >/dev/null");
    EXPECT_NE(r.output.find(name + ".txt:4: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("table of contents"), std::string::npos) << r.output;
  }
  // `narrate normalize` prints every line, headings and contents too.
  auto normalized =
      narrate_test::RunNarrateRedirected("normalize " + data + "zh_novel.txt 2>/dev/null");
  ASSERT_EQ(normalized.exit_code, 0);
  EXPECT_EQ(std::count(normalized.output.begin(), normalized.output.end(), '\n'), 35);
}

TEST(Normalize, OneSpokenParagraphALineDiagnosticsOnStderr) {
  const std::string file = kSample + "/text/003_51cec20454eba82e.txt";
  auto out = narrate_test::RunNarrateRedirected("normalize " + file + " 2>/dev/null");
  ASSERT_EQ(out.exit_code, 0);
  // 22 source lines, the garbled first one dropped.
  EXPECT_EQ(std::count(out.output.begin(), out.output.end(), '\n'), 21);
  EXPECT_FALSE(std::regex_search(out.output, std::regex("[0-9]")));
  for (const char* digit : {"０", "１", "２", "３", "４", "５", "６", "７", "８", "９"}) {
    EXPECT_EQ(out.output.find(digit), std::string::npos) << digit;
  }
  EXPECT_NE(out.output.find("三月二十五日"), std::string::npos);
  auto err = narrate_test::RunNarrateRedirected("normalize " + file + " 2>&1 >/dev/null");
  EXPECT_NE(err.output.find(file + ":1:"), std::string::npos) << err.output;
  EXPECT_NE(err.output.find(file + ":22:"), std::string::npos) << err.output;
}

TEST(Normalize, LegacyEncodingsSayWhatTheirUtf8CopySays) {
  const std::string dir = ScratchDir();
  for (const auto& [file, encoding] :
       {std::pair<std::string, std::string>{"000_b362695813637752.txt", "GB18030"},
        {"004_11f133fc86e9e1cf.txt", "CP1250"}}) {
    const std::string utf8 = kSample + "/text/" + file;
    const std::string legacy = dir + "/" + file;
    ASSERT_EQ(std::system(("iconv -f UTF-8 -t " + encoding + " " + utf8 + " > " + legacy).c_str()),
              0);
    auto a = narrate_test::RunNarrateRedirected("normalize " + utf8 + " 2>/dev/null");
    auto b = narrate_test::RunNarrateRedirected("normalize " + legacy + " 2>/dev/null");
    ASSERT_EQ(b.exit_code, 0) << encoding;
    EXPECT_GT(a.output.size(), 1000u);
    EXPECT_EQ(a.output, b.output) << encoding;
  }
}

TEST(BookToml, SkipGlossesLeavesForeignGlossesUnread) {
  const std::string dir = ScratchDir() + "/book";
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/text").c_str(), 0755);
  std::ofstream(dir + "/text/a.txt") << "他在埃松河（the River Essonne）边扎营。\n";
  const std::string head = "title = \"T\"\n";
  const std::string chapter = "[[chapters]]\nfile = \"text/a.txt\"\nlanguage = \"zh\"\n";
  std::ofstream(dir + "/book.toml") << head << chapter;
  std::string read;
  for (const json& u : MarkLines(dir)) read += u["spoken"].get<std::string>();
  EXPECT_NE(read.find("River Essonne"), std::string::npos) << read;
  std::ofstream(dir + "/book.toml") << head << "skip_glosses = true\n" << chapter;
  std::string skipped;
  for (const json& u : MarkLines(dir)) skipped += u["spoken"].get<std::string>();
  EXPECT_EQ(skipped.find("River Essonne"), std::string::npos) << skipped;
  EXPECT_NE(skipped.find("边扎营"), std::string::npos) << skipped;
}

// The chapter sources are read on several threads; what they report comes
// out in book order, the same every time.
TEST(Mark, DiagnosticsComeInBookOrder) {
  const std::string dir = ScratchDir();
  ::mkdir((dir + "/text").c_str(), 0755);
  std::string toml = "title = \"T\"\n";
  std::vector<std::string> files;
  for (int c = 0; c < 6; ++c) {
    const bool zh = c % 2 == 0;
    const std::string file = "text/" + std::to_string(c) + ".txt";
    // A replacement character, reported with the file and line it is on.
    const std::string line = zh ? "这里有一个坏字符\xef\xbf\xbd。" : "Tu je zlý znak\xef\xbf\xbd.";
    std::ofstream(dir + "/" + file) << std::string(c, '\n') << line << "\n";
    toml += "[[chapters]]\nfile = \"" + file + "\"\nlanguage = \"" + (zh ? "zh" : "sk") + "\"\n";
    files.push_back(dir + "/" + file + ":" + std::to_string(c + 1) + ": removed 1 replacement");
  }
  std::ofstream(dir + "/book.toml") << toml;
  std::string first;
  for (int run = 0; run < 4; ++run) {
    auto r = narrate_test::RunNarrateRedirected("mark " + dir + " 2>&1 >/dev/null");
    ASSERT_EQ(r.exit_code, 0) << r.output;
    size_t at = 0;
    for (const std::string& f : files) {
      const size_t found = r.output.find(f, at);
      ASSERT_NE(found, std::string::npos) << f << " after " << at << " in\n" << r.output;
      at = found;
    }
    if (run == 0) first = r.output;
    EXPECT_EQ(r.output, first);
  }
}

}  // namespace
