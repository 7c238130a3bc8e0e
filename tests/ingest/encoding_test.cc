// Encoding detection: BOMs, UTF-16, GB18030, Big5, windows-1250, ISO-8859-2,
// overrides and undecodable bytes. Each encoded copy is built here from UTF-8
// text with ICU and must ingest to exactly what the UTF-8 copy does.
#include <gtest/gtest.h>

#include "core/core.h"
#include "ingest/ingest.h"
#include "ingest_test_util.h"

namespace narrate {
namespace {

using testing_util::Convert;
using testing_util::IngestBytes;

// Prose written for these tests.
const char kSlovak[] =
    "Včera večer sme šli s dedkom Ľudovítom na prechádzku k jazeru.\n"
    "Žltá lúka voňala senom a ďatle ťukali do kôry starých bukov.\n"
    "\n"
    "Pán učiteľ povedal, že zajtra bude písomka; žiaci sa zľakli.\n";
const char kChinese[] =
    "今天早上我们去公园散步，天气很好，阳光明媚。\n"
    "她说：“明天我们一起去图书馆看书吧！”\n"
    "\n"
    "老人坐在河边，一边钓鱼一边讲他年轻时候的故事。\n";
const char kTraditional[] =
    "我們今天早上去公園散步，天氣很好，陽光明媚。\n"
    "她說：「明天我們一起去圖書館看書吧！」\n"
    "老人坐在河邊，一邊釣魚一邊講他年輕時候的故事。\n";

// Ingests `utf8` as is and encoded in `encoding`; both must agree.
void ExpectSameAsUtf8(const std::string& utf8, const char* encoding,
                      const std::string& expected_label, const std::string& lang = "") {
  auto plain = IngestBytes(utf8, "", lang);
  ASSERT_TRUE(plain.clean.ok()) << plain.Text();
  const std::string bytes = Convert(utf8, encoding);
  ASSERT_NE(bytes, utf8);
  auto coded = IngestBytes(bytes, "", lang);
  ASSERT_TRUE(coded.clean.ok()) << coded.Text();
  EXPECT_EQ(coded.Text(), plain.Text()) << encoding;
  EXPECT_EQ(coded.clean->encoding, expected_label);
  ASSERT_EQ(coded.clean->paragraphs.size(), plain.clean->paragraphs.size());
  for (size_t i = 0; i < plain.clean->paragraphs.size(); ++i) {
    EXPECT_EQ(coded.clean->paragraphs[i].line, plain.clean->paragraphs[i].line);
  }
  EXPECT_EQ(coded.Warnings(), 0) << coded.Diags();
}

TEST(EncodingTest, PlainUtf8) {
  auto r = IngestBytes("Dobrý deň.\n");
  EXPECT_EQ(r.Text(), "Dobrý deň.");
  EXPECT_EQ(r.clean->encoding, "UTF-8");
}

TEST(EncodingTest, AsciiIsUtf8) { EXPECT_EQ(IngestBytes("Hello.\n").clean->encoding, "UTF-8"); }

TEST(EncodingTest, EncodingIsReportedAsInfo) {
  auto r = IngestBytes("Dobrý deň.\n");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].severity, Severity::kInfo);
  EXPECT_NE(r.diagnostics[0].message.find("UTF-8"), std::string::npos);
  EXPECT_EQ(r.diagnostics[0].file, "t.txt");
}

TEST(EncodingTest, Utf8BomStripped) {
  auto r = IngestBytes(
      "\xEF\xBB\xBF"
      "Ahoj.\nSvet.\n");
  EXPECT_EQ(r.Text(), "Ahoj.\nSvet.");
  EXPECT_EQ(r.clean->encoding, "UTF-8");
  EXPECT_EQ(r.clean->paragraphs[0].line, 1);
}

TEST(EncodingTest, Utf8BomChinese) {
  auto r = IngestBytes(
      "\xEF\xBB\xBF"
      "你好。\n");
  EXPECT_EQ(r.Text(), "你好。");
}

TEST(EncodingTest, Utf16LeBom) {
  auto r = IngestBytes(Convert(kChinese, "UTF-16LE").insert(0, "\xFF\xFE"));
  EXPECT_EQ(r.Text(), IngestBytes(kChinese).Text());
  EXPECT_EQ(r.clean->encoding, "UTF-16LE");
}

TEST(EncodingTest, Utf16BeBom) {
  auto r = IngestBytes(Convert(kSlovak, "UTF-16BE").insert(0, "\xFE\xFF"));
  EXPECT_EQ(r.Text(), IngestBytes(kSlovak).Text());
  EXPECT_EQ(r.clean->encoding, "UTF-16BE");
}

TEST(EncodingTest, Utf16LeWithoutBomSlovak) {
  auto r = IngestBytes(Convert(kSlovak, "UTF-16LE"));
  EXPECT_EQ(r.Text(), IngestBytes(kSlovak).Text());
}

TEST(EncodingTest, Utf16WithBomDoesNotKeepBom) {
  auto r = IngestBytes(std::string("\xFF\xFE", 2) + Convert("A.\n", "UTF-16LE"));
  EXPECT_EQ(r.Text(), "A.");
}

TEST(EncodingTest, Gb18030RoundTrip) { ExpectSameAsUtf8(kChinese, "GB18030", "GB18030"); }

TEST(EncodingTest, GbkRoundTripIsGb18030) { ExpectSameAsUtf8(kChinese, "GBK", "GB18030"); }

TEST(EncodingTest, Gb18030ShortLine) {
  ExpectSameAsUtf8("我们去公园散步。\n", "GB18030", "GB18030");
}

TEST(EncodingTest, Big5RoundTrip) { ExpectSameAsUtf8(kTraditional, "Big5", "Big5"); }

TEST(EncodingTest, Windows1250RoundTrip) {
  ExpectSameAsUtf8(kSlovak, "windows-1250", "windows-1250");
}

TEST(EncodingTest, Iso88592RoundTrip) { ExpectSameAsUtf8(kSlovak, "ISO-8859-2", "ISO-8859-2"); }

TEST(EncodingTest, Windows1250ShortSlovak) {
  ExpectSameAsUtf8("Šťastný žiak.\n", "windows-1250", "windows-1250");
}

TEST(EncodingTest, Iso88592ShortSlovak) {
  ExpectSameAsUtf8("Šťastný žiak.\n", "ISO-8859-2", "ISO-8859-2");
}

TEST(EncodingTest, Windows1250LWithCaron) {
  // ľ is 0xBE in windows-1250 (ž in ISO-8859-2); š is 0x9A.
  ExpectSameAsUtf8("Ľudia sú šťastní, keď majú ľad.\n", "windows-1250", "windows-1250");
}

TEST(EncodingTest, Iso88592LWithCaron) {
  // ľ is 0xB5 in ISO-8859-2 (µ in windows-1250).
  ExpectSameAsUtf8("Ľudia sú šťastní, keď majú ľad.\n", "ISO-8859-2", "ISO-8859-2");
}

TEST(EncodingTest, Windows1250QuotesAndDash) {
  ExpectSameAsUtf8("Povedal: „Áno“ – a odišiel.\n", "windows-1250", "windows-1250");
}

TEST(EncodingTest, SlovakHintChoosesSingleByte) {
  ExpectSameAsUtf8("Žaba skáče.\n", "windows-1250", "windows-1250", "sk");
}

TEST(EncodingTest, ChineseHintChoosesDoubleByte) {
  ExpectSameAsUtf8("天气很好。\n", "GB18030", "GB18030", "zh");
}

TEST(EncodingTest, SampleChapter000AsGb18030) {
  auto utf8 =
      ReadFile(std::string(NARRATE_SOURCE_DIR) + "/books/napoleon/text/000_b362695813637752.txt");
  ASSERT_TRUE(utf8.ok());
  ExpectSameAsUtf8(*utf8, "GB18030", "GB18030");
}

TEST(EncodingTest, SampleChapter004AsWindows1250) {
  auto utf8 =
      ReadFile(std::string(NARRATE_SOURCE_DIR) + "/books/napoleon/text/004_11f133fc86e9e1cf.txt");
  ASSERT_TRUE(utf8.ok());
  ExpectSameAsUtf8(*utf8, "windows-1250", "windows-1250");
}

TEST(EncodingTest, SampleChapter004AsIso88592) {
  auto utf8 =
      ReadFile(std::string(NARRATE_SOURCE_DIR) + "/books/napoleon/text/004_11f133fc86e9e1cf.txt");
  ASSERT_TRUE(utf8.ok());
  ExpectSameAsUtf8(*utf8, "ISO-8859-2", "ISO-8859-2");
}

TEST(EncodingTest, Big5ShortLine) { ExpectSameAsUtf8("他說：「好。」\n", "Big5", "Big5"); }

TEST(EncodingTest, Gb18030FourByteCharacters) {
  // 𠀀 (U+20000) and € need GB18030's four-byte or two-byte forms.
  ExpectSameAsUtf8("我们看见了𠀀字，价格是5€。\n天气很好。\n", "GB18030", "GB18030");
}

TEST(EncodingTest, Gb18030WithAsciiAndDigits) {
  ExpectSameAsUtf8("1815年3月1日，拿破仑在Golfe-Juan登陆。\n", "GB18030", "GB18030");
}

TEST(EncodingTest, SlovakWithSharedLettersOnly) {
  // á é í ó ú ý ä ô č ď ň are at the same bytes in both code pages: the text
  // is the same whichever is named.
  const std::string utf8 = "Pán doktor má dnes voľno.\n";
  for (const char* page : {"windows-1250", "ISO-8859-2"}) {
    auto r = IngestBytes(Convert("Pán doktor dnes číta, ďaleko je ôsmy deň.\n", page));
    EXPECT_EQ(r.Text(), "Pán doktor dnes číta, ďaleko je ôsmy deň.") << page;
  }
  (void)utf8;
}

TEST(EncodingTest, Utf16LeBomWithCrLf) {
  auto r = IngestBytes(std::string("\xFF\xFE", 2) + Convert("Prvý.\r\n\r\nTretí.\r\n", "UTF-16LE"));
  EXPECT_EQ(r.Text(), "Prvý.\nTretí.");
  EXPECT_EQ(r.clean->paragraphs[1].line, 3);
}

TEST(EncodingTest, LegacyEncodingDamageIsStillCleaned) {
  // A soft hyphen in windows-1250 (0xAD) is removed like in UTF-8.
  auto r = IngestBytes(Convert("Napo\u00ADleon šiel.\n", "windows-1250"));
  EXPECT_EQ(r.Text(), "Napoleon šiel.");
  EXPECT_TRUE(r.Reported(1, "soft hyphen")) << r.Diags();
}

TEST(EncodingTest, OverrideWins) {
  // These bytes are valid UTF-8 too, but the given encoding is used.
  const std::string bytes = Convert("Ä½udovÃ­t", "ISO-8859-1");
  auto r = IngestBytes(bytes, "windows-1250");
  EXPECT_EQ(r.clean->encoding, "windows-1250");
  auto given = IngestBytes(Convert(kSlovak, "ISO-8859-2"), "ISO-8859-2");
  EXPECT_EQ(given.Text(), IngestBytes(kSlovak).Text());
  EXPECT_EQ(given.clean->encoding, "ISO-8859-2");
}

TEST(EncodingTest, OverrideChangesTheReading) {
  // 0xBE is ľ in windows-1250 and ž in ISO-8859-2.
  EXPECT_EQ(IngestBytes("\xBE"
                        "a.\n",
                        "windows-1250")
                .Text(),
            "ľa.");
  EXPECT_EQ(IngestBytes("\xBE"
                        "a.\n",
                        "ISO-8859-2")
                .Text(),
            "ža.");
}

TEST(EncodingTest, DeclaredEncodingThatFailsIsDataError) {
  auto r = IngestBytes("\xFF\xFE\xFD not utf-8", "UTF-8");
  ASSERT_FALSE(r.clean.ok());
  EXPECT_EQ(r.clean.status().code(), StatusCode::kDataError);
  EXPECT_NE(r.clean.status().message().find("t.txt"), std::string::npos);
}

TEST(EncodingTest, GivenUtf8WithBomAndCutTail) {
  auto r = IngestBytes(
      "\xEF\xBB\xBF"
      "他说。\n好\xE3\x80",
      "utf-8");
  ASSERT_TRUE(r.clean.ok()) << r.Text();
  EXPECT_EQ(r.Text(), "他说。\n好");
  EXPECT_TRUE(r.Reported(2, "ends inside a character")) << r.Diags();
  EXPECT_FALSE(r.Reported(1, "zero-width")) << r.Diags();
}

TEST(EncodingTest, GivenUtf16KeepsNoBom) {
  auto r = IngestBytes(std::string("\xFF\xFE", 2) + Convert("Áno.\n", "UTF-16LE"), "UTF-16");
  EXPECT_EQ(r.Text(), "Áno.");
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(EncodingTest, UnknownDeclaredEncodingIsDataError) {
  auto r = IngestBytes("abc", "no-such-encoding");
  ASSERT_FALSE(r.clean.ok());
  EXPECT_EQ(r.clean.status().code(), StatusCode::kDataError);
}

TEST(EncodingTest, BinaryGarbageIsDataError) {
  std::string bytes;
  uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245u + 12345u;
    bytes.push_back(static_cast<char>(x >> 23));
  }
  auto r = IngestBytes(bytes);
  ASSERT_FALSE(r.clean.ok());
  EXPECT_EQ(r.clean.status().code(), StatusCode::kDataError);
  EXPECT_NE(r.clean.status().message().find("t.txt"), std::string::npos);
}

TEST(EncodingTest, HighBytesWithoutNulIsDataError) {
  std::string bytes;
  for (int i = 0; i < 512; ++i) bytes.push_back(static_cast<char>(0x80 + i % 32));
  auto r = IngestBytes(bytes);
  ASSERT_FALSE(r.clean.ok());
  EXPECT_EQ(r.clean.status().code(), StatusCode::kDataError);
}

TEST(EncodingTest, PngHeaderIsDataError) {
  auto r = IngestBytes(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  EXPECT_EQ(r.clean.status().code(), StatusCode::kDataError);
}

TEST(EncodingTest, EmptyFileIsEmptyText) {
  auto r = IngestBytes("");
  ASSERT_TRUE(r.clean.ok());
  EXPECT_TRUE(r.clean->paragraphs.empty());
}

TEST(EncodingTest, MissingFileIsIoError) {
  CollectingReporter reporter;
  auto r = IngestFile("/nonexistent/dir/x.txt", {}, &reporter);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_NE(r.status().message().find("/nonexistent/dir/x.txt"), std::string::npos);
}

}  // namespace
}  // namespace narrate

namespace narrate {
namespace {

// Files on disk (tests/data/ingest), written from the same UTF-8 text.
const char kSlovakFile[] =
    "Ďalší deň ráno sa Ľudovít zobudil skoro. Šiel k studni, načrel vody a "
    "umyl sa.\nŽena mu pripravila raňajky: chlieb, maslo a teplé mlieko.";
const char kChineseFile[] =
    "第二天早上，老人很早就起来了。他走到井边，打了一桶水。\n"
    "妻子给他准备了早饭：馒头、稀饭和一碟咸菜。";

std::string IngestDataFile(const std::string& name, std::string* encoding) {
  CollectingReporter reporter;
  auto r = IngestFile(std::string(NARRATE_TEST_DATA) + "/ingest/" + name, {}, &reporter);
  if (!r.ok()) return "<error: " + r.status().message() + ">";
  *encoding = r->encoding;
  std::string out;
  for (const Paragraph& p : r->paragraphs) {
    if (!out.empty()) out += "\n";
    out += p.text;
  }
  return out;
}

TEST(EncodingFileTest, Windows1250File) {
  std::string encoding;
  EXPECT_EQ(IngestDataFile("slovak_windows-1250.txt", &encoding), kSlovakFile);
  EXPECT_EQ(encoding, "windows-1250");
}

TEST(EncodingFileTest, Iso88592File) {
  std::string encoding;
  EXPECT_EQ(IngestDataFile("slovak_iso-8859-2.txt", &encoding), kSlovakFile);
  EXPECT_EQ(encoding, "ISO-8859-2");
}

TEST(EncodingFileTest, Gb18030File) {
  std::string encoding;
  EXPECT_EQ(IngestDataFile("chinese_gb18030.txt", &encoding), kChineseFile);
  EXPECT_EQ(encoding, "GB18030");
}

TEST(EncodingFileTest, Utf16LeBomCrLfFile) {
  std::string encoding;
  EXPECT_EQ(IngestDataFile("chinese_utf-16le_bom.txt", &encoding), kChineseFile);
  EXPECT_EQ(encoding, "UTF-16LE");
}

}  // namespace
}  // namespace narrate
