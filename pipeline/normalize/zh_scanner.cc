// The Chinese scanner's character classes and main loop (see zh_scanner.h).
// No shared state.
#include "zh_scanner.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include "zh_foreign.h"

namespace narrate {
namespace normalize_internal {
namespace {

constexpr UChar32 kDi = 0x7B2C;  // 第, the ordinal prefix

char AsciiDigit(UChar32 c) {
  return c <= '9' ? static_cast<char>(c) : static_cast<char>('0' + (c - 0xFF10));
}

bool IsPunctuationOrSymbol(UChar32 c) {
  if (u_ispunct(c)) return true;
  int8_t type = u_charType(c);
  return type == U_MATH_SYMBOL || type == U_CURRENCY_SYMBOL || type == U_MODIFIER_SYMBOL ||
         type == U_OTHER_SYMBOL;
}

}  // namespace

bool IsDigit(UChar32 c) { return (c >= '0' && c <= '9') || (c >= 0xFF10 && c <= 0xFF19); }

bool IsSign(UChar32 c) { return c == '-' || c == 0x2212 || c == 0xFF0D || c == 0x00B1; }

size_t CodePointCount(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

int NumberLiteral::Value() const { return digits.size() > 4 ? 100000 : std::stoi(digits); }

ZhScanner::ZhScanner(const std::string& text, const ZhTables& tables)
    : text_(text), tables_(tables) {
  int32_t i = 0;
  const int32_t length = static_cast<int32_t>(text.size());
  while (i < length) {
    size_t begin = static_cast<size_t>(i);
    UChar32 c;
    U8_NEXT(text.data(), i, length, c);
    cps_.push_back({c, begin});
  }
}

void ZhScanner::Run(std::vector<Token>* out) const {
  const size_t n = cps_.size();
  size_t word_start = n;  // n: no word run open
  auto flush_word = [&](size_t i) {
    if (word_start < i) Emit(TokenKind::kWord, word_start, i, out);
    word_start = n;
  };
  size_t i = 0;
  while (i < n) {
    UChar32 c = cps_[i].c;
    size_t end = 0;
    std::string spoken;
    bool number_start =
        IsDigit(c) || ((c == kDi || IsSign(c)) && IsDigitAt(i + 1) && SignAllowed(i));
    if (number_start && MatchNumber(i, &end, &spoken)) {
      flush_word(i);
      Emit(TokenKind::kNumber, i, end, out, &spoken);
      i = end;
    } else if (IsLatinLetter(c)) {
      flush_word(i);
      end = ForeignSpanEnd(i);
      Emit(TokenKind::kForeign, i, end, out);
      out->back().lang = GuessForeignLang(out->back().text, tables_);
      i = end;
    } else if (u_isUWhiteSpace(c)) {
      flush_word(i);
      for (end = i + 1; end < n && u_isUWhiteSpace(cps_[end].c);) ++end;
      Emit(TokenKind::kSpace, i, end, out);
      i = end;
    } else if (IsPunctuationOrSymbol(c)) {
      flush_word(i);
      Emit(TokenKind::kPunctuation, i, i + 1, out);
      ++i;
    } else {
      if (word_start == n) word_start = i;
      ++i;
    }
  }
  flush_word(n);
}

size_t ZhScanner::Byte(size_t i) const { return i < cps_.size() ? cps_[i].begin : text_.size(); }

UChar32 ZhScanner::At(size_t i) const { return i < cps_.size() ? cps_[i].c : 0; }

bool ZhScanner::Has(size_t i, const std::string& s) const {
  return i < cps_.size() && text_.compare(Byte(i), s.size(), s) == 0;
}

void ZhScanner::Emit(TokenKind kind, size_t begin, size_t end, std::vector<Token>* out,
                     const std::string* spoken) const {
  std::string text = text_.substr(Byte(begin), Byte(end) - Byte(begin));
  out->push_back({kind, text, spoken ? *spoken : text, ""});
}

bool ZhScanner::SignAllowed(size_t i) const {
  if (i == 0 || cps_[i].c == kDi) return true;
  UChar32 prev = cps_[i - 1].c;
  return !IsDigit(prev) && !IsLatinLetter(prev);
}

size_t ZhScanner::DigitRun(size_t k, std::string* digits) const {
  while (IsDigitAt(k)) digits->push_back(AsciiDigit(cps_[k++].c));
  return k;
}

NumberLiteral ZhScanner::ParseNumber(size_t k) const {
  NumberLiteral lit;
  size_t p = DigitRun(k, &lit.digits);
  while (lit.digits.size() <= 3 || lit.grouped) {
    std::string group;
    if (At(p) != ',' || DigitRun(p + 1, &group) != p + 4) break;
    lit.digits += group;
    lit.grouped = true;
    p += 4;
  }
  if (At(p) == '.' && IsDigitAt(p + 1)) p = DigitRun(p + 1, &lit.frac);
  lit.end = p;
  return lit;
}

bool ZhScanner::Preceded(size_t i, const std::string& cls) const {
  while (i > 0 && (u_isUWhiteSpace(At(i - 1)) || At(i - 1) == ':' || At(i - 1) == 0xFF1A)) {  // ：
    --i;
  }
  const size_t end = Byte(i);
  for (const auto& [word, word_cls] : tables_.context) {
    if (word_cls == cls && word.size() <= end &&
        text_.compare(end - word.size(), word.size(), word) == 0) {
      return true;
    }
  }
  return false;
}

bool ZhScanner::Followed(size_t j, const std::string& cls) const {
  for (const auto& [word, word_cls] : tables_.context) {
    if (word_cls == cls && Has(j, word)) return true;
  }
  return false;
}

bool ZhScanner::LiangFollows(size_t j) const {
  for (const std::string& word : tables_.liang) {
    if (Has(j, word)) return true;
  }
  return false;
}

const ZhSymbol* ZhScanner::SymbolAt(size_t j, Position position) const {
  for (const ZhSymbol& symbol : tables_.symbols) {
    if (symbol.position != position || !Has(j, symbol.text)) continue;
    size_t after = j + CodePointCount(symbol.text);
    if (IsLatinLetter(At(after - 1)) && IsLatinLetter(At(after))) continue;
    return &symbol;
  }
  return nullptr;
}

size_t ZhScanner::ForeignSpanEnd(size_t i) const {
  size_t p = i;
  while (true) {
    while (IsLatinLetter(At(p))) ++p;
    UChar32 c = At(p);
    if ((IsForeignJoiner(c) || c == '.') && IsLatinLetter(At(p + 1))) {
      ++p;
      continue;
    }
    return p;
  }
}

}  // namespace normalize_internal
}  // namespace narrate
