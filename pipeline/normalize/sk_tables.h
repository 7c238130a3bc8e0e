// Slovak rule tables (pipeline/normalize/rules/sk/*.tsv) loaded into memory,
// and the grammatical categories they speak of. Private to the normalize stage.
// SlovakTables is immutable after LoadSlovakTables() and safe to share between
// threads.
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace normalize_internal {
namespace sk {

enum class Gender { kMascAnimate, kMascInanimate, kFeminine, kNeuter };
// Singular cases, and the plural nominative (only used to pick a cardinal's
// gender: 2 ženy -> dve ženy).
enum class Case { kNom, kGen, kDat, kAcc, kLoc, kIns, kPluralNom };

// What a noun (or name) form tells about the words agreeing with it.
struct Agreement {
  Gender gender = Gender::kMascInanimate;
  std::vector<Case> cases;  // possible cases, most likely first; never empty
};

// A piece of text for the tokenizer: a letter run, a digit run, a space run or
// one other character.
struct Segment {
  enum Kind { kLetters, kDigits, kSpace, kOther };
  Kind kind = kOther;
  std::string text;
};

std::vector<Segment> Segmentize(const std::string& text);
std::string Capitalize(const std::string& word);

struct Abbreviation {
  std::string written;        // as printed, e.g. "t. j."
  std::string spoken;         // e.g. "to jest"; an adjective stem when `adjective`
  bool adjective = false;     // declined to agree with the next word (sv.)
  bool sentence_end = false;  // may end a sentence (atď.)
  // Prepared when the table is loaded: `written` in segments, and its first
  // segment capitalized when that is a run of two or more letters (Napr.);
  // empty otherwise.
  std::vector<Segment> segments;
  std::string capitalized_first;
};

struct Unit {
  std::string symbol;  // "%", "km", "°C"
  Gender gender = Gender::kMascInanimate;
  std::string one, few, many, decimal;  // after 1, 2-4, 0 and 5+, 3,5
};

struct OrdinalStem {
  std::string stem;            // "osemnást"
  bool soft = false;           // tretí, tisíci
  std::string stem_before_ou;  // treť; empty: same as stem
};

struct SlovakTables {
  std::vector<Abbreviation> abbreviations;  // longest written form first
  std::vector<Unit> units;                  // longest symbol first
  std::map<int, OrdinalStem> ordinals;      // by value
  // "hard|ma|gen" -> "ého"
  std::map<std::string, std::string> adjective_endings;
  std::map<std::string, std::vector<Case>> prepositions;  // lowercase
  std::map<std::string, Agreement> nouns;                 // lowercase form
  // Longest ending first; the empty ending last.
  std::vector<std::pair<std::string, Agreement>> noun_endings;
  std::vector<std::pair<std::string, Agreement>> name_endings;
  std::map<int, std::string> month_genitives;  // 1..12
  std::map<std::string, std::string> words;    // "minus" -> "mínus"
  std::vector<std::pair<std::string, std::string>> spellout_fixes;
  std::set<std::string> separate_words;  // not joined to the next number word
};

// Reads every table from `dir` (rules/sk). DataError naming file:line on a
// malformed row, IoError when a file cannot be read.
StatusOr<SlovakTables> LoadSlovakTables(const std::string& dir);

// "ma" "mi" "f" "n"; "nom" ... "ins"; used for table keys.
const char* GenderCode(Gender gender);
const char* CaseCode(Case c);

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
