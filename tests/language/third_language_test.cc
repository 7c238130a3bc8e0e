// A third language is data: a made-up one (tests/data/third_language: a
// profile and speech verbs for "qaa") goes through markup, and its profile
// picks an existing normalizer engine. This program sees only that language:
// it points NARRATE_LANGUAGES_DIR and NARRATE_MARKUP_RULES_DIR there before
// any test runs (the installed profiles are loaded once per process).
#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>

#include "core/language.h"
#include "markup/markup.h"
#include "normalize/normalize.h"

namespace narrate {
namespace {

class ThirdLanguageData : public ::testing::Environment {
 public:
  void SetUp() override {
    ::setenv("NARRATE_LANGUAGES_DIR", NARRATE_TEST_DATA "/third_language/languages", 1);
    ::setenv("NARRATE_MARKUP_RULES_DIR", NARRATE_TEST_DATA "/third_language/markup_rules", 1);
  }
};
::testing::Environment* const kData = ::testing::AddGlobalTestEnvironment(new ThirdLanguageData);

// One token per word, space and punctuation mark (ASCII and «»).
std::vector<Token> Tokens(const std::string& text) {
  std::vector<Token> out;
  for (size_t i = 0; i < text.size();) {
    size_t len = static_cast<unsigned char>(text[i]) < 0x80 ? 1 : 2;
    const std::string cp = text.substr(i, len);
    const TokenKind kind = cp == " "                                       ? TokenKind::kSpace
                           : cp == "«" || cp == "»" || std::ispunct(cp[0]) ? TokenKind::kPunctuation
                                                                           : TokenKind::kWord;
    if (kind == TokenKind::kWord && !out.empty() && out.back().kind == TokenKind::kWord) {
      out.back().text += cp;
      out.back().spoken += cp;
    } else {
      out.push_back({kind, cp, cp, ""});
    }
    i += len;
  }
  return out;
}

Script Mark(const std::vector<std::string>& paragraphs, CollectingReporter* reporter) {
  ChapterSource source;
  source.file = "qaa.txt";
  source.lang = "qaa";
  int line = 0;
  for (const std::string& p : paragraphs) source.paragraphs.push_back({++line, Tokens(p)});
  return Markup("t", "a", {source}, Cast(), Overrides(), {}, reporter);
}

TEST(ThirdLanguage, IsTheOnlyOneListed) {
  StatusOr<const LanguageProfile*> qaa = FindLanguage("qaa");
  ASSERT_TRUE(qaa.ok()) << qaa.status().message();
  EXPECT_EQ((*qaa)->espeak_voice, "eo");
  StatusOr<const LanguageProfile*> zh = FindLanguage("zh");
  ASSERT_FALSE(zh.ok());
  EXPECT_EQ(zh.status().message(), "language 'zh' is not supported (qaa)");
}

TEST(ThirdLanguage, DefaultTitleFromItsProfile) {
  CollectingReporter reporter;
  const Script script = Mark({"Ili iris."}, &reporter);
  ASSERT_EQ(script.chapters.size(), 1u);
  EXPECT_EQ(script.chapters[0].title, "Ĉapitro 1");
  EXPECT_TRUE(reporter.diagnostics().empty());
}

TEST(ThirdLanguage, QuotesAndSpeakerFromItsData) {
  CollectingReporter reporter;
  const Script script = Mark({"Li venis. «Saluton, amikoj!» diris Petro."}, &reporter);
  ASSERT_EQ(script.chapters.size(), 1u);
  bool found = false;
  for (const Utterance& u : script.chapters[0].utterances) {
    if (u.kind != UtteranceKind::kSpeech) continue;
    found = true;
    EXPECT_EQ(u.text.rfind("«Saluton, amikoj!»", 0), 0u) << u.text;
    ASSERT_TRUE(u.speaker.has_value());
    EXPECT_EQ(*u.speaker, "Petro");
  }
  EXPECT_TRUE(found);
}

TEST(ThirdLanguage, NoDashDialogueWhereItsProfileHasNone) {
  CollectingReporter reporter;
  const Script script = Mark({"Ili iris hejmen.", "– Jes, – diris Petro."}, &reporter);
  ASSERT_EQ(script.chapters.size(), 1u);
  for (const Utterance& u : script.chapters[0].utterances) {
    EXPECT_NE(u.kind, UtteranceKind::kSpeech) << u.text;
  }
}

TEST(ThirdLanguage, ReusesAnEngineWithItsOwnTables) {
  NormalizerOptions options;
  options.lang = "qaa";
  options.rules_dir = NARRATE_SOURCE_DIR "/pipeline/normalize/rules";
  // The Slovak engine, reading the (absent) tables of qaa, not Slovak's.
  auto normalizer = Normalizer::Create(options);
  ASSERT_FALSE(normalizer.ok());
  EXPECT_NE(normalizer.status().message().find("/pipeline/normalize/rules/qaa/"), std::string::npos)
      << normalizer.status().message();
}

}  // namespace
}  // namespace narrate
