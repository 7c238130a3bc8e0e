// The normalize engine: language selection, rule-table errors, the book
// lexicon (longest match first, inside words), skipping foreign glosses, and
// one Normalizer shared between threads.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "normalize/normalize.h"
#include "zh_test_util.h"

namespace narrate {
namespace {

using testing_util::ZhOptions;

const char kRules[] = NARRATE_SOURCE_DIR "/pipeline/normalize/rules";

std::unique_ptr<Normalizer> Make(std::vector<LexiconEntry> lexicon, bool skip_glosses = false) {
  NormalizerOptions options;
  options.lang = "zh";
  options.rules_dir = kRules;
  options.lexicon = std::move(lexicon);
  options.skip_glosses = skip_glosses;
  auto n = Normalizer::Create(options);
  EXPECT_TRUE(n.ok()) << n.status().message();
  return std::move(n).value();
}

NormalizedParagraph Tokens(const Normalizer& n, const std::string& text) {
  CollectingReporter reporter;
  NormalizedParagraph p = n.Normalize({text, 3}, "t.txt", &reporter);
  EXPECT_EQ(PrintedText(p.tokens), text);
  return p;
}

TEST(Engine, UnknownLanguageIsUsage) {
  auto n = Normalizer::Create([] {
    NormalizerOptions o = ZhOptions();
    o.lang = "xx";
    return o;
  }());
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), StatusCode::kUsage);
}

TEST(Engine, MissingRulesDirIsAnError) {
  auto n = Normalizer::Create(ZhOptions("/nonexistent/rules"));
  ASSERT_FALSE(n.ok());
  EXPECT_NE(n.status().message().find("/nonexistent/rules/zh/"), std::string::npos);
}

TEST(Engine, MalformedRuleRowIsDataErrorNamingFileAndLine) {
  const std::string dir = ::testing::TempDir() + "/zh_rules_bad";
  ASSERT_TRUE(MakeDirs(dir + "/zh").ok());
  for (const char* name : {"liang.tsv", "context.tsv", "foreign.tsv"}) {
    auto data = ReadFile(std::string(kRules) + "/zh/" + name);
    ASSERT_TRUE(data.ok());
    ASSERT_TRUE(WriteFileAtomic(dir + "/zh/" + name, *data).ok());
  }
  ASSERT_TRUE(
      WriteFileAtomic(dir + "/zh/symbols.tsv", "# comment\n%\t百分之\tprefix\nkm\t公里\n").ok());
  auto n = Normalizer::Create(ZhOptions(dir));
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), StatusCode::kDataError);
  EXPECT_NE(n.status().message().find("symbols.tsv:3:"), std::string::npos) << n.status().message();
}

TEST(Engine, LexiconEntryBecomesLexiconToken) {
  auto n = Make({{"zh", "科兰古", "ke1lan2gu3"}});
  NormalizedParagraph p = Tokens(*n, "告诉科兰古：");
  ASSERT_EQ(p.tokens.size(), 3u);
  EXPECT_EQ(p.tokens[0].text, "告诉");
  EXPECT_EQ(p.tokens[1].kind, TokenKind::kLexicon);
  EXPECT_EQ(p.tokens[1].text, "科兰古");
  EXPECT_EQ(p.tokens[1].spoken, "ke1lan2gu3");
  EXPECT_EQ(SpokenText(p.tokens), "告诉ke1lan2gu3：");
}

TEST(Engine, LexiconEveryOccurrence) {
  auto n = Make({{"zh", "重做", "chong2zuo4"}});
  EXPECT_EQ(SpokenText(Tokens(*n, "重做，再重做").tokens), "chong2zuo4，再chong2zuo4");
}

TEST(Engine, LexiconLongestMatchFirst) {
  auto n = Make({{"zh", "重", "zhong4"}, {"zh", "重庆", "chong2qing4"}});
  EXPECT_EQ(SpokenText(Tokens(*n, "他在重庆很重要").tokens), "他在chong2qing4很zhong4要");
}

TEST(Engine, LexiconOfOtherLanguagesIgnored) {
  auto n = Make({{"sk", "巴黎", "pa"}, {"zh", "巴黎", "ba1li2"}});
  EXPECT_EQ(SpokenText(Tokens(*n, "巴黎").tokens), "ba1li2");
  auto only_sk = Make({{"sk", "巴黎", "pa"}});
  EXPECT_EQ(SpokenText(Tokens(*only_sk, "巴黎").tokens), "巴黎");
}

TEST(Engine, LexiconDoesNotTouchNumbers) {
  auto n = Make({{"zh", "月", "yue4"}});
  EXPECT_EQ(SpokenText(Tokens(*n, "3月，月亮").tokens), "三月，yue4亮");
}

TEST(Engine, LexiconWithoutMatchKeepsTokens) {
  auto n = Make({{"zh", "科兰古", "ke1lan2gu3"}});
  NormalizedParagraph p = Tokens(*n, "拿破仑");
  ASSERT_EQ(p.tokens.size(), 1u);
  EXPECT_EQ(p.tokens[0].kind, TokenKind::kWord);
}

TEST(Engine, GlossSkippedWhenAsked) {
  auto n = Make({}, /*skip_glosses=*/true);
  NormalizedParagraph p = Tokens(*n, "《离别歌》（Le Chant du Départ）和");
  EXPECT_EQ(SpokenText(p.tokens), "《离别歌》和");
}

TEST(Engine, GlossWithAsciiParensSkipped) {
  auto n = Make({}, true);
  EXPECT_EQ(SpokenText(Tokens(*n, "奥尔贡(Orgon)说").tokens), "奥尔贡说");
}

TEST(Engine, GlossKeptByDefault) {
  auto n = Make({});
  EXPECT_EQ(SpokenText(Tokens(*n, "奥尔贡（Orgon）说").tokens), "奥尔贡（Orgon）说");
}

TEST(Engine, ParenthesisWithHanziIsNotAGloss) {
  auto n = Make({}, true);
  const std::string text = "埃松河（the River Essonne，塞纳河的支流）边";
  EXPECT_EQ(SpokenText(Tokens(*n, text).tokens), text);
}

TEST(Engine, ParenthesisWithNumberIsNotAGloss) {
  auto n = Make({}, true);
  EXPECT_EQ(SpokenText(Tokens(*n, "（300人）").tokens), "（三百人）");
}

TEST(Engine, LoadBookLexicon) {
  auto entries = LoadLexicon(NARRATE_SOURCE_DIR "/books/napoleon/lexicon.tsv");
  ASSERT_TRUE(entries.ok()) << entries.status().message();
  EXPECT_GE(entries->size(), 5u);
  for (const LexiconEntry& e : *entries) {
    EXPECT_EQ(e.lang, "zh");
    EXPECT_FALSE(e.written.empty());
    EXPECT_FALSE(e.spoken.empty());
  }
}

TEST(Engine, LoadLexiconMalformedLineNamesIt) {
  const std::string path = ::testing::TempDir() + "/bad_lexicon.tsv";
  ASSERT_TRUE(WriteFileAtomic(path, "# c\nzh\t重庆\tchong2qing4\nzh\t只有两列\n").ok());
  auto entries = LoadLexicon(path);
  ASSERT_FALSE(entries.ok());
  EXPECT_EQ(entries.status().code(), StatusCode::kDataError);
  EXPECT_NE(entries.status().message().find(path + ":3:"), std::string::npos);
}

// normalize.h: a Normalizer may be shared between threads. Threads that use
// one at once (numbers, dates, ordinals: ICU RBNF included) say what one
// thread alone says.
TEST(Engine, SharedBetweenThreadsSaysWhatOneThreadSays) {
  const std::vector<std::pair<Lang, std::string>> cases = {
      {"zh", "1815年6月18日，400名侍卫愿随他去，第3军团在3:04出发。"},
      {"zh", "约有200000人，占95%，又来了2.5万。"},
      {"sk", "18. júna 1815 prišlo 200 000 vojakov a Ľudovít XVIII. vstúpil."},
      {"sk", "Mal 2 500 000 obyvateľov, 95 % hlasov a 1. armádu."},
  };
  for (const Lang lang : {"zh", "sk"}) {
    NormalizerOptions options;
    options.lang = lang;
    options.rules_dir = kRules;
    auto made = Normalizer::Create(options);
    ASSERT_TRUE(made.ok()) << made.status().message();
    const Normalizer& normalizer = **made;
    std::vector<std::string> texts, alone;
    for (const auto& [l, text] : cases) {
      if (l != lang) continue;
      texts.push_back(text);
      CollectingReporter reporter;
      alone.push_back(SpokenText(normalizer.Normalize({text, 1}, "t.txt", &reporter).tokens));
    }
    ASSERT_EQ(texts.size(), 2u);
    constexpr int kThreads = 4, kRounds = 200;
    std::vector<int> differences(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        CollectingReporter reporter;  // each thread its own: a Reporter is not shared
        for (int round = 0; round < kRounds; ++round) {
          const size_t i = (round + t) % texts.size();
          const NormalizedParagraph p = normalizer.Normalize({texts[i], 1}, "t.txt", &reporter);
          differences[t] += SpokenText(p.tokens) != alone[i];
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(differences[t], 0) << lang << " thread " << t;
  }
}

}  // namespace
}  // namespace narrate
