// LoadCast and LoadOverrides: cast.toml and overrides.toml read, and their
// errors with file and line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "book/book.h"

namespace narrate {
namespace {

std::string TempFile(const std::string& name, const std::string& content) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << content;
  return path;
}

TEST(LoadCast, ReadsSpeakersAndAliases) {
  auto cast =
      LoadCast(TempFile("cast1.toml",
                        "[narrator]\nvoice = \"male4\"\n"
                        "[[speaker]]\nname = \"拿破仑\"\ngender = \"m\"\nvoice = \"male1\"\n"
                        "aliases = [\"Napoleon\", \"Napoleona\"]\n"));
  ASSERT_TRUE(cast.ok()) << cast.status().message();
  EXPECT_EQ(cast->options.narrator, "male4");
  EXPECT_EQ(cast->options.document, "document");
  ASSERT_EQ(cast->speakers.size(), 1u);
  EXPECT_EQ(cast->speakers[0].aliases[1], "Napoleona");
}

TEST(LoadCast, SyntaxErrorNamesFileAndLine) {
  const std::string path = TempFile("cast2.toml", "[[speaker]]\nname = \"A\"\ngender = \n");
  auto cast = LoadCast(path);
  ASSERT_FALSE(cast.ok());
  EXPECT_EQ(cast.status().code(), StatusCode::kDataError);
  EXPECT_NE(cast.status().message().find(path + ":3"), std::string::npos)
      << cast.status().message();
}

TEST(LoadCast, SpeakerWithoutNameIsDataError) {
  auto cast = LoadCast(TempFile("cast3.toml", "[[speaker]]\ngender = \"m\"\n"));
  ASSERT_FALSE(cast.ok());
  EXPECT_EQ(cast.status().code(), StatusCode::kDataError);
}

TEST(LoadCast, BadGenderIsDataError) {
  auto cast = LoadCast(TempFile("cast4.toml", "[[speaker]]\nname = \"A\"\ngender = \"x\"\n"));
  EXPECT_FALSE(cast.ok());
}

TEST(LoadCast, MissingFileIsIoError) {
  auto cast = LoadCast("/nonexistent/cast.toml");
  ASSERT_FALSE(cast.ok());
  EXPECT_EQ(cast.status().code(), StatusCode::kIoError);
}

TEST(LoadOverrides, UnknownKindIsDataError) {
  const std::string path = TempFile("ov1.toml", "[[override]]\nmatch = \"x\"\nkind = \"song\"\n");
  auto o = LoadOverrides(path);
  ASSERT_FALSE(o.ok());
  EXPECT_EQ(o.status().code(), StatusCode::kDataError);
  EXPECT_NE(o.status().message().find(path + ":1"), std::string::npos) << o.status().message();
}

TEST(LoadOverrides, ReadsEntriesWithLines) {
  auto o =
      LoadOverrides(TempFile("ov2.toml", "# c\n[[override]]\nmatch = \"x\"\nspeaker = \"A\"\n"));
  ASSERT_TRUE(o.ok()) << o.status().message();
  ASSERT_EQ(o->entries.size(), 1u);
  EXPECT_EQ(o->entries[0].line, 2);
}

}  // namespace
}  // namespace narrate
