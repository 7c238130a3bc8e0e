// `narrate init`: a book folder made from text files that builds at once, its
// title and author taken from the text where it names them, never written
// over without --force.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "book/book.h"
#include "process_util.h"

namespace {

using narrate_test::RunNarrate;
using narrate_test::ScratchDir;

// Texts written for this test.
constexpr char kChinese[] =
    "书名：山城旧事\n"
    "作者：林一舟\n"
    "\n"
    "那天夜里雨下得很大。老周推开门，说：“今晚不会有人来了。”\n"
    "他的女儿放下针线，问：“爹，你听见外面的脚步声了吗？”\n";
constexpr char kSlovak[] =
    "Názov: Návrat do doliny\n"
    "Autor: Ján Hrdý\n"
    "\n"
    "Vlak prišiel neskoro večer. „Konečne doma,“ povedal Peter a vystúpil.\n";
constexpr char kMarked[] =
    "《石桥》\n"
    "陈默 著\n"
    "\n"
    "村口有一座石桥，桥下的河水终年不断。\n";

std::string Write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

TEST(Init, MakesABookFolderFromTheTextAndWhatItSays) {
  const std::string scratch = ScratchDir();
  const std::string text = Write(scratch, "shancheng.txt", kChinese);
  const std::string dir = scratch + "/book";
  const auto run = RunNarrate("init " + text + " -o " + dir);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("narrate build " + dir), std::string::npos) << run.output;

  EXPECT_EQ(Bytes(dir + "/text/shancheng.txt"), kChinese);  // byte for byte
  narrate::StatusOr<narrate::Book> book = narrate::LoadBook(dir);
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_EQ(book->title, "山城旧事");
  EXPECT_EQ(book->author, "林一舟");
  EXPECT_EQ(book->lang, "zh");
  ASSERT_EQ(book->chapters.size(), 1u);
  EXPECT_EQ(book->chapters[0].file, dir + "/text/shancheng.txt");
  ASSERT_EQ(book->cast, dir + "/cast.toml");
  EXPECT_TRUE(narrate::LoadCast(book->cast).ok());
}

TEST(Init, SlovakLabelsAndChineseTitleMarks) {
  const std::string scratch = ScratchDir();
  const auto sk =
      RunNarrate("init " + Write(scratch, "navrat.txt", kSlovak) + " -o " + scratch + "/sk");
  ASSERT_EQ(sk.exit_code, 0) << sk.output;
  narrate::StatusOr<narrate::Book> book = narrate::LoadBook(scratch + "/sk");
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_EQ(book->title, "Návrat do doliny");
  EXPECT_EQ(book->author, "Ján Hrdý");
  EXPECT_EQ(book->lang, "sk");

  const auto zh =
      RunNarrate("init " + Write(scratch, "shiqiao.txt", kMarked) + " -o " + scratch + "/zh");
  ASSERT_EQ(zh.exit_code, 0) << zh.output;
  book = narrate::LoadBook(scratch + "/zh");
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_EQ(book->title, "石桥");
  EXPECT_EQ(book->author, "陈默");
}

TEST(Init, TheFileNameWhenTheTextNamesNoTitleAndOptionsWin) {
  const std::string scratch = ScratchDir();
  const std::string text = Write(scratch, "jeseň.v1.txt", "Padal dážď. Nikto nevyšiel von.\n");
  ASSERT_EQ(RunNarrate("init " + text + " -o " + scratch + "/a").exit_code, 0);
  EXPECT_EQ(narrate::LoadBook(scratch + "/a")->title, "jeseň");
  const auto run = RunNarrate("init " + text + " -o " + scratch +
                              "/b --title 'Dážď \"v noci\"' --author 'A. B.' --lang sk");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  narrate::StatusOr<narrate::Book> book = narrate::LoadBook(scratch + "/b");
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_EQ(book->title, "Dážď \"v noci\"");  // escaped in book.toml, read back whole
  EXPECT_EQ(book->author, "A. B.");
}

TEST(Init, NeverWritesOverAFileWithoutForce) {
  const std::string scratch = ScratchDir();
  const std::string text = Write(scratch, "a.txt", kSlovak);
  const std::string dir = scratch + "/book";
  ASSERT_EQ(RunNarrate("init " + text + " -o " + dir).exit_code, 0);
  std::ofstream(dir + "/cast.toml") << "# the producer's own cast\n";
  const std::string book_toml = Bytes(dir + "/book.toml");

  const auto again = RunNarrate("init " + text + " -o " + dir);
  EXPECT_EQ(again.exit_code, 2) << again.output;
  EXPECT_NE(again.output.find(dir + "/book.toml"), std::string::npos) << again.output;
  EXPECT_EQ(Bytes(dir + "/cast.toml"), "# the producer's own cast\n");
  EXPECT_EQ(Bytes(dir + "/book.toml"), book_toml);

  ASSERT_EQ(RunNarrate("init " + text + " -o " + dir + " --force").exit_code, 0);
  EXPECT_NE(Bytes(dir + "/cast.toml"), "# the producer's own cast\n");
}

TEST(Cast, WriteAddsTheNewPeopleAndKeepsWhatIsThere) {
  const std::string scratch = ScratchDir();
  const std::string dir = scratch + "/book";
  const std::string text =
      Write(scratch, "a.txt", "李明说：“我们明天一早就走。”\n王芳问：“几点出发？”\n");
  ASSERT_EQ(RunNarrate("init " + text + " -o " + dir).exit_code, 0);
  // The producer's own cast: one person, with a comment and an alias.
  const std::string mine =
      "# my cast\n[narrator]\nvoice = \"narrator\"\n\n"
      "[[speaker]]\nname = \"李明\"   # the elder brother\ngender = \"m\"\naliases = [\"阿明\"]\n";
  std::ofstream(dir + "/cast.toml", std::ios::binary) << mine;

  const auto listed = RunNarrate("cast " + dir);
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_NE(listed.output.find("李明  m (cast)"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("王芳 (new)"), std::string::npos) << listed.output;
  EXPECT_EQ(Bytes(dir + "/cast.toml"), mine);  // without --write, nothing is written

  const auto written = RunNarrate("cast " + dir + " --write");
  ASSERT_EQ(written.exit_code, 0) << written.output;
  const std::string merged = Bytes(dir + "/cast.toml");
  EXPECT_EQ(merged.compare(0, mine.size(), mine), 0) << merged;  // kept byte for byte
  narrate::StatusOr<narrate::Cast> cast = narrate::LoadCast(dir + "/cast.toml");
  ASSERT_TRUE(cast.ok()) << cast.status().message();
  ASSERT_EQ(cast->speakers.size(), 2u);
  EXPECT_EQ(cast->speakers[0].name, "李明");
  EXPECT_EQ(cast->speakers[0].aliases, std::vector<std::string>{"阿明"});
  EXPECT_EQ(cast->speakers[1].name, "王芳");

  ASSERT_EQ(RunNarrate("cast " + dir + " --write").exit_code, 0);
  EXPECT_EQ(Bytes(dir + "/cast.toml"), merged);  // nobody new: unchanged
}

TEST(Cast, SaysWhatGivesEachGenderAndTheOtherNames) {
  const std::string scratch = ScratchDir();
  const std::string dir = scratch + "/book";
  const std::string text = Write(scratch, "a.txt",
                                 "李太太提着篮子走过来。王芳说：“菠菜最嫩。”\n"
                                 "“太贵了。”李太太说。\n"
                                 "王芳笑了，她低下头。王芳说：“那就便宜点。”\n"
                                 "“好吧。”李太太说。\n"
                                 "刘建国说：“我来了。”\n“不贵。”刘师傅笑道。\n");
  const auto made = RunNarrate("init " + text + " -o " + dir);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const std::string cast = Bytes(dir + "/cast.toml");
  EXPECT_NE(cast.find("name = \"李太太\"\ngender = \"f\"   # from: title"), std::string::npos)
      << cast;
  EXPECT_NE(cast.find("name = \"王芳\"\ngender = \"f\"   # from: pronoun"), std::string::npos)
      << cast;
  EXPECT_NE(cast.find("aliases = [\"刘师傅\"]"), std::string::npos) << cast;
  const auto listed = RunNarrate("cast " + dir);
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_NE(listed.output.find("aliases: 刘师傅"), std::string::npos) << listed.output;
}

TEST(Init, AMissingTextWritesNothing) {
  const std::string scratch = ScratchDir();
  const auto run = RunNarrate("init " + scratch + "/none.txt -o " + scratch + "/book");
  EXPECT_EQ(run.exit_code, 74) << run.output;
  EXPECT_NE(run.output.find(scratch + "/none.txt"), std::string::npos) << run.output;
  EXPECT_FALSE(Exists(scratch + "/book"));
}

// `narrate init` on a text of ours into scratch/book, then `narrate build`
// of the new book into scratch/out: what the build's manifest says.
narrate::StatusOr<narrate::Manifest> InitAndBuild(const std::string& scratch,
                                                  const std::string& name,
                                                  const std::string& text) {
  const std::string dir = scratch + "/book";
  const auto made = RunNarrate("init " + Write(scratch, name, text) + " -o " + dir);
  EXPECT_EQ(made.exit_code, 0) << made.output;
  const auto built = RunNarrate("build " + dir + " -o " + scratch + "/out --jobs 2");
  EXPECT_EQ(built.exit_code, 0) << built.output;
  return narrate::ReadManifest(scratch + "/out/manifest.json");
}

TEST(Init, TheNewBookBuildsAtOnce) {
  const std::string scratch = ScratchDir();
  narrate::StatusOr<narrate::Manifest> manifest = InitAndBuild(scratch, "s.txt", kChinese);
  ASSERT_TRUE(manifest.ok()) << manifest.status().message();
  EXPECT_EQ(manifest->title, "山城旧事");
  ASSERT_EQ(manifest->chapters.size(), 1u);
  EXPECT_TRUE(Exists(scratch + "/out/" + manifest->chapters[0].file));
}

// Issue 15, point 8: a story of two chapters in one file, and no cast: one
// audio file per chapter, each main speaker in a timbre of their own, no
// speech in the narrator's.
constexpr char kStory[] =
    "第一章 雨夜\n"
    "老周推开门，抖了抖伞上的水。李太太迎上来问：“怎么才回来？”\n"
    "“路上积水了，”老周说，“车开不过去。”\n"
    "小军从里屋跑出来，喊道：“爸，你给我带糖了吗？”\n"
    "老周笑着说：“带了，在口袋里。”\n"
    "第二章 天晴\n"
    "第二天早上，李太太对小军说：“快起来，要迟到了。”\n"
    "小军揉着眼睛说：“再睡五分钟。”\n"
    "“一分钟也不行。”李太太说。\n";

TEST(Init, AStoryOfChaptersGetsAFileEachAndAVoicePerSpeaker) {
  const std::string scratch = ScratchDir();
  narrate::StatusOr<narrate::Manifest> manifest = InitAndBuild(scratch, "story.txt", kStory);
  ASSERT_TRUE(manifest.ok()) << manifest.status().message();
  ASSERT_EQ(manifest->chapters.size(), 2u);
  EXPECT_EQ(manifest->chapters[0].title, "第一章 雨夜");
  EXPECT_EQ(manifest->chapters[1].title, "第二章 天晴");
  for (const auto& c : manifest->chapters)
    EXPECT_TRUE(Exists(scratch + "/out/" + c.file)) << c.file;
  std::map<std::string, std::set<std::string>> voices;  // speaker -> timbres
  std::string narrator;
  for (const auto& u : manifest->utterances) {
    if (u.kind == narrate::UtteranceKind::kHeading) narrator = u.voice;
    if (u.kind == narrate::UtteranceKind::kSpeech && u.speaker) voices[*u.speaker].insert(u.voice);
  }
  ASSERT_FALSE(narrator.empty());
  std::set<std::string> used;
  for (const char* who : {"老周", "李太太", "小军"}) {
    ASSERT_EQ(voices[who].size(), 1u) << who;
    EXPECT_NE(*voices[who].begin(), narrator) << who;
    EXPECT_TRUE(used.insert(*voices[who].begin()).second) << who << " shares a timbre";
  }
  for (const auto& u : manifest->utterances) {
    if (u.kind == narrate::UtteranceKind::kSpeech) EXPECT_NE(u.voice, narrator) << u.text;
  }
}

}  // namespace
