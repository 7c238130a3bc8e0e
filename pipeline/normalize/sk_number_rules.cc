// The number rules of the Slovak tokenizer: numeric dates, times, grouped
// thousands, decimals, negative numbers, ranges, ordinals agreeing with the
// next noun, and units/percentages with Slovak plural agreement. Not
// thread-safe (a SlovakTokenizer lives for one Tokenize() call).
#include <cstdlib>

#include "sk_tokenizer.h"

namespace narrate {
namespace normalize_internal {
namespace sk {
namespace {

// Longest digit run read as one number; longer runs are spelled in pieces.
constexpr size_t kMaxDigits = 15;
// Prepositions that make H.MM a time of day (o 9.30).
const char* const kTimePrepositions[] = {"o", "od", "do", "po", "okolo", "k", "pred"};

bool IsDash(const std::string& s) { return s == "-" || s == "–"; }

}  // namespace

bool SlovakTokenizer::ReadInteger(size_t pos, int64_t* value, size_t* end, bool* grouped) const {
  if (KindAt(pos) != Segment::kDigits || Text(pos).size() > kMaxDigits) {
    return false;
  }
  std::string digits = Text(pos);
  size_t p = pos + 1;
  *grouped = false;
  // 200 000, 1 000 000: a group of 1-3 digits, then groups of exactly 3.
  if (digits.size() <= 3) {
    while (IsSeparatorSpace(p) && KindAt(p + 1) == Segment::kDigits && Text(p + 1).size() == 3 &&
           digits.size() + 3 <= kMaxDigits) {
      digits += Text(p + 1);
      p += 2;
      *grouped = true;
    }
  }
  *value = std::stoll(digits);
  *end = p;
  return true;
}

const Unit* SlovakTokenizer::ReadUnit(size_t pos, size_t* end) const {
  size_t start = IsSeparatorSpace(pos) ? pos + 1 : pos;
  for (const Unit& unit : tables_->units) {
    std::string text;
    size_t p = start;
    while (p < segs_.size() && text.size() < unit.symbol.size()) {
      text += segs_[p].text;
      ++p;
    }
    if (text != unit.symbol) continue;
    // A letter unit must end the word (km, not kmeň).
    if (KindAt(p - 1) == Segment::kLetters &&
        (KindAt(p) == Segment::kLetters || KindAt(p) == Segment::kDigits)) {
      continue;
    }
    // A unit with a period at a sentence end leaves the period.
    if (unit.symbol.back() == '.' && PeriodEndsSentence(p - 1)) --p;
    *end = p;
    return &unit;
  }
  return nullptr;
}

bool SlovakTokenizer::TryDate() {
  // D. M. YYYY or D.M.YYYY (year optional): "1. 3. 1815".
  size_t p = pos_;
  if (KindAt(p) != Segment::kDigits || Text(p + 1) != ".") return false;
  int day = std::atoi(Text(p).c_str());
  p += 2;
  if (IsSeparatorSpace(p)) ++p;
  if (KindAt(p) != Segment::kDigits || Text(p + 1) != ".") return false;
  int month = std::atoi(Text(p).c_str());
  if (Text(pos_).size() > 2 || Text(p).size() > 2 || day < 1 || day > 31 || month < 1 ||
      month > 12) {
    return false;
  }
  size_t month_period = p + 1;
  size_t end = p + 2;
  std::string spoken = numbers_->Ordinal(day, Gender::kMascInanimate, Case::kGen) + " " +
                       tables_->month_genitives.at(month);
  size_t y = IsSeparatorSpace(end) ? end + 1 : end;
  if (KindAt(y) == Segment::kDigits && Text(y).size() <= 4 && KindAt(y + 1) != Segment::kLetters) {
    spoken += " " + numbers_->Cardinal(std::atoi(Text(y).c_str()), Gender::kMascInanimate);
    end = y + 1;
  } else if (PeriodEndsSentence(month_period)) {
    end = month_period;
  }
  Emit(TokenKind::kNumber, pos_, end, spoken);
  return true;
}

bool SlovakTokenizer::TryTime() {
  // H:MM, or H.MM after "o"/"do"... or before "h"/"hod.".
  size_t p = pos_;
  const std::string& sep = Text(p + 1);
  if (KindAt(p) != Segment::kDigits || (sep != ":" && sep != ".") ||
      KindAt(p + 2) != Segment::kDigits || Text(p + 2).size() != 2 || Text(p).size() > 2) {
    return false;
  }
  int hour = std::atoi(Text(p).c_str());
  int minute = std::atoi(Text(p + 2).c_str());
  if (hour > 24 || minute > 59) return false;
  std::string prep = PreviousWord(1);
  bool after_prep = false;
  for (const char* w : kTimePrepositions) after_prep = after_prep || prep == w;
  size_t end = p + 3;
  size_t unit_end = 0;
  const Unit* unit = ReadUnit(end, &unit_end);
  bool hour_unit = unit != nullptr && (unit->symbol == "h" || unit->symbol == "hod.");
  if (sep == "." && !after_prep && !hour_unit) return false;
  if (hour_unit) end = unit_end;
  std::string spoken;
  if (after_prep) {
    // o 9.30 h -> o deviatej tridsať (hodine is understood).
    std::vector<Case> cases = PrepositionCases(1, 1);
    spoken = numbers_->Ordinal(hour == 0 ? 24 : hour, Gender::kFeminine,
                               cases.empty() ? Case::kLoc : cases.front());
    if (minute > 0) {
      spoken += " " + std::string(minute < 10 ? numbers_->Word("zero") + " " : "") +
                numbers_->Cardinal(minute, Gender::kFeminine);
    }
  } else {
    // 9:30 -> deväť hodín tridsať minút.
    auto plural = [](int v, const char* one, const char* few, const char* many) {
      int c = PluralClass(v);
      return std::string(c == 1 ? one : c == 2 ? few : many);
    };
    spoken = numbers_->Cardinal(hour, Gender::kFeminine) + " " +
             plural(hour, "hodina", "hodiny", "hodín");
    if (minute > 0) {
      spoken += " " + numbers_->Cardinal(minute, Gender::kFeminine) + " " +
                plural(minute, "minúta", "minúty", "minút");
    }
  }
  Emit(TokenKind::kNumber, pos_, end, spoken);
  return true;
}

bool SlovakTokenizer::TryNumber() {
  const std::string& text = Text(pos_);
  // A range dash between two numbers: 1812-1815 -> "až".
  if (IsDash(text) && KindAt(pos_ + 1) == Segment::kDigits && out_->size() > first_token_ &&
      out_->back().kind == TokenKind::kNumber) {
    Emit(TokenKind::kPunctuation, pos_, pos_ + 1, " " + numbers_->Word("range") + " ");
    return true;
  }
  bool negative = false;
  size_t start = pos_;
  if ((text == "-" || text == "−") && KindAt(pos_ + 1) == Segment::kDigits &&
      (pos_ == 0 || KindAt(pos_ - 1) == Segment::kSpace || Text(pos_ - 1) == "(")) {
    negative = true;
    start = pos_ + 1;
  }
  if (KindAt(start) != Segment::kDigits) return false;
  if (!negative && (TryDate() || TryTime())) return true;

  int64_t value = 0;
  size_t end = 0;
  bool grouped = false;
  if (!ReadInteger(start, &value, &end, &grouped)) return false;
  std::string prefix = negative ? numbers_->Word("minus") + " " : "";

  // Decimal: 3,5.
  std::string fraction;
  if (Text(end) == "," && KindAt(end + 1) == Segment::kDigits) {
    fraction = Text(end + 1);
    end += 2;
  }
  size_t unit_end = 0;
  const Unit* unit = ReadUnit(end, &unit_end);
  if (unit != nullptr) {
    std::string number, form;
    if (!fraction.empty()) {
      number = numbers_->Decimal(value, fraction);
      form = unit->decimal;
    } else {
      int c = PluralClass(value);
      // 21 % -> dvadsaťjeden percent: the 5+ form takes the plain cardinal.
      number = numbers_->Cardinal(value, c == 5 ? Gender::kMascInanimate : unit->gender);
      form = c == 1 ? unit->one : c == 2 ? unit->few : unit->many;
    }
    Emit(TokenKind::kNumber, pos_, unit_end, prefix + number + " " + form);
    return true;
  }
  if (!fraction.empty()) {
    Emit(TokenKind::kNumber, pos_, end, prefix + numbers_->Decimal(value, fraction));
    return true;
  }
  // Ordinal: "13." before a lowercase word (13. pluk, 18. júna, 19. storočí).
  if (!negative && !grouped && Text(end) == "." && !PeriodEndsSentence(end)) {
    size_t noun = HeadNounAfter(end);
    if (noun != std::string::npos && !IsCapitalized(Text(noun))) {
      Agreement a = NounAgreement(Text(noun));
      Case c = ChooseCase(a, PrepositionCases(1, 2));
      Emit(TokenKind::kNumber, pos_, end + 1, numbers_->Ordinal(value, a.gender, c));
      return true;
    }
  }
  // A plain cardinal; its gender from a known noun that follows (2 ženy).
  Gender gender = Gender::kMascInanimate;
  size_t next =
      IsSeparatorSpace(end) && KindAt(end + 1) == Segment::kLetters ? end + 1 : std::string::npos;
  if (next != std::string::npos) {
    auto it = tables_->nouns.find(Lowercase(Text(next)));
    if (it != tables_->nouns.end() && PluralClass(value) != 5) {
      gender = it->second.gender;
    }
  }
  Emit(TokenKind::kNumber, pos_, end, prefix + numbers_->Cardinal(value, gender));
  return true;
}

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
