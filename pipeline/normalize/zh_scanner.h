// Private to the normalize stage: the scanner that splits one paragraph of
// Chinese text into tokens (words, spaces, punctuation, numbers, foreign
// spans). zh_scanner.cc holds the character classes and the main loop,
// zh_number_rules.cc the number readings. A ZhScanner lives for one
// Tokenize() call and is not shared; the ZhTables it reads are immutable.
#pragma once

#include <string>
#include <vector>

#include <unicode/umachine.h>

#include "core/core.h"
#include "zh_tables.h"

namespace narrate {
namespace normalize_internal {

// ASCII or full-width (０-９) decimal digit.
bool IsDigit(UChar32 c);
// - − － ±, which make a number negative (or 正负) after a non-digit.
bool IsSign(UChar32 c);
size_t CodePointCount(const std::string& s);

// A run of digits with optional thousands separators and fraction.
struct NumberLiteral {
  size_t end = 0;        // code point index after the literal
  std::string digits;    // integer part, ASCII, separators removed
  std::string frac;      // fraction digits, ASCII; empty when none
  bool grouped = false;  // had thousands separators (1,050)
  bool IsPlainInteger() const { return frac.empty() && !grouped; }
  // Small integers only (months, days, hours); 100000 when longer.
  int Value() const;
};

class ZhScanner {
 public:
  ZhScanner(const std::string& text, const ZhTables& tables);
  // Appends tokens covering the whole text.
  void Run(std::vector<Token>* out) const;

 private:
  using Position = ZhSymbol::Position;
  struct CodePoint {
    UChar32 c;
    size_t begin;  // byte offset in the paragraph
  };

  // Code point index -> byte offset (text size past the end).
  size_t Byte(size_t i) const;
  UChar32 At(size_t i) const;  // 0 past the end
  bool IsDigitAt(size_t i) const { return IsDigit(At(i)); }
  // Whether `s` is printed at code point i.
  bool Has(size_t i, const std::string& s) const;
  void Emit(TokenKind kind, size_t begin, size_t end, std::vector<Token>* out,
            const std::string* spoken = nullptr) const;
  // A sign starts a number only after a non-digit, non-letter.
  bool SignAllowed(size_t i) const;
  // Appends the ASCII digits from k on; returns the index after them.
  size_t DigitRun(size_t k, std::string* digits) const;
  NumberLiteral ParseNumber(size_t k) const;
  // A context.tsv word of class `cls` just before code point i (spaces and
  // colons between allowed), or starting at code point j.
  bool Preceded(size_t i, const std::string& cls) const;
  bool Followed(size_t j, const std::string& cls) const;
  // A liang.tsv measure word starts at j.
  bool LiangFollows(size_t j) const;
  // A symbols.tsv symbol of `position` at j; one ending in a Latin letter
  // counts only when no letter follows (5 m, not 5 miles).
  const ZhSymbol* SymbolAt(size_t j, Position position) const;
  size_t ForeignSpanEnd(size_t i) const;

  // zh_number_rules.cc. Each Match* reads a number starting at code point i
  // (or k), sets *end and *spoken and returns true, or returns false.
  bool MatchNumber(size_t i, size_t* end, std::string* spoken) const;
  bool MatchTime(size_t k, size_t* end, std::string* spoken) const;
  bool MatchNumericDate(size_t k, size_t* end, std::string* spoken) const;
  size_t MatchMonthDay(size_t j, std::string* spoken) const;
  bool IsYear(const NumberLiteral& a, size_t start, size_t j) const;
  size_t ReadQuantity(const NumberLiteral& a, size_t start, const std::string& sign,
                      std::string* spoken, bool* is_year) const;

  const std::string& text_;
  const ZhTables& tables_;
  std::vector<CodePoint> cps_;
};

}  // namespace normalize_internal
}  // namespace narrate
