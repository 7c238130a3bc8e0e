// Invariants on whole paragraphs: the Chinese sample texts and text written for
// the test. Tokens concatenate back to the paragraph; no digit is left in the
// spoken form; token kinds are the ones the rules promise.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "normalize/normalize.h"
#include "zh_test_util.h"

namespace narrate {
namespace {

using testing_util::ZhOptions;

const char* const kSamples[] = {
    NARRATE_SOURCE_DIR "/books/napoleon/text/000_b362695813637752.txt",
    NARRATE_SOURCE_DIR "/books/napoleon/text/003_51cec20454eba82e.txt",
    NARRATE_SOURCE_DIR "/books/napoleon/text/004_11f133fc86e9e1cf.txt",
};

std::unique_ptr<Normalizer> MakeZh() {
  auto n = Normalizer::Create(ZhOptions());
  EXPECT_TRUE(n.ok()) << n.status().message();
  return std::move(n).value();
}

// ASCII digits, or full-width ０-９ (EF BC 90 .. EF BC 99 in UTF-8).
bool HasDigit(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] >= '0' && s[i] <= '9') return true;
    if (i + 2 < s.size() && s.compare(i, 2, "\xEF\xBC") == 0 &&
        static_cast<unsigned char>(s[i + 2]) >= 0x90 &&
        static_cast<unsigned char>(s[i + 2]) <= 0x99) {
      return true;
    }
  }
  return false;
}

// Paragraphs holding Hanzi (the Chinese ones; 004 is Slovak).
std::vector<std::string> ChineseParagraphs(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("\xE7") != std::string::npos ||  // most common Hanzi lead
        line.find("\xE4") != std::string::npos || line.find("\xE5") != std::string::npos) {
      out.push_back(line);
    }
  }
  return out;
}

TEST(ZhSamples, TextRoundTripsAndSpokenHasNoDigits) {
  auto normalizer = MakeZh();
  int paragraphs = 0, numbers = 0;
  for (const char* path : kSamples) {
    for (const std::string& text : ChineseParagraphs(path)) {
      ++paragraphs;
      CollectingReporter reporter;
      NormalizedParagraph p = normalizer->Normalize({text, 1}, path, &reporter);
      EXPECT_EQ(PrintedText(p.tokens), text) << path;
      EXPECT_FALSE(HasDigit(SpokenText(p.tokens))) << SpokenText(p.tokens);
      for (const Token& t : p.tokens) numbers += t.kind == TokenKind::kNumber;
    }
  }
  EXPECT_GE(paragraphs, 30);
  EXPECT_GE(numbers, 50);  // both Chinese samples are full of dates
}

TEST(ZhSamples, OwnTextRoundTrips) {
  auto normalizer = MakeZh();
  const char* const kTexts[] = {
      "1805年12月2日，奥斯特里茨战役在上午8:00打响，持续了约9个小时。",
      "他花了3.5万法郎（约合今天的2,000,000欧元），占预算的15%。",
      "第3军团在10月14日至15日行军120km，只有1/4的士兵掉队。",
      "（Vive l'Empereur！）士兵们高呼，共有-5℃的寒风。  双空格\t制表符",
      "电话：010-65529988，手机13912345678。",
      "",
  };
  for (const char* text : kTexts) {
    CollectingReporter reporter;
    NormalizedParagraph p = normalizer->Normalize({text, 7}, "own.txt", &reporter);
    EXPECT_EQ(p.line, 7);
    EXPECT_EQ(PrintedText(p.tokens), text);
    EXPECT_FALSE(HasDigit(SpokenText(p.tokens))) << SpokenText(p.tokens);
    for (const Token& t : p.tokens) EXPECT_FALSE(t.text.empty());
  }
}

TEST(ZhSamples, OwnTextSpoken) {
  auto normalizer = MakeZh();
  CollectingReporter reporter;
  NormalizedParagraph p = normalizer->Normalize(
      {"1805年12月2日，战役在上午8:00打响，持续了约9个小时。", 1}, "own.txt", &reporter);
  EXPECT_EQ(SpokenText(p.tokens), "一八〇五年十二月二日，战役在上午八点打响，持续了约九个小时。");
}

TEST(ZhSamples, TokenKinds) {
  auto normalizer = MakeZh();
  CollectingReporter reporter;
  NormalizedParagraph p = normalizer->Normalize({"于3月27日，“好 ”", 1}, "t.txt", &reporter);
  std::vector<TokenKind> kinds;
  for (const Token& t : p.tokens) kinds.push_back(t.kind);
  std::vector<TokenKind> expected = {
      TokenKind::kWord, TokenKind::kNumber, TokenKind::kPunctuation, TokenKind::kPunctuation,
      TokenKind::kWord, TokenKind::kSpace,  TokenKind::kPunctuation};
  EXPECT_EQ(kinds, expected);
  EXPECT_EQ(p.tokens[1].text, "3月27日");
  EXPECT_EQ(p.tokens[1].spoken, "三月二十七日");
}

}  // namespace
}  // namespace narrate
