// Speaker attribution, one rule per case, Chinese and Slovak sentences written
// for these tests.
#include <gtest/gtest.h>

#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Mark;
using testing_util::NapoleonCast;
using testing_util::Who;

TEST(AttributionZh, SpeakerBeforeColon) {
  auto s = Mark("zh", {"拿破仑说：“我们走吧。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我们走吧"), "speech/拿破仑");
}

TEST(AttributionZh, SpeakerAfterQuote) {
  auto s = Mark("zh", {"“快走！”拿破仑低声道。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "快走"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "低声道"), "narration/-");
}

TEST(AttributionZh, AliasIsCanonicalName) {
  auto s = Mark("zh", {"奈伊反驳说：“军队不会服从。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "军队不会服从"), "speech/内伊");
}

TEST(AttributionZh, HeResolvesToLastMan) {
  auto s = Mark("zh", {"麦克唐纳走进房间。他说：“陛下，一切都完了。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "一切都完了"), "speech/麦克唐纳");
}

TEST(AttributionZh, SheSkipsMen) {
  auto s = Mark("zh", {"玛丽看着拿破仑。她问：“我们去哪里？”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我们去哪里"), "speech/玛丽");
}

TEST(AttributionZh, AddresseeIsNotSpeaker) {
  auto s = Mark("zh", {"拿破仑对麦克唐纳说：“你去吧。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "你去吧"), "speech/拿破仑");
}

TEST(AttributionZh, PossessorIsNotSpeaker) {
  auto s = Mark("zh", {"麦克唐纳的士兵对拿破仑说：“我们饿了。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我们饿了"), "speech/士兵");
}

TEST(AttributionZh, GroupNoun) {
  auto s = Mark("zh", {"士兵们回答：“皇帝万岁！”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "皇帝万岁"), "speech/士兵");
}

TEST(AttributionZh, TheyResolveToGroup) {
  auto s = Mark("zh", {"士兵们站在广场上。他们高呼：“皇帝万岁！”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "皇帝万岁"), "speech/士兵");
}

TEST(AttributionZh, TwoNamesSpeakTogether) {
  auto s = Mark("zh", {"内伊和麦克唐纳回答：“退位。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "退位"), "speech/内伊和麦克唐纳");
}

TEST(AttributionZh, AlternatingTurnsWithDittoMarks) {
  auto s = Mark("zh", {"拿破仑看见麦克唐纳，问道：“事情怎样了？〃〃非常糟糕，陛下。〃〃为什么？〃"},
                NapoleonCast());
  EXPECT_EQ(Who(s, "事情怎样了"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "非常糟糕"), "speech/麦克唐纳");
  EXPECT_EQ(Who(s, "为什么"), "speech/拿破仑");
}

TEST(AttributionZh, ReceivedLetterSpeaksForItsAuthor) {
  auto s = Mark("zh", {"拿破仑在宫里等着。他接到麦克唐纳回信：“一切顺利。”"}, NapoleonCast());
  EXPECT_EQ(Who(s, "一切顺利"), "speech/麦克唐纳");
}

TEST(AttributionZh, UnknownNameBeforeVerb) {
  auto s = Mark("zh", {"老王笑道：“来了，来了。”"});
  EXPECT_EQ(Who(s, "来了，来了"), "speech/老王");
}

TEST(AttributionZh, UnattributedIsUnknownAndReported) {
  CollectingReporter reporter;
  auto s = Mark("zh", {"天黑了。", "“谁在那里？”"}, Cast(), Overrides(), &reporter);
  const Utterance* u = testing_util::Find(s, "谁在那里");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(*u->speaker, "unknown");
  EXPECT_NE(u->voice, "narrator");
  bool reported = false;
  for (const auto& d : reporter.diagnostics()) {
    reported |= d.file == "test.txt" && d.line == 2 && d.severity == Severity::kWarning;
  }
  EXPECT_TRUE(reported);
}

TEST(AttributionZh, GenderFromCast) {
  auto s = Mark("zh", {"玛丽说：“好。”拿破仑说：“走。”"}, NapoleonCast());
  EXPECT_EQ(testing_util::Find(s, "好。")->gender, "f");
  EXPECT_EQ(testing_util::Find(s, "走。")->gender, "m");
}

TEST(AttributionSk, SpeakerBeforeColon) {
  auto s = Mark("sk", {"Bertrand sa spýtal: „Kedy odídeme?“"}, NapoleonCast());
  EXPECT_EQ(Who(s, "Kedy odídeme"), "speech/Bertrand");
}

TEST(AttributionSk, SpeakerAfterQuoteInverted) {
  auto s = Mark("sk", {"„Zajtra ráno,“ odpovedal Napoleon."}, NapoleonCast());
  EXPECT_EQ(Who(s, "Zajtra ráno"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "odpovedal"), "narration/-");
}

TEST(AttributionSk, FeminineVerbPicksTheWoman) {
  Cast cast = NapoleonCast();
  cast.speakers[5].aliases.push_back("Jozefínou");
  auto s = Mark("sk", {"Napoleon hovoril s Jozefínou. „Je zima,“ povedala."}, cast);
  EXPECT_EQ(Who(s, "Je zima"), "speech/Jozefína");
}

TEST(AttributionSk, MasculineVerbPicksTheMan) {
  Cast cast = NapoleonCast();
  cast.speakers[5].aliases.push_back("Jozefínou");
  auto s = Mark("sk", {"Napoleon hovoril s Jozefínou. „Je zima,“ povedal."}, cast);
  EXPECT_EQ(Who(s, "Je zima"), "speech/拿破仑");
}

TEST(AttributionSk, DashDialogue) {
  auto s = Mark("sk", {"– Áno, – povedal Bertrand. – Pôjdeme."}, NapoleonCast());
  EXPECT_EQ(Who(s, "Áno"), "speech/Bertrand");
  EXPECT_EQ(Who(s, "povedal Bertrand"), "narration/-");
  EXPECT_EQ(Who(s, "Pôjdeme"), "speech/Bertrand");
}

TEST(AttributionSk, GuillemetsAndGroup) {
  auto s = Mark("sk", {"Vojaci zakričali: »Nech žije cisár!«"}, NapoleonCast());
  EXPECT_EQ(Who(s, "Nech žije"), "speech/vojaci");
}

TEST(AttributionSk, DeclinedAliasResolvesPronoun) {
  auto s = Mark("sk", {"Bertranda zobudili v noci. On povedal: „Idem.“"}, NapoleonCast());
  EXPECT_EQ(Who(s, "Idem"), "speech/Bertrand");
}

TEST(AttributionZh, TurnsAlternateAcrossParagraphs) {
  auto s =
      Mark("zh", {"老赵说：“菜很新鲜。”", "李太太问：“多少钱一斤？”", "“两块。”", "“太贵了。”"});
  EXPECT_EQ(Who(s, "两块"), "speech/老赵");
  EXPECT_EQ(Who(s, "太贵了"), "speech/李太太");
}

TEST(AttributionSk, DashTurnsAlternateAcrossParagraphs) {
  auto s = Mark("sk", {"– Prídeš zajtra? – spýtal sa Peter.", "– Prídem, – odpovedala Jana.",
                       "– Určite?", "– Určite."});
  EXPECT_EQ(Who(s, "Určite?"), "speech/Peter");
  EXPECT_EQ(Who(s, "Určite."), "speech/Jana");
}

TEST(AttributionSk, ANeuterVerbGivesNoGender) {
  // dievča takes neuter verbs; the verb does not say the girl's gender.
  auto s = Mark("sk", {"„Ďakujem,“ povedalo dievča Zuzana."});
  const Utterance* u = testing_util::Find(s, "Ďakujem");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, UtteranceKind::kSpeech);
  EXPECT_NE(u->gender, "m");
}

TEST(AttributionZh, TheOneWhoActsInTheParagraphSpeaks) {
  auto s = Mark("zh", {"老赵和李太太站在摊前。", "李太太看看菠菜，忍不住笑了。“真贵。”",
                       "“不贵。”老赵挑了几个土豆，装进袋子。"});
  EXPECT_EQ(Who(s, "真贵"), "speech/李太太");
  EXPECT_EQ(Who(s, "不贵"), "speech/老赵");
}

TEST(AttributionZh, TurnsGoBackwardsFromAKnownSpeaker) {
  // The first two turns are known only from the third.
  auto s = Mark("zh", {"老赵和李太太站在摊前。", "“几点了？”", "“八点。”", "“谢谢。”李太太说。"});
  EXPECT_EQ(Who(s, "八点"), "speech/老赵");
  EXPECT_EQ(Who(s, "几点了"), "speech/李太太");
}

TEST(AttributionZh, TheOneCalledAnswers) {
  auto s = Mark(
      "zh", {"王老师对李晓梅说：“晓梅，你来读。”", "“读哪一段？”", "李晓梅站起来。李晓梅翻开书。"});
  EXPECT_EQ(Who(s, "读哪一段"), "speech/李晓梅");
}

TEST(AttributionZh, APronounAfterOnesOwnSpeechIsSomeoneElse) {
  auto s = Mark(
      "zh", {"陈大夫走进来，周大娘站起身。", "“烧退了吗？”陈大夫问。", "“退了，”她说，“谢谢您。”"});
  EXPECT_EQ(Who(s, "“退了，”"), "speech/周大娘");
  EXPECT_EQ(Who(s, "谢谢您"), "speech/周大娘");
}

TEST(AttributionZh, ACrowdsCriesAreTheCrowds) {
  auto s = Mark("zh", {"士兵们不断高呼“打倒敌人！”“胜利万岁！”等口号，而市民们很冷淡。"});
  EXPECT_EQ(Who(s, "胜利万岁"), "speech/士兵");
}

TEST(AttributionSk, ADeclinedNameAfterTheVerbIsTheOneSpokenTo) {
  auto s = Mark("sk", {"Ondrej a Hudec stáli pri stole.", "„Hotovo,“ povedal Ondrejovi Hudec.",
                       "„Je to stolička,“ povedal Ondrejovi.", "„Ďakujem.“"});
  EXPECT_EQ(Who(s, "Ďakujem"), "speech/Ondrej");
}

TEST(AttributionSk, SpeechAfterASentenceOfNarration) {
  auto s = Mark("sk", {"– Ahoj, – povedal Tomáš.", "Tréner sa poškrabal na hlave. – K nám?"});
  const Utterance* u = testing_util::Find(s, "K nám");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, UtteranceKind::kSpeech);
  EXPECT_EQ(u->speaker.value_or(""), "tréner");
}

TEST(AttributionSk, ASentenceOpeningWithAPastTenseSaysItsSubjectsGender) {
  auto s = Mark("sk", {"Pani Mináriková a Adam spali.", "„Čo je?“ spýtal sa Adam.",
                       "Vstala a zaklopala na dvere. „Voda. Nepočuješ?“"});
  EXPECT_EQ(Who(s, "Voda"), "speech/Mináriková");
}

TEST(AttributionSk, ASubordinateClauseIsNotTheSubjects) {
  auto s = Mark("sk", {"Peter a predavačka stáli pri pulte.",
                       "Kým predavačka krájala, Peter si obzeral regály. „A máte aj syr?“"});
  EXPECT_EQ(Who(s, "A máte aj syr"), "speech/Peter");
}

}  // namespace
}  // namespace narrate
