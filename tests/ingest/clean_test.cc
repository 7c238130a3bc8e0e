// Damage cleanup, Unicode normalization, paragraph splitting and the cut of a
// truncated last sentence, with the line numbers of their diagnostics.
#include <gtest/gtest.h>

#include "ingest/ingest.h"
#include "ingest_test_util.h"

namespace narrate {
namespace {

using testing_util::IngestBytes;

// Paragraphs and lines.
TEST(ParagraphTest, OnePerNonBlankLine) {
  auto r = IngestBytes("Prvý.\n\nDruhý.\n   \nTretí.\n");
  ASSERT_EQ(r.clean->paragraphs.size(), 3u);
  EXPECT_EQ(r.clean->paragraphs[0].line, 1);
  EXPECT_EQ(r.clean->paragraphs[1].line, 3);
  EXPECT_EQ(r.clean->paragraphs[2].line, 5);
}

TEST(ParagraphTest, CrLfLineEnds) {
  auto r = IngestBytes("第一段。\r\n\r\n第二段。\r\n");
  EXPECT_EQ(r.Text(), "第一段。\n第二段。");
  EXPECT_EQ(r.clean->paragraphs[1].line, 3);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(ParagraphTest, LoneCrLineEnds) {
  auto r = IngestBytes("Jeden.\rDva.\r");
  EXPECT_EQ(r.Text(), "Jeden.\nDva.");
  EXPECT_EQ(r.clean->paragraphs[1].line, 2);
}

TEST(ParagraphTest, NoFinalNewline) { EXPECT_EQ(IngestBytes("Koniec.").Text(), "Koniec."); }

TEST(ParagraphTest, SpacesTrimmedAtBothEnds) {
  EXPECT_EQ(IngestBytes("  Ahoj.  \n").Text(), "Ahoj.");
}

TEST(ParagraphTest, IdeographicSpaceIndentTrimmed) {
  EXPECT_EQ(IngestBytes("\xE3\x80\x80\xE3\x80\x80他笑了。\n").Text(), "他笑了。");
}

TEST(ParagraphTest, IdeographicSpaceInsideKept) {
  EXPECT_EQ(IngestBytes("第一章\xE3\x80\x80出征\n").Text(), "第一章\xE3\x80\x80出征");
}

TEST(ParagraphTest, TabBecomesSpace) { EXPECT_EQ(IngestBytes("a\tb.\n").Text(), "a b."); }

TEST(ParagraphTest, BlankLineOfZeroWidthCharactersIsBlank) {
  auto r = IngestBytes("A.\n\xE2\x80\x8B\nB.\n");
  EXPECT_EQ(r.Text(), "A.\nB.");
}

// Damage.
TEST(DamageTest, ReplacementCharacterRemovedAndReported) {
  auto r = IngestBytes("Dobre.\nZle\xEF\xBF\xBD slovo.\n");
  EXPECT_EQ(r.Text(), "Dobre.\nZle slovo.");
  EXPECT_TRUE(r.Reported(2, "replacement character")) << r.Diags();
  EXPECT_FALSE(r.Reported(1, "replacement"));
}

TEST(DamageTest, ControlCharactersRemoved) {
  auto r = IngestBytes(
      "Ahoj\x01 sv\x7F"
      "et.\n");
  EXPECT_EQ(r.Text(), "Ahoj svet.");
  EXPECT_TRUE(r.Reported(1, "removed 2 control characters")) << r.Diags();
}

TEST(DamageTest, C1ControlRemoved) {
  auto r = IngestBytes("他\xC2\x85说。\n");
  EXPECT_EQ(r.Text(), "他说。");
  EXPECT_TRUE(r.Reported(1, "control character")) << r.Diags();
}

TEST(DamageTest, ZeroWidthCharactersRemoved) {
  auto r = IngestBytes(
      "A.\nzero\xE2\x80\x8Bwidth\xE2\x81\xA0join\xEF\xBB\xBF"
      "ed.\n");
  EXPECT_EQ(r.Text(), "A.\nzerowidthjoined.");
  EXPECT_TRUE(r.Reported(2, "removed 3 zero-width characters")) << r.Diags();
}

TEST(DamageTest, ZeroWidthJoinerRemoved) {
  EXPECT_EQ(IngestBytes("拿\xE2\x80\x8D破仑。\n").Text(), "拿破仑。");
}

TEST(DamageTest, SoftHyphensRemoved) {
  auto r = IngestBytes("\n\nNa\xC2\xADpo\xC2\xADle\xC2\xADon prišiel.\n");
  EXPECT_EQ(r.Text(), "Napoleon prišiel.");
  EXPECT_TRUE(r.Reported(3, "removed 3 soft hyphens")) << r.Diags();
}

TEST(DamageTest, OneDiagnosticPerKindPerParagraph) {
  auto r = IngestBytes(
      "a\xE2\x80\x8B"
      "b\xE2\x80\x8B"
      "c\xC2\xAD"
      "d.\n");
  EXPECT_EQ(r.Warnings(), 2) << r.Diags();
}

TEST(DamageTest, FileCutInsideACharacter) {
  // "。" is E3 80 82; the file ends after E3 80.
  auto r = IngestBytes("第一句。\n他说完了。\xE3\x80");
  EXPECT_EQ(r.Text(), "第一句。\n他说完了。");
  EXPECT_TRUE(r.Reported(2, "ends inside a character")) << r.Diags();
}

TEST(DamageTest, StrayInvalidByteInLongUtf8Text) {
  std::string text;
  for (int i = 0; i < 10; ++i) text += "今天早上我们去公园散步。\n";
  text += "坏\xFF字。\n";
  auto r = IngestBytes(text);
  ASSERT_TRUE(r.clean.ok()) << r.Text();
  EXPECT_EQ(r.clean->encoding, "UTF-8");
  EXPECT_EQ(r.clean->paragraphs.back().text, "坏字。");
  EXPECT_TRUE(r.Reported(11, "replacement character")) << r.Diags();
}

// Truncated last sentence.
TEST(TruncationTest, UnfinishedLastSentenceCut) {
  auto r = IngestBytes("他走了。\n她笑了。然后她也");
  EXPECT_EQ(r.Text(), "他走了。\n她笑了。");
  EXPECT_TRUE(r.Reported(2, "middle of a sentence")) << r.Diags();
  EXPECT_TRUE(r.Reported(2, "然后她也")) << r.Diags();
}

TEST(TruncationTest, SlovakUnfinishedLastSentenceCut) {
  auto r = IngestBytes("Prišiel domov. Potom si sadol a");
  EXPECT_EQ(r.Text(), "Prišiel domov.");
  EXPECT_TRUE(r.Reported(1, "Potom si sadol a")) << r.Diags();
}

TEST(TruncationTest, TrailingBlankLinesDoNotHideTheCut) {
  auto r = IngestBytes("Jeden.\nDva. Tri\n\n\n");
  EXPECT_EQ(r.Text(), "Jeden.\nDva.");
  EXPECT_TRUE(r.Reported(2, "middle of a sentence")) << r.Diags();
}

TEST(TruncationTest, ClosingQuoteAfterSentenceEndKept) {
  auto r = IngestBytes("他说：“走吧！”\n");
  EXPECT_EQ(r.Text(), "他说：“走吧！”");
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(TruncationTest, CutKeepsClosingQuote) {
  auto r = IngestBytes("他说：“走吧！”她");
  EXPECT_EQ(r.Text(), "他说：“走吧！”");
}

TEST(TruncationTest, DittoMarkClosesAQuote) {
  EXPECT_EQ(IngestBytes("他们高呼〃皇帝万岁！〃\n").Text(), "他们高呼〃皇帝万岁！〃");
}

TEST(TruncationTest, OnlyTheLastParagraphIsCut) {
  auto r = IngestBytes("Nadpis bez bodky\nText končí bodkou.\n");
  EXPECT_EQ(r.Text(), "Nadpis bez bodky\nText končí bodkou.");
}

TEST(TruncationTest, LastLineWithoutAnySentenceEndKept) {
  // A heading or a sign-off, not a cut sentence.
  auto r = IngestBytes("Text.\n全书完\n");
  EXPECT_EQ(r.Text(), "Text.\n全书完");
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(TruncationTest, DecimalPointIsNotASentenceEnd) {
  auto r = IngestBytes("Cena bola 3.5 a potom");
  EXPECT_EQ(r.Text(), "Cena bola 3.5 a potom");
}

TEST(TruncationTest, InitialIsNotASentenceEnd) {
  auto r = IngestBytes("Text.\nNapísal J. Novák");
  EXPECT_EQ(r.Text(), "Text.\nNapísal J. Novák");
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(TruncationTest, EllipsisEndsASentence) {
  EXPECT_EQ(IngestBytes("我也许会死……\n").Text(), "我也许会死……");
}

// Unicode normalization.
TEST(UnicodeTest, Nfc) {
  // "c" + combining caron, "a" + combining acute.
  EXPECT_EQ(IngestBytes("c\xCC\x8C"
                        "a\xCC\x81.\n")
                .Text(),
            "čá.");
}

TEST(UnicodeTest, FullWidthDigitsAndLetters) {
  EXPECT_EQ(IngestBytes("ＡＢＣ１２３ｘｙｚ。\n").Text(), "ABC123xyz。");
}

TEST(UnicodeTest, FullWidthDateBecomesAscii) {
  EXPECT_EQ(IngestBytes("１８１５年３月２０日，他回到巴黎。\n").Text(),
            "1815年3月20日，他回到巴黎。");
}

TEST(UnicodeTest, FullWidthPercent) {
  EXPECT_EQ(IngestBytes("增长了５０％。\n").Text(), "增长了50%。");
}

TEST(UnicodeTest, FullWidthDecimalPoint) {
  EXPECT_EQ(IngestBytes("约１．５万人。\n").Text(), "约1.5万人。");
}

TEST(UnicodeTest, CjkPunctuationKept) {
  const std::string text = "他问：“你好吗？”（是的）《书》；好！〃";
  EXPECT_EQ(IngestBytes(text + "\n").Text(), text);
}

TEST(UnicodeTest, FullWidthMappingIsNotReportedAsDamage) {
  EXPECT_EQ(IngestBytes("第１章。\n").Warnings(), 0);
}

TEST(UnicodeTest, OutputIsAlwaysValidUtf8WithoutFffd) {
  auto r = IngestBytes(
      "a\xEF\xBF\xBD\xEF\xBF\xBD"
      "b.\n");
  EXPECT_EQ(r.Text(), "ab.");
}

}  // namespace
}  // namespace narrate
