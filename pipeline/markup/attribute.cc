// Speaker attribution: people mentioned in narration (cast names and aliases,
// group nouns, pronouns resolved to the most salient fitting person), then for
// each speech the speaker named before it (X说：“…”), after it (“…”他道 /
// „…“ odpovedal X), by alternating turns, or else unknown.
// Thread-safe: pure functions.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include <unicode/uchar.h>

#include "internal.h"

namespace narrate {
namespace markup_internal {
namespace {

// A speaker found, and how (Evidence).
struct Who {
  std::string name;
  std::string gender;
  bool group = false;
  Evidence evidence = Evidence::kNone;
};

// How a speaker was found, from a mention: a pronoun's resolution is weaker
// than a name, a word taken for a name nobody listed is a guess, a group noun
// is a group.
Evidence From(const Mention& m, Evidence named) {
  if (m.group) return Evidence::kGroup;
  if (m.pronoun) return Evidence::kPronoun;
  if (!m.guessed) return named;
  return named == Evidence::kVerbBefore ? Evidence::kGuessBefore : Evidence::kGuessAfter;
}

class Attributor {
 public:
  Attributor(const std::vector<Para>& paras, const Rules& rules, const NameBook& names,
             const std::vector<Speech>& speeches)
      : paras_(paras),
        rules_(rules),
        language_(*rules.language),
        names_(names),
        words_(language_.word_delimited) {
    in_speech_ = SpeechMask(paras, speeches);
    terminals_before_.push_back(0);
    for (const Para& p : paras) {
      terminals_before_.push_back(
          terminals_before_.back() +
          static_cast<int>(std::count_if(p.text.begin(), p.text.end(), IsTerminal)));
    }
    for (const auto& [alias, name] : names_.alias_to_name) {
      AddCandidate({Candidate::kAlias, &alias, {}, &name});
    }
    for (const auto& g : rules_.groups) {
      AddCandidate({Candidate::kGroup, &g, Capitalized(g), nullptr});
    }
    for (const auto& [p, g] : rules_.pronouns) {
      AddCandidate({Candidate::kPronoun, &p, Capitalized(p), &g});
    }
    FindMentions();
  }

  void Run(std::vector<Speech>* speeches);

 private:
  bool WordAt(const std::u32string& t, int i, const std::u32string& w) const {
    if (t.compare(i, w.size(), w) != 0) return false;
    if (!words_) return true;
    const size_t end = i + w.size();
    return (i == 0 || !IsLetter(t[i - 1])) && (end >= t.size() || !IsLetter(t[end]));
  }
  // What FindMentions looks for: cast names and aliases (as written), group
  // nouns and pronouns (also with a capital first letter: Vojaci), in this
  // order, each kind in its table's order. Only the words that start with the
  // letter at hand are tried there (starting_with_), in that same order.
  struct Candidate {
    enum Kind { kAlias, kGroup, kPronoun } kind;
    const std::u32string* word;
    std::u32string capitalized;  // empty when not matched so, or the same
    const std::string* detail;   // an alias's name, a pronoun's gender
  };
  std::u32string Capitalized(const std::u32string& w) const {
    if (!words_ || w.empty()) return {};
    std::u32string c = w;
    c[0] = static_cast<char32_t>(u_toupper(static_cast<UChar32>(w[0])));
    return c == w ? std::u32string() : c;
  }
  void AddCandidate(Candidate c) {
    if (c.word->empty()) return;  // matches nothing: no word is shorter than the best so far
    const auto index = static_cast<uint32_t>(candidates_.size());
    starting_with_[c.word->front()].push_back(index);
    if (!c.capitalized.empty()) starting_with_[c.capitalized.front()].push_back(index);
    candidates_.push_back(std::move(c));
  }
  bool Matches(const Candidate& c, const std::u32string& t, int i) const {
    return WordAt(t, i, *c.word) || (!c.capitalized.empty() && WordAt(t, i, c.capitalized));
  }
  bool EndsWithAny(const std::u32string& t, int end, const std::set<std::u32string>& ws) const {
    int e = end;
    if (words_) {
      while (e > 0 && IsSpace(t[e - 1])) --e;
    }
    for (const auto& w : ws) {
      const int s = e - static_cast<int>(w.size());
      if (s >= 0 && WordAt(t, s, w)) return true;
    }
    return false;
  }
  void FindMentions();
  // The chapter-wide sentence number at a position (as in Mention::sentence).
  int SentenceAt(int para, int pos) const {
    const std::u32string& t = paras_[para].text;
    return para + 1 + terminals_before_[para] +
           static_cast<int>(std::count_if(t.begin(), t.begin() + pos, IsTerminal));
  }
  std::optional<Who> Resolve(const std::string& gender, int sentence, int para, int pos) const;
  std::optional<Who> FromClauses(int para, int end, bool backward_clauses) const;
  std::optional<Who> Before(const Speech& s, bool* document, int* context_para,
                            int* context_end) const;
  std::optional<Who> After(const Speech& s) const;
  std::optional<Who> SameSentence(const Speech& s) const;
  std::optional<Who> OtherThan(const std::string& name, int para, int pos) const;
  std::optional<Who> Addressee(int para, int begin, int end) const;

  const std::vector<Para>& paras_;
  const Rules& rules_;
  const LanguageProfile& language_;
  const NameBook& names_;
  const bool words_;
  std::vector<std::vector<bool>> in_speech_;
  std::vector<int> terminals_before_;  // sentence ends in the paragraphs before each
  std::vector<Candidate> candidates_;
  std::unordered_map<char32_t, std::vector<uint32_t>> starting_with_;  // into candidates_
  std::vector<Mention> mentions_;
};

void Attributor::FindMentions() {
  int sentence = 0;
  for (size_t pi = 0; pi < paras_.size(); ++pi) {
    const std::u32string& t = paras_[pi].text;
    const int n = static_cast<int>(t.size());
    ++sentence;
    bool first_in_sentence = true;
    for (int i = 0; i < n;) {
      if (IsTerminal(t[i])) {
        ++sentence;
        first_in_sentence = true;
      }
      if (in_speech_[pi][i]) {
        ++i;
        continue;
      }
      Mention m;
      m.para = static_cast<int>(pi);
      m.begin = i;
      size_t best = 0;
      static const std::vector<uint32_t> kNone;
      const auto starting = starting_with_.find(t[i]);
      for (uint32_t k : starting == starting_with_.end() ? kNone : starting->second) {
        const Candidate& c = candidates_[k];
        const std::u32string& w = *c.word;
        if (c.kind == Candidate::kAlias) {
          if (w.size() > best && WordAt(t, i, w)) {
            best = w.size();
            m.name = *c.detail;
            auto g = names_.gender.find(m.name);
            m.gender = g == names_.gender.end() ? "" : g->second;
            m.guessed = names_.discovered.count(m.name) > 0;
          }
        } else if (c.kind == Candidate::kGroup) {
          if (w.size() == best && Matches(c, t, i)) {
            m.group = true;  // a group noun in the cast keeps its cast name
          } else if (w.size() > best && Matches(c, t, i)) {
            best = w.size();
            // One group, however it is written: 士兵们 and 这些士兵 are 士兵.
            const std::u32string& suffix = language_.group_suffix;
            const bool plural = !suffix.empty() && w.size() > suffix.size() + 1 &&
                                w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0;
            m.name = ToUtf8(plural ? w.substr(0, w.size() - suffix.size()) : w);
            m.group = true;
            m.gender = "";
          }
        } else if (w.size() > best && Matches(c, t, i)) {
          best = w.size();
          m.pronoun = true;
          m.gender = *c.detail;
          m.group = *c.detail == "p";
          m.name.clear();
        }
      }
      // Words with spaces between them: a capitalized word inside a sentence
      // is a name.
      if (best == 0 && words_ && IsUpper(t[i]) && !first_in_sentence &&
          (i == 0 || !IsLetter(t[i - 1]))) {
        int e = i;
        while (e < n && IsLetter(t[e])) ++e;
        int prev = i - 1;
        while (prev >= 0 && IsSpace(t[prev])) --prev;
        if (e - i > 1 && prev >= 0 && !IsTerminal(t[prev]) && !IsDash(t[prev])) {
          best = e - i;
          m.name = ToUtf8(t, i, e);
          m.guessed = true;
        }
      }
      if (best == 0) {
        if (IsLetter(t[i]) && words_) {
          while (i < n && IsLetter(t[i])) ++i;
          first_in_sentence = false;
        } else {
          ++i;
        }
        continue;
      }
      m.end = i + static_cast<int>(best);
      m.sentence = sentence;
      m.sentence_initial = first_in_sentence;
      first_in_sentence = false;
      if (m.pronoun) {
        auto who = Resolve(m.gender, sentence, m.para, m.begin);
        if (who) {
          m.name = who->name;
          if (!who->gender.empty() || m.gender == "p") m.gender = who->gender;
          m.group = who->group;
        }
      }
      // "X和Y", "X、Y和Z", "X a Y": one group.
      if (!mentions_.empty()) {
        Mention& prev = mentions_.back();
        const std::u32string between = prev.para == m.para && prev.end <= m.begin
                                           ? t.substr(prev.end, m.begin - prev.end)
                                           : std::u32string(U"\n");
        const bool joined = std::find(language_.joiners.begin(), language_.joiners.end(),
                                      between) != language_.joiners.end();
        if (joined && !prev.pronoun && !m.pronoun && !m.name.empty() && !prev.name.empty()) {
          prev.end = m.end;
          prev.name += language_.name_joiner + m.name;
          prev.gender = prev.gender == m.gender ? m.gender : "";
          prev.group = true;
          i = m.end;
          continue;
        }
      }
      mentions_.push_back(m);
      i = m.end;
    }
  }
}

bool Fits(const Mention& m, const std::string& gender) {
  if (m.name.empty()) return false;
  if (gender == "p") return m.group;
  if (m.group) return false;
  return m.gender.empty() || gender.empty() || m.gender == gender;
}

std::optional<Who> Attributor::Resolve(const std::string& gender, int sentence, int para,
                                       int pos) const {
  // The same sentence first, then the subjects of the last few sentences, then
  // anyone in them, then the subjects of earlier sentences, then anyone.
  const int kWindow = 3;  // sentences
  for (int pass = 0; pass < 5; ++pass) {
    for (auto it = mentions_.rbegin(); it != mentions_.rend(); ++it) {
      if (std::make_pair(it->para, it->begin) >= std::make_pair(para, pos)) continue;
      if (pass == 0 && it->sentence != sentence) break;
      if ((pass == 1 || pass == 2) && it->sentence < sentence - kWindow) break;
      if ((pass == 1 || pass == 3) && !it->sentence_initial) continue;
      if (Fits(*it, gender)) {
        return Who{it->name, it->gender, it->group,
                   it->group ? Evidence::kGroup : Evidence::kPronoun};
      }
    }
  }
  if (gender == "p") return Who{language_.plural_pronoun, "", true, Evidence::kGroup};
  return std::nullopt;
}

// The speaker named in the clause ending at `end` of a paragraph, or in the
// clauses before it within the sentence.
std::optional<Who> Attributor::FromClauses(int para, int end, bool backward_clauses) const {
  const std::u32string& t = paras_[para].text;
  int clause_end = end;
  for (int round = 0; round < 8 && clause_end > 0; ++round) {
    int start = clause_end;
    while (start > 0 && !IsClauseEnd(t[start - 1])) --start;
    // A receive verb: the author follows it (接到科兰古回信).
    int receive_at = -1;
    for (const auto& r : rules_.receive) {
      for (int i = start; i + static_cast<int>(r.size()) <= clause_end; ++i) {
        if (WordAt(t, i, r)) receive_at = i + static_cast<int>(r.size());
      }
    }
    // With a speech verb in the clause, the subject is the last person before
    // it (拿破仑命令他说: 他), else the first after it (spýtal sa Bertrand).
    int verb_at = -1;
    FindVerb(t, start, clause_end, rules_, nullptr, &verb_at);
    std::optional<Who> first, before_verb;
    for (const Mention& m : mentions_) {
      if (m.para != para || m.begin < start || m.end > clause_end || m.name.empty()) continue;
      if (receive_at >= 0) {
        if (m.begin >= receive_at)
          return Who{m.name, m.gender, m.group, From(m, Evidence::kVerbBefore)};
        continue;
      }
      if (!words_ && m.end < static_cast<int>(t.size()) && t[m.end] == U'的') continue;
      if (EndsWithAny(t, m.begin, rules_.objects)) continue;
      if (verb_at >= 0 && m.end <= verb_at) {
        before_verb = Who{m.name, m.gender, m.group, From(m, Evidence::kVerbBefore)};
      } else if (!first) {
        first = Who{m.name, m.gender, m.group, From(m, Evidence::kVerbAfter)};
      }
    }
    if (before_verb) return before_verb;
    if (first) return first;
    if (!backward_clauses || start == 0 || IsTerminal(t[start - 1])) break;
    clause_end = start - 1;
  }
  return std::nullopt;
}

std::optional<Who> Attributor::Before(const Speech& s, bool* document, int* context_para,
                                      int* context_end) const {
  const Span& first = s.spans.front();
  const std::u32string& t = paras_[first.para].text;
  int b = first.begin - 1;
  while (b >= 0 && IsSpace(t[b])) --b;
  int para = first.para;
  int end = -1;
  if (b < 0) {
    if (para == 0) return std::nullopt;
    const std::u32string& pt = paras_[para - 1].text;
    int c = static_cast<int>(pt.size()) - 1;
    while (c >= 0 && IsSpace(pt[c])) --c;
    if (c < 0 || !IsColon(pt[c])) return std::nullopt;
    para = para - 1;
    end = c;
  } else if (IsColon(t[b])) {
    end = b;
  } else {
    std::string g;
    int at = -1;
    if (FindVerb(t, std::max(0, b - 3), b + 1, rules_, &g, &at)) end = b + 1;
  }
  if (end < 0) return std::nullopt;
  *context_para = para;
  *context_end = end;
  const std::u32string& ct = paras_[para].text;
  int start = end;
  while (start > 0 && !IsClauseEnd(ct[start - 1])) --start;
  for (const auto& d : rules_.documents) {
    for (int i = start; i + static_cast<int>(d.size()) <= end; ++i) {
      if (WordAt(ct, i, d)) *document = true;
    }
  }
  auto who = FromClauses(para, end, true);
  if (!who && words_) {
    std::string g;
    int at = 0;
    if (FindVerb(ct, start, end, rules_, &g, &at) && !g.empty()) {
      who = Resolve(g, SentenceAt(para, at), para, at);
    }
  }
  if (!who && !words_) {
    // An unknown Chinese name: the subject right before the speech verb.
    int at = -1;
    std::string g;
    if (FindVerb(ct, start, end, rules_, &g, &at)) {
      int e = at;
      for (int i = start; i < at; ++i) {
        bool stop = false;
        for (const auto& a : rules_.adverbs) stop |= WordAt(ct, i, a);
        for (const auto& o : rules_.objects) stop |= WordAt(ct, i, o);
        if (stop) {
          e = i;
          break;
        }
      }
      bool han = e > start;
      for (int i = start; i < e; ++i) han &= IsHan(ct[i]) || ct[i] == U'·';
      if (han && e - start >= 2 && e - start <= 5) {
        return Who{ToUtf8(ct, start, e), "", false, Evidence::kGuessBefore};
      }
    }
  }
  return who;
}

std::optional<Who> Attributor::After(const Speech& s) const {
  const Span* from = &s.spans.back();
  int limit = -1;
  if (s.spans.size() > 1 && s.spans[1].para == s.spans[0].para) {
    from = &s.spans[0];  // dash dialogue: the narration between speech parts
    limit = s.spans[1].begin;
  }
  const std::u32string& t = paras_[from->para].text;
  int a = from->end;
  while (a < static_cast<int>(t.size()) && (IsSpace(t[a]) || IsDash(t[a]) || t[a] == U',')) ++a;
  if (a >= static_cast<int>(t.size()) || t[a] == U'的') return std::nullopt;
  int e = a;
  while (e < static_cast<int>(t.size()) && (limit < 0 || e < limit) && !in_speech_[from->para][e] &&
         !(IsClauseEnd(t[e]) && e > a)) {
    ++e;
  }
  std::string g;
  int at = 0;
  if (!FindVerb(t, a, e, rules_, &g, &at)) return std::nullopt;
  for (const Mention& m : mentions_) {
    if (m.para == from->para && m.begin >= a && m.end <= e && !m.name.empty()) {
      return Who{m.name, m.gender.empty() && g != "p" ? g : m.gender, m.group,
                 From(m, Evidence::kVerbAfter)};
    }
  }
  if (words_) {
    // "odpovedal Napoleon": a capitalized word after the verb.
    int i = at;
    while (i < e && IsLetter(t[i])) ++i;
    while (i < e && IsSpace(t[i])) ++i;
    int j = i;
    while (j < e && IsLetter(t[j])) ++j;
    if (j > i && IsUpper(t[i])) {
      const std::string name = ToUtf8(t, i, j);
      auto alias = names_.alias_to_name.find(t.substr(i, j - i));
      if (alias != names_.alias_to_name.end()) {
        auto gg = names_.gender.find(alias->second);
        return Who{alias->second, gg == names_.gender.end() ? g : gg->second, false,
                   Evidence::kVerbAfter};
      }
      return Who{name, g == "p" ? "" : g, g == "p",
                 g == "p" ? Evidence::kGroup : Evidence::kGuessAfter};
    }
    if (!g.empty()) return Resolve(g, SentenceAt(from->para, a), from->para, a);
  }
  return std::nullopt;
}

// Weak evidence: the last person named earlier in the quote's own sentence.
std::optional<Who> Attributor::SameSentence(const Speech& s) const {
  const Span& first = s.spans.front();
  const std::u32string& t = paras_[first.para].text;
  int start = first.begin;
  while (start > 0 && !IsTerminal(t[start - 1])) --start;
  std::optional<Who> who;
  for (const Mention& m : mentions_) {
    if (m.para == first.para && m.begin >= start && m.end <= first.begin && !m.name.empty()) {
      who = Who{m.name, m.gender, m.group, Evidence::kContext};
    }
  }
  return who;
}

std::optional<Who> Attributor::Addressee(int para, int begin, int end) const {
  const std::u32string& t = paras_[para].text;
  for (const Mention& m : mentions_) {
    if (m.para == para && m.begin >= begin && m.end <= end && !m.name.empty() &&
        EndsWithAny(t, m.begin, rules_.objects)) {
      return Who{m.name, m.gender, m.group, Evidence::kAddressee};
    }
  }
  return std::nullopt;
}

std::optional<Who> Attributor::OtherThan(const std::string& name, int para, int pos) const {
  for (auto it = mentions_.rbegin(); it != mentions_.rend(); ++it) {
    if (std::make_pair(it->para, it->begin) >= std::make_pair(para, pos)) continue;
    if (!it->name.empty() && it->name != name && !it->group) {
      return Who{it->name, it->gender, false, Evidence::kAlternation};
    }
  }
  return std::nullopt;
}

void Attributor::Run(std::vector<Speech>* speeches) {
  std::optional<Who> prev_who, prev_partner;
  const Speech* prev = nullptr;
  for (Speech& s : *speeches) {
    bool document = s.document;
    int context_para = -1, context_end = -1;
    std::optional<Who> who = Before(s, &document, &context_para, &context_end);
    s.document = document;
    std::optional<Who> partner;
    if (context_para >= 0) {
      const std::u32string& ct = paras_[context_para].text;
      int start = context_end;
      while (start > 0 && !IsTerminal(ct[start - 1])) --start;
      partner = Addressee(context_para, start, context_end);
    }
    // Turns: a quote right after another one, with no narration between
    // (in one paragraph), or a paragraph that opens with speech right after
    // one that held the last speech (a dialogue's turns, a line each).
    bool adjacent = false;
    if (prev != nullptr && prev->quoted && s.quoted) {
      const Span& a = prev->spans.back();
      const Span& b = s.spans.front();
      if (a.para == b.para) {
        adjacent = true;
        for (int i = a.end; i < b.begin; ++i) adjacent &= IsSpace(paras_[a.para].text[i]);
      } else if (b.para == a.para + 1) {
        adjacent = true;
        for (int i = 0; i < b.begin; ++i) {
          adjacent &= IsSpace(paras_[b.para].text[i]) || IsDash(paras_[b.para].text[i]);
        }
      }
    }
    if (!who && !s.document) who = After(s);
    if (!who && adjacent && prev_who) {
      if (prev_who->group) {
        who = prev_who;
      } else {
        who = prev_partner
                  ? prev_partner
                  : OtherThan(prev_who->name, prev->spans.front().para, prev->spans.front().begin);
      }
      if (who) who->evidence = Evidence::kAlternation;
      partner = prev_who;
    }
    if (!who && !s.document) who = SameSentence(s);
    if (who && !partner && !who->group) {
      partner = OtherThan(who->name, s.spans.front().para, s.spans.front().begin);
    }
    if (who) {
      s.speaker = who->name;
      s.gender = who->gender;
      s.group = who->group;
      s.attributed = true;
      s.evidence = who->evidence;
    }
    prev = &s;
    prev_who = who;
    prev_partner = partner;
  }
}

}  // namespace

NameBook MakeNameBook(const Cast& cast) {
  NameBook book;
  for (const CastEntry& e : cast.speakers) {
    book.alias_to_name[ToU32(e.name)] = e.name;
    for (const std::string& a : e.aliases) book.alias_to_name[ToU32(a)] = e.name;
    if (!e.gender.empty()) book.gender[e.name] = e.gender;
  }
  return book;
}

void Attribute(const std::vector<Para>& paras, const Rules& rules, const NameBook& names,
               std::vector<Speech>* speeches) {
  Attributor attributor(paras, rules, names, *speeches);
  attributor.Run(speeches);
}

}  // namespace markup_internal
}  // namespace narrate
