// cast.toml and overrides.toml: loading, errors with file:line, automatic
// casting and producer corrections.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Find;
using testing_util::Mark;

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

TEST(Casting, UnknownSpeakersGetDistinctVoicesByGender) {
  auto s = Mark("zh", {"老王笑道：“来了。”", "老李笑道：“走了。”", "她笑道：“好的。”"});
  const Utterance* a = Find(s, "来了");
  const Utterance* b = Find(s, "走了");
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->voice, b->voice);
  EXPECT_NE(a->voice, "narrator");
}

TEST(Casting, SameVoiceEveryRun) {
  auto s1 = Mark("zh", {"老王笑道：“来了。”", "老李笑道：“走了。”"});
  auto s2 = Mark("zh", {"老王笑道：“来了。”", "老李笑道：“走了。”"});
  EXPECT_EQ(Find(s1, "走了")->voice, Find(s2, "走了")->voice);
}

TEST(Casting, CastVoiceAndGenderWin) {
  Cast cast = testing_util::NapoleonCast();
  cast.speakers[0].voice = "male3";
  auto s = Mark("zh", {"拿破仑说：“走。”"}, cast);
  EXPECT_EQ(Find(s, "走")->voice, "male3");
  EXPECT_EQ(Find(s, "走")->gender, "m");
}

TEST(Casting, WomanGetsFemaleVoice) {
  auto s = Mark("zh", {"玛丽说：“好。”"}, testing_util::NapoleonCast());
  EXPECT_EQ(Find(s, "好")->voice.rfind("female", 0), 0u);
}

TEST(Casting, NarrationAndHeadingsUseNarratorVoice) {
  Cast cast;
  cast.options.narrator = "male4";
  auto s = Mark("zh", {"天黑了。"}, cast);
  EXPECT_EQ(Find(s, "天黑了")->voice, "male4");
  EXPECT_EQ(s.chapters[0].utterances[0].voice, "male4");
}

TEST(Overrides, SpeakerAndKindCorrected) {
  Overrides o;
  o.file = "overrides.toml";
  o.entries.push_back({"谁在那里", "麦克唐纳", "", "", "", 3});
  o.entries.push_back({"天黑了", "", "speech", "", "", 6});
  auto s = Mark("zh", {"天黑了。", "“谁在那里？”"}, testing_util::NapoleonCast(), o);
  EXPECT_EQ(testing_util::Who(s, "谁在那里"), "speech/麦克唐纳");
  EXPECT_EQ(Find(s, "谁在那里")->gender, "m");
  EXPECT_EQ(testing_util::Who(s, "天黑了"), "speech/unknown");
}

TEST(Overrides, UnmatchedOverrideIsReported) {
  Overrides o;
  o.file = "overrides.toml";
  o.entries.push_back({"不存在的句子", "A", "", "", "", 7});
  CollectingReporter reporter;
  Mark("zh", {"天黑了。"}, Cast(), o, &reporter);
  bool found = false;
  for (const auto& d : reporter.diagnostics()) {
    found |= d.file == "overrides.toml" && d.line == 7 && d.severity == Severity::kWarning;
  }
  EXPECT_TRUE(found);
}

TEST(Overrides, HeadingSplitOffParagraphStart) {
  Overrides o;
  o.entries.push_back({"退位元帅们", "", "", "", "第一次退位", 1});
  auto s = Mark("zh", {"第一次退位元帅们都来了。"}, Cast(), o);
  EXPECT_EQ(testing_util::Who(s, "第一次退位"), "heading/-");
  EXPECT_EQ(Find(s, "第一次退位")->text, "第一次退位");
  EXPECT_EQ(testing_util::Who(s, "元帅们都来了"), "narration/-");
}

}  // namespace
}  // namespace narrate
