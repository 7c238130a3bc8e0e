// ICU RBNF spell-out shared by the language rule sets. Formatters are created
// per call: RBNF formatters are not safe for concurrent use, and spell-out is
// not on a hot path (a few numbers per paragraph).
#include <unicode/rbnf.h>
#include <unicode/unistr.h>

#include "normalize/rules.h"

namespace narrate {
namespace normalize_internal {

std::string Spellout(const std::string& locale, const std::string& ruleset,
                     double value) {
  UErrorCode status = U_ZERO_ERROR;
  icu::RuleBasedNumberFormat format(icu::URBNF_SPELLOUT,
                                    icu::Locale(locale.c_str()), status);
  if (U_FAILURE(status)) return "";
  format.setDefaultRuleSet(icu::UnicodeString::fromUTF8(ruleset), status);
  if (U_FAILURE(status)) return "";
  icu::UnicodeString out;
  format.format(value, out);
  out.findAndReplace(icu::UnicodeString(static_cast<UChar>(0x00AD)),
                     icu::UnicodeString());
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

}  // namespace normalize_internal
}  // namespace narrate
