// Private to the normalize stage: the interface each language's rule set
// implements, and the ICU number-spelling helper they share.
// Rule sets are immutable after creation and safe to share between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace normalize_internal {

// Where a piece of text came from, for diagnostics.
struct RuleContext {
  const std::string& file;
  int line;  // 1-based source line of the paragraph
  Reporter* reporter;
};

class LanguageRules {
 public:
  virtual ~LanguageRules() = default;
  // Appends tokens covering `text` exactly: the concatenated `text` of the
  // appended tokens equals `text`. Spoken forms contain no digits.
  virtual void Tokenize(const std::string& text, const RuleContext& context,
                        std::vector<Token>* out) const = 0;
};

// The rule sets (normalizer engines) of Chinese and Slovak, made from the
// tables in `tables_dir` (rules/<lang>/). DataError naming file:line on a bad
// table.
StatusOr<std::unique_ptr<LanguageRules>> CreateChineseRules(const std::string& tables_dir);
StatusOr<std::unique_ptr<LanguageRules>> CreateSlovakRules(const std::string& tables_dir);

// Spells `value` with ICU RBNF for `locale` ("zh", "sk") and `ruleset`
// ("%spellout-cardinal", "%spellout-numbering-year", ...). Soft hyphens
// (U+00AD) that ICU puts into Slovak output are removed. Empty string when the
// rule set does not exist.
std::string Spellout(const std::string& locale, const std::string& ruleset, double value);

}  // namespace normalize_internal
}  // namespace narrate
