// Unit tests for the shared core: Status, StatusOr, diagnostics, files, hashing.
#include "core/core.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace narrate {
namespace {

std::string Scratch() {
  char tmpl[] = "/tmp/narrate-core-XXXXXX";
  return ::mkdtemp(tmpl);
}

TEST(Status, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.exit_code(), 0);
}

TEST(Status, ExitCodesFollowTheContract) {
  EXPECT_EQ(Status::Failure("x").exit_code(), 1);
  EXPECT_EQ(Status::Usage("x").exit_code(), 2);
  EXPECT_EQ(Status::DataError("x").exit_code(), 65);
  EXPECT_EQ(Status::IoError("x").exit_code(), 74);
  EXPECT_EQ(Status::IoError("a.txt: gone").message(), "a.txt: gone");
}

TEST(StatusOr, HoldsAValueOrAnError) {
  StatusOr<int> v = 7;
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(*v, 7);
  EXPECT_TRUE(v.status().ok());
  StatusOr<int> e = Status::DataError("bad");
  EXPECT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kDataError);
  EXPECT_EQ(e.status().message(), "bad");
}

TEST(Diagnostic, FormatsFileLineMessage) {
  EXPECT_EQ((Diagnostic{Severity::kWarning, "a.txt", 3, "odd"}).ToString(), "a.txt:3: odd");
  EXPECT_EQ((Diagnostic{Severity::kWarning, "a.txt", 0, "odd"}).ToString(), "a.txt: odd");
  EXPECT_EQ((Diagnostic{Severity::kWarning, "", 0, "odd"}).ToString(), "odd");
}

TEST(CollectingReporter, KeepsOrder) {
  CollectingReporter r;
  r.Report({Severity::kInfo, "f", 1, "one"});
  r.Report({Severity::kError, "f", 2, "two"});
  ASSERT_EQ(r.diagnostics().size(), 2u);
  EXPECT_EQ(r.diagnostics()[1].message, "two");
}

TEST(Tokens, SpokenAndPrintedJoin) {
  std::vector<Token> t = {{TokenKind::kNumber, "1814", "一八一四", ""},
                          {TokenKind::kWord, "年", "年", ""}};
  EXPECT_EQ(PrintedText(t), "1814年");
  EXPECT_EQ(SpokenText(t), "一八一四年");
}

TEST(UtteranceKind, Names) {
  EXPECT_STREQ(ToString(UtteranceKind::kHeading), "heading");
  EXPECT_STREQ(ToString(UtteranceKind::kNarration), "narration");
  EXPECT_STREQ(ToString(UtteranceKind::kSpeech), "speech");
  EXPECT_STREQ(ToString(UtteranceKind::kDocument), "document");
}

TEST(Files, AtomicWriteReplacesWholeAndLeavesNoTemporary) {
  const std::string dir = Scratch();
  const std::string path = dir + "/a.txt";
  ASSERT_TRUE(WriteFileAtomic(path, "first").ok());
  ASSERT_TRUE(WriteFileAtomic(path, "second").ok());
  StatusOr<std::string> read = ReadFile(path);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, "second");
  EXPECT_EQ(std::system(("test $(ls " + dir + " | wc -l) -eq 1").c_str()), 0);
}

TEST(Files, ErrorsNameThePath) {
  StatusOr<std::string> read = ReadFile("/nonexistent/x.txt");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), StatusCode::kIoError);
  EXPECT_NE(read.status().message().find("/nonexistent/x.txt"), std::string::npos);
  Status w = WriteFileAtomic("/nonexistent/dir/x.txt", "data");
  EXPECT_EQ(w.code(), StatusCode::kIoError);
  EXPECT_NE(w.message().find("/nonexistent/dir/x.txt"), std::string::npos);
}

TEST(Files, MakeDirsCreatesParentsAndRejectsFiles) {
  const std::string dir = Scratch();
  EXPECT_TRUE(MakeDirs(dir + "/a/b/c").ok());
  EXPECT_TRUE(MakeDirs(dir + "/a/b/c").ok());
  ASSERT_TRUE(WriteFileAtomic(dir + "/file", "x").ok());
  EXPECT_EQ(MakeDirs(dir + "/file/sub").code(), StatusCode::kIoError);
}

TEST(Files, ReadTsvSkipsCommentsAndChecksWidth) {
  const std::string dir = Scratch();
  ASSERT_TRUE(
      WriteFileAtomic(dir + "/a.tsv", "# comment\r\nzh\t重庆\tchong2qing4\r\n\nsk\tsv.\n").ok());
  auto rows = ReadTsv(dir + "/a.tsv", 2, 3);
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].line, 2);
  EXPECT_EQ((*rows)[0].fields, (std::vector<std::string>{"zh", "重庆", "chong2qing4"}));
  EXPECT_EQ((*rows)[1].line, 4);
  auto strict = ReadTsv(dir + "/a.tsv", 3, 3);
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().code(), StatusCode::kDataError);
  EXPECT_NE(strict.status().message().find(dir + "/a.tsv:4:"), std::string::npos)
      << strict.status().message();
  EXPECT_EQ(ReadTsv(dir + "/missing.tsv", 1, 1).status().code(), StatusCode::kIoError);
}

TEST(Hash, Fnv1aKnownValuesAndHex) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(HexHash("a"), "af63dc4c8601ec8c");
  EXPECT_NE(HexHash("a"), HexHash("b"));
}

TEST(SharedLibrary, LoadsBindsAndSaysWhatIsMissing) {
  double (*cosine)(double) = nullptr;
  SharedLibrary math({"libnarrate-none.so.0", "libm.so.6"}, "the maths library", "libc6");
  math.Bind("cos", &cosine);
  ASSERT_TRUE(math.error().empty()) << math.error();
  ASSERT_NE(cosine, nullptr);
  EXPECT_DOUBLE_EQ(cosine(0.0), 1.0);

  void (*missing)() = nullptr;
  math.Bind("narrate_no_such_function", &missing);
  EXPECT_EQ(missing, nullptr);
  EXPECT_NE(math.error().find("narrate_no_such_function"), std::string::npos) << math.error();

  SharedLibrary none({"libnarrate-none.so.0"}, "NoLib", "nolib1");
  none.Bind("cos", &cosine);
  EXPECT_EQ(cosine, nullptr);
  // Names the library and the package that has it.
  EXPECT_NE(none.error().find("NoLib"), std::string::npos) << none.error();
  EXPECT_NE(none.error().find("nolib1"), std::string::npos) << none.error();
}

}  // namespace
}  // namespace narrate
