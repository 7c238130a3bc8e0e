// Loading of the Slovak rule tables (rules/sk/*.tsv). Not on a hot path: run
// once per Normalizer. Thread-compatible (no shared state).
#include "sk_tables.h"

#include <unicode/unistr.h>

#include <algorithm>
#include <cstdlib>

namespace narrate {
namespace normalize_internal {
namespace sk {
namespace {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

// Reads `dir/name`: tab-separated rows, `#` comments, blank lines skipped.
StatusOr<std::vector<TsvRow>> ReadTable(const std::string& dir, const std::string& name,
                                        size_t min_cols, size_t max_cols) {
  return ReadTsv(dir + "/" + name, min_cols, max_cols);
}

Status BadValue(const std::string& dir, const std::string& name, int line,
                const std::string& what) {
  return Status::DataError(dir + "/" + name + ":" + std::to_string(line) + ": " + what);
}

bool ParseGender(const std::string& s, Gender* g) {
  if (s == "ma")
    *g = Gender::kMascAnimate;
  else if (s == "mi")
    *g = Gender::kMascInanimate;
  else if (s == "f")
    *g = Gender::kFeminine;
  else if (s == "n")
    *g = Gender::kNeuter;
  else
    return false;
  return true;
}

bool ParseCase(const std::string& s, Case* c) {
  static const std::pair<const char*, Case> kCases[] = {
      {"nom", Case::kNom}, {"gen", Case::kGen}, {"dat", Case::kDat},         {"acc", Case::kAcc},
      {"loc", Case::kLoc}, {"ins", Case::kIns}, {"pl-nom", Case::kPluralNom}};
  for (const auto& [code, value] : kCases) {
    if (s == code) {
      *c = value;
      return true;
    }
  }
  return false;
}

bool ParseCases(const std::string& s, std::vector<Case>* cases) {
  for (const std::string& part : Split(s, '|')) {
    Case c;
    if (!ParseCase(part, &c)) return false;
    cases->push_back(c);
  }
  return !cases->empty();
}

// Rows of `ending|form, gender, cases` into Agreement entries.
Status LoadAgreements(const std::string& dir, const std::string& name,
                      std::vector<std::pair<std::string, Agreement>>* out) {
  StatusOr<std::vector<TsvRow>> rows = ReadTable(dir, name, 3, 3);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    Agreement a;
    if (!ParseGender(row.fields[1], &a.gender)) {
      return BadValue(dir, name, row.line, "unknown gender '" + row.fields[1] + "'");
    }
    if (!ParseCases(row.fields[2], &a.cases)) {
      return BadValue(dir, name, row.line, "bad case list '" + row.fields[2] + "'");
    }
    out->emplace_back(row.fields[0], a);
  }
  return Status::Ok();
}

void SortEndings(std::vector<std::pair<std::string, Agreement>>* v) {
  std::stable_sort(v->begin(), v->end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

}  // namespace

const char* GenderCode(Gender gender) {
  switch (gender) {
    case Gender::kMascAnimate:
      return "ma";
    case Gender::kMascInanimate:
      return "mi";
    case Gender::kFeminine:
      return "f";
    case Gender::kNeuter:
      return "n";
  }
  return "mi";
}

const char* CaseCode(Case c) {
  switch (c) {
    case Case::kNom:
      return "nom";
    case Case::kGen:
      return "gen";
    case Case::kDat:
      return "dat";
    case Case::kAcc:
      return "acc";
    case Case::kLoc:
      return "loc";
    case Case::kIns:
      return "ins";
    case Case::kPluralNom:
      return "nom";
  }
  return "nom";
}

StatusOr<SlovakTables> LoadSlovakTables(const std::string& dir) {
  SlovakTables t;
  StatusOr<std::vector<TsvRow>> rows = ReadTable(dir, "abbreviations.tsv", 2, 3);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    Abbreviation a;
    a.written = row.fields[0];
    a.spoken = row.fields[1];
    if (row.fields.size() > 2) {
      for (const std::string& flag : Split(row.fields[2], ',')) {
        if (flag == "adj")
          a.adjective = true;
        else if (flag == "end")
          a.sentence_end = true;
        else
          return BadValue(dir, "abbreviations.tsv", row.line, "unknown flag '" + flag + "'");
      }
    }
    a.segments = Segmentize(a.written);
    if (!a.segments.empty() && a.segments[0].kind == Segment::kLetters &&
        icu::UnicodeString::fromUTF8(a.segments[0].text).countChar32() > 1) {
      a.capitalized_first = Capitalize(a.segments[0].text);
    }
    t.abbreviations.push_back(a);
  }
  std::stable_sort(t.abbreviations.begin(), t.abbreviations.end(),
                   [](const Abbreviation& a, const Abbreviation& b) {
                     return a.written.size() > b.written.size();
                   });

  rows = ReadTable(dir, "units.tsv", 6, 6);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    Unit u{row.fields[0], Gender::kMascInanimate, row.fields[2],
           row.fields[3], row.fields[4],          row.fields[5]};
    if (!ParseGender(row.fields[1], &u.gender)) {
      return BadValue(dir, "units.tsv", row.line, "unknown gender");
    }
    t.units.push_back(u);
  }
  std::stable_sort(t.units.begin(), t.units.end(),
                   [](const Unit& a, const Unit& b) { return a.symbol.size() > b.symbol.size(); });

  rows = ReadTable(dir, "ordinals.tsv", 3, 4);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    int value = std::atoi(row.fields[0].c_str());
    if (value <= 0 || (row.fields[2] != "hard" && row.fields[2] != "soft")) {
      return BadValue(dir, "ordinals.tsv", row.line, "bad value or paradigm");
    }
    t.ordinals[value] = {row.fields[1], row.fields[2] == "soft",
                         row.fields.size() > 3 ? row.fields[3] : ""};
  }

  rows = ReadTable(dir, "adjective_endings.tsv", 4, 5);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    const std::string key = row.fields[0] + "|" + row.fields[1] + "|" + row.fields[2];
    t.adjective_endings[key] = row.fields[3];
    t.adjective_endings[key + "|short"] = row.fields.size() > 4 ? row.fields[4] : row.fields[3];
  }

  rows = ReadTable(dir, "prepositions.tsv", 2, 2);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    std::vector<Case> cases;
    if (!ParseCases(row.fields[1], &cases)) {
      return BadValue(dir, "prepositions.tsv", row.line, "bad case list");
    }
    t.prepositions[row.fields[0]] = cases;
  }

  std::vector<std::pair<std::string, Agreement>> nouns;
  Status status = LoadAgreements(dir, "nouns.tsv", &nouns);
  if (!status.ok()) return status;
  for (auto& [form, a] : nouns) t.nouns[form] = a;
  status = LoadAgreements(dir, "noun_endings.tsv", &t.noun_endings);
  if (!status.ok()) return status;
  SortEndings(&t.noun_endings);
  status = LoadAgreements(dir, "name_endings.tsv", &t.name_endings);
  if (!status.ok()) return status;
  SortEndings(&t.name_endings);

  rows = ReadTable(dir, "months.tsv", 2, 2);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    t.month_genitives[std::atoi(row.fields[0].c_str())] = row.fields[1];
  }

  rows = ReadTable(dir, "words.tsv", 2, 2);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) t.words[row.fields[0]] = row.fields[1];
  for (const char* key :
       {"minus", "zero", "whole-1", "whole-2", "whole-5", "range", "section", "long_vowels"}) {
    if (!t.words.count(key)) {
      return Status::DataError(dir + "/words.tsv: missing key '" + std::string(key) + "'");
    }
  }

  rows = ReadTable(dir, "spellout_fixes.tsv", 2, 3);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    if (row.fields[0] == "fix" && row.fields.size() == 3) {
      t.spellout_fixes.emplace_back(row.fields[1], row.fields[2]);
    } else if (row.fields[0] == "separate" && row.fields.size() == 2) {
      t.separate_words.insert(row.fields[1]);
    } else {
      return BadValue(dir, "spellout_fixes.tsv", row.line,
                      "expected 'fix<TAB>from<TAB>to' or 'separate<TAB>word'");
    }
  }
  return t;
}

}  // namespace sk
}  // namespace normalize_internal
}  // namespace narrate
