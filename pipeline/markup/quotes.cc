// Finding speech in a chapter: quotes (the marks of the language's profile,
// nested, reopened on each paragraph or carried over), dash dialogue where the
// profile has it (Slovak), and block speeches or documents announced by a
// colon at the end of a paragraph. Thread-safe: pure functions.
#include <algorithm>

#include "internal.h"

namespace narrate {
namespace markup_internal {
namespace {

// The closing marks that end a quote opened by `open` (empty: not an opener).
const std::u32string& ClosersOf(char32_t open, const LanguageProfile& language) {
  for (const QuoteMarks& q : language.quotes) {
    if (q.open == open) return q.close;
  }
  static const std::u32string kNone;
  return kNone;
}

int SkipSpaces(const std::u32string& t, int i) {
  while (i < static_cast<int>(t.size()) && IsSpace(t[i])) ++i;
  return i;
}

int LastNonSpace(const std::u32string& t, int end) {
  int i = end - 1;
  while (i >= 0 && IsSpace(t[i])) --i;
  return i;
}

bool EndsWithColon(const Para& p) {
  const int i = LastNonSpace(p.text, static_cast<int>(p.text.size()));
  return i >= 0 && IsColon(p.text[i]);
}

bool HasAnyQuote(const Para& p, const LanguageProfile& language) {
  for (char32_t c : p.text) {
    if (!ClosersOf(c, language).empty() || c == U'”' || c == U'«') return true;
  }
  return false;
}

bool ContainsWord(const std::u32string& text, const std::set<std::u32string>& words,
                  bool whole_words) {
  for (const auto& w : words) {
    size_t at = 0;
    while ((at = text.find(w, at)) != std::u32string::npos) {
      const size_t end = at + w.size();
      const bool left_ok = !whole_words || at == 0 || !IsLetter(text[at - 1]);
      const bool right_ok = !whole_words || end >= text.size() || !IsLetter(text[end]);
      if (left_ok && right_ok) return true;
      ++at;
    }
  }
  return false;
}

// "第三款" / "1." / "一、" at the start of a paragraph: an article of a document.
bool StartsWithEnumeration(const std::u32string& t, const Rules& rules) {
  int i = SkipSpaces(t, 0);
  const std::u32string kNumerals = U"零一二三四五六七八九十百0123456789";
  if (i < static_cast<int>(t.size()) && t[i] == U'第') {
    int j = i + 1;
    while (j < static_cast<int>(t.size()) && kNumerals.find(t[j]) != std::u32string::npos) ++j;
    if (j > i + 1 && j < static_cast<int>(t.size()) &&
        rules.enumerations.count(std::u32string(1, t[j]))) {
      return true;
    }
  }
  int j = i;
  while (j < static_cast<int>(t.size()) && kNumerals.find(t[j]) != std::u32string::npos) ++j;
  return j > i && j < static_cast<int>(t.size()) &&
         (t[j] == U'、' || t[j] == U'.' || t[j] == U'）');
}

// Text of the clause that ends at `end` (exclusive), back to a clause end.
int ClauseStart(const std::u32string& t, int end) {
  int i = end;
  while (i > 0 && !IsClauseEnd(t[i - 1])) --i;
  return i;
}

// True when the quote [open, close] of paragraph `p` reads as speech.
bool LooksLikeSpeech(const std::vector<Para>& paras, const Speech& s, const Rules& rules) {
  if (s.spans.size() > 1 && s.spans.front().para != s.spans.back().para) return true;
  const Span& first = s.spans.front();
  const Span& last = s.spans.back();
  const std::u32string& t = paras[first.para].text;
  // Inside: a whole sentence, or long.
  int inner = 0;
  bool terminal = false;
  for (const Span& sp : s.spans) {
    const std::u32string& pt = paras[sp.para].text;
    for (int i = sp.begin + 1; i < sp.end - 1; ++i) {
      ++inner;
      terminal |= IsTerminal(pt[i]) || pt[i] == U'！' || pt[i] == U'？';
    }
  }
  if (terminal || inner > 12) return true;
  // Cut off by narration at a comma (“张浩然，”王老师看了他一眼，“…”): the
  // first part of a speech; a quoted word or title ends with no comma.
  const std::u32string& lt = paras[last.para].text;
  if (last.end >= 2 && (lt[last.end - 2] == U'，' || lt[last.end - 2] == U',')) return true;
  // Before: a colon or a speech verb right before the opening mark.
  const int b = LastNonSpace(t, first.begin);
  if (b >= 0 && IsColon(t[b])) return true;
  if (b < 0 && first.para > 0 && EndsWithColon(paras[first.para - 1])) return true;
  if (int at = 0; b >= 0 && FindVerb(t, std::max(0, b - 3), b + 1, rules, nullptr, &at)) {
    // The verb must end right at the quote (说“…”), allowing 道/着.
    for (const auto& [form, g] : rules.verbs) {
      if (at + static_cast<int>(form.size()) == b + 1 && t.compare(at, form.size(), form) == 0) {
        return true;
      }
    }
  }
  // After: a clause with a speech verb that does not modify a noun (“…”的喊声).
  int a = SkipSpaces(lt, last.end);
  if (a < static_cast<int>(lt.size()) && lt[a] != U'的') {
    int e = a;
    while (e < static_cast<int>(lt.size()) && !IsClauseEnd(lt[e]) &&
           ClosersOf(lt[e], *rules.language).empty()) {
      ++e;
    }
    if (FindVerb(lt, a, e, rules, nullptr, nullptr)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::vector<bool>> SpeechMask(const std::vector<Para>& paras,
                                          const std::vector<Speech>& speeches) {
  std::vector<std::vector<bool>> mask(paras.size());
  for (size_t i = 0; i < paras.size(); ++i) mask[i].assign(paras[i].text.size(), false);
  for (const Speech& s : speeches) {
    for (const Span& sp : s.spans) {
      for (int i = sp.begin; i < sp.end; ++i) mask[sp.para][i] = true;
    }
  }
  return mask;
}

std::vector<Speech> FindSpeeches(const std::vector<Para>& paras, const Rules& rules) {
  const LanguageProfile& language = *rules.language;
  std::vector<Speech> quotes;
  bool open = false;
  char32_t opener = 0;
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    const int n = static_cast<int>(t.size());
    int i = 0;
    if (open) {
      // A quote left open goes on when this paragraph reopens it, or closes it
      // before opening another.
      const std::u32string& closers = ClosersOf(opener, language);
      const int first = SkipSpaces(t, 0);
      bool goes_on = first < n && t[first] == opener;
      if (!goes_on) {
        for (int k = 0; k < n; ++k) {
          if (closers.find(t[k]) != std::u32string::npos) {
            goes_on = true;
            break;
          }
          if (!ClosersOf(t[k], language).empty()) break;
        }
      }
      if (goes_on) {
        quotes.back().spans.push_back({static_cast<int>(pi), 0, n});
        if (first < n && t[first] == opener) i = first + 1;
      } else {
        open = false;
        quotes.back().unclosed = true;
      }
    } else if (language.dash_dialogue) {
      // Dash dialogue: "– Áno, – povedal. – Poďme."
      // The speech opens the paragraph, or follows a colon or a sentence of
      // narration ("Eva sa pozrela na tetu: – Teta, a ty?", "Tréner si
      // poškrabal zátylok. – K nám?").
      int first = SkipSpaces(t, 0);
      if (first < n && !IsDash(t[first])) {
        for (int k = 0; k + 3 < n; ++k) {
          if ((IsColon(t[k]) || IsTerminal(t[k])) && IsSpace(t[k + 1]) && IsDash(t[k + 2]) &&
              IsSpace(t[k + 3])) {
            first = k + 2;
            break;
          }
        }
      }
      if (first < n && IsDash(t[first]) && first + 1 < n && IsSpace(t[first + 1])) {
        Speech s;
        bool speech = true;
        int start = first;
        for (int k = first + 2; k <= n; ++k) {
          const bool dash =
              k < n && IsDash(t[k]) && IsSpace(t[k - 1]) && (k + 1 >= n || IsSpace(t[k + 1]));
          if (k == n || dash) {
            if (speech) s.spans.push_back({static_cast<int>(pi), start, k == n ? n : k});
            speech = !speech;
            start = k;
          }
        }
        // Ensure narration between speech parts starts after its dash.
        quotes.push_back(std::move(s));
        continue;
      }
    }
    for (; i < n; ++i) {
      const char32_t c = t[i];
      if (!open) {
        if (!ClosersOf(c, language).empty()) {
          open = true;
          opener = c;
          Speech s;
          s.spans.push_back({static_cast<int>(pi), i, n});
          quotes.push_back(std::move(s));
        }
      } else if (ClosersOf(opener, language).find(c) != std::u32string::npos) {
        quotes.back().spans.back().end = i + 1;
        open = false;
      }
    }
  }
  if (open) quotes.back().unclosed = true;
  // Keep the quotes that read as speech, or that touch one that does (turns).
  std::vector<bool> speech(quotes.size());
  for (size_t q = 0; q < quotes.size(); ++q) {
    const bool dash =
        !paras[quotes[q].spans.front().para].text.empty() &&
        IsDash(paras[quotes[q].spans.front().para].text[quotes[q].spans.front().begin]);
    speech[q] = dash || LooksLikeSpeech(paras, quotes[q], rules);
  }
  for (size_t q = 1; q < quotes.size(); ++q) {
    const Span& prev = quotes[q - 1].spans.back();
    const Span& cur = quotes[q].spans.front();
    if (prev.para == cur.para && SkipSpaces(paras[cur.para].text, prev.end) == cur.begin &&
        (speech[q - 1] || speech[q])) {
      speech[q - 1] = speech[q] = true;
    }
  }
  std::vector<Speech> out;
  std::set<int> quoted_paras;
  for (size_t q = 0; q < quotes.size(); ++q) {
    if (speech[q]) out.push_back(quotes[q]);
  }
  // Block speeches and documents: a paragraph ending with a colon, followed by
  // paragraphs without quote marks.
  for (size_t pi = 0; pi + 1 < paras.size(); ++pi) {
    if (!EndsWithColon(paras[pi]) || HasAnyQuote(paras[pi + 1], language)) continue;
    const std::u32string& t = paras[pi].text;
    const int colon = LastNonSpace(t, static_cast<int>(t.size()));
    const std::u32string clause = t.substr(ClauseStart(t, colon), colon - ClauseStart(t, colon));
    const bool whole = language.word_delimited;
    bool document = ContainsWord(clause, rules.documents, whole);
    const bool personal = ContainsWord(paras[pi + 1].text, rules.first_person, whole);
    if (!document && !personal) {
      if (!StartsWithEnumeration(paras[pi + 1].text, rules)) continue;
      document = true;
    }
    Speech s;
    s.quoted = false;
    s.document = document;
    size_t k = pi + 1;
    while (k < paras.size() && !HasAnyQuote(paras[k], language)) {
      const bool go_on =
          k == pi + 1 ||
          (document ? EndsWithColon(paras[k - 1]) || StartsWithEnumeration(paras[k].text, rules)
                    : ContainsWord(paras[k].text, rules.first_person, whole));
      if (!go_on) break;
      s.spans.push_back({static_cast<int>(k), 0, static_cast<int>(paras[k].text.size())});
      ++k;
    }
    out.push_back(std::move(s));
    pi = k - 1;
  }
  std::sort(out.begin(), out.end(), [](const Speech& a, const Speech& b) {
    return std::make_pair(a.spans.front().para, a.spans.front().begin) <
           std::make_pair(b.spans.front().para, b.spans.front().begin);
  });
  return out;
}

}  // namespace markup_internal
}  // namespace narrate
