// Slovak normalization: the LanguageRules for "sk" and the word-level rules of
// the tokenizer (abbreviations, Roman numerals after names, unknown
// abbreviations). Number rules are in sk_number_rules.cc; language knowledge
// is in rules/sk/*.tsv. SlovakRules is immutable and safe to share between
// threads.
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <memory>

#include "rules.h"
#include "sk_numbers.h"
#include "sk_tables.h"
#include "sk_tokenizer.h"

namespace narrate {
namespace normalize_internal {
namespace sk {
namespace {

// Unknown abbreviations are at most this many letters (code points).
constexpr int kMaxUnknownAbbreviationLetters = 4;

UChar32 FirstCodePoint(const std::string& s) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(s);
  return u.isEmpty() ? 0 : u.char32At(0);
}

bool AllLowercase(const std::string& s) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(s);
  for (int32_t i = 0; i < u.length(); i = u.moveIndex32(i, 1)) {
    if (!u_islower(u.char32At(i))) return false;
  }
  return true;
}

}  // namespace

std::vector<Segment> Segmentize(const std::string& text) {
  std::vector<Segment> segs;
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
  for (int32_t i = 0; i < u.length();) {
    UChar32 c = u.char32At(i);
    int32_t next = u.moveIndex32(i, 1);
    Segment::Kind kind = Segment::kOther;
    if (c >= '0' && c <= '9') {
      kind = Segment::kDigits;
    } else if (u_isalpha(c) || (u_getCombiningClass(c) > 0 && !segs.empty() &&
                                segs.back().kind == Segment::kLetters)) {
      kind = Segment::kLetters;
    } else if (u_isUWhiteSpace(c)) {
      kind = Segment::kSpace;
    }
    std::string piece;
    u.tempSubStringBetween(i, next).toUTF8String(piece);
    if (kind != Segment::kOther && !segs.empty() && segs.back().kind == kind) {
      segs.back().text += piece;
    } else {
      segs.push_back({kind, piece});
    }
    i = next;
  }
  return segs;
}

bool IsCapitalized(const std::string& word) {
  UChar32 c = FirstCodePoint(word);
  return u_isupper(c) || u_istitle(c);
}

std::string Lowercase(const std::string& word) {
  std::string out;
  icu::UnicodeString::fromUTF8(word).toLower(icu::Locale("sk")).toUTF8String(out);
  return out;
}

std::string Capitalize(const std::string& word) {
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(word);
  if (u.isEmpty()) return word;
  int32_t first_end = u.moveIndex32(0, 1);
  icu::UnicodeString head(u, 0, first_end);
  head.toUpper(icu::Locale("sk"));
  std::string out;
  (head + icu::UnicodeString(u, first_end)).toUTF8String(out);
  return out;
}

SlovakTokenizer::SlovakTokenizer(const SlovakTables* tables, const SlovakNumbers* numbers,
                                 const RuleContext* context, const std::string& text,
                                 std::vector<Token>* out)
    : tables_(tables),
      numbers_(numbers),
      context_(context),
      segs_(Segmentize(text)),
      out_(out),
      first_token_(out->size()) {}

void SlovakTokenizer::Run() {
  while (pos_ < segs_.size()) {
    if (TryNumber() || TryRoman() || TryAbbreviation()) continue;
    EmitDefault();
  }
}

void SlovakTokenizer::Emit(TokenKind kind, size_t begin, size_t end, const std::string& spoken) {
  Token token;
  token.kind = kind;
  for (size_t i = begin; i < end && i < segs_.size(); ++i) token.text += segs_[i].text;
  token.spoken = spoken;
  out_->push_back(std::move(token));
  pos_ = end;
}

void SlovakTokenizer::EmitDefault() {
  const Segment& seg = segs_[pos_];
  switch (seg.kind) {
    case Segment::kSpace:
      Emit(TokenKind::kSpace, pos_, pos_ + 1, seg.text);
      return;
    case Segment::kLetters: {
      // An unknown abbreviation: a few lowercase letters, ".", a lowercase word.
      icu::UnicodeString u = icu::UnicodeString::fromUTF8(seg.text);
      size_t after = WordAfter(pos_ + 1);
      if (Text(pos_ + 1) == "." && after != std::string::npos &&
          u.countChar32() <= kMaxUnknownAbbreviationLetters && AllLowercase(seg.text) &&
          AllLowercase(Text(after)) && context_->reporter != nullptr) {
        Diagnostic d;
        d.severity = Severity::kWarning;
        d.file = context_->file;
        d.line = context_->line;
        d.message = "unknown abbreviation '" + seg.text + ".'";
        context_->reporter->Report(d);
      }
      Emit(TokenKind::kWord, pos_, pos_ + 1, seg.text);
      return;
    }
    case Segment::kDigits:  // only when TryNumber declined: say the digits
      Emit(TokenKind::kNumber, pos_, pos_ + 1,
           numbers_->Cardinal(std::stoll(seg.text.substr(0, 15)), Gender::kMascInanimate));
      return;
    case Segment::kOther:
      if (seg.text == "§") {
        Emit(TokenKind::kAbbreviation, pos_, pos_ + 1, numbers_->Word("section"));
        return;
      }
      Emit(TokenKind::kPunctuation, pos_, pos_ + 1, seg.text);
      return;
  }
}

bool SlovakTokenizer::TryRoman() {
  if (KindAt(pos_) != Segment::kLetters || Text(pos_ + 1) != ".") return false;
  std::optional<int> value = ParseRoman(Text(pos_));
  if (!value) return false;
  bool ends_sentence = PeriodEndsSentence(pos_ + 1);
  size_t noun = ends_sentence ? std::string::npos : HeadNounAfter(pos_ + 1);
  std::string prev_raw = PreviousWordRaw();
  std::string spoken;
  if (noun != std::string::npos && AllLowercase(Text(noun)) &&
      tables_->nouns.count(Lowercase(Text(noun)))) {
    // XIX. storočie: agrees with the noun that follows.
    Agreement a = NounAgreement(Text(noun));
    spoken = numbers_->Ordinal(*value, a.gender, ChooseCase(a, PrepositionCases(1, 2)));
  } else if (!prev_raw.empty() && IsCapitalized(prev_raw)) {
    std::string prev = Lowercase(prev_raw);
    if (tables_->nouns.count(prev)) {  // Kapitola IV.
      Agreement a = NounAgreement(prev);
      spoken = numbers_->Ordinal(*value, a.gender, a.cases.front());
    } else {  // a name: Ľudovítovi XIII. -> Trinástemu
      Agreement a = NameAgreement(prev_raw);
      spoken =
          Capitalize(numbers_->Ordinal(*value, a.gender, ChooseCase(a, PrepositionCases(2, 4))));
    }
  } else {
    return false;
  }
  size_t end = ends_sentence ? pos_ + 1 : pos_ + 2;
  Emit(TokenKind::kNumber, pos_, end, spoken);
  return true;
}

bool SlovakTokenizer::TryAbbreviation() {
  if (KindAt(pos_) != Segment::kLetters) return false;
  for (const Abbreviation& abbr : tables_->abbreviations) {
    const std::vector<Segment>& want = abbr.segments;
    if (want.empty() ||
        (segs_[pos_].text != want[0].text && segs_[pos_].text != abbr.capitalized_first)) {
      continue;
    }
    size_t p = pos_;
    bool capitalized = false;
    bool ok = true;
    for (size_t k = 0; k < want.size() && ok; ++k) {
      if (want[k].kind == Segment::kSpace) {
        if (KindAt(p) == Segment::kSpace && IsSeparatorSpace(p)) ++p;
        continue;
      }
      if (p >= segs_.size()) {
        ok = false;
      } else if (segs_[p].text == want[k].text) {
        ++p;
      } else if (k == 0 && !abbr.capitalized_first.empty() &&
                 segs_[p].text == abbr.capitalized_first) {
        capitalized = true;
        ++p;
      } else {
        ok = false;
      }
    }
    if (!ok) continue;
    Segment::Kind after = KindAt(p);
    if (abbr.written.back() != '.' && (after == Segment::kLetters || after == Segment::kDigits)) {
      continue;
    }
    std::string spoken = abbr.spoken;
    if (abbr.adjective) {
      size_t next = WordAfter(p - 1);
      Agreement a;
      a.cases = {Case::kNom};
      if (next != std::string::npos) {
        a = IsCapitalized(Text(next)) ? NameAgreement(Text(next)) : NounAgreement(Text(next));
      }
      Case c = ChooseCase(a, PrepositionCases(1, 3));
      if (c == Case::kPluralNom) c = Case::kNom;
      spoken = numbers_->Adjective(abbr.spoken, false, "", a.gender, c);
    }
    if (capitalized) spoken = Capitalize(spoken);
    size_t end = p;
    if (abbr.sentence_end && abbr.written.back() == '.' && PeriodEndsSentence(p - 1)) {
      end = p - 1;  // the period stays as sentence punctuation
    }
    Emit(TokenKind::kAbbreviation, pos_, end, spoken);
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Context helpers.

const std::string& SlovakTokenizer::Text(size_t pos) const {
  static const std::string kEmpty;
  return pos < segs_.size() ? segs_[pos].text : kEmpty;
}

Segment::Kind SlovakTokenizer::KindAt(size_t pos) const {
  return pos < segs_.size() ? segs_[pos].kind : Segment::kOther;
}

bool SlovakTokenizer::IsSeparatorSpace(size_t pos) const {
  const std::string& t = Text(pos);
  return t == " " || t == "\u00A0" || t == "\u202F" || t == "\u2009";
}

bool SlovakTokenizer::PeriodEndsSentence(size_t pos) const {
  if (Text(pos) != ".") return false;
  if (pos + 1 >= segs_.size()) return true;
  if (KindAt(pos + 1) != Segment::kSpace) return false;
  if (pos + 2 >= segs_.size()) return true;
  const Segment& next = segs_[pos + 2];
  if (next.kind == Segment::kLetters) return IsCapitalized(next.text);
  static const char* kOpeners[] = {"„", "\"", "“", "‚", "(", "»", "«", "-", "–", "—"};
  for (const char* o : kOpeners) {
    if (next.text == o) return true;
  }
  return false;
}

size_t SlovakTokenizer::WordAfter(size_t pos) const {
  size_t p = pos + 1;
  if (KindAt(p) == Segment::kSpace) ++p;
  return KindAt(p) == Segment::kLetters ? p : std::string::npos;
}

size_t SlovakTokenizer::HeadNounAfter(size_t pos) const {
  static const char* kSkip[] = {"a", "alebo", "či", "až", "i", "resp"};
  for (size_t p = pos + 1, steps = 0; p < segs_.size() && steps < 10; ++p, ++steps) {
    const Segment& s = segs_[p];
    if (s.kind == Segment::kSpace || s.kind == Segment::kDigits) continue;
    if (s.kind == Segment::kOther) {
      if (s.text == "." || s.text == "-" || s.text == "–" || s.text == ",") continue;
      return std::string::npos;
    }
    bool skip = ParseRoman(s.text).has_value() && Text(p + 1) == ".";
    for (const char* w : kSkip) skip = skip || s.text == w;
    if (!skip) return p;
  }
  return std::string::npos;
}

std::string SlovakTokenizer::PreviousWord(int n) const {
  int seen = 0;
  for (size_t i = out_->size(); i > first_token_; --i) {
    const Token& t = (*out_)[i - 1];
    if (t.kind == TokenKind::kSpace) continue;
    if (t.kind == TokenKind::kWord || t.kind == TokenKind::kNumber ||
        t.kind == TokenKind::kAbbreviation) {
      if (++seen == n) return Lowercase(t.text);
      continue;
    }
    return "";  // punctuation ends the search
  }
  return "";
}

std::string SlovakTokenizer::PreviousWordRaw() const {
  if (out_->size() <= first_token_) return "";
  size_t i = out_->size() - 1;
  if ((*out_)[i].kind == TokenKind::kSpace) {
    if (i == first_token_) return "";
    --i;
  }
  return (*out_)[i].kind == TokenKind::kWord ? (*out_)[i].text : "";
}

std::vector<Case> SlovakTokenizer::PrepositionCases(int first, int last) const {
  for (int n = first; n <= last; ++n) {
    auto it = tables_->prepositions.find(PreviousWord(n));
    if (it != tables_->prepositions.end()) return it->second;
  }
  return {};
}

Agreement SlovakTokenizer::NounAgreement(const std::string& word) const {
  std::string lower = Lowercase(word);
  auto it = tables_->nouns.find(lower);
  if (it != tables_->nouns.end()) return it->second;
  for (const auto& [ending, a] : tables_->noun_endings) {
    if (lower.size() >= ending.size() &&
        lower.compare(lower.size() - ending.size(), ending.size(), ending) == 0) {
      return a;
    }
  }
  return Agreement{Gender::kMascInanimate, {Case::kNom}};
}

Agreement SlovakTokenizer::NameAgreement(const std::string& word) const {
  for (const auto& [ending, a] : tables_->name_endings) {
    if (word.size() >= ending.size() &&
        word.compare(word.size() - ending.size(), ending.size(), ending) == 0) {
      return a;
    }
  }
  return Agreement{Gender::kMascAnimate, {Case::kNom}};
}

Case SlovakTokenizer::ChooseCase(const Agreement& a, const std::vector<Case>& prep) {
  for (Case c : a.cases) {
    for (Case p : prep) {
      if (c == p) return c;
    }
  }
  return a.cases.front();
}

// ---------------------------------------------------------------------------

namespace {

class SlovakRules : public LanguageRules {
 public:
  explicit SlovakRules(SlovakTables tables) : tables_(std::move(tables)), numbers_(&tables_) {}

  void Tokenize(const std::string& text, const RuleContext& context,
                std::vector<Token>* out) const override {
    SlovakTokenizer tokenizer(&tables_, &numbers_, &context, text, out);
    tokenizer.Run();
  }

 private:
  SlovakTables tables_;
  SlovakNumbers numbers_;  // points into tables_
};

}  // namespace
}  // namespace sk

StatusOr<std::unique_ptr<LanguageRules>> CreateSlovakRules(const std::string& tables_dir) {
  StatusOr<sk::SlovakTables> tables = sk::LoadSlovakTables(tables_dir);
  if (!tables.ok()) return tables.status();
  return std::unique_ptr<LanguageRules>(new sk::SlovakRules(std::move(tables).value()));
}

}  // namespace normalize_internal
}  // namespace narrate
