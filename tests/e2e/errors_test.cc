// Bad input gets a clear message naming the file, and the documented exit code.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "process_util.h"

namespace {

using narrate_test::RunNarrate;
using narrate_test::ScratchDir;

void Write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A scratch book with one chapter; returns its folder.
std::string MakeBook(const std::string& toml) {
  const std::string dir = ScratchDir() + "/book";
  ::mkdir(dir.c_str(), 0755);
  ::mkdir((dir + "/text").c_str(), 0755);
  Write(dir + "/text/a.txt", "Toto je krátka kapitola.\n");
  Write(dir + "/book.toml", toml);
  return dir;
}

TEST(Errors, MissingBookFolderIsAnIoError) {
  auto r = RunNarrate("build /nonexistent/book -o " + ScratchDir());
  EXPECT_EQ(r.exit_code, 74);
  EXPECT_NE(r.output.find("/nonexistent/book"), std::string::npos) << r.output;
}

TEST(Errors, TomlSyntaxErrorNamesTheLine) {
  const std::string dir = MakeBook("title = \"T\"\n\n[[chapters]]\nfile = text/a.txt\n");
  auto r = RunNarrate("build " + dir + " -o " + ScratchDir());
  EXPECT_EQ(r.exit_code, 65) << r.output;
  EXPECT_NE(r.output.find("book.toml:4"), std::string::npos) << r.output;
}

TEST(Errors, MissingChapterFileIsNamed) {
  const std::string dir =
      MakeBook("title = \"T\"\n[[chapters]]\nfile = \"text/missing.txt\"\nlanguage = \"sk\"\n");
  auto r = RunNarrate("build " + dir + " -o " + ScratchDir());
  EXPECT_EQ(r.exit_code, 74) << r.output;
  EXPECT_NE(r.output.find("missing.txt"), std::string::npos) << r.output;
}

TEST(Errors, UnsupportedLanguageNamesTheLine) {
  const std::string dir =
      MakeBook("title = \"T\"\n[[chapters]]\nfile = \"text/a.txt\"\nlanguage = \"de\"\n");
  auto r = RunNarrate("build " + dir + " -o " + ScratchDir());
  EXPECT_EQ(r.exit_code, 65) << r.output;
  EXPECT_NE(r.output.find("book.toml:2"), std::string::npos) << r.output;
}

TEST(Errors, UnwritableOutputFolder) {
  const std::string dir =
      MakeBook("title = \"T\"\n[[chapters]]\nfile = \"text/a.txt\"\nlanguage = \"sk\"\n");
  // A regular file where a folder should be: not writable even for root.
  const std::string blocker = ScratchDir() + "/file";
  Write(blocker, "x");
  auto r = RunNarrate("build " + dir + " -o " + blocker + "/out");
  EXPECT_EQ(r.exit_code, 74) << r.output;
  EXPECT_NE(r.output.find(blocker), std::string::npos) << r.output;
}

TEST(Errors, OutputInsideTheBookFolderIsRefused) {
  const std::string dir =
      MakeBook("title = \"T\"\n[[chapters]]\nfile = \"text/a.txt\"\nlanguage = \"sk\"\n");
  auto r = RunNarrate("build " + dir + " -o " + dir + "/out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(::access((dir + "/out").c_str(), F_OK), 0);
}

TEST(Errors, BadUsageExitsTwo) {
  EXPECT_EQ(RunNarrate("build").exit_code, 2);
  EXPECT_EQ(RunNarrate("build x --format ogg").exit_code, 2);
  EXPECT_EQ(RunNarrate("frobnicate").exit_code, 2);
}

TEST(Help, ExplainsEveryOptionWithAnExample) {
  auto top = RunNarrate("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("narrate build books/napoleon"), std::string::npos);
  auto build = RunNarrate("build --help");
  EXPECT_EQ(build.exit_code, 0);
  for (const char* option : {"--output", "--format", "--jobs", "--cache", "Example"}) {
    EXPECT_NE(build.output.find(option), std::string::npos) << option;
  }
}

}  // namespace
