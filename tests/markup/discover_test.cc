// DiscoverPeople: people found in Chinese narration without a cast, one shape
// a case (sentences written for these tests).
#include <gtest/gtest.h>

#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Mark;
using testing_util::Who;

TEST(DiscoverZh, PrefixAndSurnameBeforeTheVerb) {
  auto s = Mark("zh", {"老赵说：“今天的菜很新鲜。”", "“真的吗？”小刘问。"});
  EXPECT_EQ(Who(s, "今天的菜"), "speech/老赵");
  EXPECT_EQ(Who(s, "真的吗"), "speech/小刘");
}

TEST(DiscoverZh, ATitledNameFoundBeforeIsKnownAfterAQuote) {
  auto s = Mark("zh", {"陈大夫问：“哪里不舒服？”", "“头疼，”李太太说，“一夜没睡。”"});
  EXPECT_EQ(Who(s, "哪里不舒服"), "speech/陈大夫");
  EXPECT_EQ(Who(s, "头疼"), "speech/李太太");
}

TEST(DiscoverZh, KinshipTermsAreWomenOrMen) {
  auto s = Mark("zh", {"奶奶说：“饺子好了。”"});
  const Utterance* u = testing_util::Find(s, "饺子好了");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "奶奶");
  EXPECT_EQ(u->gender, "f");
}

TEST(DiscoverZh, AgreeingPronounsGiveTheGender) {
  auto s = Mark("zh", {"老周推开门，他累坏了。老周说：“下雨了。”", "老周坐下，他叹了口气。",
                       "老孙进来，她笑了。老孙问：“吃饭了吗？”"});
  const Utterance* he = testing_util::Find(s, "下雨了");
  ASSERT_NE(he, nullptr);
  EXPECT_EQ(he->speaker.value_or(""), "老周");
  EXPECT_EQ(he->gender, "m");
  // One pronoun that points back at the speaker says it too, when none says
  // otherwise.
  const Utterance* one = testing_util::Find(s, "吃饭了吗");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->speaker.value_or(""), "老孙");
  EXPECT_EQ(one->gender, "f");
}

TEST(DiscoverZh, DisagreeingPronounsGiveNoGender) {
  auto s = Mark("zh", {"老孙进来，她笑了。老孙问：“吃饭了吗？”", "老孙坐下，他叹了口气。"});
  const Utterance* u = testing_util::Find(s, "吃饭了吗");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "老孙");
  EXPECT_EQ(u->gender, "");
}

TEST(DiscoverZh, ASurnameAndGivenNameNeedsTwoMentions) {
  // Once: 王芳 is not yet a person (a surname is a common character), so
  // nothing names who speaks before 王芳问.
  auto once = Mark("zh", {"“几点？”王芳问。"});
  EXPECT_NE(Who(once, "几点"), "speech/王芳");
  auto twice = Mark("zh", {"王芳说：“走吧。”", "“几点？”王芳问。"});
  EXPECT_EQ(Who(twice, "几点"), "speech/王芳");
}

TEST(DiscoverZh, ASurnameInsideAWordIsNoName) {
  // 黎 and 付 are surnames, but here only characters of 巴黎 and 对付.
  auto s = Mark("zh", {"巴黎附近说：“第一句。”", "巴黎附近说：“第二句。”",
                       "他想对付拿破仑，说：“第三句。”", "他想对付拿破仑，说：“第四句。”"});
  EXPECT_NE(Who(s, "第一句"), "speech/黎附近");
  EXPECT_NE(Who(s, "第三句"), "speech/付拿破");
}

TEST(DiscoverZh, AFullNamesGivenNameIsItsShortForm) {
  auto s = Mark("zh", {"李晓梅说：“我来了。”", "“谢谢。”李晓梅答道。",
                       "晓梅笑了。晓梅说：“不客气。”", "晓梅又说：“再见。”"});
  EXPECT_EQ(Who(s, "不客气"), "speech/李晓梅");
}

TEST(DiscoverSk, CapitalizedNamesStayAsTheyWere) {
  auto s = Mark("sk", {"„Poďme,“ povedal Ján."});
  EXPECT_EQ(Who(s, "Poďme"), "speech/Ján");
}

TEST(DiscoverSk, ARoleNounInAnyCaseIsOnePerson) {
  auto s = Mark(
      "sk", {"– Kde vás bolí? – spýtala sa lekárka.",
             "Starý muž ukázal lekárke koleno. – Tu, – povedal.", "– Ukážte, – povedala lekárka."});
  const Utterance* u = testing_util::Find(s, "Kde vás bolí");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "lekárka");
  EXPECT_EQ(u->gender, "f");
  EXPECT_EQ(Who(s, "Ukážte"), "speech/lekárka");
  EXPECT_NE(Who(s, "Tu, "), "speech/lekárke");  // a declined form is no other person
}

TEST(DiscoverSk, DeclinedFormsOfANameAreOnePerson) {
  auto s = Mark("sk", {"Majster sa obrátil k Ondrejovi. „Poď sem,“ povedal mu.",
                       "„Idem,“ odvetil Ondrej.", "Starý Hudec podal Ondrejovi kladivo.",
                       "„Ďakujem,“ povedal Ondrejovi Hudec a odišiel k Hudcovej dielni.",
                       "„Zbohom,“ povedal Hudca syn."});
  EXPECT_EQ(Who(s, "Idem"), "speech/Ondrej");
  // No person is named by a declined form.
  for (const Chapter& c : s.chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.speaker) {
        EXPECT_NE(*u.speaker, "Ondrejovi") << u.text;
      }
    }
  }
}

}  // namespace
}  // namespace narrate
