// Speaker attribution. First the people mentioned in narration (the name
// book's names and aliases, group nouns, pronouns), their genders (the name
// book's, clause-opening pronouns, terms of address, verb endings, name
// shapes), then each pronoun resolved to the most salient person of its
// gender. Then, per speech, what its own paragraph says: the speaker named
// before it (X说：“…”), after or inside it (“…”他道, „…,“ odvetil X, „…“), the
// one who acts in the paragraph, whom it calls by name; a pronoun after one's
// own speech passes to someone else. Then the turns of each exchange, forwards
// and backwards from the speeches whose speaker is known, the other party
// being the one spoken to or called, else someone named in the paragraph,
// else a recent speaker. Else unknown. Thread-safe: pure functions.
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
  // The gender is what the speech verb (povedala) or a pronoun (她说) says,
  // not what is known of the person: evidence of the person's gender.
  bool says_gender = false;
  std::string pronoun_gender;  // found by a pronoun (他说): its gender
  int para = -1;               // of the mention that names the speaker
  int mention = -1;            // that mention, in mentions_; -1: none
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
    static const std::string kNoGender;
    for (const auto& [p, g] : rules_.pronouns) {
      AddCandidate({Candidate::kPronoun, &p, Capitalized(p),
                    names_.genderless_pronouns.count(p) ? &kNoGender : &g});
    }
    for (const auto& [title, gender] : rules_.titles) {
      for (const std::u32string& form : DeclinedForms(title, rules_)) titles_.insert(form);
    }
    FindMentions();
  }

  void Run(std::vector<Speech>* speeches);
  // A person's gender as this chapter works it out, and what says it
  // (GenderFound's evidence): the name book's, else what the verbs,
  // pronouns and terms of address that point at them agree on, else the
  // likely one.
  std::string GenderOf(const std::string& name, std::string* evidence = nullptr) const;
  // The gender a speaker's speech takes: GenderOf's, else, when nothing
  // points at the speaker with a gender (no pronouns disagreeing) and the
  // text writes its pronouns with genders, the one the language leaves
  // unmarked (evidence "unmarked").
  std::string SpokenGender(const std::string& name, std::string* evidence = nullptr) const {
    std::string gender = GenderOf(name, evidence);
    if (gender.empty() && !rules_.unmarked_gender.empty() && !votes_.count(name) &&
        names_.genderless_pronouns.empty()) {
      gender = rules_.unmarked_gender;
      if (evidence != nullptr) *evidence = "unmarked";
    }
    return gender;
  }

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
    if (!words_) return {};
    const std::u32string c = Capital(w);
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
  bool IsTitle(const std::u32string& w) const { return titles_.count(w) > 0; }
  // The mentions of one paragraph, in text order.
  struct Mentions {
    const Mention* first;
    const Mention* last;
    const Mention* begin() const { return first; }
    const Mention* end() const { return last; }
  };
  Mentions MentionsIn(int para) const {
    return {mentions_.data() + para_first_[para], mentions_.data() + para_first_[para + 1]};
  }
  // How many mentions there are up to the end of paragraph `para`: a scan
  // back from a place in it starts there.
  size_t MentionsUpTo(int para) const { return para_first_[para + 1]; }
  // The speaker a mention names; a pronoun's gender is evidence when nothing
  // else gives the person's.
  Who WhoOf(const Mention& m, Evidence evidence) const {
    Who who{m.name, m.gender, m.group, evidence};
    who.pronoun_gender = m.pronoun_gender;
    who.para = m.para;
    who.mention = static_cast<int>(&m - mentions_.data());
    who.says_gender = m.pronoun && !m.group && GenderOf(m.name).empty() && !m.gender.empty();
    return who;
  }
  // Whether a clause of narration starts at `pos` (spaces before it aside).
  bool OpensClause(int para, int pos) const {
    const std::u32string& t = paras_[para].text;
    int b = pos;
    while (b > 0 && IsSpace(t[b - 1])) --b;
    return b == 0 || IsClauseEnd(t[b - 1]) || IsDash(t[b - 1]) || in_speech_[para][b - 1];
  }
  // Whether no speech stands from (para, pos) to (to_para, to_pos), in one
  // paragraph or from the end of one to the start of the next.
  bool SpeechFreeBetween(int para, int pos, int to_para, int to_pos) const {
    if (to_para != para && (to_para != para + 1 || to_pos != 0)) return false;
    const std::vector<bool>& speech = in_speech_[para];
    const size_t end = to_para == para ? static_cast<size_t>(to_pos) : speech.size();
    return std::find(speech.begin() + pos, speech.begin() + end, true) == speech.begin() + end;
  }
  void FindMentions();
  // The chapter-wide sentence number at a position (as in Mention::sentence).
  int SentenceAt(int para, int pos) const {
    const std::u32string& t = paras_[para].text;
    return para + 1 + terminals_before_[para] +
           static_cast<int>(std::count_if(t.begin(), t.begin() + pos, IsTerminal));
  }
  // The person a pronoun of `gender` at (para, pos) points back at, other
  // than `other_than`.
  std::optional<Who> Resolve(const std::string& gender, int sentence, int para, int pos,
                             const std::string& other_than = "") const;
  std::optional<Who> FromClauses(int para, int end, bool backward_clauses) const;
  std::optional<Who> Before(const Speech& s, bool* document, int* context_para,
                            int* context_end) const;
  std::optional<Who> After(const Speech& s, std::optional<Who>* addressee) const;
  std::optional<Who> SubjectIn(int para, int begin, int end) const;
  std::optional<Who> Context(const Speech& s) const;
  std::optional<Who> LastSubject(int para) const;
  std::optional<Who> Vocative(const Speech& s) const;
  std::string CalledGender(const Speech& s) const;
  std::vector<int> CallStarts(const Speech& s) const;
  bool EndsCall(const Speech& s, int at) const;
  bool Bare(const Speech& s) const;
  std::optional<Who> OtherThan(const std::string& name, int para, int pos) const;
  std::optional<Who> Addressee(int para, int begin, int end) const;

  // What is known of one speech while the turns of a dialogue are worked out.
  struct Turn {
    std::optional<Who> who;
    std::optional<Who> addressee;  // whom it is said to, when the text says
    std::optional<Who> vocative;   // the person the speech opens by calling
    int first_para = 0;
    int last_para = 0;
    int begin = 0;  // of its first span
    bool bare = false;
    bool document = false;
    // Right after the speech before it, nothing but spaces between
    // (〃打倒波拿巴！〃〃波旁王室万世不绝！〃): a turn of the same exchange.
    bool touches_previous = false;
    // The gender of the kinship term or title the speech opens by calling
    // its listener (“爷爷，…”, – Teta, …), or empty.
    std::string called;
  };
  // Whether speech b follows speech a in one exchange: in the same or the
  // next paragraph, neither a document.
  static bool Continues(const std::vector<Turn>& turns, size_t a, size_t b) {
    return !turns[a].document && !turns[b].document &&
           turns[b].first_para - turns[a].last_para <= 1;
  }
  std::optional<Who> PartnerOf(const std::vector<Turn>& turns, size_t j) const;
  std::optional<Who> AnsweredBy(const std::vector<Turn>& turns, size_t k) const;
  std::optional<Who> RecentOther(const std::vector<Turn>& turns, size_t k,
                                 const std::string& name) const;
  // One gender per person: the name book's, else what the verbs, pronouns
  // and terms of address that point at them agree on, else the likely one.
  void Genders(std::vector<Turn>* turns);
  void VotePronouns();
  void Vote(const std::string& name, const std::string& gender, const char* by);

  const std::vector<Para>& paras_;
  const Rules& rules_;
  const LanguageProfile& language_;
  const NameBook& names_;
  const bool words_;
  std::vector<std::vector<bool>> in_speech_;
  std::vector<int> terminals_before_;  // sentence ends in the paragraphs before each
  std::vector<Candidate> candidates_;
  std::unordered_map<char32_t, std::vector<uint32_t>> starting_with_;  // into candidates_
  std::set<std::u32string> titles_;  // every form of rules_.titles
  // What points at each person's gender: men, women, and the kind of each
  // vote ("pronoun", "verb", "address") with its count.
  struct Votes {
    int men = 0, women = 0;
    std::map<std::string, int> by;
  };
  std::map<std::string, Votes> votes_;
  std::vector<Mention> mentions_;   // in text order
  std::vector<size_t> para_first_;  // per paragraph (and one past the last): its first mention
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
            m.guessed = false;
            m.oblique = names_.oblique.count(w) > 0;
          }
        } else if (c.kind == Candidate::kGroup) {
          if (w.size() == best && Matches(c, t, i)) {
            m.group = true;  // a group noun in the cast keeps its cast name
          } else if (w.size() > best && Matches(c, t, i)) {
            best = w.size();
            // One group, however it is written: 士兵们 and 这些士兵 are 士兵, when
            // the noun is a group word itself (孩子们 stays: 孩子 is one child).
            const std::u32string& suffix = language_.group_suffix;
            const bool plural = !suffix.empty() && w.size() > suffix.size() + 1 &&
                                w.compare(w.size() - suffix.size(), suffix.size(), suffix) == 0 &&
                                rules_.groups.count(w.substr(0, w.size() - suffix.size()));
            m.name = ToUtf8(plural ? w.substr(0, w.size() - suffix.size()) : w);
            m.group = true;
            m.gender = "";
            m.oblique = false;
          }
        } else if (w.size() > best && Matches(c, t, i)) {
          best = w.size();
          m.pronoun = true;
          m.gender = *c.detail;
          m.group = *c.detail == "p";
          m.oblique = false;
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
      // A person noun with the plural suffix is a group (孩子们).
      const std::u32string& suffix = language_.group_suffix;
      if (!words_ && !m.group && !m.pronoun && !suffix.empty() &&
          t.compare(m.end, suffix.size(), suffix) == 0) {
        m.end += static_cast<int>(suffix.size());
        m.name = ToUtf8(t, m.begin, m.end);
        m.group = true;
        m.gender.clear();
        m.guessed = false;
      }
      m.sentence = sentence;
      m.sentence_initial = first_in_sentence;
      first_in_sentence = false;
      // A title before a name is that person (pán Hudec, pani Nováková,
      // teta Mária, 护士小林), in the name's case and the title's gender if the name
      // has none.
      if (!mentions_.empty() && !m.pronoun && !m.group && !m.name.empty()) {
        Mention& prev = mentions_.back();
        const bool next_to =
            words_ ? prev.end + 1 == m.begin && IsSpace(t[prev.end]) : prev.end == m.begin;
        if (prev.para == m.para && next_to && !prev.pronoun && !prev.group &&
            IsTitle(t.substr(prev.begin, prev.end - prev.begin)) &&
            !IsTitle(t.substr(m.begin, m.end - m.begin))) {
          prev.name = m.name;
          if (!m.gender.empty()) prev.gender = m.gender;
          prev.guessed = m.guessed;
          prev.oblique = prev.oblique || m.oblique;
          prev.end = m.end;
          i = m.end;
          continue;
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
          if (prev.members.empty()) prev.members.push_back(prev.name);
          prev.members.push_back(m.name);
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
  para_first_.assign(paras_.size() + 1, mentions_.size());
  for (size_t k = mentions_.size(); k-- > 0;) para_first_[mentions_[k].para] = k;
  for (size_t p = paras_.size(); p-- > 0;)
    para_first_[p] = std::min(para_first_[p], para_first_[p + 1]);
  // Genders before pronouns, so that each pronoun goes to a person of its
  // gender: the name book's, else what the pronouns that open a clause after
  // only that person say, else what the name's shape makes likely.
  VotePronouns();
  for (Mention& m : mentions_) {
    if (!m.pronoun && !m.group && m.gender.empty()) m.gender = GenderOf(m.name);
  }
  for (Mention& m : mentions_) {
    if (!m.pronoun) continue;
    // A pronoun inside a clause is not that clause's subject (陈大夫对她笑了笑):
    // it points back past the clause.
    int pos = m.begin;
    if (!OpensClause(m.para, m.begin)) {
      const std::u32string& t = paras_[m.para].text;
      while (pos > 0 && !IsClauseEnd(t[pos - 1]) && !in_speech_[m.para][pos - 1]) --pos;
    }
    m.pronoun_gender = m.gender;
    auto who = Resolve(m.gender, m.sentence, m.para, pos);
    if (!who) continue;
    m.name = who->name;
    if (!who->gender.empty() || m.gender == "p") m.gender = who->gender;
    m.group = who->group;
  }
}

// A pronoun that opens a clause, when only one person opening a clause is
// named before it in its sentence and no other person stands between them
// (老孙进来，她笑了; not 他跟着女儿梁晓雯，她…), says that person's gender; a
// pronoun further on in a clause is rarely its subject (王老师看了他一眼).
void Attributor::VotePronouns() {
  for (size_t k = 0; k < mentions_.size(); ++k) {
    const Mention& m = mentions_[k];
    if (!m.pronoun || !OpensClause(m.para, m.begin)) continue;
    std::set<std::string> named, between;
    for (size_t b = k; b-- > 0 && mentions_[b].sentence == m.sentence;) {
      const Mention& o = mentions_[b];
      if (o.pronoun) continue;
      if (OpensClause(o.para, o.begin)) {
        named.insert(o.name);
      } else if (named.empty()) {
        between.insert(o.name);
      }
    }
    if (named.size() == 1 && (between.empty() || between == named)) {
      Vote(*named.begin(), m.gender, "pronoun");
      continue;
    }
    if (!named.empty()) continue;
    // Named first in its sentence, after a sentence of narration whose
    // clauses open with one person only and no speech between them
    // (许建国没笑。他放下自己的竿), the pronoun says that person's gender too,
    // unless that sentence has a pronoun of this gender of its own
    // (老孙看了看她。她…).
    if (k == 0) continue;
    const Mention& before = mentions_[k - 1];
    // The sentence before (a paragraph's start counts as one).
    if (before.sentence < m.sentence - 2 ||
        !SpeechFreeBetween(before.para, before.end, m.para, m.begin)) {
      continue;
    }
    size_t first = k - 1;
    while (first > 0 && mentions_[first - 1].sentence == before.sentence) --first;
    bool own_pronoun = false;
    for (size_t b = first; b < k; ++b) {
      const Mention& o = mentions_[b];
      if (o.pronoun) {
        own_pronoun |= o.gender == m.gender;
      } else if (OpensClause(o.para, o.begin)) {
        named.insert(o.name);
      }
    }
    if (named.size() == 1 && !own_pronoun) Vote(*named.begin(), m.gender, "pronoun");
  }
}

void Attributor::Vote(const std::string& name, const std::string& gender, const char* by) {
  if (name.empty() || names_.gender.count(name) || (gender != "m" && gender != "f")) return;
  Votes& v = votes_[name];
  ++(gender == "m" ? v.men : v.women);
  ++v.by[by];
}

std::string Attributor::GenderOf(const std::string& name, std::string* evidence) const {
  std::string unused;
  std::string& why = evidence != nullptr ? *evidence : unused;
  if (auto known = names_.gender.find(name); known != names_.gender.end()) {
    why = names_.discovered.count(name) ? "title" : "cast";
    return known->second;
  }
  if (auto v = votes_.find(name); v != votes_.end() && v->second.men != v->second.women) {
    int most = 0;
    for (const auto& [by, count] : v->second.by) {
      if (count > most) most = count, why = by;
    }
    return v->second.men > v->second.women ? "m" : "f";
  }
  why = "name";
  if (auto likely = names_.likely_gender.find(name); likely != names_.likely_gender.end())
    return likely->second;
  // A capitalized name by its ending (Natália, Lehotská; Matej).
  const std::u32string written = ToU32(name);
  if (!written.empty() && IsUpper(written[0]) && written.find(U' ') == std::u32string::npos) {
    for (const auto& [ending, gender] : rules_.gender_endings) {
      if (written.size() > ending.size() &&
          written.compare(written.size() - ending.size(), ending.size(), ending) == 0) {
        return gender;
      }
    }
  }
  why.clear();
  return "";
}

bool Fits(const Mention& m, const std::string& gender) {
  if (m.name.empty()) return false;
  if (gender == "p") return m.group;
  if (m.group) return false;
  return m.gender.empty() || gender.empty() || m.gender == gender;
}

std::optional<Who> Attributor::Resolve(const std::string& gender, int sentence, int para, int pos,
                                       const std::string& other_than) const {
  // The same sentence first, then the subjects of the last few sentences, then
  // anyone in them, then the subjects of earlier sentences, then anyone.
  const int kWindow = 3;  // sentences
  for (int pass = 0; pass < 5; ++pass) {
    for (size_t k = MentionsUpTo(para); k-- > 0;) {
      const Mention* it = &mentions_[k];
      if (std::make_pair(it->para, it->begin) >= std::make_pair(para, pos)) continue;
      if (pass == 0 && it->sentence != sentence) break;
      if (!other_than.empty() && it->name == other_than) continue;
      if ((pass == 1 || pass == 2) && it->sentence < sentence - kWindow) break;
      if ((pass == 1 || pass == 3) && !it->sentence_initial) continue;
      // 他 after 陈大夫和小林: the one of them of his gender.
      if (it->group && (gender == "m" || gender == "f") && it->members.size() > 1) {
        std::vector<std::string> fit;
        for (const std::string& member : it->members) {
          const std::string g = GenderOf(member);
          if (g.empty() || g == gender) fit.push_back(member);
        }
        if (fit.size() == 1) {
          Who who{fit[0], gender, false, Evidence::kPronoun};
          who.says_gender = GenderOf(fit[0]).empty();
          return who;
        }
      }
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
    for (const Mention& m : MentionsIn(para)) {
      if (m.begin < start || m.end > clause_end || m.name.empty()) continue;
      if (receive_at >= 0) {
        if (m.begin >= receive_at) return WhoOf(m, From(m, Evidence::kVerbBefore));
        continue;
      }
      if (!words_ && m.end < static_cast<int>(t.size()) && t[m.end] == U'的') continue;
      if (m.oblique || EndsWithAny(t, m.begin, rules_.objects)) continue;
      // Where words are not delimited, a clause before the verb's speaks of
      // its speaker only by opening with them (女孩坐了过去，接过周阿姨…的干毛巾，
      // 低声说: 女孩).
      if (!words_ && round > 0 && !OpensClause(para, m.begin)) continue;
      if (verb_at >= 0 && m.end <= verb_at) {
        before_verb = WhoOf(m, From(m, Evidence::kVerbBefore));
      } else if (!first) {
        first = WhoOf(m, From(m, Evidence::kVerbAfter));
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
      for (int i = start; i < e; ++i) {
        han &= (IsHan(ct[i]) || ct[i] == U'·') && !rules_.particles.count(ct[i]);
      }
      if (han && e - start >= 2 && e - start <= 5 &&
          !rules_.not_names.count(ct.substr(start, e - start))) {
        return Who{ToUtf8(ct, start, e), "", false, Evidence::kGuessBefore};
      }
    }
  }
  return who;
}

std::optional<Who> Attributor::After(const Speech& s, std::optional<Who>* addressee) const {
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
  for (const Mention& m : MentionsIn(from->para)) {
    if (m.begin < a || m.end > e || m.name.empty()) continue;
    // Povedal Ondrejovi: the one spoken to. Povedala with a man: not him.
    const bool disagrees = (g == "m" || g == "f") && (m.gender == "m" || m.gender == "f") &&
                           m.gender != g && !m.pronoun;
    const bool spoken_to = m.oblique || EndsWithAny(t, m.begin, rules_.objects);
    if (spoken_to || disagrees) {
      if (!*addressee && spoken_to)
        *addressee = Who{m.name, m.gender, m.group, Evidence::kAddressee};
      continue;
    }
    const bool by_verb = m.gender.empty() && (g == "m" || g == "f");
    // "povedalo dievča a sprievodca sa zasmial": a verb in the singular
    // speaks for the one next to it, not for a pair joined after it.
    if (words_ && g != "p" && m.members.size() > 1) {
      Who who{m.members.front(), GenderOf(m.members.front()), false, Evidence::kVerbAfter};
      if (who.gender.empty() && (g == "m" || g == "f")) {
        who.gender = g;
        who.says_gender = true;
      }
      return who;
    }
    Who who = WhoOf(m, From(m, Evidence::kVerbAfter));
    if (by_verb) {
      who.gender = g;
      who.says_gender = true;
    }
    return who;
  }
  if (words_) {
    // "odpovedal Napoleon": a capitalized word after the verb.
    int i = at;
    while (i < e && IsLetter(t[i])) ++i;
    while (i < e && IsSpace(t[i])) ++i;
    int j = i;
    while (j < e && IsLetter(t[j])) ++j;
    const bool named_oblique = j > i && names_.oblique.count(t.substr(i, j - i)) > 0;
    if (j > i && IsUpper(t[i]) && !named_oblique) {
      const std::string name = ToUtf8(t, i, j);
      auto alias = names_.alias_to_name.find(t.substr(i, j - i));
      if (alias != names_.alias_to_name.end()) {
        auto gg = names_.gender.find(alias->second);
        const bool by_verb = gg == names_.gender.end() && (g == "m" || g == "f");
        return Who{alias->second,
                   by_verb                     ? g
                   : gg == names_.gender.end() ? ""
                                               : gg->second,
                   false, Evidence::kVerbAfter, by_verb};
      }
      return Who{name, g == "p" ? "" : g, g == "p",
                 g == "p" ? Evidence::kGroup : Evidence::kGuessAfter, g == "m" || g == "f"};
    }
    if (!g.empty()) return Resolve(g, SentenceAt(from->para, a), from->para, a);
  }
  return std::nullopt;
}

// The subject of a stretch of narration: the first person named in it who is
// not spoken to or about (对小刘, k Hudcovi, Ondrejovi, 老赵的).
std::optional<Who> Attributor::SubjectIn(int para, int begin, int end) const {
  const std::u32string& t = paras_[para].text;
  // A clause that opens with a word like keď or 当 is said of the main
  // clause's subject (Kým predavačka krájala, Peter si…: Peter).
  auto subordinate = [&](int at) {
    int c = at;
    while (c > begin && !IsClauseEnd(t[c - 1])) --c;
    while (c < at && (IsSpace(t[c]) || !IsLetter(t[c]))) ++c;
    for (const std::u32string& w : rules_.subordinators) {
      if (WordAt(t, c, w) || (words_ && WordAt(t, c, Capital(w)))) return true;
    }
    return false;
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (const Mention& m : MentionsIn(para)) {
      if (m.begin < begin || m.end > end || m.name.empty()) continue;
      if (m.oblique || EndsWithAny(t, m.begin, rules_.objects)) continue;
      if (pass == 0 && subordinate(m.begin)) continue;
      // 老赵的女儿 is 女儿; but a clause that opens with X's eyes or hands
      // (小杜的眼睛一下子瞪圆了) is X acting.
      if (!words_ && m.end < static_cast<int>(t.size()) && t[m.end] == U'的') {
        bool person_after = false;
        for (const Mention& o : MentionsIn(para)) person_after |= o.begin == m.end + 1;
        if (person_after || !OpensClause(para, m.begin)) continue;
      }
      return WhoOf(m, m.group ? Evidence::kGroup : Evidence::kContext);
    }
  }
  return std::nullopt;
}

// A speech with no verb of saying: the one who acts in the narration of its
// paragraph, in the sentence right before it (老太太凑过来看了一眼：「…」,
// Dievča sa usmialo. „…“), else in the narration right after its first part
// (「…」老太太赶紧握住他的手。, – Trochu viac? – Doktorka zdvihla obočie.).
std::optional<Who> Attributor::Context(const Speech& s) const {
  const Span& first = s.spans.front();
  const int para = first.para;
  const std::u32string& t = paras_[para].text;
  const std::vector<bool>& speech = in_speech_[para];
  int end = first.begin;
  while (end > 0 && (IsSpace(t[end - 1]) || IsDash(t[end - 1]))) --end;
  if (end > 0 && !speech[end - 1]) {
    int start = end - 1;
    while (start > 0 && !speech[start - 1] && !IsTerminal(t[start - 1])) --start;
    if (auto who = SubjectIn(para, start, end)) return who;
    // A sentence whose first clause has a past tense but names no subject
    // says its subject's gender (Vstala, hodila na seba župan…: a woman;
    // Chvíľu mlčal, potom…: a man): the last person of it.
    bool past = false;
    for (int w = start; w < end && !IsClauseEnd(t[w]) && !past;) {
      if (!IsLetter(t[w])) {
        ++w;
        continue;
      }
      int e = w;
      while (e < end && IsLetter(t[e])) ++e;
      for (const auto& [ending, gender] : rules_.past_endings) {
        const int n = static_cast<int>(ending.size());
        if (e - w < n + 2 || t.compare(e - n, n, ending) != 0) continue;
        past = true;
        if (gender != "m" && gender != "f") break;
        auto who = Resolve(gender, SentenceAt(para, w), para, w);
        if (who && !who->group) {
          who->evidence = Evidence::kContext;
          return who;
        }
        break;
      }
      w = e;
    }
  }
  const int n = static_cast<int>(t.size());
  int start = first.end;
  while (start < n && (IsSpace(t[start]) || IsDash(t[start]) || IsTerminal(t[start]))) ++start;
  int stop = start;
  while (stop < n && !speech[stop] && !IsTerminal(t[stop])) ++stop;
  if (stop > start) return SubjectIn(para, start, stop);
  return std::nullopt;
}

// The one who acts last in a paragraph of narration: the subject of its last
// sentence that names one.
std::optional<Who> Attributor::LastSubject(int para) const {
  const std::u32string& t = paras_[para].text;
  int end = static_cast<int>(t.size());
  while (end > 0) {
    int start = end - 1;
    while (start > 0 && !IsTerminal(t[start - 1])) --start;
    if (auto who = SubjectIn(para, start, end)) return who;
    end = start;
  }
  return std::nullopt;
}

// Where a speech may call someone by name (“奶奶，…”, – Dedo, veď…, „Ale
// kdeže, pani Hrušková, to by som…“, „Tak vidíš, Peter.“): the first letter
// of its first part and each letter right after a comma there.
std::vector<int> Attributor::CallStarts(const Speech& s) const {
  const Span& first = s.spans.front();
  const std::u32string& t = paras_[first.para].text;
  std::vector<int> starts;
  bool opening = true;
  for (int i = first.begin; i < first.end; ++i) {
    if (t[i] == U'，' || t[i] == U',') {
      opening = true;
    } else if (IsLetter(t[i])) {
      if (opening) starts.push_back(i);
      opening = false;
    } else if (!IsSpace(t[i]) && !IsDash(t[i]) && i > first.begin) {
      opening = false;
    }
  }
  return starts;
}

// Whether a call ends at `at`: a comma, a sentence mark, or the speech's end.
bool Attributor::EndsCall(const Speech& s, int at) const {
  const Span& first = s.spans.front();
  const std::u32string& t = paras_[first.para].text;
  return at >= first.end || !IsLetter(t[at]);
}

// The person of the book a speech calls by name, a title before the name
// allowed (Pani Horváthová).
std::optional<Who> Attributor::Vocative(const Speech& s) const {
  const std::u32string& t = paras_[s.spans.front().para].text;
  const int end = s.spans.front().end;
  for (int i : CallStarts(s)) {
    for (int attempt = 0; attempt < 2 && i < end; ++attempt) {
      size_t best = 0;
      const std::string* name = nullptr;
      const auto starting = starting_with_.find(t[i]);
      if (starting != starting_with_.end()) {
        for (uint32_t k : starting->second) {
          const Candidate& c = candidates_[k];
          if (c.kind == Candidate::kAlias && c.word->size() > best && WordAt(t, i, *c.word)) {
            best = c.word->size();
            name = c.detail;
          }
        }
      }
      if (name != nullptr && EndsCall(s, i + static_cast<int>(best))) {
        auto g = names_.gender.find(*name);
        return Who{*name, g == names_.gender.end() ? "" : g->second, false, Evidence::kVocative};
      }
      if (!words_) break;
      int e = i;
      while (e < end && IsLetter(t[e])) ++e;
      // titles_ holds the capitalized forms too (Pani).
      if (!IsTitle(t.substr(i, e - i)) || e >= end || !IsSpace(t[e])) break;
      i = e + 1;
    }
  }
  return std::nullopt;
}

// The gender of a kinship term or title a speech calls its listener by
// (“爷爷，…”, „…, mami?“), or empty.
std::string Attributor::CalledGender(const Speech& s) const {
  const std::u32string& t = paras_[s.spans.front().para].text;
  for (int i : CallStarts(s)) {
    for (const auto* table : {&rules_.kin, &rules_.titles}) {
      for (const auto& [word, gender] : *table) {
        if (gender.empty() || gender == "p") continue;
        const bool here = WordAt(t, i, word) || (words_ && WordAt(t, i, Capital(word)));
        if (here && EndsCall(s, i + static_cast<int>(word.size()))) return gender;
      }
    }
  }
  return "";
}

// Whether nothing but speech is in the paragraphs of a speech.
bool Attributor::Bare(const Speech& s) const {
  for (int p = s.spans.front().para; p <= s.spans.back().para; ++p) {
    const std::u32string& t = paras_[p].text;
    for (size_t i = 0; i < t.size(); ++i) {
      if (!in_speech_[p][i] && (IsLetter(t[i]) || IsHan(t[i]))) return false;
    }
  }
  return true;
}

std::optional<Who> Attributor::Addressee(int para, int begin, int end) const {
  const std::u32string& t = paras_[para].text;
  for (const Mention& m : MentionsIn(para)) {
    if (m.begin >= begin && m.end <= end && !m.name.empty() &&
        EndsWithAny(t, m.begin, rules_.objects)) {
      return Who{m.name, m.gender, m.group, Evidence::kAddressee};
    }
  }
  return std::nullopt;
}

std::optional<Who> Attributor::OtherThan(const std::string& name, int para, int pos) const {
  for (size_t k = MentionsUpTo(para); k-- > 0;) {
    const Mention* it = &mentions_[k];
    if (std::make_pair(it->para, it->begin) >= std::make_pair(para, pos)) continue;
    if (!it->name.empty() && it->name != name && !it->group) {
      return Who{it->name, it->gender, false, Evidence::kAlternation};
    }
    // Of two named together (老赵和李太太), the one who is not `name`.
    if (it->members.size() == 2 && (it->members[0] == name || it->members[1] == name)) {
      const std::string& other = it->members[0] == name ? it->members[1] : it->members[0];
      return Who{other, GenderOf(other), false, Evidence::kAlternation};
    }
  }
  return std::nullopt;
}

// The other party of speech j's exchange: whom it was said to, else someone
// else named in its paragraph before it, else the speaker of the speech
// before it, else of the first one after it, else someone recent.
std::optional<Who> Attributor::PartnerOf(const std::vector<Turn>& turns, size_t j) const {
  const Who& a = *turns[j].who;
  // Whom it, or an earlier part of its paragraph, was said to (“建国，趁热喝。”
  // 她盛了一碗，“你这两天不能沾油。”).
  for (size_t p = j + 1; p-- > 0 && turns[p].first_para == turns[j].first_para;) {
    if (turns[p].addressee && turns[p].addressee->name != a.name) return turns[p].addressee;
  }
  // Someone else the narration of its paragraph names before it (于是，麦克唐纳
  // 去了枫丹白露宫。他一进房间，拿破仑就迎上来说：“…”).
  const Mentions here = MentionsIn(turns[j].first_para);
  for (const Mention* it = here.last; it-- != here.first;) {
    if (it->begin >= turns[j].begin) continue;
    if (!it->name.empty() && !it->group && it->name != a.name) {
      return Who{it->name, it->gender, false, Evidence::kAlternation};
    }
  }
  if (j > 0 && Continues(turns, j - 1, j) && turns[j - 1].who && turns[j - 1].who->name != a.name)
    return turns[j - 1].who;
  // Up to the first speech with narration of its own, which may bring in
  // someone new: a speaker an odd number of turns on answers A; one an even
  // number on is A again, however named.
  for (size_t m = j + 1; m < turns.size() && Continues(turns, m - 1, m); ++m) {
    if (turns[m].who && turns[m].who->name != a.name && (m - j) % 2 == 1) return turns[m].who;
    if (!turns[m].bare) break;
  }
  if (a.group) return std::nullopt;
  return RecentOther(turns, j, a.name);
}

// Someone other than `name` for the turn of speech k: the last one who spoke
// before it in the chapter's last few paragraphs, else the last person named.
std::optional<Who> Attributor::RecentOther(const std::vector<Turn>& turns, size_t k,
                                           const std::string& name) const {
  const int kParagraphs = 8;
  for (size_t b = k; b-- > 0 && turns[b].last_para >= turns[k].first_para - kParagraphs;) {
    if (turns[b].who && !turns[b].who->group && turns[b].who->name != name) {
      Who who = *turns[b].who;
      who.says_gender = false;
      return who;
    }
  }
  return OtherThan(name, turns[k].first_para, turns[k].begin);
}

// Who said speech k, which speech k + 1 answers: the one k + 1 is said to,
// else the speaker of the speech after that one, else the last other person
// named before k.
std::optional<Who> Attributor::AnsweredBy(const std::vector<Turn>& turns, size_t k) const {
  const Who& b = *turns[k + 1].who;
  if (turns[k + 1].addressee && turns[k + 1].addressee->name != b.name)
    return turns[k + 1].addressee;
  if (k + 2 < turns.size() && Continues(turns, k + 1, k + 2) && turns[k + 2].who &&
      turns[k + 2].who->name != b.name) {
    return turns[k + 2].who;
  }
  if (b.group) return std::nullopt;
  return RecentOther(turns, k, b.name);
}

// The genders of the speakers: what the verbs, pronouns and terms of address
// of the turns vote, then GenderOf for each.
void Attributor::Genders(std::vector<Turn>* turns) {
  for (const Turn& turn : *turns) {
    if (turn.who && !turn.who->group && turn.who->says_gender) {
      Vote(turn.who->name, turn.who->gender, turn.who->pronoun_gender.empty() ? "verb" : "pronoun");
    }
  }
  // The one spoken to, called by a kinship term or title (向老赵问道：“爷爷，…”,
  // “怎么了，大爷？”小周问): that term's gender.
  for (const Turn& turn : *turns) {
    if (turn.called.empty() || !turn.who || !turn.addressee || turn.addressee->group) continue;
    if (turn.addressee->name != turn.who->name) Vote(turn.addressee->name, turn.called, "address");
  }
  for (Turn& turn : *turns) {
    if (!turn.who || turn.who->group) continue;
    const std::string gender = GenderOf(turn.who->name);
    if (!gender.empty()) {
      turn.who->gender = gender;
    } else if (turn.who->gender.empty()) {
      turn.who->gender = SpokenGender(turn.who->name);
    }
  }
}

void Attributor::Run(std::vector<Speech>* speeches) {
  const size_t n = speeches->size();
  std::vector<Turn> turns(n);
  // What each speech's own paragraph says of its speaker.
  for (size_t k = 0; k < n; ++k) {
    Speech& s = (*speeches)[k];
    Turn& turn = turns[k];
    turn.first_para = s.spans.front().para;
    turn.last_para = s.spans.back().para;
    turn.begin = s.spans.front().begin;
    turn.bare = Bare(s);
    bool document = s.document;
    int context_para = -1, context_end = -1;
    turn.who = Before(s, &document, &context_para, &context_end);
    s.document = turn.document = document;
    if (context_para >= 0) {
      const std::u32string& ct = paras_[context_para].text;
      int start = context_end;
      while (start > 0 && !IsTerminal(ct[start - 1])) --start;
      turn.addressee = Addressee(context_para, start, context_end);
    }
    if (k > 0) {
      const Span& a = (*speeches)[k - 1].spans.back();
      const Span& b = s.spans.front();
      turn.touches_previous = a.para == b.para && a.end <= b.begin;
      for (int i = a.end; turn.touches_previous && i < b.begin; ++i) {
        turn.touches_previous = IsSpace(paras_[b.para].text[i]);
      }
    }
    if (s.document) continue;
    if (!turn.who) turn.who = After(s, &turn.addressee);
    if (!turn.who && !turn.touches_previous) turn.who = Context(s);
    // A speech alone in its paragraph after a paragraph of narration: the
    // one who acted there.
    if (!turn.who && turn.bare && turn.first_para > 0 &&
        (k == 0 || turns[k - 1].last_para < turn.first_para - 1)) {
      turn.who = LastSubject(turn.first_para - 1);
      // Not both of two people named together (老赵和李太太站在摊前): one of them.
      if (turn.who && turn.who->mention >= 0 && mentions_[turn.who->mention].members.size() > 1)
        turn.who.reset();
    }
    turn.vocative = Vocative(s);
    turn.called = CalledGender(s);
    if (!turn.addressee) turn.addressee = turn.vocative;
    if (turn.who && turn.vocative && turn.who->name == turn.vocative->name) turn.who.reset();
  }
  // A pronoun names the one whose turn it is: “…”他说 right after another
  // paragraph's speech of the person it was resolved to is the other party's,
  // when the other party may be of its gender.
  for (size_t k = 1; k < n; ++k) {
    std::optional<Who>& who = turns[k].who;
    const std::optional<Who>& before = turns[k - 1].who;
    if (!who || who->pronoun_gender.empty() || who->group || !before ||
        who->para < turns[k].first_para || who->para > turns[k].last_para ||
        before->name != who->name || turns[k - 1].last_para == turns[k].first_para ||
        !Continues(turns, k - 1, k)) {
      continue;
    }
    // Unless its paragraph names the person before the speech (拿破仑巡视…。
    // 他告诉他们：“…”).
    bool named_before = false;
    for (const Mention& m : MentionsIn(turns[k].first_para)) {
      named_before |= m.begin < turns[k].begin && !m.pronoun && m.name == who->name;
    }
    if (named_before) continue;
    // Whom else the pronoun may point at, else the other party.
    std::optional<Who> other =
        Resolve(who->pronoun_gender, SentenceAt(turns[k].first_para, turns[k].begin),
                turns[k].first_para, turns[k].begin, who->name);
    if (!other || other->group) {
      other = PartnerOf(turns, k - 1);
      const std::string g = other ? GenderOf(other->name) : "";
      if (!other || other->group || other->name == who->name ||
          (!g.empty() && g != who->pronoun_gender)) {
        continue;
      }
    }
    other->evidence = Evidence::kPronoun;
    other->pronoun_gender = who->pronoun_gender;
    other->says_gender = GenderOf(other->name).empty();
    if (other->says_gender) other->gender = who->pronoun_gender;
    other->para = who->para;
    other->mention = who->mention;
    // Every part of the speech the same pronoun names (“退了，”她说，“谢谢您。”).
    const int pronoun = who->mention;
    for (Turn& t : turns) {
      if (t.who && pronoun >= 0 && t.who->mention == pronoun) t.who = other;
    }
    who = other;
  }
  // Turns of an exchange alternate: a speech nothing names the speaker of is
  // the other party's of the speech before it, or of the one after it.
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (size_t k = 1; k < n; ++k) {
      if (turns[k].who || turns[k].document || !Continues(turns, k - 1, k)) continue;
      // Whoever said the speech before, the one it called answers it (– Adam,
      // vstávaj. / – Čo je? – zamrmlal.).
      const std::optional<Who>& called_before = turns[k - 1].addressee;
      if (!turns[k - 1].who) {
        if (!called_before || called_before->group ||
            turns[k - 1].last_para == turns[k].first_para ||
            (turns[k].vocative && turns[k].vocative->name == called_before->name)) {
          continue;
        }
        turns[k].who = called_before;
        turns[k].who->evidence = Evidence::kAlternation;
        changed = true;
        continue;
      }
      // A crowd's cries one after another are the crowd's.
      std::optional<Who> who = turns[k].touches_previous && turns[k - 1].who->group
                                   ? turns[k - 1].who
                                   : PartnerOf(turns, k - 1);
      if (!who || (turns[k].vocative && turns[k].vocative->name == who->name)) continue;
      const bool called = turns[k].vocative && turns[k].vocative->name == turns[k - 1].who->name;
      who->evidence = called ? Evidence::kVocative : Evidence::kAlternation;
      turns[k].who = who;
      changed = true;
    }
    for (size_t k = n < 2 ? 0 : n - 1; k-- > 0;) {
      if (turns[k].who || turns[k].document || !Continues(turns, k, k + 1) || !turns[k + 1].who)
        continue;
      std::optional<Who> who = AnsweredBy(turns, k);
      if (!who || (turns[k].vocative && turns[k].vocative->name == who->name)) continue;
      who->evidence = Evidence::kAlternation;
      turns[k].who = who;
      changed = true;
    }
    if (!changed) break;
  }
  Genders(&turns);
  for (size_t k = 0; k < n; ++k) {
    Speech& s = (*speeches)[k];
    const std::optional<Who>& who = turns[k].who;
    if (!who || s.document) continue;
    s.speaker = who->name;
    s.gender = who->gender;
    s.group = who->group;
    s.attributed = true;
    s.evidence = who->evidence;
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
               std::vector<Speech>* speeches, std::map<std::string, GenderFound>* genders) {
  Attributor attributor(paras, rules, names, *speeches);
  attributor.Run(speeches);
  if (genders == nullptr) return;
  for (const Speech& s : *speeches) {
    if (!s.attributed || s.group || genders->count(s.speaker)) continue;
    GenderFound found;
    found.gender = attributor.SpokenGender(s.speaker, &found.evidence);
    if (!found.gender.empty()) (*genders)[s.speaker] = found;
  }
}

}  // namespace markup_internal
}  // namespace narrate
