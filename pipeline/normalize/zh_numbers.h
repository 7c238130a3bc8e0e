// Private to the normalize stage: Chinese number words for digit strings
// (cardinals with 万/亿 grouping, decimals, digit-by-digit readings).
// Pure functions; safe to call from any thread.
#pragma once

#include <string>

namespace narrate {
namespace normalize_internal {

// ASCII digit string (leading zeros ignored) as a cardinal: "1050" -> 一千零五十,
// "100000" -> 十万, "100010000" -> 一亿零一万. Words of each four-digit group come
// from ICU RBNF; the 万/亿 grouping and the 零 between groups are done here
// (ICU 72 drops the 零 in 10001000 and 101111111). Strings longer than 16
// digits are read digit by digit.
std::string ZhCardinal(const std::string& digits);

// Digit by digit, zero as `zero` ("〇" for years, "零" elsewhere):
// "1815" -> 一八一五.
std::string ZhDigits(const std::string& digits, const std::string& zero);

// A cardinal integer part and a fraction read digit by digit:
// ("3", "14") -> 三点一四, ("5", "0") -> 五点零. Empty fraction: a cardinal.
std::string ZhDecimal(const std::string& int_digits, const std::string& frac);

// 二 -> 两 where a careful speaker says it: the whole reading "二" (before a
// measure word), or a leading 二千/二万/二亿 (两千, 两万, 两亿).
std::string ZhLiang(const std::string& spelled, bool before_measure_word);

}  // namespace normalize_internal
}  // namespace narrate
