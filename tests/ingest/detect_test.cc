// The statistics behind encoding detection and mojibake judgement (private
// helpers of the ingest stage).
#include "ingest/detect.h"

#include <gtest/gtest.h>
#include <unicode/ucnv.h>
#include <unicode/utf16.h>

#include <set>
#include <tuple>

#include "ingest/codec.h"
#include "ingest/mojibake.h"

namespace narrate {
namespace ingest_internal {
namespace {

icu::UnicodeString U(const char* utf8) { return icu::UnicodeString::fromUTF8(utf8); }

TEST(CommonHanTest, Gb2312LevelOne) {
  EXPECT_TRUE(IsCommonHan(U"的"[0]));
  EXPECT_TRUE(IsCommonHan(U"巴"[0]));
  EXPECT_TRUE(IsCommonHan(U"黎"[0]));
}

TEST(CommonHanTest, Big5FrequentTraditional) {
  EXPECT_TRUE(IsCommonHan(U"說"[0]));
  EXPECT_TRUE(IsCommonHan(U"們"[0]));
}

TEST(CommonHanTest, RareCharactersAreNot) {
  EXPECT_FALSE(IsCommonHan(U"鼹"[0]));
  EXPECT_FALSE(IsCommonHan(U"诩"[0]));  // GB 2312 level 2
  EXPECT_FALSE(IsCommonHan('A'));
}

// The table holds exactly the Han characters that the GB 2312 level-1 and
// Big5 frequent codes decode to, each code decoded alone.
TEST(CommonHanTest, IsWhatEachCodeDecodesToAlone) {
  std::set<UChar32> expected;
  for (const auto& [encoding, lead_lo, lead_hi] :
       {std::tuple<const char*, int, int>{"GB2312", 0xB0, 0xD7}, {"Big5", 0xA4, 0xC6}}) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter* conv = ucnv_open(encoding, &status);
    ucnv_setToUCallBack(conv, UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
    ASSERT_TRUE(U_SUCCESS(status)) << encoding;
    for (int lead = lead_lo; lead <= lead_hi; ++lead) {
      for (int trail = 0x40; trail <= 0xFE; ++trail) {
        const char code[2] = {static_cast<char>(lead), static_cast<char>(trail)};
        UChar out[4];
        status = U_ZERO_ERROR;
        ucnv_resetToUnicode(conv);
        const int32_t n = ucnv_toUChars(conv, out, 4, code, 2, &status);
        UChar32 c = 0;
        int32_t i = 0;
        if (U_SUCCESS(status) && n > 0) U16_NEXT(out, i, n, c);
        if (U_SUCCESS(status) && n > 0 && i == n && IsHan(c)) expected.insert(c);
      }
    }
    ucnv_close(conv);
  }
  EXPECT_GT(expected.size(), 6000u);  // 3,755 + 5,401, some in both
  std::set<UChar32> table;
  for (UChar32 c = 0; c < 0x30000; ++c) {
    if (IsCommonHan(c)) table.insert(c);
  }
  EXPECT_TRUE(table == expected) << table.size() << " vs " << expected.size();
}

TEST(CountHanTest, CountsOnlyHan) {
  HanStats stats = CountHan(U("他说：“A1。”"));
  EXPECT_EQ(stats.han, 2);
  EXPECT_EQ(stats.common, 2);
}

TEST(ScoreTest, ChineseTextScoresHighAsChinese) {
  EXPECT_GT(ChineseScore(U("今天早上我们去公园散步，天气很好。")), 0.95);
}

TEST(ScoreTest, EuropeanTextScoresLowAsChinese) {
  EXPECT_LT(ChineseScore(U("Napo衍eon prišiel.")), 0.5);
}

TEST(ScoreTest, SlovakLettersScoreHigh) {
  EXPECT_GT(SlovakScore(U("Šťastný žiak, „áno“ – ďakujem.")), 0.95);
}

TEST(ScoreTest, WrongCodePageLettersScoreLow) {
  // windows-1250 Slovak read as ISO-8859-2 and the other way round.
  EXPECT_LT(SlovakScore(U("\u0161\u00A9a\u0165\u00B5")), 0.7);
  EXPECT_LT(SlovakScore(U("ąťastný, µad")), 0.7);
}

TEST(GarbledChineseTest, RealProseIsNotGarbled) {
  EXPECT_FALSE(LooksGarbledChinese(U("联军害怕了，他们向拿破仑提出停战要求。")));
}

TEST(GarbledChineseTest, RareCharacterSoupIsGarbled) {
  EXPECT_TRUE(LooksGarbledChinese(U("诩⒛霞埂⒚商芈蕖⒚防铮闷坡亓搅ぃ虻檬┩哚锤")));
}

TEST(GarbledChineseTest, ShortLinesNeedSeveralRareCharacters) {
  EXPECT_FALSE(LooksGarbledChinese(U("鼹鼠。")));
}

TEST(Utf8ScanTest, CountsAndTail) {
  Utf8Scan scan = ScanUtf8("a\xC3\xA1\xFF\xE3\x80");
  EXPECT_EQ(scan.multibyte, 1u);
  EXPECT_EQ(scan.invalid, 1u);
  EXPECT_EQ(scan.truncated_tail, 2u);
}

}  // namespace
}  // namespace ingest_internal
}  // namespace narrate
