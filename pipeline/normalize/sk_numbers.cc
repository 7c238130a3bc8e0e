// Slovak number words; see sk_numbers.h. Thread-safe (const, no shared state;
// Spellout creates its ICU formatter per call).
#include "sk_numbers.h"

#include <unicode/unistr.h>

#include <vector>

#include "rules.h"

namespace narrate {
namespace normalize_internal {
namespace sk {
namespace {

const char* CardinalRuleSet(Gender gender) {
  switch (gender) {
    case Gender::kFeminine:
      return "%spellout-cardinal-feminine";
    case Gender::kNeuter:
      return "%spellout-cardinal-neuter";
    default:
      return "%spellout-cardinal-masculine";
  }
}

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find(' ', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

void ReplaceAll(std::string* s, const std::string& from, const std::string& to) {
  for (size_t pos = s->find(from); pos != std::string::npos; pos = s->find(from, pos + to.size())) {
    s->replace(pos, from.size(), to);
  }
}

}  // namespace

bool SlovakNumbers::EndsInLongSyllable(const std::string& stem) const {
  static const icu::UnicodeString kVowels = icu::UnicodeString::fromUTF8("aáäeéiíoóôuúyý");
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(stem);
  for (int32_t i = u.length() - 1; i >= 0; --i) {
    if (kVowels.indexOf(u.charAt(i)) < 0) continue;
    std::string one, two;
    icu::UnicodeString(u, i, 1).toUTF8String(one);
    if (i > 0) icu::UnicodeString(u, i - 1, 2).toUTF8String(two);
    for (const std::string& v : Words(Word("long_vowels"))) {
      if (v == one || v == two) return true;
    }
    return false;
  }
  return false;
}

int PluralClass(int64_t value) {
  if (value == 1) return 1;
  if (value >= 2 && value <= 4) return 2;
  return 5;
}

std::string SlovakNumbers::Cardinal(int64_t value, Gender gender) const {
  if (value < 0) return Word("minus") + " " + Cardinal(-value, gender);
  std::string raw = Spellout("sk", CardinalRuleSet(gender), static_cast<double>(value));
  // Word-wise fixes on a space-padded copy, so "jedna tisíc" never matches
  // inside "dvadsaťjedna tisíc".
  std::string padded = " " + raw + " ";
  for (const auto& [from, to] : tables_->spellout_fixes) {
    ReplaceAll(&padded, " " + from + " ", to.empty() ? " " : " " + to + " ");
  }
  std::vector<std::string> words = Words(padded);
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0 &&
        (tables_->separate_words.count(words[i]) || tables_->separate_words.count(words[i - 1]))) {
      out += ' ';
    }
    out += words[i];
  }
  return out;
}

std::string SlovakNumbers::Adjective(const std::string& stem, bool soft,
                                     const std::string& stem_before_ou, Gender gender,
                                     Case c) const {
  // Rhythmic law: no two long syllables in a row (osemnásty, not osemnástý).
  auto it = tables_->adjective_endings.find(std::string(soft ? "soft" : "hard") + "|" +
                                            GenderCode(gender) + "|" + CaseCode(c) +
                                            (EndsInLongSyllable(stem) ? "|short" : ""));
  if (it == tables_->adjective_endings.end()) return stem;
  const std::string& base = it->second == "ou" && !stem_before_ou.empty() ? stem_before_ou : stem;
  return base + it->second;
}

std::string SlovakNumbers::Ordinal(int64_t value, Gender gender, Case c) const {
  if (value <= 0) return "";
  auto it = tables_->ordinals.find(static_cast<int>(value));
  if (value < 1000000 && it != tables_->ordinals.end()) {
    return Adjective(it->second.stem, it->second.soft, it->second.stem_before_ou, gender, c);
  }
  if (value < 100) {
    return Ordinal(value - value % 10, gender, c) + " " + Ordinal(value % 10, gender, c);
  }
  // Higher orders: the cardinal prefix is joined to the ordinal of the rest
  // (1815 -> tisícosemsto + pätnásty).
  if (value % 100 != 0) {
    return Cardinal(value - value % 100, Gender::kMascInanimate) + Ordinal(value % 100, gender, c);
  }
  if (value % 1000 != 0) {
    std::string prefix =
        value >= 1000 ? Cardinal(value - value % 1000, Gender::kMascInanimate) : "";
    return prefix + Ordinal(value % 1000, gender, c);
  }
  // Round thousands not in the table: cardinal + soft "tisíci".
  auto thousand = tables_->ordinals.find(1000);
  if (thousand == tables_->ordinals.end()) {
    return Cardinal(value, Gender::kMascInanimate);
  }
  return Cardinal(value / 1000, Gender::kFeminine) +
         Adjective(thousand->second.stem, thousand->second.soft, "", gender, c);
}

std::string SlovakNumbers::Decimal(int64_t whole, const std::string& fraction_digits) const {
  int plural = PluralClass(whole);
  std::string out = Cardinal(whole, Gender::kFeminine) + " " +
                    Word(plural == 1   ? "whole-1"
                         : plural == 2 ? "whole-2"
                                       : "whole-5");
  size_t i = 0;
  while (i + 1 < fraction_digits.size() && fraction_digits[i] == '0') {
    out += " " + Word("zero");
    ++i;
  }
  out += " " + Cardinal(std::stoll(fraction_digits.substr(i)), Gender::kMascInanimate);
  return out;
}

const std::string& SlovakNumbers::Word(const std::string& key) const {
  static const std::string kEmpty;
  auto it = tables_->words.find(key);
  return it == tables_->words.end() ? kEmpty : it->second;
}

std::optional<int> ParseRoman(const std::string& text) {
  if (text.empty() || text.size() > 15) return std::nullopt;
  auto digit = [](char ch) {
    switch (ch) {
      case 'I':
        return 1;
      case 'V':
        return 5;
      case 'X':
        return 10;
      case 'L':
        return 50;
      case 'C':
        return 100;
      case 'D':
        return 500;
      case 'M':
        return 1000;
      default:
        return 0;
    }
  };
  int value = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    int d = digit(text[i]);
    if (d == 0) return std::nullopt;
    int next = i + 1 < text.size() ? digit(text[i + 1]) : 0;
    value += d < next ? -d : d;
  }
  if (value <= 0 || value >= 4000) return std::nullopt;
  // Canonical form only: re-encode and compare.
  static const std::pair<int, const char*> kParts[] = {
      {1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"},
      {40, "XL"},  {10, "X"},   {9, "IX"},  {5, "V"},    {4, "IV"},  {1, "I"}};
  std::string canonical;
  int rest = value;
  for (const auto& [v, s] : kParts) {
    while (rest >= v) {
      canonical += s;
      rest -= v;
    }
  }
  if (canonical != text) return std::nullopt;
  return value;
}

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
