// Chinese number words (see zh_numbers.h). Stateless.
#include "zh_numbers.h"

#include <cstdint>

#include "rules.h"

namespace narrate {
namespace normalize_internal {
namespace {

constexpr uint64_t kWan = 10000;
constexpr uint64_t kYi = 100000000;
const char* const kDigitWords[] = {"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"};

// 1..9999. `leading`: first group of the number, where 10-19 are 十..十九;
// elsewhere they are 一十..一十九 (十万 but 一百一十万, 一万零一十).
std::string Group(uint64_t n, bool leading) {
  std::string words = Spellout("zh", "%spellout-cardinal", static_cast<double>(n));
  if (!leading && n >= 10 && n < 20) words = "一" + words;
  return words;
}

std::string Spell(uint64_t n, bool leading) {
  if (n < kWan) return Group(n, leading);
  uint64_t unit = n < kYi ? kWan : kYi;
  const char* unit_word = n < kYi ? "万" : "亿";
  uint64_t high = n / unit, low = n % unit;
  std::string out = (unit == kWan ? Group(high, leading) : Spell(high, leading)) + unit_word;
  if (low == 0) return out;
  if (low < unit / 10) out += "零";
  return out + Spell(low, false);
}

}  // namespace

std::string ZhCardinal(const std::string& digits) {
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return "零";
  std::string significant = digits.substr(first);
  if (significant.size() > 16) return ZhDigits(digits, "零");
  return Spell(std::stoull(significant), true);
}

std::string ZhDigits(const std::string& digits, const std::string& zero) {
  std::string out;
  for (char c : digits) {
    if (c < '0' || c > '9') continue;
    out += c == '0' ? zero : kDigitWords[c - '0'];
  }
  return out;
}

std::string ZhDecimal(const std::string& int_digits, const std::string& frac) {
  std::string out = ZhCardinal(int_digits.empty() ? "0" : int_digits);
  if (frac.empty()) return out;
  return out + "点" + ZhDigits(frac, "零");
}

std::string ZhLiang(const std::string& spelled, bool before_measure_word) {
  if (spelled == "二") return before_measure_word ? "两" : spelled;
  static const char* const kBig[] = {"二千", "二万", "二亿"};
  for (const char* big : kBig) {
    if (spelled.compare(0, std::string(big).size(), big) == 0) {
      return "两" + spelled.substr(std::string("二").size());
    }
  }
  return spelled;
}

}  // namespace normalize_internal
}  // namespace narrate
