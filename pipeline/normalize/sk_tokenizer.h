// The Slovak tokenizer: splits a paragraph into segments (letter runs, digit
// runs, spaces, single other characters) and applies the Slovak rules over
// them. One SlovakTokenizer per Tokenize() call: not thread-safe, but cheap;
// the tables and number speller it points to are shared read-only.
#pragma once

#include <string>
#include <vector>

#include "rules.h"
#include "sk_numbers.h"
#include "sk_tables.h"

namespace narrate {
namespace normalize_internal {
namespace sk {

bool IsCapitalized(const std::string& word);
std::string Lowercase(const std::string& word);

class SlovakTokenizer {
 public:
  SlovakTokenizer(const SlovakTables* tables, const SlovakNumbers* numbers,
                  const RuleContext* context, const std::string& text, std::vector<Token>* out);
  void Run();

 private:
  // Each Try* either emits tokens and advances pos_, or returns false.
  bool TryNumber();  // sk_number_rules.cc
  bool TryRoman();
  bool TryAbbreviation();
  void EmitDefault();

  // Number helpers (sk_number_rules.cc).
  bool TryDate();
  bool TryTime();
  // Reads digits at pos_ (with space-grouped thousands); end is one past.
  bool ReadInteger(size_t pos, int64_t* value, size_t* end, bool* grouped) const;
  // A unit right after `pos` (optionally one space away); end is one past.
  const Unit* ReadUnit(size_t pos, size_t* end) const;

  // Emits segments [begin, end) as one token.
  void Emit(TokenKind kind, size_t begin, size_t end, const std::string& spoken);
  // True when segment `pos` is "." that ends the sentence: the end of the
  // paragraph, or a space and a capitalized word (or an opening quote) follow.
  bool PeriodEndsSentence(size_t pos) const;
  bool IsSeparatorSpace(size_t pos) const;  // one (no-break/narrow) space
  const std::string& Text(size_t pos) const;
  Segment::Kind KindAt(size_t pos) const;
  // The letters word after a "." at `pos`: skips one space; npos when none.
  size_t WordAfter(size_t pos) const;
  // The head noun after an ordinal: skips conjunctions and other numbers
  // (18. a 19. storočie). npos when none.
  size_t HeadNounAfter(size_t pos) const;
  // The n-th (1-based) previous word token emitted in this paragraph,
  // lowercased; stops at punctuation other than "." of an abbreviation. Empty
  // when none.
  std::string PreviousWord(int n) const;
  std::string PreviousWordRaw() const;  // not lowercased, 1 back
  // Case governed by a preposition among the `back` previous words.
  std::vector<Case> PrepositionCases(int first, int last) const;
  // Agreement of a common noun form; default masculine inanimate nominative.
  Agreement NounAgreement(const std::string& word) const;
  Agreement NameAgreement(const std::string& word) const;
  // The first case of `a` allowed by `prep` (or a's first when none is).
  static Case ChooseCase(const Agreement& a, const std::vector<Case>& prep);

  const SlovakTables* tables_;
  const SlovakNumbers* numbers_;
  const RuleContext* context_;
  std::vector<Segment> segs_;
  std::vector<Token>* out_;
  size_t first_token_;  // out_->size() at the start: this paragraph's tokens
  size_t pos_ = 0;
};

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
