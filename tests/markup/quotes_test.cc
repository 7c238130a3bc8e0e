// Which quotes are speech, how far they run, and block speeches and documents.
#include <gtest/gtest.h>

#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Mark;
using testing_util::NapoleonCast;
using testing_util::Who;

TEST(QuotesZh, ScareQuotesAreNarration) {
  auto s = Mark("zh", {"他是一个“勇敢”的人。"});
  EXPECT_EQ(Who(s, "勇敢"), "narration/-");
}

TEST(QuotesZh, QuotedNameBeforeNonSpeechVerbIsNarration) {
  auto s = Mark("zh", {"这位“俄国人”说服了沙皇。"});
  EXPECT_EQ(Who(s, "俄国人"), "narration/-");
}

TEST(QuotesZh, TitlesAreNarration) {
  auto s = Mark("zh", {"乐队奏起《马赛进行曲》。"});
  EXPECT_EQ(Who(s, "马赛进行曲"), "narration/-");
}

TEST(QuotesZh, ShortQuoteAfterSpeechVerbIsSpeech) {
  auto s = Mark("zh", {"人们命令拿破仑说“万岁”。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "万岁"), "speech/拿破仑");
}

TEST(QuotesZh, CornerBracketsNested) {
  auto s = Mark("zh", {"拿破仑说：「他们喊『万岁』，我听见了。」"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我听见了"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "『万岁』"), "speech/拿破仑");
}

TEST(QuotesZh, QuoteReopenedOnEachParagraph) {
  auto s =
      Mark("zh", {"拿破仑说：“我们要进攻。", "“明天就出发。”", "士兵们欢呼起来。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我们要进攻"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "明天就出发"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "欢呼起来"), "narration/-");
}

TEST(QuotesZh, QuoteCarriedOverAndClosedByDitto) {
  auto s = Mark("zh", {"拿破仑说：“我们要进攻。", "明天就出发。〃他停了下来。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "明天就出发"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "他停了下来"), "narration/-");
}

TEST(QuotesZh, UnclosedQuoteStopsAtParagraphWithoutCloser) {
  auto s = Mark("zh", {"拿破仑说：“我们要进攻。", "第二天，天下起了雨。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "我们要进攻"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "天下起了雨"), "narration/-");
}

TEST(QuotesZh, DocumentAfterDocumentNoun) {
  auto s = Mark("zh", {"皇帝发表了下列宣言：“各国君主宣告和平。”"});
  EXPECT_EQ(Who(s, "各国君主"), "document/-");
  EXPECT_EQ(testing_util::Find(s, "各国君主")->voice, "document");
}

TEST(QuotesZh, BlockSpeechAfterColon) {
  auto s = Mark("zh",
                {"拿破仑来到广场。他向士兵们发表讲话：", "我向你们告别，不要忘记我。",
                 "你们要忠于祖国。", "士兵们都哭了。"},
                NapoleonCast());
  EXPECT_EQ(Who(s, "我向你们告别"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "你们要忠于祖国"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "士兵们都哭了"), "narration/-");
}

TEST(QuotesZh, DocumentBlockWithArticles) {
  auto s = Mark(
      "zh", {"条约的主要内容是：", "第一款，双方停战。", "第二款，交换战俘。", "会议随后结束。"});
  EXPECT_EQ(Who(s, "双方停战"), "document/-");
  EXPECT_EQ(Who(s, "交换战俘"), "document/-");
  EXPECT_EQ(Who(s, "会议随后结束"), "narration/-");
}

TEST(QuotesZh, IndirectSpeechAfterColonIsNarration) {
  auto s = Mark("zh", {"麦克唐纳对拿破仑说：法国已经不需要他了。"}, NapoleonCast());
  EXPECT_EQ(Who(s, "不需要他了"), "narration/-");
}

TEST(QuotesZh, QuoteMarksStayWithTheSpeech) {
  auto s = Mark("zh", {"他走了。拿破仑说：“好。”然后坐下。"}, NapoleonCast());
  EXPECT_EQ(testing_util::Find(s, "好。")->text, "“好。”");
}

TEST(QuotesSk, LowHighQuotes) {
  auto s = Mark("sk", {"Napoleon povedal: „Ideme do Paríža.“ Potom odišiel."}, NapoleonCast());
  EXPECT_EQ(Who(s, "Ideme do Paríža"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "Potom odišiel"), "narration/-");
}

TEST(QuotesSk, ScareQuotesAreNarration) {
  auto s = Mark("sk", {"Volali ho „malý kaprál“ a on sa smial."});
  EXPECT_EQ(Who(s, "malý kaprál"), "narration/-");
}

TEST(QuotesSk, StraightQuotes) {
  auto s = Mark("sk", {"Napoleon zvolal: \"Vpred!\""}, NapoleonCast());
  EXPECT_EQ(Who(s, "Vpred"), "speech/拿破仑");
}

TEST(QuotesSk, DashInsideSentenceIsNotDialogue) {
  auto s = Mark("sk", {"Väčšina generálov chcela bojovať - vedeli, že majú prevahu."});
  EXPECT_EQ(Who(s, "vedeli"), "narration/-");
}

TEST(QuotesSk, BlockProclamation) {
  auto s = Mark("sk", {"Napoleon vyhlásil:", "Vojaci, ja vás neopustím.", "Potom odišiel."},
                NapoleonCast());
  EXPECT_EQ(Who(s, "ja vás neopustím"), "speech/拿破仑");
  EXPECT_EQ(Who(s, "Potom odišiel"), "narration/-");
}

}  // namespace
}  // namespace narrate
