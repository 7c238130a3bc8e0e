// The normalize stage: clean text to tokens with printed and spoken forms.
//
// Numbers, dates, times, percentages, ordinals, Roman numerals, abbreviations,
// foreign spans and the book's lexicon. Rules are data: TSV files under
// pipeline/normalize/rules/<lang>/; number words come from ICU RBNF where it has
// them. A Normalizer is immutable after Create() and safe to share between
// threads: Normalize() is const, the rule tables are read-only, a paragraph's
// scanner lives for one call, and the ICU RBNF formatters (not safe for
// concurrent use) are kept per thread (spellout.cc). The Reporter given to
// Normalize() is the caller's to keep to one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {

// One entry of a book's pronunciation lexicon (lexicon.tsv).
struct LexiconEntry {
  Lang lang;            // "zh", "sk"
  std::string written;  // as printed in the book
  std::string spoken;   // as said; Chinese may use numbered pinyin (chong2qing4)
};

// Reads a lexicon TSV: `lang<TAB>written<TAB>spoken`, `#` comments, blank lines.
// DataError naming file:line on a malformed line.
StatusOr<std::vector<LexiconEntry>> LoadLexicon(const std::string& path);

struct NormalizerOptions {
  Lang lang;  // a language with a profile (core/language.h): "zh", "sk"; required
  // Directory holding <lang>/*.tsv rule files. Default: empty, use the rules
  // installed with the program (NARRATE_RULES_DIR at build time, or the
  // NARRATE_RULES_DIR environment variable).
  std::string rules_dir;
  // Entries for other languages are ignored. Default: none.
  std::vector<LexiconEntry> lexicon;
  // Leave parenthesized foreign glosses out of the spoken form, e.g.
  // 埃松河（the River Essonne）. Default: false (they are read, in their language).
  bool skip_glosses = false;
};

class Normalizer {
 public:
  // DataError when a rules file is malformed, Usage for an unknown language.
  static StatusOr<std::unique_ptr<Normalizer>> Create(const NormalizerOptions& options);
  virtual ~Normalizer() = default;

  // Splits a paragraph into tokens. `file` is used in diagnostics (e.g. an
  // unknown abbreviation) together with paragraph.line.
  virtual NormalizedParagraph Normalize(const Paragraph& paragraph, const std::string& file,
                                        Reporter* reporter) const = 0;
};

}  // namespace narrate
