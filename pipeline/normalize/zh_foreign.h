// Private to the normalize stage: Latin-script spans inside Chinese text
// (埃松河（the River Essonne）) and a guess of their language from the
// function words and diacritics listed in rules/zh/foreign.tsv.
// Pure functions; safe to call from any thread.
#pragma once

#include <string>

#include <unicode/umachine.h>

#include "zh_tables.h"

namespace narrate {
namespace normalize_internal {

// A letter of the Latin script (ASCII or accented, half or full width).
bool IsLatinLetter(UChar32 c);

// Characters that may join two Latin words into one span: space, apostrophes,
// hyphen, and a period directly followed by a letter (a.d.).
bool IsForeignJoiner(UChar32 c);

// The language of a Latin-script span: each listed lower-case word and each
// listed diacritic letter votes for its language; the most votes win, ties and
// no votes give tables.default_foreign.
Lang GuessForeignLang(const std::string& span, const ZhTables& tables);

}  // namespace normalize_internal
}  // namespace narrate
