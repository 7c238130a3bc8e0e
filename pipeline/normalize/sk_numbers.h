// Slovak number words: cardinals (ICU RBNF, corrected by spellout_fixes.tsv),
// ordinals in every case and gender (built from ordinals.tsv and
// adjective_endings.tsv, since ICU has no Slovak ordinals), decimals and Roman
// numerals. Immutable after construction; safe to share between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sk_tables.h"

namespace narrate {
namespace normalize_internal {
namespace sk {

class SlovakNumbers {
 public:
  explicit SlovakNumbers(const SlovakTables* tables) : tables_(tables) {}

  // 200000 -> "dvestotisíc"; 2 feminine -> "dve"; -5 -> "mínus päť".
  std::string Cardinal(int64_t value, Gender gender) const;
  // 18, masculine inanimate, genitive -> "osemnásteho"; 21 -> "dvadsiaty prvý";
  // 1815 -> "tisícosemstopätnásty". Empty for values <= 0.
  std::string Ordinal(int64_t value, Gender gender, Case c) const;
  // An adjective from its stem: ("svät", hard, f, gen) -> "svätej".
  std::string Adjective(const std::string& stem, bool soft, const std::string& stem_before_ou,
                        Gender gender, Case c) const;
  // "3", "5" -> "tri celé päť"; "0", "05" -> "nula celá nula päť".
  std::string Decimal(int64_t whole, const std::string& fraction_digits) const;
  // A word from words.tsv ("minus" -> "mínus").
  const std::string& Word(const std::string& key) const;

 private:
  // True when the stem's last vowel is long or a diphthong (words.tsv).
  bool EndsInLongSyllable(const std::string& stem) const;

  const SlovakTables* tables_;
};

// 1 -> 1, 2..4 -> 2, everything else -> 5 (Slovak agreement classes).
int PluralClass(int64_t value);

// Value of a well-formed Roman numeral in canonical form (XVIII -> 18), or
// nullopt (IIII, IC, empty).
std::optional<int> ParseRoman(const std::string& text);

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
