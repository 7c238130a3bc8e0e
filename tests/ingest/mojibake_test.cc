// Mojibake: each kind is built here from clean text (encode to bytes, decode
// with the wrong converter), then must be repaired to the clean text, or
// dropped, and reported with its line.
#include <gtest/gtest.h>

#include "ingest/ingest.h"
#include "ingest_test_util.h"

namespace narrate {
namespace {

using testing_util::Convert;
using testing_util::Garble;
using testing_util::IngestBytes;

// (c) Slovak UTF-8 read as windows-1252 / windows-1250 and saved as UTF-8.
TEST(MojibakeTest, SlovakReadAsWindows1252IsRepaired) {
  const std::string garbled = Garble("Ľudovít", "windows-1252");
  EXPECT_EQ(garbled, "Ä½udovÃ­t");
  auto whole = IngestBytes(Garble("Kráľ Ľudovít prišiel.", "windows-1252") + "\n");
  EXPECT_EQ(whole.Text(), "Kráľ Ľudovít prišiel.");
  EXPECT_TRUE(whole.Reported(1, "windows-1252")) << whole.Diags();
  EXPECT_TRUE(whole.Reported(1, "repaired")) << whole.Diags();
}

TEST(MojibakeTest, GarbledWordAmongGoodWordsIsRepaired) {
  // Text pasted together from two sources: only the name is garbled.
  auto r = IngestBytes("Kráľ " + Garble("Ľudovít", "windows-1252") + " prišiel do mesta.\n");
  EXPECT_EQ(r.Text(), "Kráľ Ľudovít prišiel do mesta.");
  EXPECT_TRUE(r.Reported(1, "repaired")) << r.Diags();
}

TEST(MojibakeTest, GenuineAccentRunsAreNotRepaired) {
  // Runs of accented letters that are not well-formed UTF-8 when re-encoded.
  const std::string text = "Môže ľúbiť ČŠ a ÁŽ, áž, môžeš.";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(MojibakeTest, FrenchAndGermanAreLeftAlone) {
  const std::string text = "Ça, où l'été déçoit; Größe, Äußerung, Œuvre.";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(MojibakeTest, SlovakReadAsWindows1250IsRepaired) {
  const std::string clean = "Žltá lúka voňala senom a ďatle ťukali.";
  auto r = IngestBytes(Garble(clean, "windows-1250") + "\n");
  EXPECT_EQ(r.Text(), clean);
  EXPECT_TRUE(r.Reported(1, "garbled")) << r.Diags();
}

TEST(MojibakeTest, SlovakReadAsLatin1IsRepaired) {
  const std::string clean = "Pán učiteľ povedal, že zajtra bude písomka.";
  auto r = IngestBytes(Garble(clean, "ISO-8859-1") + "\n");
  EXPECT_EQ(r.Text(), clean);
}

TEST(MojibakeTest, OnlyTheGarbledLineIsRepaired) {
  const std::string text = "Prvý riadok je dobrý.\n" +
                           Garble("Druhý je pokazený, žiaľ.", "windows-1252") +
                           "\nTretí je zasa dobrý.\n";
  auto r = IngestBytes(text);
  EXPECT_EQ(r.Text(),
            "Prvý riadok je dobrý.\nDruhý je pokazený, žiaľ.\nTretí je zasa "
            "dobrý.");
  EXPECT_TRUE(r.Reported(2, "garbled"));
  EXPECT_FALSE(r.Reported(1, "garbled"));
  EXPECT_FALSE(r.Reported(3, "garbled"));
}

TEST(MojibakeTest, ChineseUtf8ReadAsWindows1252IsRepaired) {
  const std::string clean = "我们去公园散步。";
  auto r = IngestBytes(Garble(clean, "windows-1252") + "\n");
  EXPECT_EQ(r.Text(), clean) << r.Diags();
}

// (b) UTF-8 read as GBK and saved as UTF-8.
TEST(MojibakeTest, Utf8ReadAsGbkIsRepaired) {
  const std::string clean = "今天早上我们去公园散步，天气真的很好。";
  const std::string garbled = Garble(clean, "GBK");
  ASSERT_NE(garbled, clean);
  auto r = IngestBytes(garbled + "\n");
  // GBK left the last byte of 。 unpaired (U+FFFD): that character is lost.
  EXPECT_EQ(r.Text(), "今天早上我们去公园散步，天气真的很好") << r.Diags();
  EXPECT_TRUE(r.Reported(1, "UTF-8 text decoded as GBK")) << r.Diags();
}

TEST(MojibakeTest, Utf8ReadAsGbkOnSecondLine) {
  const std::string clean = "老人坐在河边钓鱼，讲他年轻时候的那些故事。";
  auto r = IngestBytes("第一章\n" + Garble(clean, "GBK") + "\n");
  EXPECT_EQ(r.Text(), "第一章\n老人坐在河边钓鱼，讲他年轻时候的那些故事") << r.Diags();
  EXPECT_TRUE(r.Reported(2, "garbled")) << r.Diags();
}

TEST(MojibakeTest, Utf8ReadAsGbkLosesOnlyUnpairedCharacters) {
  // 在 and 。 each left a byte that GBK could not pair (before "1815" and at
  // the end): those two are lost, the rest comes back.
  const std::string clean = "我们在1815年的春天离开了巴黎，然后一路向南走去，最后到了海边。";
  auto r = IngestBytes(Garble(clean, "GBK") + "\n");
  EXPECT_EQ(r.Text(), "我们1815年的春天离开了巴黎，然后一路向南走去，最后到了海边") << r.Diags();
  EXPECT_TRUE(r.Reported(1, "characters lost")) << r.Diags();
  EXPECT_TRUE(r.Reported(1, "removed 2 replacement characters")) << r.Diags();
}

TEST(MojibakeTest, Utf8ReadAsGbkWithLostByteIsRepairedOrDropped) {
  // An odd byte count leaves one byte that GBK cannot place (U+FFFD).
  const std::string clean = "她说明天我们一起去图书馆看书。";
  auto r = IngestBytes(Garble(clean, "GBK") + "\n");
  ASSERT_TRUE(r.clean.ok());
  // Never the garbled text: either the real text (maybe minus its last
  // character) or nothing.
  if (!r.clean->paragraphs.empty()) {
    EXPECT_EQ(clean.compare(0, r.Text().size(), r.Text()), 0) << r.Text();
  }
  EXPECT_TRUE(r.Reported(1, "garbled")) << r.Diags();
}

TEST(MojibakeTest, TraditionalUtf8ReadAsGbkIsRepaired) {
  const std::string clean = "我們今天早上去公園散步，天氣很好，陽光明媚。";
  auto r = IngestBytes(Garble(clean, "GBK") + "\n");
  ASSERT_TRUE(r.clean.ok());
  EXPECT_TRUE(r.Reported(1, "UTF-8 text decoded as GBK")) << r.Diags();
  EXPECT_EQ(clean.compare(0, r.Text().size(), r.Text()), 0) << r.Text();
  EXPECT_GT(r.Text().size(), clean.size() - 4);
}

TEST(MojibakeTest, DiagnosticsNameTheFile) {
  auto r = IngestBytes(Garble("Ľudovít prišiel.", "windows-1252") + "\n");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics.back().file, "t.txt");
  EXPECT_EQ(r.diagnostics.back().ToString().rfind("t.txt:1: ", 0), 0u) << r.Diags();
}

// (a) GBK bytes decoded one byte out of step.
std::string ShiftedGbk(const std::string& clean, size_t drop) {
  std::string gbk = Convert(clean, "GBK");
  return Convert(gbk.substr(drop), "UTF-8", "GBK");
}

TEST(MojibakeTest, GbkOutOfStepIsRepaired) {
  const std::string clean = "老人坐在河边，一边钓鱼一边讲他年轻时候的故事。";
  // Decoding from the second byte pairs each trail byte with the next lead.
  // The first and the last character lost a byte each and cannot come back.
  auto r = IngestBytes(ShiftedGbk(clean, 1) + "\n");
  EXPECT_EQ(r.Text(), "人坐在河边，一边钓鱼一边讲他年轻时候的故事") << r.Diags();
  EXPECT_TRUE(r.Reported(1, "one byte out of step")) << r.Diags();
}

TEST(MojibakeTest, GbkOutOfStepAmongGoodLines) {
  const std::string clean = "他说：“我们明天早上一起去城里买东西，好不好？”";
  auto r = IngestBytes("第一行。\n" + ShiftedGbk(clean, 1) + "\n第三行。\n");
  EXPECT_EQ(r.Text(), "第一行。\n说：“我们明天早上一起去城里买东西，好不好？\n第三行。");
  EXPECT_TRUE(r.Reported(2, "garbled")) << r.Diags();
}

TEST(MojibakeTest, GarbledChineseWithoutRepairIsDropped) {
  // Rare characters only: no decoding turns them into prose.
  auto r = IngestBytes("好的开始。\n鍪鏊鼍鑫齄鼗鼙鼯鼹鼷龀龃龠。\n结束。\n");
  EXPECT_EQ(r.Text(), "好的开始。\n结束。");
  EXPECT_TRUE(r.Reported(2, "dropped")) << r.Diags();
}

TEST(MojibakeTest, RealChineseIsLeftAlone) {
  const std::string text = "拿破仑在特卢瓦得知联军突袭的消息后，立即策马向巴黎飞奔而去。";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(MojibakeTest, TraditionalChineseIsLeftAlone) {
  const std::string text = "她說：「明天我們一起去圖書館看書吧！」老人坐在河邊釣魚。";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(MojibakeTest, RealSlovakIsLeftAlone) {
  const std::string text = "Ďalší deň prišiel Ľudovít s kráľom do Paríža.";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

TEST(MojibakeTest, FrenchNamesAreLeftAlone) {
  const std::string text = "Maréchal Ney, Fouché a Talleyrand sa stretli.";
  auto r = IngestBytes(text + "\n");
  EXPECT_EQ(r.Text(), text);
  EXPECT_EQ(r.Warnings(), 0) << r.Diags();
}

// The sample chapter 003: a garbled first paragraph and a cut-off end.
class Sample003Test : public ::testing::Test {
 protected:
  void SetUp() override {
    auto bytes =
        ReadFile(std::string(NARRATE_SOURCE_DIR) + "/books/napoleon/text/003_51cec20454eba82e.txt");
    ASSERT_TRUE(bytes.ok());
    result_ = std::make_unique<testing_util::Result>(IngestBytes(*bytes));
    ASSERT_TRUE(result_->clean.ok()) << result_->Text();
  }
  std::unique_ptr<testing_util::Result> result_;
};

TEST_F(Sample003Test, NoReplacementCharacters) {
  EXPECT_EQ(result_->Text().find("\xEF\xBF\xBD"), std::string::npos);
}

TEST_F(Sample003Test, FirstParagraphRepairedOrDroppedAndReported) {
  EXPECT_TRUE(result_->Reported(1, "garbled")) << result_->Diags();
  const Paragraph& first = result_->clean->paragraphs.front();
  if (first.line == 1) {
    EXPECT_TRUE(result_->Reported(1, "repaired"));
  } else {
    EXPECT_TRUE(result_->Reported(1, "dropped"));
    EXPECT_EQ(first.line, 2);
  }
}

TEST_F(Sample003Test, TailFragmentReported) {
  const Paragraph& last = result_->clean->paragraphs.back();
  EXPECT_EQ(last.line, 22);
  EXPECT_TRUE(result_->Reported(22, "middle of a sentence")) << result_->Diags();
  // Ends with the last complete sentence.
  const std::string end = "必须投降了。";
  ASSERT_GE(last.text.size(), end.size());
  EXPECT_EQ(last.text.substr(last.text.size() - end.size()), end);
}

TEST_F(Sample003Test, FullWidthDigitsBecomeAscii) {
  EXPECT_EQ(result_->Text().find("１"), std::string::npos);
  EXPECT_NE(result_->Text().find("3月25日"), std::string::npos);
}

TEST_F(Sample003Test, ClosingDittoQuotesKept) {
  EXPECT_NE(result_->Text().find("〃"), std::string::npos);
}

TEST_F(Sample003Test, EncodingIsUtf8) {
  EXPECT_EQ(result_->clean->encoding, "UTF-8");
  EXPECT_EQ(result_->clean->paragraphs.size(), 21u);
}

}  // namespace
}  // namespace narrate
