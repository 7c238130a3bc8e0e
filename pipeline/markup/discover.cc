// DiscoverPeople: the people a book's narration names, found from its own
// text with the shapes of names.tsv (Chinese) or the declensions and role
// nouns of names.tsv (Slovak), so that attribution knows them as it knows a
// cast. Pure; thread-safe.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

#include <unicode/uchar.h>

#include "internal.h"

namespace narrate {
namespace markup_internal {
namespace {

bool StartsWith(const std::u32string& s, const std::u32string& w) {
  return s.size() >= w.size() && s.compare(0, w.size(), w) == 0;
}

bool EndsWith(const std::u32string& s, const std::u32string& w) {
  return s.size() >= w.size() && s.compare(s.size() - w.size(), w.size(), w) == 0;
}

// The length of the surname `s` starts with, 0 if none.
size_t SurnameAt(const std::u32string& s, const Rules& rules) {
  // The longest that starts s (欧阳 before 欧).
  for (size_t n = std::min(s.size(), rules.longest_surname); n > 0; --n) {
    if (rules.surnames.count(s.substr(0, n))) return n;
  }
  return 0;
}

// The gender of the kinship or role noun that ends right before `at`
// (女儿梁晓雯: f; "" for one of no gender), or null if none does.
const std::string* KinEndingAt(const std::u32string& t, size_t at, const Rules& rules) {
  for (const auto& [noun, gender] : rules.kin) {
    if (noun.size() <= at && t.compare(at - noun.size(), noun.size(), noun) == 0) return &gender;
  }
  return nullptr;
}

// How sure a phrase is a person's name.
enum class Shape { kNone, kGiven, kTitled };

// Whether `s` is shaped like a person: a kinship term (奶奶), a title alone
// or after a surname (大夫, 陈大夫), a prefix and a surname (老赵), or a
// surname and a given name of one or two characters (王芳, 李晓梅; weaker).
Shape ShapeOf(const std::u32string& s, const Rules& rules, std::string* gender) {
  if (s.empty()) return Shape::kNone;
  // Nor a phrase that starts with a word that is no name (于是他, 于是一).
  for (size_t n = 2; n <= s.size(); ++n) {
    if (rules.not_names.count(s.substr(0, n))) return Shape::kNone;
  }
  if (auto k = rules.kin.find(s); k != rules.kin.end()) {
    *gender = k->second;
    return Shape::kTitled;
  }
  for (const auto& [title, g] : rules.titles) {
    if (!EndsWith(s, title)) continue;
    const std::u32string rest = s.substr(0, s.size() - title.size());
    if (rest.empty() || SurnameAt(rest, rules) == rest.size()) {
      *gender = g;
      return Shape::kTitled;
    }
  }
  for (const std::u32string& prefix : rules.name_prefixes) {
    if (s.size() > prefix.size() && StartsWith(s, prefix) &&
        SurnameAt(s.substr(prefix.size()), rules) + prefix.size() == s.size()) {
      return Shape::kTitled;
    }
  }
  // A given name holds no particle nor speech verb (方说道 is no 方 with a
  // given name).
  const size_t surname = SurnameAt(s, rules);
  if (surname > 0 && s.size() > surname && s.size() <= surname + 2 &&
      !rules.places.count(s.back())) {
    bool plain = true;
    for (size_t i = surname; i < s.size(); ++i) {
      plain &= !rules.particles.count(s[i]) && !rules.pronouns.count(s.substr(i, 1));
    }
    const int n = static_cast<int>(s.size());
    if (plain && !FindVerb(s, static_cast<int>(surname), n, rules, nullptr, nullptr)) {
      return Shape::kGiven;
    }
  }
  return Shape::kNone;
}

// The surname of a titled shape (刘 of 刘师傅 and 老刘), or empty.
std::u32string SurnameOfTitled(const std::u32string& s, const Rules& rules) {
  for (const auto& [title, g] : rules.titles) {
    if (s.size() <= title.size() || !EndsWith(s, title)) continue;
    const std::u32string rest = s.substr(0, s.size() - title.size());
    if (SurnameAt(rest, rules) == rest.size()) return rest;
  }
  for (const std::u32string& prefix : rules.name_prefixes) {
    if (s.size() <= prefix.size() || !StartsWith(s, prefix)) continue;
    const std::u32string rest = s.substr(prefix.size());
    if (SurnameAt(rest, rules) == rest.size()) return rest;
  }
  return {};
}

// The longest person-shaped run of Han characters ending at `end` of `t`
// (from `begin` on), or empty. A surname and a given name (kGiven) only as
// the whole run: inside a longer word a surname is often just a character
// (巴黎附近 is no 黎附近).
std::u32string PersonEndingAt(const std::u32string& t, int begin, int end, const Rules& rules,
                              Shape* shape, std::string* gender) {
  int start = end;
  while (start > begin && IsHan(t[start - 1]) && end - start < 6) --start;
  for (int from = start; from < end; ++from) {
    const std::u32string s = t.substr(from, end - from);
    std::string g;
    const Shape found = ShapeOf(s, rules, &g);
    if (found == Shape::kTitled || (found == Shape::kGiven && from == start)) {
      *shape = found;
      *gender = g;
      return s;
    }
  }
  return {};
}

// The first group of each match of `pattern` in the runs of `t` that are
// speech (or narration, when `speech` is false).
std::vector<std::u32string> Matches(const std::u32string& t, const std::vector<bool>& in_speech,
                                    bool speech, const icu::RegexPattern& pattern) {
  std::vector<std::u32string> found;
  for (size_t i = 0; i < t.size();) {
    if (in_speech[i] != speech) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < t.size() && in_speech[e] == speech) ++e;
    const icu::UnicodeString run = icu::UnicodeString::fromUTF32(
        reinterpret_cast<const UChar32*>(t.data() + i), static_cast<int32_t>(e - i));
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> m(pattern.matcher(run, status));
    while (U_SUCCESS(status) && m->find(status) && m->groupCount() >= 1) {
      std::string name;
      m->group(1, status).toUTF8String(name);
      if (U_SUCCESS(status) && !name.empty()) found.push_back(ToU32(name));
    }
    i = e;
  }
  return found;
}

// The names speakers give themselves in the speech of a paragraph (我叫陈浩,
// Volám sa Nováková): the first group of each match of the introduction
// patterns, in the patterns' order.
std::vector<std::u32string> Introduced(const std::u32string& t, const std::vector<bool>& in_speech,
                                       const Rules& rules) {
  std::vector<std::u32string> found;
  for (const auto& pattern : rules.introductions) {
    for (std::u32string& name : Matches(t, in_speech, true, *pattern)) {
      found.push_back(std::move(name));
    }
  }
  return found;
}

// The names a speaker gives themselves in `said`, all of it speech.
std::vector<std::u32string> NamesGiven(const std::u32string& said, const Rules& rules) {
  return Introduced(said, std::vector<bool>(said.size(), true), rules);
}

// The run of the characters of foreign names (parts joined by ·) ending at
// `end` of `t` (from `begin` on), when it is two characters or more, or empty.
std::u32string ForeignEndingAt(const std::u32string& t, int begin, int end, const Rules& rules) {
  int start = end;
  while (start > begin && (rules.foreign.count(t[start - 1]) || t[start - 1] == U'·')) --start;
  while (start < end && t[start] == U'·') ++start;
  if (end - start < 2 || t[end - 1] == U'·') return {};
  const std::u32string name = t.substr(start, end - start);
  // Parts joined by · are a foreign name wherever they stand; other runs only
  // where a word starts (收拾东西一边问 is no 东西).
  const bool joined = name.find(U'·') != std::u32string::npos;
  const bool word_start = start == begin || !IsHan(t[start - 1]) || t[start - 1] == U'的';
  if (rules.not_names.count(name) || (!joined && !word_start)) return {};
  return name;
}

// The longest person-shaped run of Han characters starting at `begin` (the
// one spoken to, after 对); a surname and a given name only when a speech
// verb follows it at once (对王芳说), as words run on after it otherwise
// (对付拿破仑 is no 付拿破).
std::u32string PersonStartingAt(const std::u32string& t, int begin, int end, const Rules& rules,
                                Shape* shape, std::string* gender) {
  std::string verb_gender;
  int verb = -1;
  const bool spoken = FindVerb(t, begin, end, rules, &verb_gender, &verb);
  const int limit = spoken ? verb : end;
  int stop = begin;
  while (stop < limit && IsHan(t[stop]) && stop - begin < 6) ++stop;
  for (int to = stop; to > begin; --to) {
    const std::u32string s = t.substr(begin, to - begin);
    std::string g;
    const Shape found = ShapeOf(s, rules, &g);
    if (found == Shape::kTitled || (found == Shape::kGiven && spoken && to == verb)) {
      *shape = found;
      *gender = g;
      return s;
    }
  }
  return {};
}

// How often each of `words` stands in the paragraphs (one word's
// occurrences do not overlap), in one pass over the text.
std::unordered_map<std::u32string, size_t> CountEach(const std::vector<Para>& paras,
                                                     const std::set<std::u32string>& words) {
  std::unordered_map<std::u32string, size_t> counts;
  std::set<size_t> lengths;
  for (const std::u32string& w : words) {
    if (w.empty()) continue;
    counts[w] = 0;
    lengths.insert(w.size());
  }
  for (const Para& p : paras) {
    std::unordered_map<std::u32string, size_t> free_from;  // where a word's next may start
    for (size_t i = 0; i < p.text.size(); ++i) {
      for (size_t n : lengths) {
        if (i + n > p.text.size()) break;
        const std::u32string s = p.text.substr(i, n);
        const auto it = counts.find(s);
        if (it == counts.end()) continue;
        size_t& next = free_from[s];
        if (i < next) continue;
        ++it->second;
        next = i + n;
      }
    }
  }
  return counts;
}

// Where words are not delimited (Chinese): the person-shaped phrases of the
// narration (see DiscoverPeople).
void DiscoverHanNames(const std::vector<Para>& paras,
                      const std::vector<std::vector<bool>>& in_speech, const Rules& rules,
                      NameBook* names) {
  struct Found {
    Shape shape = Shape::kNone;
    std::string gender;
  };
  std::map<std::u32string, Found> found;
  auto add = [&](const std::u32string& name, Shape shape, const std::string& gender) {
    if (name.empty()) return;
    Found& f = found[name];
    if (shape > f.shape) f.shape = shape;
    if (f.gender.empty()) f.gender = gender;
  };
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    const int n = static_cast<int>(t.size());
    // Each clause of narration: the person before its speech verb, and after
    // a word that points at the one spoken to.
    for (int start = 0; start < n;) {
      int end = start;
      while (end < n && !in_speech[pi][end] && !IsClauseEnd(t[end])) ++end;
      std::string verb_gender;
      int verb = -1;
      if (end > start && FindVerb(t, start, end, rules, &verb_gender, &verb)) {
        // Words that may stand between the subject and its verb (又笑着说).
        int subject_end = verb;
        for (bool again = true; again;) {
          again = false;
          for (const std::u32string& a : rules.adverbs) {
            const int at = subject_end - static_cast<int>(a.size());
            if (at >= start && t.compare(at, a.size(), a) == 0) {
              subject_end = at;
              again = true;
            }
          }
        }
        Shape shape = Shape::kNone;
        std::string gender;
        const std::u32string subject =
            PersonEndingAt(t, start, subject_end, rules, &shape, &gender);
        add(subject, shape, gender);
        // Or the person the clause opens with, words like 然后 aside
        // (然后老赵慢慢地说).
        int open = start;
        for (bool again = true; again;) {
          again = false;
          for (const std::u32string& a : rules.adverbs) {
            if (t.compare(open, a.size(), a) == 0 && open + static_cast<int>(a.size()) < verb) {
              open += static_cast<int>(a.size());
              again = true;
            }
          }
        }
        // Titled shapes only: where a given name ends, one clause cannot say.
        for (int len = std::min(4, verb - open); len >= 2 && subject.empty(); --len) {
          std::string g;
          const std::u32string s = t.substr(open, len);
          if (ShapeOf(s, rules, &g) == Shape::kTitled) {
            add(s, Shape::kTitled, g);
            break;
          }
        }
        // A foreign name right before the verb or the one spoken to
        // (亚历山大的亲信波佐·迪·博尔戈对沙皇说).
        int named_end = subject_end;
        for (const std::u32string& o : rules.objects) {
          for (int at = start; at < named_end; ++at) {
            if (t.compare(at, o.size(), o) == 0) named_end = at;
          }
        }
        add(ForeignEndingAt(t, start, named_end, rules), Shape::kTitled, "");
      }
      for (const std::u32string& o : rules.objects) {
        for (int at = start; at + static_cast<int>(o.size()) < end; ++at) {
          if (t.compare(at, o.size(), o) != 0) continue;
          Shape shape = Shape::kNone;
          std::string gender;
          const std::u32string addressee =
              PersonStartingAt(t, at + static_cast<int>(o.size()), end, rules, &shape, &gender);
          add(addressee, shape, gender);
        }
      }
      start = end + 1;
    }
  }
  // Who the clauses of narration open with, or who follows a 的 there
  // (王老师走进教室, 小军正趴在窗台上, 坐在第一排的李晓梅): a titled shape or
  // kinship term at once; a prefix and any character (小军) or a surname and
  // a given name (李晓梅) when it opens two clauses or more and different
  // words follow it (李晓 is always followed by 梅, 高兴 by 地: no names).
  struct Opening {
    int count = 0;
    std::set<char32_t> next;
    bool adverbial = false;  // once followed by 地 or 得: a word, not a name
    bool says = false;       // once in a clause with a speech verb
    int before_verb = 0;     // times right before a speech verb (宝玉道)
    bool joined = false;     // parts joined by ·
  };
  std::map<std::u32string, Opening> openings, pairs, foreign_openings;
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    const int n = static_cast<int>(t.size());
    for (int i = 0; i < n; ++i) {
      if (in_speech[pi][i] || !IsHan(t[i])) continue;
      const bool opens = i == 0 || IsClauseEnd(t[i - 1]) || in_speech[pi][i - 1] ||
                         IsSpace(t[i - 1]) || t[i - 1] == U'的' ||
                         (SurnameAt(t.substr(i, rules.longest_surname), rules) > 0 &&
                          KinEndingAt(t, i, rules) != nullptr);
      if (!opens) continue;
      std::u32string titled;
      std::string titled_gender;
      int han = 0;  // Han characters from i on, up to 5
      while (han < 5 && i + han < n && IsHan(t[i + han]) && !in_speech[pi][i + han]) ++han;
      Shape shapes[6] = {};  // of the phrase of each length from i
      for (int len = 2; len <= han; ++len) {
        std::string g;
        shapes[len] = ShapeOf(t.substr(i, len), rules, &g);
        if (shapes[len] == Shape::kTitled) {
          titled = t.substr(i, len);
          titled_gender = g;
        }
      }
      // Shorter than a titled shape here, a phrase is part of it (赵太 of
      // 赵太爷), no name of its own.
      for (int len = static_cast<int>(titled.size()) + 1; len <= han; ++len) {
        if (len < 2) continue;
        const std::u32string s = t.substr(i, len);
        if (rules.not_names.count(s)) continue;
        const Shape shape = shapes[len];
        if (shape == Shape::kTitled) {
          continue;
        } else if (shape == Shape::kGiven || len == 2) {
          // Any two characters too: the given name of a full name seen once.
          Opening& o = (shape == Shape::kGiven || rules.name_prefixes.count(s.substr(0, 1)))
                           ? openings[s]
                           : pairs[s];
          ++o.count;
          const char32_t next = i + len < n ? t[i + len] : U'。';
          o.next.insert(IsClauseEnd(next) ? U'。' : next);
          o.adverbial |= next == U'地' || next == U'得';
          int verb = -1;
          if (FindVerb(t, i + len, std::min(n, i + len + 3), rules, nullptr, &verb) &&
              verb == i + len) {
            ++o.before_verb;
          }
        }
      }
      add(titled, Shape::kTitled, titled_gender);
      // A foreign name (拿破仑, 玛丽·露易斯): a run of the characters foreign
      // names are written with, parts joined by ·, in a clause that says
      // something (a speech verb, or a colon before the speech): places
      // (巴黎) open clauses too, but say nothing.
      if (!rules.foreign.count(t[i])) continue;
      int clause_end = i;
      while (clause_end < n && !in_speech[pi][clause_end] && !IsClauseEnd(t[clause_end])) {
        ++clause_end;
      }
      const bool says = FindVerb(t, i, clause_end, rules, nullptr, nullptr) ||
                        (clause_end < n && IsColon(t[clause_end]));
      bool joined = false;
      for (int e = i; e < n && e - i < 12 && !in_speech[pi][e]; ++e) {
        if (t[e] == U'·') {
          joined = true;
          continue;
        }
        if (!rules.foreign.count(t[e])) break;
        if (e - i < 1) continue;
        Opening& o = foreign_openings[t.substr(i, e + 1 - i)];
        ++o.count;
        const char32_t next = e + 1 < n ? t[e + 1] : U'。';
        o.next.insert(IsClauseEnd(next) ? U'。' : next);
        o.says |= says;
        o.joined = joined;
      }
    }
  }
  // A name a speaker gives themselves (我叫陈浩) is a person's; so is one the
  // narration gives (她叫冯淑芬), with the gender its words say.
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    for (const std::u32string& name : Introduced(t, in_speech[pi], rules)) {
      add(name, Shape::kTitled, "");
    }
    for (const auto& [pattern, gender] : rules.namings) {
      for (const std::u32string& name : Matches(t, in_speech[pi], false, *pattern)) {
        add(name, Shape::kTitled, gender);
      }
    }
  }
  // A speech that opens by calling someone (“小川，…”, “周阿姨，…”): the name
  // is a person's too, one more opening of its own kind.
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    const int n = static_cast<int>(t.size());
    for (int i = 0; i + 1 < n; ++i) {
      if (!in_speech[pi][i] || (i > 0 && in_speech[pi][i - 1])) continue;
      for (int len = 2; len <= 4 && i + 1 + len < n; ++len) {
        const std::u32string s = t.substr(i + 1, len);
        const char32_t after = t[i + 1 + len];
        bool han = true;
        for (char32_t c : s) han &= IsHan(c);
        if (!han || (after != U'，' && after != U'！') || rules.not_names.count(s)) continue;
        std::string g;
        const Shape shape = ShapeOf(s, rules, &g);
        if (shape == Shape::kTitled) {
          add(s, shape, g);
        } else if (shape == Shape::kGiven ||
                   (len == 2 && rules.name_prefixes.count(s.substr(0, 1)))) {
          Opening& o = openings[s];
          ++o.count;
          o.next.insert(U'\u0001');  // a call: unlike any word after a name
        }
      }
    }
  }
  auto opens_often = [](const Opening& o) {
    return o.count >= 2 && o.next.size() >= 2 && !o.adverbial;
  };
  for (const auto& [name, o] : openings) {
    // 坐在第一排的李晓梅 once, then 晓梅 on: the full name, known by its
    // given name.
    const size_t surname = SurnameAt(name, rules);
    const auto given = pairs.find(name.substr(surname));
    const bool by_given =
        name.size() == surname + 2 && given != pairs.end() && opens_often(given->second);
    if (opens_often(o) || (by_given && !o.adverbial)) add(name, Shape::kGiven, "");
  }
  // Two characters that open clauses right before a speech verb again and
  // again are a name, whatever their shape (宝玉道, 宝玉笑道, 袭人说), when the
  // text speaks to them too, once at least (对宝玉道, 向袭人说): 点头道 and
  // 陪笑道 are no one.
  std::map<std::u32string, std::u32string> spoken_to;  // 对宝玉 -> 宝玉
  std::set<std::u32string> phrases;
  for (const auto& [name, o] : pairs) {
    if (o.before_verb < 3) continue;
    for (const std::u32string& object : rules.objects) {
      spoken_to[object + name] = name;
      phrases.insert(object + name);
    }
  }
  std::set<std::u32string> addressed;
  for (const auto& [phrase, times] : CountEach(paras, phrases)) {
    if (times > 0) addressed.insert(spoken_to[phrase]);
  }
  for (const auto& [name, o] : pairs) {
    if (!addressed.count(name)) continue;
    // Not an adverb and a verb (便说道, 又笑道).
    bool plain = !rules.not_names.count(name) && !rules.adverbs.count(name) &&
                 !rules.adverbs.count(name.substr(0, 1)) &&
                 !FindVerb(name, 0, static_cast<int>(name.size()), rules, nullptr, nullptr);
    // Nor a pronoun and a verb (他来).
    for (char32_t c : name) {
      plain &= !rules.particles.count(c) && !rules.pronouns.count(std::u32string(1, c));
    }
    if (plain && o.before_verb >= 3 && !o.adverbial) add(name, Shape::kTitled, "");
  }
  for (const auto& [name, o] : foreign_openings) {
    if (o.says && !o.adverbial && (opens_often(o) || (o.joined && o.count >= 1)) &&
        name.back() != U'·' && !rules.not_names.count(name)) {
      add(name, Shape::kTitled, "");
    }
  }
  // A surname and a given name that only runs on from a shorter name found
  // too is that name and the next word (贾母 and 贾母笑: 贾母 laughing).
  // Nor is a word that points at the one spoken to before a name found
  // (向宝玉道: 向 and 宝玉, though 向 is a surname too).
  // The names found and their given names (宝玉 of 贾宝玉), looked up by
  // what a name starts or ends with.
  std::set<std::u32string> tails;
  for (const auto& [other, g] : found) {
    tails.insert(other);
    tails.insert(other.substr(SurnameAt(other, rules)));
  }
  auto runs_on = [&](const std::u32string& name) {
    for (size_t n = 1; n < name.size(); ++n) {
      if (found.count(name.substr(0, n))) return true;
      const std::u32string tail = name.substr(n);
      if (tail.size() >= 2 && tails.count(tail) && rules.objects.count(name.substr(0, n)))
        return true;
    }
    return false;
  };
  // A title alone is the one person found with it (大夫: 陈大夫), when there
  // is one.
  auto titled_one = [&](const std::u32string& name) {
    std::u32string one;
    if (!rules.titles.count(name)) return one;
    for (const auto& [other, f] : found) {
      if (other.size() <= name.size() || !EndsWith(other, name)) continue;
      if (!one.empty()) return std::u32string();
      one = other;
    }
    return one;
  };
  // A name found alone that is the given name of one full name found (宝钗 of
  // 薛宝钗) is that person.
  std::map<std::u32string, std::set<std::u32string>> full_of;
  for (const auto& [name, f] : found) {
    const size_t surname = SurnameAt(name, rules);
    if (f.shape == Shape::kGiven && surname > 0 && name.size() == surname + 2 && !runs_on(name)) {
      full_of[name.substr(surname)].insert(name);
    }
  }
  // How often the text says each name found and its given name.
  std::set<std::u32string> said;
  for (const auto& [name, f] : found) {
    const size_t surname = SurnameAt(name, rules);
    said.insert(name);
    if (name.size() == surname + 2) said.insert(name.substr(surname));
  }
  std::unordered_map<std::u32string, size_t> times = CountEach(paras, said);
  for (const auto& [name, f] : found) {
    const size_t surname = SurnameAt(name, rules);
    const std::u32string given = name.size() == surname + 2 ? name.substr(surname) : name;
    if (const auto full = full_of.find(name); full != full_of.end() && full->second.size() == 1) {
      if (!names->alias_to_name.count(name))
        names->alias_to_name[name] = ToUtf8(*full->second.begin());
      continue;
    }
    if (f.shape == Shape::kGiven &&
        (times[name] + (given != name ? times[given] : 0) < 2 || runs_on(name))) {
      continue;
    }
    const std::string utf8 = ToUtf8(name);
    if (names->alias_to_name.count(name)) continue;  // the cast's, or already found
    if (const std::u32string one = titled_one(name); !one.empty()) {
      names->alias_to_name[name] = ToUtf8(one);
      continue;
    }
    names->alias_to_name[name] = utf8;
    names->discovered.insert(utf8);
    // The pronouns that point at the person say the gender too; attribution
    // counts them.
    if (!f.gender.empty()) names->gender[utf8] = f.gender;
    // The likely gender of a given name: its last character's, else its
    // first's (何建平: 建).
    std::string ignored;
    const bool given_name =
        f.shape == Shape::kGiven || (surname > 0 && name.size() <= surname + 2 &&
                                     ShapeOf(name, rules, &ignored) == Shape::kGiven);
    if (f.gender.empty() && given_name && name.size() > surname) {
      for (const size_t at : {name.size() - 1, surname}) {
        const auto g = rules.given.find(name.substr(at, 1));
        if (g != rules.given.end()) {
          names->likely_gender[utf8] = g->second;
          break;
        }
      }
    }
    // A full name's given name is its short form (李晓梅: 晓梅), when the
    // text uses it alone.
    if (f.shape == Shape::kGiven && given != name) {
      if (!names->alias_to_name.count(given) && times[given] > times[name]) {
        names->alias_to_name[given] = utf8;
      }
    }
  }
  // A surname with a title or a prefix (刘师傅, 老刘, 小陈, 赵医生) is the one
  // full name found with that surname (刘建国, 陈浩, 赵敏), when there is one.
  std::map<std::u32string, std::set<std::string>> full_names;  // surname -> names
  for (const auto& [name, f] : found) {
    const std::string utf8 = ToUtf8(name);
    const size_t surname = SurnameAt(name, rules);
    std::string ignored;
    if (surname > 0 && names->discovered.count(utf8) && names->alias_to_name[name] == utf8 &&
        (f.shape == Shape::kGiven || ShapeOf(name, rules, &ignored) == Shape::kGiven)) {
      full_names[name.substr(0, surname)].insert(utf8);
    }
  }
  // The cast's full names too (a producer's 刘建国 takes the 刘师傅 of the text).
  for (const auto& [alias, name] : names->alias_to_name) {
    const std::u32string written = ToU32(name);
    const size_t surname = SurnameAt(written, rules);
    if (!names->discovered.count(name) && surname > 0 && written.size() > surname &&
        written.size() <= surname + 2) {
      full_names[written.substr(0, surname)].insert(name);
    }
  }
  for (const auto& [name, f] : found) {
    const std::string utf8 = ToUtf8(name);
    const auto full = full_names.find(SurnameOfTitled(name, rules));
    if (f.shape != Shape::kTitled || full == full_names.end() || full->second.size() != 1 ||
        !names->discovered.count(utf8)) {
      continue;
    }
    const std::string& person = *full->second.begin();
    for (auto& [alias, to] : names->alias_to_name) {
      if (to == utf8) to = person;
    }
    if (names->gender.count(utf8) && !names->gender.count(person)) {
      names->gender[person] = names->gender[utf8];
    }
    names->discovered.erase(utf8);
    names->gender.erase(utf8);
  }
  // A kinship or role noun with a gender right before a name found, in
  // narration (女儿许楠, 老板娘张丽), says that person's gender when all such
  // nouns before the name agree. Not where 他 stands for everyone: such
  // older prose also runs names together (太太宝玉).
  if (!names->genderless_pronouns.empty()) return;
  std::map<char32_t, std::vector<std::pair<std::u32string, std::string>>> by_first;
  for (const auto& [alias, person] : names->alias_to_name) {
    if (!alias.empty() && names->discovered.count(person) && !names->gender.count(person) &&
        !rules.groups.count(ToU32(person)))
      by_first[alias[0]].emplace_back(alias, person);
  }
  std::map<std::string, std::set<std::string>> said_by_noun;  // person -> genders
  for (size_t pi = 0; pi < paras.size() && !by_first.empty(); ++pi) {
    const std::u32string& t = paras[pi].text;
    for (size_t i = 1; i < t.size(); ++i) {
      const auto starting = by_first.find(t[i]);
      if (starting == by_first.end() || in_speech[pi][i] || in_speech[pi][i - 1]) continue;
      for (const auto& [alias, person] : starting->second) {
        if (t.compare(i, alias.size(), alias) != 0) continue;
        const std::string* gender = KinEndingAt(t, i, rules);
        if (gender != nullptr && !gender->empty()) said_by_noun[person].insert(*gender);
      }
    }
  }
  for (const auto& [person, genders] : said_by_noun) {
    if (genders.size() == 1) names->gender[person] = *genders.begin();
  }
}

// Where words are delimited (Slovak): role and kinship nouns and the names
// of the chapter, each in all its declined forms (see DiscoverPeople).
void DiscoverDeclinedNames(const std::vector<Para>& paras,
                           const std::vector<std::vector<bool>>& in_speech, const Rules& rules,
                           NameBook* names) {
  // Capitalized words, and those of them not first in a sentence.
  std::set<std::u32string> capitalized, inside, small;
  std::map<std::u32string, int> narrated;  // capitalized words of narration, how often
  for (const Para& p : paras) {
    const std::u32string& t = p.text;
    for (size_t i = 0; i < t.size();) {
      if (!u_isalpha(static_cast<UChar32>(t[i]))) {
        ++i;
        continue;
      }
      size_t e = i;
      while (e < t.size() && u_isalpha(static_cast<UChar32>(t[e]))) ++e;
      // The first word of a sentence is capitalized whatever it is: two
      // such words (Ja, Je) are no person.
      size_t b = i;
      while (b > 0 && IsSpace(t[b - 1])) --b;
      const bool sentence_start = b == 0 || (!u_isalpha(static_cast<UChar32>(t[b - 1])) &&
                                             t[b - 1] != U',' && t[b - 1] != U';');
      if (e - i > 1 && u_isupper(static_cast<UChar32>(t[i]))) {
        capitalized.insert(t.substr(i, e - i));
        if (!in_speech[&p - paras.data()][i]) ++narrated[t.substr(i, e - i)];
        if (!sentence_start) inside.insert(t.substr(i, e - i));
      } else {
        small.insert(t.substr(i, e - i));
      }
      i = e;
    }
  }
  // A word a speech opens by calling (– Adam, vstávaj.) that the narration
  // writes capitalized too and the text never small is a name, though no
  // sentence has it inside (Adam vyšiel na chodbu).
  for (size_t pi = 0; pi < paras.size(); ++pi) {
    const std::u32string& t = paras[pi].text;
    for (size_t i = 0; i < t.size(); ++i) {
      if (!in_speech[pi][i] || (i > 0 && in_speech[pi][i - 1])) continue;
      size_t w = i;
      while (w < t.size() && in_speech[pi][w] && !u_isalpha(static_cast<UChar32>(t[w]))) ++w;
      size_t e = w;
      while (e < t.size() && u_isalpha(static_cast<UChar32>(t[e]))) ++e;
      if (e - w < 3 || e >= t.size() || (t[e] != U',' && t[e] != U'!')) continue;
      const std::u32string word = t.substr(w, e - w);
      std::u32string lower = word;
      lower[0] = static_cast<char32_t>(u_tolower(static_cast<UChar32>(lower[0])));
      if (!u_isupper(static_cast<UChar32>(word[0])) || narrated[word] < 1 || small.count(lower) ||
          rules.kin.count(lower) || rules.titles.count(lower) || rules.not_names.count(lower) ||
          names->alias_to_name.count(word)) {
        continue;
      }
      inside.insert(word);
      names->alias_to_name[word] = ToUtf8(word);
      names->discovered.insert(ToUtf8(word));
    }
  }
  // A kinship or role noun of narration is a person in all its forms
  // (lekárka, lekárke, Lekárka), but for a capitalized form written inside a
  // sentence: a name (Kováč beside kováč).
  std::set<std::u32string> kin_forms;
  for (const auto& [noun, gender] : rules.kin) {
    for (const std::u32string& form : DeclinedForms(noun, rules)) kin_forms.insert(form);
  }
  std::unordered_map<std::u32string, size_t> kin_said = CountEach(paras, kin_forms);
  for (const auto& [noun, gender] : rules.kin) {
    const std::string utf8 = ToUtf8(noun);
    for (const std::u32string& form : DeclinedForms(noun, rules)) {
      if (names->alias_to_name.count(form) || kin_said[form] == 0) continue;
      if (u_isupper(static_cast<UChar32>(form[0])) && inside.count(form)) continue;
      names->alias_to_name[form] = utf8;
      names->discovered.insert(utf8);
      if (!gender.empty()) names->gender[utf8] = gender;
    }
  }
  // A capitalized word in a declined form of another one of the chapter is
  // the same person (Ondreja, Ondrejovi: Ondrej; Hudca: Hudec; Novákovej:
  // Nováková).
  if (!rules.declensions.empty()) {
    for (const std::u32string& name : capitalized) {
      const std::vector<std::u32string> forms = DeclinedForms(name, rules);
      if (forms.size() < 2) continue;
      const auto known = names->alias_to_name.find(name);
      const std::string canonical =
          known != names->alias_to_name.end() ? known->second : ToUtf8(name);
      for (size_t f = 1; f < forms.size(); ++f) {
        if (forms[f] == name || !capitalized.count(forms[f]) ||
            names->alias_to_name.count(forms[f]) ||
            (!inside.count(name) && !inside.count(forms[f]))) {
          continue;
        }
        names->alias_to_name[forms[f]] = canonical;
        if (known == names->alias_to_name.end()) {
          names->alias_to_name[name] = canonical;
          names->discovered.insert(canonical);
        }
      }
    }
  }
  // A kinship or role noun that the chapter puts before one name only
  // (doktorka Šimková, teta Mária, pána Hudca) is that person when it stands
  // alone too (doktorka, Teta, pán).
  for (const auto& [noun, gender] : rules.kin) {
    const std::string utf8 = ToUtf8(noun);
    const std::vector<std::u32string> forms = DeclinedForms(noun, rules);
    std::set<std::string> titled;
    std::u32string as_written;  // the name after the noun, the last time
    for (const Para& p : paras) {
      const std::u32string& t = p.text;
      for (const std::u32string& form : forms) {
        for (size_t at = t.find(form); at != std::u32string::npos; at = t.find(form, at + 1)) {
          size_t w = at + form.size();
          if ((at > 0 && u_isalpha(static_cast<UChar32>(t[at - 1]))) || w + 1 >= t.size() ||
              t[w] != U' ' || !u_isupper(static_cast<UChar32>(t[w + 1]))) {
            continue;
          }
          size_t e = ++w;
          while (e < t.size() && u_isalpha(static_cast<UChar32>(t[e]))) ++e;
          const std::u32string word = t.substr(w, e - w);
          const auto known = names->alias_to_name.find(word);
          // In the noun's case: "povedala babka Kataríne" is no babka Katarína.
          bool oblique_word = false;
          if (known != names->alias_to_name.end()) {
            const std::u32string canonical = ToU32(known->second);
            const std::vector<std::u32string> name_forms = DeclinedForms(canonical, rules);
            oblique_word =
                word != canonical && word != Capital(canonical) &&
                std::find(name_forms.begin(), name_forms.end(), word) != name_forms.end();
          }
          const bool oblique_noun = form != noun && form != Capital(noun);
          if (oblique_word != oblique_noun) continue;
          titled.insert(known != names->alias_to_name.end() ? known->second : ToUtf8(word));
          as_written = word;
        }
      }
    }
    if (titled.size() != 1 || *titled.begin() == utf8 || !names->discovered.count(utf8)) continue;
    const std::string person = *titled.begin();
    if (!names->alias_to_name.count(as_written)) {
      names->alias_to_name[as_written] = person;
      names->discovered.insert(person);
    }
    if (!gender.empty() && !names->gender.count(person)) names->gender[person] = gender;
    bool moved = false;
    for (const std::u32string& form : forms) {
      auto alias = names->alias_to_name.find(form);
      if (alias != names->alias_to_name.end() && alias->second == utf8) {
        alias->second = person;
        moved = true;
      }
    }
    if (moved) {
      names->discovered.erase(utf8);
      names->gender.erase(utf8);
    }
  }
  // A person's name in a declined form of another of its names (the cast's
  // too) is oblique: Ondrejovi beside Ondrej, Hudca beside Hudec.
  std::map<std::string, std::set<std::u32string>> by_name;
  for (const auto& [alias, name] : names->alias_to_name) by_name[name].insert(alias);
  for (const auto& [name, aliases] : by_name) {
    for (const std::u32string& alias : aliases) {
      const std::vector<std::u32string> forms = DeclinedForms(alias, rules);
      const std::u32string capital = Capital(alias);
      for (const std::u32string& form : forms) {
        if (form != alias && form != capital && aliases.count(form)) names->oblique.insert(form);
      }
    }
  }
}

}  // namespace

std::u32string Capital(const std::u32string& word) {
  std::u32string capital = word;
  if (!capital.empty()) {
    capital[0] = static_cast<char32_t>(u_toupper(static_cast<UChar32>(capital[0])));
  }
  return capital;
}

std::vector<std::u32string> DeclinedForms(const std::u32string& noun, const Rules& rules) {
  std::vector<std::u32string> forms = {noun};
  for (const auto& [nominative, others] : rules.declensions) {
    if (!EndsWith(noun, nominative)) continue;
    const std::u32string stem = noun.substr(0, noun.size() - nominative.size());
    for (const std::u32string& ending : others) forms.push_back(stem + ending);
    break;
  }
  const size_t n = forms.size();
  for (size_t i = 0; i < n; ++i) {
    std::u32string capital = Capital(forms[i]);
    if (capital != forms[i]) forms.push_back(capital);
  }
  return forms;
}

void NameByIntroductions(const std::vector<Para>& paras, const Rules& rules, NameBook* names,
                         std::vector<Speech>* speeches) {
  if (rules.introductions.empty()) return;
  for (Speech& s : *speeches) {
    const bool unknown = !s.attributed && !s.document;
    if (!unknown && (!s.attributed || s.group || !names->discovered.count(s.speaker) ||
                     !rules.kin.count(ToU32(s.speaker)))) {
      continue;
    }
    std::u32string said;
    for (const Span& span : s.spans)
      said += paras[span.para].text.substr(span.begin, span.end - span.begin);
    const std::vector<std::u32string> given = NamesGiven(said, rules);
    if (given.empty()) continue;
    // A speech nobody was found for that says whose it is (Ja som Mirka): the
    // person known by that name, or a new one.
    if (unknown) {
      auto known = names->alias_to_name.find(given.front());
      if (known == names->alias_to_name.end()) {
        known = names->alias_to_name.emplace(given.front(), ToUtf8(given.front())).first;
        names->discovered.insert(known->second);
      }
      s.speaker = known->second;
      // The gender the name book or their other speeches give them.
      const auto gender = names->gender.find(s.speaker);
      s.gender = gender == names->gender.end() ? "" : gender->second;
      for (const Speech& other : *speeches) {
        if (!s.gender.empty()) break;
        if (other.attributed && other.speaker == s.speaker) s.gender = other.gender;
      }
      s.attributed = true;
      s.evidence = Evidence::kIntroduction;
      continue;
    }
    const std::string name = ToUtf8(given.front());
    if (name == s.speaker) continue;
    // The noun is that person now; so are the noun's other forms.
    const std::string role = s.speaker;
    for (auto& [alias, to] : names->alias_to_name) {
      if (to == role) to = name;
    }
    names->alias_to_name[ToU32(name)] = name;
    names->discovered.insert(name);
    if (names->gender.count(role) && !names->gender.count(name))
      names->gender[name] = names->gender[role];
    names->discovered.erase(role);
    for (Speech& other : *speeches) {
      if (other.attributed && other.speaker == role) other.speaker = name;
    }
  }
}

void DiscoverPeople(const std::vector<Para>& paras, const std::vector<Speech>& speeches,
                    const Rules& rules, NameBook* names) {
  // A book that never writes the pronoun of one gender uses the other's for
  // everyone (她 came into use in the 1920s: 红楼梦 and 阿Q正传 have 他 for
  // women too): there that pronoun says no gender.
  std::set<std::u32string> pronouns;
  for (const auto& [pronoun, gender] : rules.pronouns) pronouns.insert(pronoun);
  std::unordered_map<std::u32string, size_t> pronouns_said = CountEach(paras, pronouns);
  std::map<std::string, size_t> by_gender;  // "m"/"f" -> occurrences
  for (const auto& [pronoun, gender] : rules.pronouns) {
    if (gender == "m" || gender == "f") by_gender[gender] += pronouns_said[pronoun];
  }
  for (const auto& [pronoun, gender] : rules.pronouns) {
    const std::string other = gender == "m" ? "f" : "m";
    const bool alone =
        (gender == "m" || gender == "f") && by_gender[other] == 0 && by_gender[gender] >= 10;
    if (alone) names->genderless_pronouns.insert(pronoun);
  }
  if (rules.language->word_delimited) {
    DiscoverDeclinedNames(paras, SpeechMask(paras, speeches), rules, names);
  } else if (!rules.surnames.empty() || !rules.kin.empty() || !rules.titles.empty()) {
    DiscoverHanNames(paras, SpeechMask(paras, speeches), rules, names);
  }
}

}  // namespace markup_internal
}  // namespace narrate
