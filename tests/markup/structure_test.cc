// Chapters, headings and sentences.
#include <gtest/gtest.h>

#include "markup/internal.h"
#include "markup_test_util.h"

namespace narrate {
namespace {

using testing_util::Mark;
using testing_util::Who;

std::vector<std::string> Sentences(const std::string& text, const Lang& lang) {
  std::vector<std::string> out;
  for (const auto& s : SplitSentences(testing_util::Normalize(lang, text, 1).tokens, lang)) {
    out.push_back(PrintedText(s));
  }
  return out;
}

TEST(Headings, StandaloneShortLines) {
  auto zh = Mark("zh", {"第二章 进军巴黎", "他们出发了。"});
  EXPECT_EQ(Who(zh, "进军巴黎"), "heading/-");
  auto sk = Mark("sk", {"II. Návrat", "Odišli."});
  EXPECT_EQ(Who(sk, "Návrat"), "heading/-");
}

TEST(Headings, TrailingFragmentAfterLastSentence) {
  auto s = Mark("sk", {"Nasadol do koča a zamieril na Atlantik. Obrana Paríža"});
  EXPECT_EQ(Who(s, "Obrana Paríža"), "heading/-");
  EXPECT_EQ(testing_util::Find(s, "Obrana Paríža")->text, "Obrana Paríža");
  EXPECT_EQ(Who(s, "Atlantik"), "narration/-");
}

TEST(Headings, SentenceEndingInPunctuationIsNotHeading) {
  auto s = Mark("zh", {"他走了。", "400名侍卫愿随他去。"});
  EXPECT_EQ(Who(s, "400名侍卫"), "narration/-");
}

TEST(Headings, ChapterTitleIsFirstUtterance) {
  auto s = Mark("zh", {"他走了。"});
  ASSERT_FALSE(s.chapters[0].utterances.empty());
  EXPECT_EQ(s.chapters[0].utterances[0].kind, UtteranceKind::kHeading);
  EXPECT_EQ(s.chapters[0].title, "标题");
}

TEST(Headings, DefaultTitleWithoutOne) {
  ChapterSource source = testing_util::Source("sk", {"Odišli."});
  source.title.clear();
  CollectingReporter r;
  auto s = Markup("t", "a", {source}, Cast(), Overrides(), {}, &r);
  EXPECT_EQ(s.chapters[0].title, "Kapitola 1");
}

TEST(Sentences, OpeningQuoteMovesToNextSentence) {
  auto s = Sentences("他走了。“你好。”", "zh");
  ASSERT_GE(s.size(), 2u);
  EXPECT_EQ(s[0], "他走了。");
  EXPECT_EQ(s[1].rfind("“", 0), 0u);
}

TEST(Sentences, DittoMarkClosesSentence) {
  auto s = Sentences("〃非常糟糕，陛下。〃", "zh");
  ASSERT_EQ(s.size(), 1u);
}

TEST(Sentences, SlovakAbbreviationDoesNotEndSentence) {
  auto s = Sentences("Prišiel gen. Bertrand. Potom odišiel.", "sk");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1], "Potom odišiel.");
}

TEST(Sentences, SlovakClosingQuoteStaysWithSentence) {
  auto s = Sentences("„Ideme.“ Potom odišiel.", "sk");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], "„Ideme.“ ");
}

TEST(Sentences, EveryTokenOnce) {
  const auto tokens = testing_util::Normalize("zh", "甲。乙！丙？", 1).tokens;
  size_t n = 0;
  for (const auto& s : SplitSentences(tokens, "zh")) n += s.size();
  EXPECT_EQ(n, tokens.size());
}

TEST(Ids, StableAndOrdered) {
  auto s = Mark("zh", {"甲走了。乙来了。", "丙说：“好。”"});
  const auto& u = s.chapters[0].utterances;
  ASSERT_GE(u.size(), 4u);
  EXPECT_EQ(u[0].id, "c01-p0000-s00");
  EXPECT_EQ(u[1].id, "c01-p0001-s01");
  EXPECT_EQ(u[2].id, "c01-p0001-s02");
  EXPECT_EQ(u[3].id, "c01-p0002-s01");
}

}  // namespace
}  // namespace narrate
