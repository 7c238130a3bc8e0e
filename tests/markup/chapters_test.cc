// SplitSource: chapters inside one source. Each heading shape of chapters.tsv
// (Chinese and Slovak) on its own, the lines that are not headings, volumes,
// the text before the first heading, a table of contents, chapter_pattern,
// and two multi-chapter texts of our own (tests/data/chapters/) against
// hand-written gold lists, with precision and recall.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "ingest/ingest.h"
#include "markup/markup.h"
#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Normalize;

const ChapterSplit kHeadings{true, ""};

// `lines` as one source without a title, one paragraph a line from line 1.
ChapterSource Untitled(const Lang& lang, const std::vector<std::string>& lines) {
  ChapterSource s;
  s.file = "book.txt";
  s.lang = lang;
  int line = 0;
  for (const std::string& text : lines) s.paragraphs.push_back(Normalize(lang, text, ++line));
  return s;
}

std::vector<ChapterSource> Split(const Lang& lang, const std::vector<std::string>& lines,
                                 const ChapterSplit& split = kHeadings,
                                 Reporter* reporter = nullptr) {
  CollectingReporter ignored;
  return SplitSource(Untitled(lang, lines), split, reporter ? reporter : &ignored);
}

std::vector<std::string> Titles(const std::vector<ChapterSource>& chapters) {
  std::vector<std::string> titles;
  for (const ChapterSource& c : chapters) titles.push_back(PrintedText(c.title));
  return titles;
}

// `heading` between a sentence before it and one after it: two chapters, the
// second titled by the heading.
void ExpectHeading(const Lang& lang, const std::string& heading) {
  const std::string before = lang == "zh" ? "前面的一句话。" : "Predtým jedna veta.";
  const std::string after = lang == "zh" ? "后面的一句话。" : "Potom jedna veta.";
  const std::vector<ChapterSource> chapters = Split(lang, {before, heading, after});
  ASSERT_EQ(chapters.size(), 2u) << heading;
  EXPECT_EQ(PrintedText(chapters[1].title), heading);
  EXPECT_EQ(chapters[1].title_line, 2);
  ASSERT_EQ(chapters[1].paragraphs.size(), 1u);
  EXPECT_EQ(PrintedText(chapters[1].paragraphs[0].tokens), after);
  EXPECT_EQ(chapters[1].paragraphs[0].line, 3);
}

// `line` between two sentences: no chapter starts there.
void ExpectNoHeading(const Lang& lang, const std::string& line) {
  const std::string around = lang == "zh" ? "一句话。" : "Jedna veta.";
  const std::vector<ChapterSource> chapters = Split(lang, {around, line, around});
  ASSERT_EQ(chapters.size(), 1u) << line << " was taken for a heading";
  EXPECT_EQ(chapters[0].paragraphs.size(), 3u);
}

TEST(SplitSource, ChineseNumberedChapters) {
  for (const char* heading :
       {"第一章", "第1章", "第１章", "第十章", "第二十三章", "第一百零三章", "第一千零一章",
        "第103章", "第一回", "第十二回", "第廿一回", "第一节", "第一章 风雪", "第一章　风雪",
        "第一章风雪", "第１２章：重逢", "第五回　月下独行　雪中访友", "正文 第一章 风雪",
        "第七章 你好，世界"}) {
    ExpectHeading("zh", heading);
  }
}

TEST(SplitSource, ChineseNamedChapters) {
  for (const char* heading : {"序", "序章", "序言", "楔子", "引子", "尾声", "后记", "番外",
                              "番外一", "序章　开始", "楔子 旧事", "番外 春天", "尾声：雪"}) {
    ExpectHeading("zh", heading);
  }
}

TEST(SplitSource, ChineseLinesThatAreNotHeadings) {
  for (const char* line :
       {"第六回合", "第六回合开始了", "第六回合的比赛结束时，观众都站了起来。",
        "他说自己第3次来到这个小城。", "第3次", "第三章写得最好，编辑这样说。", "第一节课开始了",
        "第一章写完了。", "第二章，他说，还没写。", "1. 明天早上去车站。", "序言中说这是一本好书。",
        "后记得很清楚", "楔子是一种木片。",
        "第一章里的那个人后来去了很远很远的地方再也没有回来过谁也不知道他去了哪里她也是"
        "他们都是一样的人一样地走了一样地没有回来过"
        "也没有人问起过他"}) {
    ExpectNoHeading("zh", line);
  }
}

TEST(SplitSource, SlovakChapters) {
  for (const char* heading : {"Kapitola 1",
                              "Kapitola 12",
                              "KAPITOLA 3",
                              "Kapitola IV",
                              "Kapitola 3: Návrat",
                              "Kapitola 5. Cesta domov",
                              "Kapitola prvá",
                              "Prvá kapitola",
                              "Druhá kapitola",
                              "Dvanásta kapitola",
                              "PRVÁ KAPITOLA",
                              "1. kapitola",
                              "12. kapitola",
                              "3. kapitola Les",
                              "I.",
                              "II.",
                              "IV.",
                              "XIV.",
                              "II. Návrat",
                              "IX. Na konci cesty",
                              "Prológ",
                              "Epilóg",
                              "Doslov"}) {
    ExpectHeading("sk", heading);
  }
}

TEST(SplitSource, SlovakLinesThatAreNotHeadings) {
  for (const char* line :
       {"1. Kúpiť chlieb.", "2. Zaniesť list na poštu", "Kapitola 3 sa mu páčila najviac.",
        "Kapitola 3 sa mu páčila najviac", "Prvá kapitola jeho života sa skončila.",
        "I keď pršalo, išiel von.", "Ivan.", "II. sa nezačalo", "Kapitola", "V. Novák prišiel.",
        "Úvodom len toľko: táto kniha je vymyslená.",
        "Kapitola 7 Bola to dlhá cesta cez hory a doliny a nik nevedel kam vedie ani prečo"}) {
    ExpectNoHeading("sk", line);
  }
}

TEST(SplitSource, AVolumeHeadingIsPutBeforeItsFirstChapter) {
  const std::vector<ChapterSource> zh = Split("zh", {"卷一", "第一章 开始", "正文。", "第二章",
                                                     "正文。", "第二卷　南方", "第三章", "正文。"});
  EXPECT_EQ(Titles(zh),
            (std::vector<std::string>{"卷一 第一章 开始", "第二章", "第二卷　南方 第三章"}));
  EXPECT_EQ(zh[2].title_line, 7);
  const std::vector<ChapterSource> sk =
      Split("sk", {"Časť prvá", "Kapitola 1", "Text.", "Časť 2", "Kapitola 2", "Text.",
                   "Druhá časť", "Kapitola 3", "Text."});
  EXPECT_EQ(Titles(sk), (std::vector<std::string>{"Časť prvá Kapitola 1", "Časť 2 Kapitola 2",
                                                  "Druhá časť Kapitola 3"}));
}

TEST(SplitSource, AVolumeWithTextOfItsOwnIsAChapter) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"卷一 北方", "这一卷写北方的事。", "第一章", "正文。"});
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"卷一 北方", "第一章"}));
  EXPECT_EQ(chapters[0].paragraphs.size(), 1u);
}

TEST(SplitSource, TextBeforeTheFirstHeadingIsTheFirstChapter) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"山河", "这是一段前言。", "第一章", "正文。"});
  ASSERT_EQ(chapters.size(), 2u);
  EXPECT_TRUE(chapters[0].title.empty());  // markup titles it: 山河, its heading
  ASSERT_EQ(chapters[0].paragraphs.size(), 2u);
  EXPECT_EQ(PrintedText(chapters[0].paragraphs[0].tokens), "山河");
  EXPECT_EQ(PrintedText(chapters[1].title), "第一章");
  // Nothing before the first heading: no chapter for it.
  EXPECT_EQ(Split("zh", {"第一章", "正文。", "第二章", "正文。"}).size(), 2u);
}

TEST(SplitSource, AForewordWithoutAHeadingHasNoTitleMadeUp) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"这是一段前言，没有标题。", "第一章 开始", "正文。"});
  ASSERT_EQ(chapters.size(), 2u);
  EXPECT_TRUE(chapters[0].untitled);
  EXPECT_FALSE(chapters[1].untitled);
  CollectingReporter reporter;
  const Script script = Markup("书名", "a", chapters, Cast(), Overrides(), {}, &reporter);
  ASSERT_EQ(script.chapters.size(), 2u);
  EXPECT_EQ(script.chapters[0].title, "书名");  // named after the book, not 第一章
  ASSERT_FALSE(script.chapters[0].utterances.empty());
  EXPECT_EQ(script.chapters[0].utterances[0].kind, UtteranceKind::kNarration);
  EXPECT_EQ(script.chapters[0].utterances[0].text, "这是一段前言，没有标题。");
  EXPECT_EQ(script.chapters[1].title, "第一章 开始");
}

TEST(SplitSource, TheBookTomlTitleGoesToTheTextBeforeTheFirstHeading) {
  ChapterSource source = Untitled("sk", {"Pár slov na úvod.", "Kapitola 1", "Text."});
  source.title = Normalize("sk", "Predslov autora", 0).tokens;
  const std::vector<ChapterSource> chapters = SplitSource(source, kHeadings, nullptr);
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"Predslov autora", "Kapitola 1"}));
}

TEST(SplitSource, NoSplitKeepsTheSourceWhole) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"第一章", "正文。", "第二章", "正文。"}, ChapterSplit());
  ASSERT_EQ(chapters.size(), 1u);
  EXPECT_EQ(chapters[0].paragraphs.size(), 4u);
  // A source without a heading is one chapter however it is split.
  EXPECT_EQ(Split("sk", {"Jedna veta.", "Druhá veta."}).size(), 1u);
}

TEST(SplitSource, ATableOfContentsIsNotRead) {
  CollectingReporter reporter;
  const std::vector<ChapterSource> chapters =
      Split("zh",
            {"目录", "第一章 甲", "第二章 乙", "第三章　丙", "第一章 甲", "正文一。", "第二章 乙",
             "正文二。", "第三章 丙", "正文三。"},
            kHeadings, &reporter);
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"第一章 甲", "第二章 乙", "第三章 丙"}));
  ASSERT_EQ(reporter.diagnostics().size(), 1u);
  const Diagnostic& d = reporter.diagnostics()[0];
  EXPECT_EQ(d.severity, Severity::kInfo);
  EXPECT_EQ(d.file, "book.txt");
  EXPECT_EQ(d.line, 1);
  EXPECT_NE(d.message.find("table of contents"), std::string::npos) << d.message;

  const std::vector<ChapterSource> sk =
      Split("sk", {"Obsah", "Kapitola 1", "Kapitola 2", "Kapitola 3", "Kapitola 1", "Text.",
                   "Kapitola 2", "Text.", "Kapitola 3", "Text."});
  EXPECT_EQ(Titles(sk), (std::vector<std::string>{"Kapitola 1", "Kapitola 2", "Kapitola 3"}));
}

TEST(SplitSource, ATableOfContentsWithPageNumbersIsNotRead) {
  const std::vector<ChapterSource> zh =
      Split("zh", {"目录", "第一章 出发……1", "第二章 归来……15", "第三章 尾声 　30", "第一章 出发",
                   "正文一。", "第二章 归来", "正文二。", "第三章 尾声", "正文三。"});
  EXPECT_EQ(Titles(zh), (std::vector<std::string>{"第一章 出发", "第二章 归来", "第三章 尾声"}));
  const std::vector<ChapterSource> sk =
      Split("sk", {"Obsah", "Kapitola 1 .......... 5", "Kapitola 2 .......... 17",
                   "Kapitola 3 .......... 30", "Kapitola 1", "Text.", "Kapitola 2", "Text.",
                   "Kapitola 3", "Text."});
  EXPECT_EQ(Titles(sk), (std::vector<std::string>{"Kapitola 1", "Kapitola 2", "Kapitola 3"}));
}

TEST(SplitSource, AChapterMarkerStartsAChapterAndIsNotRead) {
  const std::vector<ChapterSource> chapters =
      Split("sk", {"#K#1#-K#", "Ondrej Tráva bol gazda.", "#K#2#-K#", "Prišla jeseň."});
  ASSERT_EQ(chapters.size(), 2u);
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"", ""}));
  EXPECT_EQ(chapters[1].paragraphs.size(), 1u);
  // Read with the language's default title.
  CollectingReporter reporter;
  const Script script = Markup("t", "a", chapters, Cast(), Overrides(), {}, &reporter);
  ASSERT_EQ(script.chapters.size(), 2u);
  EXPECT_EQ(script.chapters[1].title, "Kapitola 2");
  for (const Chapter& c : script.chapters) {
    for (const Utterance& u : c.utterances) EXPECT_EQ(u.text.find("#K#"), std::string::npos);
  }
}

TEST(SplitSource, ChapterNumbersInBrackets) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"【第一章】出发", "老周推开门。", "[第2章] 归来", "李太太笑了。"});
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"【第一章】出发", "[第2章] 归来"}));
}

TEST(SplitSource, HeadingsInARowThatDoNotComeAgainAreChapters) {
  // Short chapters with no text yet, not a table of contents.
  const std::vector<ChapterSource> chapters = Split("zh", {"第一章", "第二章", "第三章", "正文。"});
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"第一章", "第二章", "第三章"}));
}

TEST(SplitSource, AChapterPatternReplacesTheLanguageShapes) {
  const ChapterSplit split{false, "§\\s*\\d+"};
  const std::vector<ChapterSource> chapters =
      Split("sk", {"Úvod.", "§ 1", "Text.", "Kapitola 2", "Časť prvá", "§2", "Text."}, split);
  EXPECT_EQ(Titles(chapters), (std::vector<std::string>{"", "§ 1", "§2"}));
  EXPECT_EQ(chapters[1].paragraphs.size(), 3u);  // Kapitola 2 and Časť prvá are text here
  EXPECT_TRUE(CheckChapterPattern("§\\s*\\d+").ok());
  EXPECT_EQ(CheckChapterPattern("(unclosed").code(), StatusCode::kDataError);
}

TEST(SplitSource, SplitChaptersAreNumberedInTheScript) {
  const std::vector<ChapterSource> chapters =
      Split("zh", {"第一章 开始", "他来了。", "第二章 结束", "他走了。"});
  CollectingReporter reporter;
  const Script script = Markup("t", "a", chapters, Cast(), Overrides(), {}, &reporter);
  ASSERT_EQ(script.chapters.size(), 2u);
  const Chapter& second = script.chapters[1];
  EXPECT_EQ(second.index, 2);
  EXPECT_EQ(second.title, "第二章 结束");
  EXPECT_EQ(second.source, "book.txt");
  ASSERT_GE(second.utterances.size(), 2u);
  EXPECT_EQ(second.utterances[0].id, "c02-p0000-s00");
  EXPECT_EQ(second.utterances[0].kind, UtteranceKind::kHeading);
  EXPECT_EQ(second.utterances[0].line, 3);
  EXPECT_EQ(second.utterances[1].id, "c02-p0001-s01");
  EXPECT_EQ(second.utterances[1].text, "他走了。");
  EXPECT_EQ(second.utterances[1].line, 4);
}

TEST(SplitSource, ManyChaptersAreCutInOnePass) {
  std::vector<std::string> lines;
  for (int i = 1; i <= 150; ++i) {
    lines.push_back("第" + std::to_string(i) + "章 标题");
    lines.push_back("他走了很远的路。");
  }
  EXPECT_EQ(Split("zh", lines).size(), 150u);
}

// A gold row: the chapter's title and its first line of text.
struct Expected {
  std::string title;
  std::string first;
};

std::vector<Expected> ReadGold(const std::string& path) {
  std::vector<Expected> gold;
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t tab = line.find('\t');
    EXPECT_NE(tab, std::string::npos) << line;
    gold.push_back({line.substr(0, tab), line.substr(tab + 1)});
  }
  return gold;
}

// The longest common subsequence of two title lists: the headings found right.
size_t Common(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::vector<size_t>> l(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      l[i][j] = a[i - 1] == b[j - 1] ? l[i - 1][j - 1] + 1 : std::max(l[i - 1][j], l[i][j - 1]);
    }
  }
  return l[a.size()][b.size()];
}

// Splits tests/data/chapters/<name>.txt (ingested and normalized as a book
// source is) and compares it with <name>.gold.tsv.
void ExpectGold(const std::string& name, const Lang& lang) {
  const std::string dir = std::string(NARRATE_TEST_DATA) + "/chapters/";
  CollectingReporter reporter;
  StatusOr<CleanText> clean = IngestFile(dir + name + ".txt", {"", lang}, &reporter);
  ASSERT_TRUE(clean.ok()) << clean.status().message();
  ChapterSource source;
  source.file = name + ".txt";
  source.lang = lang;
  for (const Paragraph& p : clean->paragraphs) {
    source.paragraphs.push_back(Normalize(lang, p.text, p.line));
  }
  const std::vector<ChapterSource> chapters = SplitSource(source, kHeadings, &reporter);
  const std::vector<Expected> gold = ReadGold(dir + name + ".gold.tsv");
  std::vector<std::string> found, expected;
  for (const ChapterSource& c : chapters) {
    if (!c.title.empty()) found.push_back(PrintedText(c.title));
  }
  for (const Expected& e : gold) {
    if (!e.title.empty()) expected.push_back(e.title);
  }
  const size_t right = Common(found, expected);
  const double precision = found.empty() ? 1.0 : static_cast<double>(right) / found.size();
  const double recall = expected.empty() ? 1.0 : static_cast<double>(right) / expected.size();
  std::printf("%s: %zu headings found, %zu expected, %zu right: precision %.2f, recall %.2f\n",
              name.c_str(), found.size(), expected.size(), right, precision, recall);
  EXPECT_EQ(precision, 1.0) << "headings invented";
  EXPECT_EQ(recall, 1.0) << "headings missed";
  ASSERT_EQ(chapters.size(), gold.size());
  for (size_t i = 0; i < gold.size(); ++i) {
    EXPECT_EQ(PrintedText(chapters[i].title), gold[i].title) << "chapter " << i + 1;
    ASSERT_FALSE(chapters[i].paragraphs.empty()) << "chapter " << i + 1;
    EXPECT_EQ(PrintedText(chapters[i].paragraphs[0].tokens), gold[i].first) << "chapter " << i + 1;
  }
  // The table of contents is reported, where it starts.
  const auto contents = std::count_if(
      reporter.diagnostics().begin(), reporter.diagnostics().end(), [](const Diagnostic& d) {
        return d.severity == Severity::kInfo && d.line == 4 &&
               d.message.find("table of contents") != std::string::npos;
      });
  EXPECT_EQ(contents, 1);
}

TEST(SplitSource, AChineseNovelOfOurOwnMatchesItsGold) { ExpectGold("zh_novel", "zh"); }

TEST(SplitSource, ASlovakNovelOfOurOwnMatchesItsGold) { ExpectGold("sk_novel", "sk"); }

}  // namespace
}  // namespace narrate
