// Automatic casting and producer corrections (overrides) in markup.
#include <gtest/gtest.h>

#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Find;
using testing_util::Mark;

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
