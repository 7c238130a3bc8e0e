// ICU RBNF spell-out shared by the language rule sets. A formatter is costly
// to build and not safe for concurrent use: each thread keeps its own, one per
// locale and rule set.
#include <unicode/rbnf.h>
#include <unicode/unistr.h>

#include <map>
#include <memory>

#include "rules.h"

namespace narrate {
namespace normalize_internal {

std::string Spellout(const std::string& locale, const std::string& ruleset, double value) {
  thread_local std::map<std::string, std::unique_ptr<icu::RuleBasedNumberFormat>> formats;
  std::unique_ptr<icu::RuleBasedNumberFormat>& format = formats[locale + " " + ruleset];
  if (!format) {
    UErrorCode status = U_ZERO_ERROR;
    auto made = std::make_unique<icu::RuleBasedNumberFormat>(icu::URBNF_SPELLOUT,
                                                             icu::Locale(locale.c_str()), status);
    if (U_SUCCESS(status)) {
      made->setDefaultRuleSet(icu::UnicodeString::fromUTF8(ruleset), status);
    }
    if (U_FAILURE(status)) return "";  // no such rule set: not kept, rarely asked
    format = std::move(made);
  }
  icu::UnicodeString out;
  format->format(value, out);
  out.findAndReplace(icu::UnicodeString(static_cast<UChar>(0x00AD)), icu::UnicodeString());
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

}  // namespace normalize_internal
}  // namespace narrate
