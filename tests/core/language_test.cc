// Unit tests for the language profiles: the shipped ones, the installed set,
// and malformed profiles.
#include "core/language.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace narrate {
namespace {

const char kShipped[] = NARRATE_SOURCE_DIR "/pipeline/languages";

// A languages folder holding one profile, `code`/profile.toml, with `text`.
std::string FolderWith(const std::string& code, const std::string& text) {
  char tmpl[] = "/tmp/narrate-languages-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  EXPECT_TRUE(MakeDirs(dir + "/" + code).ok());
  std::ofstream(dir + "/" + code + "/profile.toml") << text;
  return dir;
}

// The shipped Slovak profile's text.
std::string SlovakText() {
  StatusOr<std::string> text = ReadFile(std::string(kShipped) + "/sk/profile.toml");
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

// The message of loading a folder whose one profile is `text`.
std::string ErrorOf(const std::string& text, StatusCode code = StatusCode::kDataError) {
  StatusOr<LanguageSet> set = LoadLanguages(FolderWith("xx", text));
  EXPECT_FALSE(set.ok());
  if (set.ok()) return "";
  EXPECT_EQ(set.status().code(), code);
  return set.status().message();
}

// `text` with the first `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(LanguageProfiles, ShippedChinese) {
  StatusOr<LanguageSet> set = LoadLanguages(kShipped);
  ASSERT_TRUE(set.ok()) << set.status().message();
  const LanguageProfile* zh = set->Find("zh");
  ASSERT_NE(zh, nullptr);
  EXPECT_EQ(zh->code, "zh");
  EXPECT_EQ(zh->file, std::string(kShipped) + "/zh/profile.toml");
  EXPECT_FALSE(zh->word_delimited);
  EXPECT_EQ(zh->caption_width, 24);
  EXPECT_EQ(zh->espeak_voice, "cmn-latn-pinyin");
  EXPECT_EQ(zh->normalizer, "chinese");
  EXPECT_EQ(zh->default_title, "第{n}章");
  EXPECT_EQ(zh->title_numerals, "han");
  EXPECT_EQ(zh->before_author, "作者：");
  EXPECT_EQ(zh->before_narrator, "朗读：");
  EXPECT_EQ(zh->closing, "全书完。");
  EXPECT_EQ(zh->stop, "。");
  EXPECT_EQ(zh->plural_pronoun, "他们");
  EXPECT_EQ(zh->group_suffix, U"们");
  EXPECT_FALSE(zh->dash_dialogue);
  ASSERT_FALSE(zh->quotes.empty());
  EXPECT_EQ(zh->quotes[0].open, U'“');
  EXPECT_EQ(zh->quotes[0].close, U"”〃\"");
  EXPECT_EQ(zh->legacy_encodings, (std::vector<std::string>{"GB18030", "Big5"}));
}

TEST(LanguageProfiles, ShippedSlovak) {
  StatusOr<LanguageSet> set = LoadLanguages(kShipped);
  ASSERT_TRUE(set.ok()) << set.status().message();
  const LanguageProfile* sk = set->Find("sk");
  ASSERT_NE(sk, nullptr);
  EXPECT_TRUE(sk->word_delimited);
  EXPECT_TRUE(sk->dash_dialogue);
  EXPECT_EQ(sk->caption_width, 60);
  EXPECT_EQ(sk->espeak_voice, "sk");
  EXPECT_EQ(sk->normalizer, "slovak");
  EXPECT_EQ(sk->default_title, "Kapitola {n}");
  EXPECT_EQ(sk->title_numerals, "arabic");
  EXPECT_EQ(sk->before_author, "Autor: ");
  EXPECT_EQ(sk->before_narrator, "Číta ");
  EXPECT_EQ(sk->closing, "Koniec.");
  EXPECT_EQ(sk->stop, ". ");
  EXPECT_EQ(sk->name_joiner, " a ");
  EXPECT_EQ(sk->trailing_heading_words, 6);
  EXPECT_TRUE(sk->group_suffix.empty());
}

TEST(LanguageProfiles, ListedInTheirOrder) {
  StatusOr<LanguageSet> set = LoadLanguages(kShipped);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->Names(), "zh or sk");
  ASSERT_EQ(set->profiles().size(), 2u);
  EXPECT_EQ(set->profiles()[0].code, "zh");
}

TEST(LanguageProfiles, InstalledAreTheShippedOnes) {
  StatusOr<const LanguageProfile*> zh = FindLanguage("zh");
  ASSERT_TRUE(zh.ok()) << zh.status().message();
  EXPECT_EQ((*zh)->file, std::string(kShipped) + "/zh/profile.toml");
  StatusOr<const LanguageProfile*> again = FindLanguage("zh");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *zh);  // loaded once
}

TEST(LanguageProfiles, UnknownLanguageIsUsageListingTheKnownOnes) {
  StatusOr<const LanguageProfile*> fr = FindLanguage("fr");
  ASSERT_FALSE(fr.ok());
  EXPECT_EQ(fr.status().code(), StatusCode::kUsage);
  EXPECT_EQ(fr.status().message(), "language 'fr' is not supported (zh or sk)");
  EXPECT_FALSE(FindLanguage("").ok());
}

TEST(LanguageProfiles, AThirdLanguageIsAFolder) {
  const std::string dir =
      FolderWith("xx", Replaced(SlovakText(), "list_order = 2", "list_order = 3"));
  ASSERT_TRUE(MakeDirs(dir + "/sk").ok());
  std::ofstream(dir + "/sk/profile.toml") << SlovakText();
  StatusOr<LanguageSet> set = LoadLanguages(dir);
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->Names(), "sk or xx");
  ASSERT_NE(set->Find("xx"), nullptr);
  EXPECT_EQ(set->Find("xx")->default_title, "Kapitola {n}");
}

TEST(LanguageProfiles, SyntaxErrorNamesFileAndLine) {
  const std::string message = ErrorOf("list_order = 1\nword_delimited = \n");
  EXPECT_NE(message.find("/xx/profile.toml:2: "), std::string::npos) << message;
}

TEST(LanguageProfiles, MistypedValueNamesFileAndLine) {
  // caption_width is on line 7 of the Slovak profile.
  const std::string message =
      ErrorOf(Replaced(SlovakText(), "caption_width = 60", "caption_width = \"60\""));
  EXPECT_NE(message.find("/xx/profile.toml:7: 'caption_width' must be a whole number"),
            std::string::npos)
      << message;
}

TEST(LanguageProfiles, AnUnknownScriptNamesFileAndLine) {
  // script is on line 11 of the Slovak profile.
  const std::string message =
      ErrorOf(Replaced(SlovakText(), "script = \"latin\"", "script = \"cyrillic\""));
  EXPECT_NE(message.find("/xx/profile.toml:11: 'script' must be"), std::string::npos) << message;
}

TEST(LanguageProfiles, MisspeltKeyNamesFileAndLine) {
  const std::string message = ErrorOf(Replaced(SlovakText(), "closing = ", "closign = "));
  EXPECT_NE(message.find("/xx/profile.toml:"), std::string::npos) << message;
  EXPECT_NE(message.find("missing 'closing'"), std::string::npos) << message;
}

TEST(LanguageProfiles, UnknownKeyIsAnError) {
  const std::string message = ErrorOf(SlovakText() + "extra = 1\n");
  EXPECT_NE(message.find("unknown key 'extra'"), std::string::npos) << message;
}

TEST(LanguageProfiles, QuoteOpensWithOneMark) {
  const std::string message = ErrorOf(Replaced(SlovakText(), "{open = \"„\"", "{open = \"„„\""));
  EXPECT_NE(message.find("a quote opens with one mark"), std::string::npos) << message;
}

TEST(LanguageProfiles, UnknownTitleNumerals) {
  const std::string message =
      ErrorOf(Replaced(SlovakText(), "title_numerals = \"arabic\"", "title_numerals = \"roman\""));
  EXPECT_NE(message.find("'title_numerals' must be"), std::string::npos) << message;
}

TEST(LanguageProfiles, MissingFolderIsIoError) {
  StatusOr<LanguageSet> set = LoadLanguages("/nonexistent/languages");
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().code(), StatusCode::kIoError);
}

}  // namespace
}  // namespace narrate
