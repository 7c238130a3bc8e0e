// LoadRules: a malformed rule table is a DataError naming the file and line.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "markup/internal.h"

namespace narrate {
namespace {

// A rules folder of our own with one table for `lang`.
std::string RulesWith(const std::string& lang, const std::string& table) {
  char tmpl[] = "/tmp/narrate-rules-XXXXXX";
  const std::string dir = ::mkdtemp(tmpl);
  ::mkdir((dir + "/" + lang).c_str(), 0755);
  std::ofstream(dir + "/" + lang + "/names.tsv") << table;
  return dir;
}

TEST(LoadRules, ACharacterClassTakesOneCharacter) {
  const std::string dir = RulesWith("zh", "particle\t着\nparticle\t着了\n");
  StatusOr<markup_internal::Rules> rules = markup_internal::LoadRules(dir, "zh");
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.status().message().find("names.tsv:2"), std::string::npos)
      << rules.status().message();
  EXPECT_NE(rules.status().message().find("one character"), std::string::npos)
      << rules.status().message();
}

TEST(LoadRules, AnIntroductionMustBeARegularExpression) {
  const std::string dir = RulesWith("sk", "introduction\tVolám sa (\\p{Lu}\n");
  StatusOr<markup_internal::Rules> rules = markup_internal::LoadRules(dir, "sk");
  ASSERT_FALSE(rules.ok());
  EXPECT_NE(rules.status().message().find("names.tsv:1"), std::string::npos)
      << rules.status().message();
}

}  // namespace
}  // namespace narrate
