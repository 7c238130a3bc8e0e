// Sentence splitting: ICU's BreakIterator, corrected for opening quotes left
// at the end of a sentence and for abbreviations that do not end one.
// Thread-safe: the rules cache is locked; each thread has its own iterators.
#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <map>
#include <memory>

#include "internal.h"
#include "markup/markup.h"

namespace narrate {
namespace {

// ICU's sentence iterator for `lang`, made once per thread (making one is
// worth a few sentences of splitting); null if ICU has none.
icu::BreakIterator* SentenceIterator(const Lang& lang) {
  thread_local std::map<Lang, std::unique_ptr<icu::BreakIterator>> iterators;
  auto found = iterators.find(lang);
  if (found == iterators.end()) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> it(
        icu::BreakIterator::createSentenceInstance(icu::Locale(lang.c_str()), status));
    if (U_FAILURE(status)) it.reset();
    found = iterators.emplace(lang, std::move(it)).first;
  }
  return found->second.get();
}

}  // namespace

std::vector<std::vector<Token>> SplitSentences(const std::vector<Token>& tokens, const Lang& lang) {
  using markup_internal::ToU32;
  const markup_internal::Rules& rules = markup_internal::DefaultRules(lang, nullptr);
  // Marks ICU leaves on the wrong side of a break.
  const std::u32string& openers = rules.language->sentence_openers;
  const std::u32string& closers = rules.language->sentence_closers;
  const std::string text = PrintedText(tokens);
  const std::u32string cps = ToU32(text);
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
  icu::BreakIterator* it = SentenceIterator(lang);
  // Code-point offsets where an abbreviation token ends: no break there.
  std::vector<int> abbreviation_ends;
  int offset_cp = 0;
  for (const Token& t : tokens) {
    offset_cp += CodePointCount(t.text);
    if (t.kind == TokenKind::kAbbreviation && !t.text.empty() && t.text.back() == '.') {
      abbreviation_ends.push_back(offset_cp);
    }
  }
  std::vector<int> breaks;  // code-point offsets where a new sentence starts
  if (it != nullptr) {
    it->setText(u);
    for (int32_t b = it->next(); b != icu::BreakIterator::DONE; b = it->next()) {
      int cp = u.countChar32(0, b);
      while (cp > 0 && openers.find(cps[cp - 1]) != std::u32string::npos) --cp;
      // A closing mark ICU left at the start of a sentence ends the previous one.
      while (cp < static_cast<int>(cps.size()) && closers.find(cps[cp]) != std::u32string::npos) {
        ++cp;
      }
      if (cp <= 0 || cp >= static_cast<int>(cps.size())) continue;
      int end = cp;
      while (end > 0 && markup_internal::IsSpace(cps[end - 1])) --end;
      bool suppress = false;
      for (int a : abbreviation_ends) suppress |= a == end;
      for (const auto& word : rules.no_break_after) {
        const int s = end - static_cast<int>(word.size());
        if (s >= 0 && cps.compare(s, word.size(), word) == 0 &&
            (s == 0 || !markup_internal::IsLetter(cps[s - 1]))) {
          suppress = true;
        }
      }
      if (!suppress) breaks.push_back(cp);
    }
    static const icu::UnicodeString kNoText;
    it->setText(kNoText);  // it keeps a reference to its text, and `u` goes
  }
  std::vector<std::vector<Token>> sentences(1);
  int offset = 0;
  size_t next = 0;
  for (const Token& t : tokens) {
    while (next < breaks.size() && breaks[next] <= offset) {
      if (!sentences.back().empty()) sentences.emplace_back();
      ++next;
    }
    sentences.back().push_back(t);
    offset += CodePointCount(t.text);
  }
  // A "sentence" of only spaces joins the one before it.
  std::vector<std::vector<Token>> out;
  for (auto& s : sentences) {
    bool blank = true;
    for (const Token& t : s) blank &= t.kind == TokenKind::kSpace;
    if (blank && !out.empty()) {
      out.back().insert(out.back().end(), s.begin(), s.end());
    } else if (!s.empty()) {
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace narrate
