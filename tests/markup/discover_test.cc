// DiscoverPeople: people found in a book's narration without a cast, one rule
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

TEST(DiscoverZh, TheNarrationNamingSomeoneGivesTheNameAndGender) {
  auto s = Mark("zh", {"门开了，进来的是宋老师。她叫宋文清，在附近的中学教书。",
                       "宋老师坐下，说：“还是老样子。”"});
  const Utterance* u = testing_util::Find(s, "还是老样子");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "宋文清");
  EXPECT_EQ(u->gender, "f");
}

TEST(DiscoverZh, AKinshipNounRightBeforeANameSaysItsGender) {
  auto s = Mark("zh", {"车停在路边，他的妻子周云坐在后座上。", "周云打了个哈欠：“几点了？”",
                       "周云看了看窗外，说：“快走吧。”"});
  const Utterance* u = testing_util::Find(s, "几点了");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "周云");
  EXPECT_EQ(u->gender, "f");
}

TEST(DiscoverZh, ASpeakerNothingMarksIsAMan) {
  // The text writes 她 for the woman; nothing marks 小杜 (no pronoun, title
  // or given name with a gender).
  auto s = Mark("zh", {"李太太站在门口，她等了很久。", "小杜推门进来，喊道：“外卖到了！”",
                       "李太太接过袋子，问：“多少钱？”", "“已经付过了。”小杜说。"});
  const Utterance* u = testing_util::Find(s, "外卖到了");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "小杜");
  EXPECT_EQ(u->gender, "m");
}

TEST(DiscoverZh, APronounOpeningTheNextSentenceSaysTheGender) {
  // 她 opens a clause of the sentence after one that names only 孙经理.
  auto s = Mark(
      "zh", {"第二天早上，孙经理走进办公室。一进门，她就把窗户打开了。", "孙经理说：“开会吧。”"});
  const Utterance* u = testing_util::Find(s, "开会吧");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "孙经理");
  EXPECT_EQ(u->gender, "f");
}

TEST(DiscoverZh, APronounAfterAnotherPersonIsNotTheFirstPersons) {
  // 她 is 梁晓雯, named after 梁德厚 and before the pronoun: no vote for him.
  auto s = Mark("zh", {"梁德厚走在最前面，后头跟着女儿梁晓雯，她刚从城里回来。",
                       "梁德厚回头说：“走快点。”", "晓雯笑了：“来了。”", "晓雯跑了几步。"});
  const Utterance* he = testing_util::Find(s, "走快点");
  ASSERT_NE(he, nullptr);
  EXPECT_EQ(he->speaker.value_or(""), "梁德厚");
  EXPECT_EQ(he->gender, "m");
  const Utterance* she = testing_util::Find(s, "来了");
  ASSERT_NE(she, nullptr);
  EXPECT_EQ(she->speaker.value_or(""), "梁晓雯");
  EXPECT_EQ(she->gender, "f");
}

TEST(DiscoverZh, TwoCharactersBeforeSpeechVerbsAreANameWhenSpokenTo) {
  // 素云 is spoken to once (对素云道); 点头 never is: no one.
  auto s = Mark("zh", {"素云道：“来了。”", "素云道：“走吧。”", "素云笑道：“不去。”",
                       "王夫人对素云道：“去吧。”", "他想了想，点头道：“好。”",
                       "他看了看，点头道：“是。”", "他笑了笑，点头道：“对。”"});
  EXPECT_EQ(Who(s, "不去"), "speech/素云");
  EXPECT_NE(Who(s, "是。"), "speech/点头");
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

TEST(DiscoverZh, WhoOpensClausesIsAPerson) {
  // 王老师 opens a clause with no speech verb; 小军 opens two.
  auto s = Mark("zh", {"王老师走进教室，把通知贴在黑板上。“下星期去春游。”",
                       "小军正趴在窗台上。“我不去。”", "小军回过头来。“真的不去。”"});
  EXPECT_EQ(Who(s, "下星期去春游"), "speech/王老师");
  EXPECT_EQ(Who(s, "我不去"), "speech/小军");
}

TEST(DiscoverZh, ForeignNamesWrittenInChinese) {
  auto s = Mark("zh", {"拿破仑问道：“事情怎样了？”", "拿破仑就迎上来说：“好吧。”",
                       "亚历山大的亲信波佐·迪·博尔戈对沙皇说：“战争的目的是在巴黎。”"});
  EXPECT_EQ(Who(s, "事情怎样了"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "战争的目的"), "speech/波佐·迪·博尔戈");
}

TEST(DiscoverZh, TwoCharactersBeforeSpeechVerbsAgainAndAgain) {
  auto s = Mark("zh", {"宝玉道：“好妹妹。”", "宝玉笑道：“你别恼。”", "宝玉说：“我去了。”",
                       "便说道：“走吧。”", "又说道：“来吧。”", "便说道：“好吧。”"});
  EXPECT_EQ(Who(s, "你别恼"), "speech/宝玉");
  for (const char* adverb : {"走吧", "来吧", "好吧"}) EXPECT_NE(Who(s, adverb), "speech/便说");
}

TEST(DiscoverZh, ASurnameWithATitleIsTheOneFullNameOfThatSurname) {
  auto s = Mark("zh", {"司机刘建国回过头。刘建国说：“到站了。”", "刘建国关上车门。",
                       "“前面积水了。”刘师傅说。", "老刘叹了口气说：“绕路吧。”"});
  EXPECT_EQ(Who(s, "前面积水了"), "speech/刘建国");
  EXPECT_EQ(Who(s, "绕路吧"), "speech/刘建国");
}

TEST(DiscoverZh, HeSaysNoGenderWhereSheIsNeverWritten) {
  // Ten 他 and no 她: the text uses 他 for everyone.
  std::vector<std::string> text = {"林青进来，他坐下了。他看了看窗外。", "林青笑了，他站起来。"};
  for (int i = 0; i < 3; ++i) text.push_back("他走到门口。他回头看了看。");
  text.push_back("林青说：“好冷。”他又坐下了。");
  text.push_back("“你冷吗？”他说。");
  const Script genderless = Mark("zh", text);
  const Utterance* u = testing_util::Find(genderless, "你冷吗");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "林青");
  EXPECT_EQ(u->gender, "");
  // With 她 written once, 他 is a man's again.
  text.push_back("她走了。");
  const Script gendered = Mark("zh", text);
  const Utterance* again = testing_util::Find(gendered, "你冷吗");
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->gender, "m");
}

TEST(DiscoverZh, ARoleNounWhoSaysTheirNameIsThatName) {
  auto s = Mark("zh", {"车门开了，上来一个女孩。女孩低声说：“谢谢阿姨。我叫苏晴。”",
                       "“你也住这儿？”女孩问。"});
  EXPECT_EQ(Who(s, "谢谢阿姨"), "speech/苏晴");
  EXPECT_EQ(Who(s, "你也住这儿"), "speech/苏晴");
}

TEST(DiscoverZh, ANameASpeakerGivesIsAPerson) {
  // 陈浩 opens one clause only; his own words make him a name.
  auto s = Mark("zh", {"司机回过头。“我叫陈浩，您叫我小陈就行。”",
                       "陈浩拨通电话，冲她点点头。“搞定了，你放心吧。”"});
  EXPECT_EQ(Who(s, "搞定了"), "speech/陈浩");
}

TEST(DiscoverZh, ATitledPersonOpeningAClauseWithASpeechVerb) {
  auto s = Mark("zh", {"门外安静了几秒。然后老赵慢慢地说：“我保证。”"});
  EXPECT_EQ(Who(s, "我保证"), "speech/老赵");
}

TEST(DiscoverSk, ARoleNounBeforeOneNameIsThatPerson) {
  auto s = Mark("sk", {"„Kto je ďalší?“ spýtala sa doktorka.",
                       "„Sestrička, pomôžte mi,“ povedala doktorka Šimková."});
  EXPECT_EQ(Who(s, "Kto je ďalší"), "speech/Šimková");
}

TEST(DiscoverSk, ATitleBeforeANameIsThatPerson) {
  auto s = Mark("sk", {"„Dobrý deň,“ povedal pán Hudec.", "„Ďakujem,“ odvetila pani Nováková."});
  EXPECT_EQ(Who(s, "Dobrý deň"), "speech/Hudec");
  EXPECT_EQ(Who(s, "Ďakujem"), "speech/Nováková");
}

TEST(DiscoverSk, NamesThatDropAnEWhenDeclined) {
  auto s = Mark("sk", {"Jana podala Markovi krabicu. „Nesie sa ťažko,“ povedal Marek.",
                       "„Pomôžem ti,“ povedala Jana Markovi."});
  EXPECT_EQ(Who(s, "Nesie sa"), "speech/Marek");
  EXPECT_EQ(Who(s, "Pomôžem ti"), "speech/Jana");
}

TEST(DiscoverSk, ANamesEndingSaysTheLikelyGender) {
  auto s = Mark("sk", {"„Ahoj,“ povedala Natália.", "„Servus,“ odvetil Matej.",
                       "Natália sa usmiala. „Ideš?“"});
  const Utterance* u = testing_util::Find(s, "Ideš");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "Natália");
  EXPECT_EQ(u->gender, "f");
}

TEST(DiscoverSk, PluralsAreAGroupNotAPerson) {
  auto s = Mark("sk", {"– Vitaj! – zakričali chlapci.", "– Ďakujem, – povedal chlapec."});
  EXPECT_EQ(Who(s, "Vitaj"), "speech/chlapci");
  EXPECT_EQ(Who(s, "Ďakujem"), "speech/chlapec");
}

TEST(DiscoverSk, ARoleNounWhoSaysTheirNameIsThatName) {
  auto s =
      Mark("sk", {"Do dielne vošla mladá žena. „Dobrý deň,“ povedala žena. „Volám sa Nováková.“",
                  "„Stolička bude hotová,“ povedal Hudec.", "„Ďakujem,“ odvetila žena."});
  EXPECT_EQ(Who(s, "Dobrý deň"), "speech/Nováková");
  EXPECT_EQ(Who(s, "Ďakujem"), "speech/Nováková");
}

TEST(DiscoverSk, ANameSaidBeforeSaVolamIsTheSpeakers) {
  auto s = Mark("sk", {"Z chalupy vyšiel starý muž a pozrel na nás.",
                       "„Hruška sa volám,“ povedal muž. „A vy ste kto?“",
                       "„Turisti,“ povedala Jana. „Ideme na hrebeň.“", "Hruška prikývol."});
  EXPECT_EQ(Who(s, "Hruška sa volám"), "speech/Hruška");
}

TEST(DiscoverSk, ASpeechNobodyWasFoundForThatSaysWhoseItIsIsTheirs) {
  // Nothing before the speech says who speaks; it says so itself.
  auto s = Mark("sk", {"„Ja som Eva, vaša nová susedka.“",
                       "Mária si ju premerala. Eva sa len usmiala a podala jej ruku."});
  const Utterance* u = testing_util::Find(s, "Ja som Eva");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->speaker.value_or(""), "Eva");
}

TEST(DiscoverSk, ANameCalledInSpeechAndNarratedIsAPerson) {
  // Adam starts every sentence he is in; the call and the narration make him
  // a name. Mám opens a speech too, but the narration never writes it.
  auto s = Mark("sk", {"Vstala a zaklopala na dvere. – Adam, vstávaj. Dole sa niečo deje.",
                       "– Mám, čo mám, – odvetila.",
                       "Adam vyšiel na chodbu a chvíľu načúval. – Celý dvor je pod vodou."});
  EXPECT_EQ(Who(s, "Celý dvor"), "speech/Adam");
  for (const Chapter& c : s.chapters) {
    for (const Utterance& u : c.utterances) EXPECT_NE(u.speaker.value_or(""), "Mám") << u.text;
  }
}

}  // namespace
}  // namespace narrate
