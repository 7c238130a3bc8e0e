// Latin-script spans inside Chinese text (see zh_foreign.h). Stateless.
#include "zh_foreign.h"

#include <map>

#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

namespace narrate {
namespace normalize_internal {

bool IsLatinLetter(UChar32 c) {
  if (!u_isalpha(c)) return false;
  UErrorCode status = U_ZERO_ERROR;
  return uscript_getScript(c, &status) == USCRIPT_LATIN && U_SUCCESS(status);
}

bool IsForeignJoiner(UChar32 c) { return c == ' ' || c == '\'' || c == 0x2019 || c == '-'; }

Lang GuessForeignLang(const std::string& span, const ZhTables& tables) {
  std::string lower;
  icu::UnicodeString::fromUTF8(span).toLower(icu::Locale::getRoot()).toUTF8String(lower);
  std::map<Lang, int> votes;
  std::string word;
  auto vote_word = [&]() {
    if (word.empty()) return;
    auto it = tables.foreign.find(word);
    if (it != tables.foreign.end()) ++votes[it->second];
    word.clear();
  };
  int32_t i = 0;
  const int32_t length = static_cast<int32_t>(lower.size());
  while (i < length) {
    int32_t start = i;
    UChar32 c;
    U8_NEXT(lower.data(), i, length, c);
    std::string ch = lower.substr(start, i - start);
    if (IsLatinLetter(c)) {
      word += ch;
      if (c >= 0x80) {
        auto it = tables.foreign.find(ch);
        if (it != tables.foreign.end()) ++votes[it->second];
      }
    } else {
      vote_word();
    }
  }
  vote_word();
  Lang best = tables.default_foreign;
  int best_votes = 0;
  bool tie = false;
  for (const auto& [lang, n] : votes) {
    if (n > best_votes) {
      best = lang;
      best_votes = n;
      tie = false;
    } else if (n == best_votes) {
      tie = true;
    }
  }
  return tie ? tables.default_foreign : best;
}

}  // namespace normalize_internal
}  // namespace narrate
