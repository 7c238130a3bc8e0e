// book.toml's split and chapter_pattern on a chapter source, a single file
// cut at its headings (BookFromFile) through a session, and init's split.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "book/book.h"

namespace narrate {
namespace {

// A book folder whose one source has `settings` (TOML lines) and `text`.
std::string MakeBook(const std::string& settings, const std::string& text) {
  char tmpl[] = "/tmp/narrate-book-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  std::ofstream(dir + "/book.toml") << "title = \"t\"\nlanguage = \"zh\"\n\n"
                                       "[[chapters]]\nfile = \"a.txt\"\n"
                                    << settings;
  std::ofstream(dir + "/a.txt") << text;
  return dir;
}

const char kText[] = "第一章 开始\n他来了。\n\n第二章 结束\n他走了。\n";

TEST(LoadBook, SplitAndChapterPatternAreRead) {
  StatusOr<Book> none = LoadBook(MakeBook("", kText));
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_FALSE(none->chapters[0].split.Splits());
  StatusOr<Book> headings = LoadBook(MakeBook("split = \"headings\"\n", kText));
  ASSERT_TRUE(headings.ok()) << headings.status().message();
  EXPECT_TRUE(headings->chapters[0].split.headings);
  StatusOr<Book> pattern = LoadBook(MakeBook("chapter_pattern = \"第.+章.*\"\n", kText));
  ASSERT_TRUE(pattern.ok()) << pattern.status().message();
  EXPECT_EQ(pattern->chapters[0].split.pattern, "第.+章.*");
  EXPECT_TRUE(pattern->chapters[0].split.Splits());
}

TEST(LoadBook, BadSplitSettingsAreDataErrorsNamingTheLine) {
  for (const char* settings : {"split = \"chapters\"\n", "split = true\n",
                               "chapter_pattern = \"(第\"\n", "chapter_pattern = \"\"\n"}) {
    const std::string dir = MakeBook(settings, kText);
    StatusOr<Book> book = LoadBook(dir);
    ASSERT_FALSE(book.ok()) << settings;
    EXPECT_EQ(book.status().code(), StatusCode::kDataError);
    EXPECT_NE(book.status().message().find(dir + "/book.toml:6"), std::string::npos)
        << book.status().message();
  }
}

TEST(BookSession, ASplitSourceGivesOneChapterPerHeading) {
  StatusOr<Book> book = LoadBook(MakeBook("split = \"headings\"\n", kText));
  ASSERT_TRUE(book.ok()) << book.status().message();
  auto session = BookSession::Open(*book, SessionOptions());
  ASSERT_TRUE(session.ok()) << session.status().message();
  CollectingReporter reporter;
  StatusOr<Script> script = (*session)->Prepare(&reporter);
  ASSERT_TRUE(script.ok()) << script.status().message();
  ASSERT_EQ(script->chapters.size(), 2u);
  EXPECT_EQ(script->chapters[0].title, "第一章 开始");
  EXPECT_EQ(script->chapters[1].title, "第二章 结束");
  EXPECT_EQ(script->chapters[1].source, book->chapters[0].file);
}

TEST(BookFromFile, ASingleFileIsCutAtItsHeadings) {
  const std::string dir = MakeBook("", kText);
  StatusOr<Book> book = BookFromFile(dir + "/a.txt", "");
  ASSERT_TRUE(book.ok()) << book.status().message();
  EXPECT_TRUE(book->chapters[0].split.headings);
  StatusOr<Book> said = BookFromText(kText, "");
  ASSERT_TRUE(said.ok());
  EXPECT_FALSE(said->chapters[0].split.Splits());
}

TEST(InitBook, EachSourceIsSplitAtItsHeadings) {
  const std::string dir = MakeBook("", kText);
  InitOptions options;
  options.texts = {dir + "/a.txt"};
  options.dir = dir + "/made";
  StatusOr<InitResult> made = InitBook(options);
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_TRUE(made->book.chapters[0].split.headings);
  EXPECT_EQ(made->script.chapters.size(), 2u);
  StatusOr<Book> loaded = LoadBook(options.dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_TRUE(loaded->chapters[0].split.headings);  // as its book.toml says
}

}  // namespace
}  // namespace narrate
