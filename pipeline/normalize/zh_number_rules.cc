// Chinese number rules of ZhScanner: which reading a number gets from what is
// printed around it (第, signs, 年/月/日, %, units, ranges, fractions, times,
// measure words that take 两). See zh_scanner.h; no shared state.
#include "rules.h"
#include "zh_numbers.h"
#include "zh_scanner.h"

namespace narrate {
namespace normalize_internal {
namespace {

// Minutes and seconds of a clock time: 05 -> 零五.
std::string ClockPart(const std::string& two_digits) {
  if (two_digits[0] == '0') return "零" + ZhDigits(two_digits.substr(1), "零");
  return ZhCardinal(two_digits);
}

}  // namespace

bool ZhScanner::MatchTime(size_t k, size_t* end, std::string* spoken) const {
  std::string hour, minute, second;
  size_t p = DigitRun(k, &hour);
  if (hour.size() > 2 || At(p) != ':' || DigitRun(p + 1, &minute) != p + 3) {
    return false;
  }
  p += 3;
  if (At(p) == ':' && DigitRun(p + 1, &second) == p + 3) p += 3;
  if (!second.empty() && std::stoi(second) >= 60) return false;
  if (IsDigitAt(p) || std::stoi(hour) > 24 || std::stoi(minute) >= 60) {
    return false;
  }
  *spoken = ZhLiang(ZhCardinal(hour), true) + "点";
  if (minute != "00" || (!second.empty() && second != "00")) {
    *spoken += ClockPart(minute) + "分";
  }
  if (!second.empty() && second != "00") *spoken += ClockPart(second) + "秒";
  *end = p;
  return true;
}

bool ZhScanner::MatchNumericDate(size_t k, size_t* end, std::string* spoken) const {
  std::string year, month, day;
  size_t p = DigitRun(k, &year);
  UChar32 sep = At(p);
  if (year.size() != 4 || !(sep == '/' || sep == '-' || sep == '.' || sep == 0x00B7)) {  // ·
    return false;
  }
  size_t q = DigitRun(p + 1, &month);
  if (month.empty() || month.size() > 2 || At(q) != sep) return false;
  size_t r = DigitRun(q + 1, &day);
  if (day.empty() || day.size() > 2 || IsDigitAt(r)) return false;
  int m = std::stoi(month), d = std::stoi(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  *spoken = ZhDigits(year, "〇") + "年" + ZhCardinal(month) + "月" + ZhCardinal(day) + "日";
  *end = r;
  return true;
}

// After a year or a month: an optional "N月" and "N日|号", appended to spoken.
size_t ZhScanner::MatchMonthDay(size_t j, std::string* spoken) const {
  std::string digits;
  size_t p = DigitRun(j, &digits);
  if (!digits.empty() && digits.size() <= 2 && Has(p, "月")) {
    int m = std::stoi(digits);
    if (m < 1 || m > 12) return j;
    *spoken += ZhCardinal(digits) + "月";
    j = p + 1;
    digits.clear();
    p = DigitRun(j, &digits);
  }
  if (!digits.empty() && digits.size() <= 2 && (Has(p, "日") || Has(p, "号"))) {
    int d = std::stoi(digits);
    if (d < 1 || d > 31) return j;
    *spoken += ZhCardinal(digits) + text_.substr(Byte(p), Byte(p + 1) - Byte(p));
    j = p + 1;
  }
  return j;
}

// N年 is a year when N has four digits (unless a duration word follows, as in
// 1000年来), when an era word precedes it (公元前202年), when it is written
// with a leading zero (05年), or when a month follows (202年3月).
bool ZhScanner::IsYear(const NumberLiteral& a, size_t start, size_t j) const {
  if (!a.IsPlainInteger() || !Has(j, "年")) return false;
  if (a.digits.size() == 4 && !Followed(j + 1, "duration")) return true;
  if (Preceded(start, "era")) return true;
  if (a.digits.size() >= 2 && a.digits[0] == '0') return true;
  std::string month;
  size_t p = DigitRun(j + 1, &month);
  return !month.empty() && month.size() <= 2 && Has(p, "月");
}

size_t ZhScanner::ReadQuantity(const NumberLiteral& a, size_t start, const std::string& sign,
                               std::string* spoken, bool* is_year) const {
  size_t j = a.end;
  *is_year = false;
  if (const ZhSymbol* prefix = SymbolAt(j, Position::kPrefix)) {
    *spoken = sign + prefix->reading + ZhDecimal(a.digits, a.frac);
    return j + CodePointCount(prefix->text);
  }
  if (sign.empty() && IsYear(a, start, j)) {
    *is_year = true;
    // ICU reads four-digit years digit by digit (1815 -> 一八一五); shorter
    // ones (05年, 公元前202年) are read digit by digit here.
    *spoken =
        (a.digits.size() == 4 ? Spellout("zh", "%spellout-numbering-year", std::stod(a.digits))
                              : ZhDigits(a.digits, "〇")) +
        "年";
    return MatchMonthDay(j + 1, spoken);
  }
  if (sign.empty() && a.IsPlainInteger() && a.digits.size() <= 2) {
    int value = a.Value();
    if (Has(j, "月") && value >= 1 && value <= 12) {
      *spoken = ZhCardinal(a.digits) + "月";
      return MatchMonthDay(j + 1, spoken);
    }
    if ((Has(j, "日") || Has(j, "号")) && value >= 1 && value <= 31) {
      *spoken = ZhCardinal(a.digits) + text_.substr(Byte(j), Byte(j + 1) - Byte(j));
      return j + 1;
    }
  }
  // Digit by digit: after 电话 and the like, with a leading zero (007), or a
  // long unseparated string that is not a round amount (13912345678).
  bool leading_zero = a.digits.size() >= 2 && a.digits[0] == '0';
  bool long_code = a.digits.size() >= 11 && a.digits.compare(a.digits.size() - 3, 3, "000") != 0;
  if (a.IsPlainInteger() && (leading_zero || long_code || Preceded(start, "digits"))) {
    *spoken = sign + ZhDigits(a.digits, "零");
    // Further hyphenated groups of a code: 010-65529988.
    std::string group;
    while (At(j) == '-' && IsDigitAt(j + 1)) {
      group.clear();
      j = DigitRun(j + 1, &group);
      *spoken += " " + ZhDigits(group, "零");
    }
    return j;
  }
  std::string core = ZhDecimal(a.digits, a.frac);
  while (Has(j, "万") || Has(j, "亿")) {
    core += text_.substr(Byte(j), Byte(j + 1) - Byte(j));
    ++j;
  }
  if (const ZhSymbol* unit = SymbolAt(j, Position::kSuffix)) {
    *spoken = sign + ZhLiang(core, tables_.liang.count(unit->reading) > 0) + unit->reading;
    return j + CodePointCount(unit->text);
  }
  // 2分之1 is a fraction (二分之一), not two minutes.
  *spoken = sign + ZhLiang(core, LiangFollows(j) && !Has(j, "分之"));
  return j;
}

bool ZhScanner::MatchNumber(size_t i, size_t* end, std::string* spoken) const {
  size_t k = i;
  if (At(k) == 0x7B2C) {  // 第: an ordinal
    NumberLiteral a = ParseNumber(k + 1);
    *spoken = "第" + ZhDecimal(a.digits, a.frac);
    *end = a.end;
    return true;
  }
  std::string sign;
  if (IsSign(At(k))) {
    sign = At(k) == 0x00B1 ? "正负" : "负";
    ++k;
  }
  if (sign.empty() && (MatchTime(k, end, spoken) || MatchNumericDate(k, end, spoken))) {
    return true;
  }
  NumberLiteral a = ParseNumber(k);
  size_t j = a.end;
  // Fractions: 1/3 -> 三分之一.
  std::string denominator_digits;
  if (At(j) == '/' && a.IsPlainInteger() && (k == 0 || At(k - 1) != '/') &&
      DigitRun(j + 1, &denominator_digits) > j + 1 &&
      At(j + 1 + denominator_digits.size()) != '/') {
    NumberLiteral b = ParseNumber(j + 1);
    *spoken = sign + ZhCardinal(b.digits) + "分之" + ZhDecimal(a.digits, a.frac);
    *end = b.end;
    if (const ZhSymbol* unit = SymbolAt(*end, Position::kSuffix)) {
      *spoken += unit->reading;
      *end += CodePointCount(unit->text);
    }
    return true;
  }
  // Ranges: 3-5天 -> 三到五天, 1814-1815年 -> 一八一四到一八一五年. The second
  // number decides how both are read.
  // A prefix symbol may stand after both numbers: 10%-20%.
  const ZhSymbol* first_prefix = SymbolAt(j, Position::kPrefix);
  size_t after_a = first_prefix ? j + CodePointCount(first_prefix->text) : j;
  const ZhSymbol* range = sign.empty() ? SymbolAt(after_a, Position::kRange) : nullptr;
  bool plain_first = !(a.digits.size() >= 2 && a.digits[0] == '0');
  if (range && plain_first && !Preceded(i, "digits")) {
    size_t b_start = after_a + CodePointCount(range->text);
    if (IsDigitAt(b_start)) {
      NumberLiteral b = ParseNumber(b_start);
      std::string second;
      bool is_year = false;
      *end = ReadQuantity(b, b_start, "", &second, &is_year);
      std::string first;
      if (is_year && a.IsPlainInteger()) {
        first = ZhDigits(a.digits, "〇");
      } else if (const ZhSymbol* prefix =
                     first_prefix ? first_prefix : SymbolAt(b.end, Position::kPrefix)) {
        first = prefix->reading + ZhDecimal(a.digits, a.frac);
      } else {
        first = ZhLiang(ZhDecimal(a.digits, a.frac), LiangFollows(*end));
      }
      *spoken = first + range->reading + second;
      return true;
    }
  }
  bool is_year = false;
  *end = ReadQuantity(a, k, sign, spoken, &is_year);
  return true;
}

}  // namespace normalize_internal
}  // namespace narrate
