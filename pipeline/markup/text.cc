// Code-point helpers and the rule tables of the markup stage. Thread-safe:
// DefaultRules caches behind a mutex.
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <mutex>

#include "internal.h"

#ifndef NARRATE_MARKUP_RULES_DIR
#define NARRATE_MARKUP_RULES_DIR "pipeline/markup/rules"
#endif

namespace narrate {
namespace markup_internal {

std::u32string ToU32(const std::string& s) {
  std::u32string out;
  int32_t i = 0;
  const int32_t n = static_cast<int32_t>(s.size());
  while (i < n) {
    UChar32 c;
    U8_NEXT(s.data(), i, n, c);
    out.push_back(c < 0 ? 0xFFFD : static_cast<char32_t>(c));
  }
  return out;
}

std::string ToUtf8(const std::u32string& t, int begin, int end) {
  std::string out;
  for (int i = std::max(0, begin); i < end && i < static_cast<int>(t.size()); ++i) {
    char buf[4];
    int32_t len = 0;
    UBool error = false;
    (void)error;
    U8_APPEND(reinterpret_cast<uint8_t*>(buf), len, 4, static_cast<UChar32>(t[i]), error);
    out.append(buf, len);
  }
  return out;
}

std::string ToUtf8(const std::u32string& t) { return ToUtf8(t, 0, static_cast<int>(t.size())); }

bool IsSpace(char32_t c) { return u_isUWhiteSpace(c) || c == 0x3000; }
bool IsHan(char32_t c) { return u_getIntPropertyValue(c, UCHAR_SCRIPT) == USCRIPT_HAN; }
bool IsUpper(char32_t c) { return u_isupper(c); }
bool IsLetter(char32_t c) { return u_isalpha(c); }
bool IsTerminal(char32_t c) {
  return c == U'。' || c == U'！' || c == U'？' || c == U'.' || c == U'!' || c == U'?' || c == U'…';
}
bool IsColon(char32_t c) { return c == U'：' || c == U':'; }
bool IsClauseEnd(char32_t c) {
  return IsTerminal(c) || IsColon(c) || c == U'，' || c == U'；' || c == U'、' || c == U',' ||
         c == U';';
}
bool IsDash(char32_t c) { return c == U'–' || c == U'—' || c == U'-'; }

namespace {

// Compiles `pattern`; its ICU error otherwise.
StatusOr<std::shared_ptr<const icu::RegexPattern>> Compile(const std::string& pattern) {
  UErrorCode status = U_ZERO_ERROR;
  UParseError where;
  std::shared_ptr<const icu::RegexPattern> compiled(
      icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(pattern), where, status));
  if (U_FAILURE(status)) {
    return Status::DataError(std::string("bad regular expression (") + u_errorName(status) +
                             " at offset " + std::to_string(where.offset) + ")");
  }
  return compiled;
}

Status ReadTable(const std::string& path, Rules* rules) {
  // class, word, and an optional detail
  StatusOr<std::vector<TsvRow>> rows = ReadTsv(path, 2, 3);
  if (!rows.ok()) return rows.status();
  // The heading shapes of each class, joined into one alternation at the end.
  std::map<std::string, std::string> shapes;
  for (const TsvRow& row : *rows) {
    const std::vector<std::string>& cols = row.fields;
    if (cols[1].empty()) {
      return Status::DataError(path + ":" + std::to_string(row.line) + ": expected class<TAB>word");
    }
    const std::string& cls = cols[0];
    const std::u32string word = ToU32(cols[1]);
    const std::string extra = cols.size() > 2 ? cols[2] : "";
    if (cls == "verb") {
      rules->verbs[word] = extra;
    } else if (cls == "past") {
      // A past tense by its feminine form (povedala, prikývla): the masculine
      // (-l, or -ol after a consonant: prikývol), neuter (-lo, no gender)
      // and plural (-li) forms follow.
      static const std::u32string kVowels = U"aeiouyáéíóúýäô";
      if (word.size() < 4 || word.compare(word.size() - 2, 2, U"la") != 0) {
        return Status::DataError(path + ":" + std::to_string(row.line) +
                                 ": a past tense is given by its feminine form, ending in -la");
      }
      const std::u32string stem = word.substr(0, word.size() - 2);
      const bool vowel = kVowels.find(stem.back()) != std::u32string::npos;
      rules->verbs[stem + (vowel ? U"l" : U"ol")] = "m";
      rules->verbs[word] = "f";
      rules->verbs[stem + U"lo"] = "";
      rules->verbs[stem + U"li"] = "p";
    } else if (cls == "pronoun")
      rules->pronouns[word] = extra;
    else if (cls == "not_verb")
      rules->not_verbs.insert(word);
    else if (cls == "receive")
      rules->receive.insert(word);
    else if (cls == "object")
      rules->objects.insert(word);
    else if (cls == "document")
      rules->documents.insert(word);
    else if (cls == "first_person")
      rules->first_person.insert(word);
    else if (cls == "group")
      rules->groups.insert(word);
    else if (cls == "adverb")
      rules->adverbs.insert(word);
    else if (cls == "enumeration")
      rules->enumerations.insert(word);
    else if (cls == "no_break_after")
      rules->no_break_after.insert(word);
    else if (cls == "surname") {
      rules->surnames.insert(word);
      rules->longest_surname = std::max(rules->longest_surname, word.size());
    } else if (cls == "name_prefix")
      rules->name_prefixes.insert(word);
    else if (cls == "not_name")
      rules->not_names.insert(word);
    else if (cls == "given")
      rules->given[word] = extra;
    else if (cls == "particle" || cls == "place") {
      if (word.size() != 1) {
        return Status::DataError(path + ":" + std::to_string(row.line) + ": a " + cls +
                                 " is one character");
      }
      (cls == "particle" ? rules->particles : rules->places).insert(word[0]);
    } else if (cls == "subordinator")
      rules->subordinators.insert(word);
    else if (cls == "past_ending")
      rules->past_endings.emplace_back(word, extra);
    else if (cls == "gender_ending")
      rules->gender_endings.emplace_back(word == U"-" ? std::u32string() : word, extra);
    else if (cls == "unmarked_gender")
      rules->unmarked_gender = ToUtf8(word);
    else if (cls == "foreign")
      rules->foreign.insert(word.begin(), word.end());
    else if (cls == "title")
      rules->titles[word] = extra;
    else if (cls == "kin")
      rules->kin[word] = extra;
    else if (cls == "declension") {
      std::vector<std::u32string> endings;
      size_t from = 0;
      for (size_t bar; (bar = extra.find('|', from)) != std::string::npos; from = bar + 1) {
        endings.push_back(ToU32(extra.substr(from, bar - from)));
      }
      endings.push_back(ToU32(extra.substr(from)));
      // "-": the nominative has no ending (muž: muža, mužovi).
      rules->declensions.emplace_back(word == U"-" ? std::u32string() : word, std::move(endings));
    } else if (cls == "introduction" || cls == "naming" || cls == "chapter" || cls == "volume" ||
               cls == "contents" || cls == "marker") {
      StatusOr<std::shared_ptr<const icu::RegexPattern>> compiled = Compile(cols[1]);
      if (!compiled.ok()) {
        return Status::DataError(path + ":" + std::to_string(row.line) + ": " +
                                 compiled.status().message());
      }
      if (cls == "introduction") {
        // Each on its own: its first group is the name.
        rules->introductions.push_back(std::move(compiled).value());
      } else if (cls == "naming") {
        rules->namings.emplace_back(std::move(compiled).value(), extra);
      } else {
        std::string& alternation = shapes[cls];
        alternation += (alternation.empty() ? "(?:" : "|(?:") + cols[1] + ")";
      }
    } else {
      return Status::DataError(path + ":" + std::to_string(row.line) + ": unknown class '" + cls +
                               "'");
    }
  }
  for (const auto& [cls, alternation] : shapes) {
    StatusOr<std::shared_ptr<const icu::RegexPattern>> compiled = Compile(alternation);
    if (!compiled.ok()) return Status::DataError(path + ": " + compiled.status().message());
    (cls == "chapter"  ? rules->chapter
     : cls == "volume" ? rules->volume
     : cls == "marker" ? rules->marker
                       : rules->contents) = std::move(compiled).value();
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::shared_ptr<const icu::RegexPattern>> CompilePattern(const std::string& pattern) {
  return Compile(pattern);
}

StatusOr<Rules> LoadRules(const std::string& dir, const Lang& lang) {
  Rules rules;
  const std::string sub = dir + "/" + lang;
  StatusOr<std::vector<std::string>> files = ListFiles(sub, ".tsv");
  if (!files.ok()) return Status::IoError(sub + ": no markup rules for '" + lang + "'");
  for (const std::string& f : *files) {
    Status s = ReadTable(sub + "/" + f, &rules);
    if (!s.ok()) return s;
  }
  return rules;
}

const Rules& DefaultRules(const Lang& lang, Reporter* reporter) {
  static std::mutex mu;
  static std::map<Lang, Rules>* cache = new std::map<Lang, Rules>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache->find(lang);
  if (it != cache->end()) return it->second;
  const char* env = std::getenv("NARRATE_MARKUP_RULES_DIR");
  StatusOr<Rules> loaded = LoadRules(env ? env : NARRATE_MARKUP_RULES_DIR, lang);
  Rules rules;
  if (loaded.ok()) {
    rules = std::move(loaded).value();
  } else if (reporter != nullptr) {
    reporter->Report({Severity::kError, "", 0, loaded.status().message()});
  }
  StatusOr<const LanguageProfile*> profile = FindLanguage(lang);
  static const LanguageProfile* const kNoProfile = new LanguageProfile();
  rules.language = profile.ok() ? *profile : kNoProfile;
  if (!profile.ok() && reporter != nullptr) {
    reporter->Report({Severity::kError, "", 0, profile.status().message()});
  }
  return cache->emplace(lang, std::move(rules)).first->second;
}

bool FindVerb(const std::u32string& text, int begin, int end, const Rules& rules,
              std::string* gender, int* at) {
  const bool words = rules.language->word_delimited;  // verbs are whole words
  for (int i = begin; i < end; ++i) {
    if (words && i > 0 && IsLetter(text[i - 1])) continue;
    // Skip compounds that are not speech.
    bool excluded = false;
    for (const auto& nv : rules.not_verbs) {
      for (int back = 0; back < static_cast<int>(nv.size()) && !excluded; ++back) {
        const int s = i - back;
        if (s >= 0 && text.compare(s, nv.size(), nv) == 0) excluded = true;
      }
    }
    if (excluded) continue;
    size_t best = 0;
    std::string g;
    for (const auto& [form, gen] : rules.verbs) {
      if (form.size() > best && i + static_cast<int>(form.size()) <= end &&
          text.compare(i, form.size(), form) == 0) {
        const int after = i + static_cast<int>(form.size());
        if (words && after < static_cast<int>(text.size()) && IsLetter(text[after])) continue;
        best = form.size();
        g = gen;
      }
    }
    if (best > 0) {
      if (gender != nullptr) *gender = g;
      if (at != nullptr) *at = i;
      return true;
    }
  }
  return false;
}

}  // namespace markup_internal
}  // namespace narrate
