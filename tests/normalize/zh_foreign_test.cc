// Latin-script spans inside Chinese text: one kForeign token per span, spoken
// as printed, with a guessed language.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "normalize/normalize.h"
#include "zh_test_util.h"

namespace narrate {
namespace {

using testing_util::ZhOptions;

NormalizedParagraph Tokens(const std::string& text) {
  auto n = Normalizer::Create(ZhOptions());
  EXPECT_TRUE(n.ok()) << n.status().message();
  CollectingReporter reporter;
  return (*n)->Normalize({text, 1}, "t.txt", &reporter);
}

// The only foreign token of `text`; fails when there is not exactly one.
Token OnlyForeign(const std::string& text) {
  NormalizedParagraph p = Tokens(text);
  EXPECT_EQ(PrintedText(p.tokens), text);
  Token found;
  int count = 0;
  for (const Token& t : p.tokens) {
    if (t.kind == TokenKind::kForeign) {
      found = t;
      ++count;
    }
  }
  EXPECT_EQ(count, 1) << text;
  return found;
}

struct Case {
  const char* in;
  const char* span;
  const char* lang;
};

class ZhForeignTest : public ::testing::TestWithParam<Case> {};

TEST_P(ZhForeignTest, SpanAndLanguage) {
  Token t = OnlyForeign(GetParam().in);
  EXPECT_EQ(t.text, GetParam().span);
  EXPECT_EQ(t.spoken, GetParam().span);
  EXPECT_EQ(t.lang, GetParam().lang);
}

const Case kSpans[] = {
    {"《离别歌》（Le Chant du Départ）和", "Le Chant du Départ", "fr"},
    {"埃松河（the River Essonne，塞纳河的支流）", "the River Essonne", "en"},
    {"奥尔贡（Orgon）", "Orgon", "en"},
    {"他唱起La Marseillaise。", "La Marseillaise", "fr"},
    {"他读过The Art of War吗", "The Art of War", "en"},
    {"一首Café", "Café", "fr"},
    {"德国歌曲die Wacht am Rhein很有名", "die Wacht am Rhein", "de"},
    {"在McDonald's吃饭", "McDonald's", "en"},
    {"Saint-Dizier城", "Saint-Dizier", "en"},
    {"使用a.d.纪年", "a.d", "en"},
};
INSTANTIATE_TEST_SUITE_P(Foreign, ZhForeignTest, ::testing::ValuesIn(kSpans));

TEST(ZhForeignTokens, HanziAroundASpanStayWords) {
  NormalizedParagraph p = Tokens("歌曲Le Chant很好");
  ASSERT_EQ(p.tokens.size(), 3u);
  EXPECT_EQ(p.tokens[0].kind, TokenKind::kWord);
  EXPECT_EQ(p.tokens[0].text, "歌曲");
  EXPECT_EQ(p.tokens[1].kind, TokenKind::kForeign);
  EXPECT_EQ(p.tokens[2].text, "很好");
}

TEST(ZhForeignTokens, TimeSuffixAfterNumberIsForeign) {
  NormalizedParagraph p = Tokens("10:04pm");
  EXPECT_EQ(SpokenText(p.tokens), "十点零四分pm");
  EXPECT_EQ(p.tokens.back().kind, TokenKind::kForeign);
}

}  // namespace
}  // namespace narrate
