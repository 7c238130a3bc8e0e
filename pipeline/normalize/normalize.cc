// The normalize engine: picks the rule set its language's profile names,
// applies the book's lexicon on top of it (longest match first, inside word
// tokens) and, when asked, silences parenthesized foreign glosses. Language
// knowledge lives in zh_*.cc / sk_*.cc and in the TSV tables under rules/. A
// RuleNormalizer is immutable after Create() and safe to share between threads.
#include "normalize/normalize.h"

#include <algorithm>
#include <cstdlib>

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include "core/language.h"
#include "rules.h"

namespace narrate {
namespace {

using normalize_internal::LanguageRules;
using normalize_internal::RuleContext;

// A letter of an alphabetic script: a lexicon entry that starts or ends with
// one matches only at word boundaries (Slovak "Ney" not inside "Neyho"), while
// Hanzi entries match anywhere in a run of Hanzi.
bool IsAlphabeticLetter(UChar32 c) {
  if (!u_isalpha(c)) return false;
  UErrorCode status = U_ZERO_ERROR;
  UScriptCode script = uscript_getScript(c, &status);
  return script != USCRIPT_HAN && script != USCRIPT_HIRAGANA && script != USCRIPT_KATAKANA &&
         script != USCRIPT_HANGUL;
}

UChar32 FirstCodePoint(const std::string& s, size_t at) {
  if (at >= s.size()) return 0;
  int32_t i = static_cast<int32_t>(at);
  UChar32 c;
  U8_NEXT(s.data(), i, static_cast<int32_t>(s.size()), c);
  return c;
}

UChar32 LastCodePointBefore(const std::string& s, size_t at) {
  if (at == 0) return 0;
  int32_t i = static_cast<int32_t>(at);
  UChar32 c;
  U8_PREV(s.data(), 0, i, c);
  return c;
}

bool IsOpenParen(const Token& t) {
  return t.kind == TokenKind::kPunctuation && (t.text == "(" || t.text == "（");
}

bool IsCloseParen(const Token& t) {
  return t.kind == TokenKind::kPunctuation && (t.text == ")" || t.text == "）");
}

// The rule sets a language profile may name (LanguageProfile::normalizer).
// Each is made from the tables of the language it is for, rules/<lang>/, so
// that another language may use one with its own tables.
struct Engine {
  const char* name;
  StatusOr<std::unique_ptr<LanguageRules>> (*create)(const std::string& tables_dir);
};
constexpr Engine kEngines[] = {
    {"chinese", normalize_internal::CreateChineseRules},
    {"slovak", normalize_internal::CreateSlovakRules},
};

std::string DefaultRulesDir() {
  if (const char* env = std::getenv("NARRATE_RULES_DIR")) return env;
  return NARRATE_RULES_DIR;
}

class RuleNormalizer : public Normalizer {
 public:
  RuleNormalizer(NormalizerOptions options, std::unique_ptr<LanguageRules> rules)
      : options_(std::move(options)), rules_(std::move(rules)) {
    for (const LexiconEntry& entry : options_.lexicon) {
      if (entry.lang == options_.lang && !entry.written.empty()) {
        lexicon_.push_back(entry);
      }
    }
    std::stable_sort(lexicon_.begin(), lexicon_.end(),
                     [](const LexiconEntry& a, const LexiconEntry& b) {
                       return a.written.size() > b.written.size();
                     });
  }

  NormalizedParagraph Normalize(const Paragraph& paragraph, const std::string& file,
                                Reporter* reporter) const override {
    NormalizedParagraph out;
    out.line = paragraph.line;
    RuleContext context{file, paragraph.line, reporter};
    std::vector<Token> tokens;
    rules_->Tokenize(paragraph.text, context, &tokens);
    for (Token& token : tokens) {
      if (token.kind == TokenKind::kWord && !lexicon_.empty()) {
        ApplyLexicon(token, &out.tokens);
      } else {
        out.tokens.push_back(std::move(token));
      }
    }
    if (options_.skip_glosses) SilenceGlosses(&out.tokens);
    return out;
  }

 private:
  // The longest lexicon entry printed at byte `at` of `text`, or nullptr.
  const LexiconEntry* Match(const std::string& text, size_t at) const {
    for (const LexiconEntry& entry : lexicon_) {  // longest first
      const std::string& w = entry.written;
      if (text.compare(at, w.size(), w) != 0) continue;
      if (IsAlphabeticLetter(FirstCodePoint(w, 0)) &&
          IsAlphabeticLetter(LastCodePointBefore(text, at))) {
        continue;
      }
      if (IsAlphabeticLetter(LastCodePointBefore(w, w.size())) &&
          IsAlphabeticLetter(FirstCodePoint(text, at + w.size()))) {
        continue;
      }
      return &entry;
    }
    return nullptr;
  }

  // Splits every lexicon entry out of a word token as a kLexicon token.
  void ApplyLexicon(const Token& word, std::vector<Token>* out) const {
    const std::string& text = word.text;
    size_t plain_start = 0, at = 0;
    auto flush = [&](size_t end) {
      if (end > plain_start) {
        std::string piece = text.substr(plain_start, end - plain_start);
        out->push_back({TokenKind::kWord, piece, piece, word.lang});
      }
    };
    while (at < text.size()) {
      if (const LexiconEntry* entry = Match(text, at)) {
        flush(at);
        out->push_back({TokenKind::kLexicon, entry->written, entry->spoken, word.lang});
        at += entry->written.size();
        plain_start = at;
        continue;
      }
      int32_t i = static_cast<int32_t>(at);
      UChar32 c;
      U8_NEXT(text.data(), i, static_cast<int32_t>(text.size()), c);
      at = static_cast<size_t>(i);
    }
    if (plain_start == 0) {
      out->push_back(word);  // nothing matched: keep the token as it was
      return;
    }
    flush(text.size());
  }

  // 埃松河（the River Essonne）: a parenthesized span holding only foreign
  // spans, spaces and punctuation is not said (its text is kept).
  static void SilenceGlosses(std::vector<Token>* tokens) {
    for (size_t open = 0; open < tokens->size(); ++open) {
      if (!IsOpenParen((*tokens)[open])) continue;
      bool foreign = false, gloss = true;
      size_t close = open + 1;
      for (; close < tokens->size(); ++close) {
        const Token& t = (*tokens)[close];
        if (IsCloseParen(t) || IsOpenParen(t)) break;
        if (t.kind == TokenKind::kForeign) {
          foreign = true;
        } else if (t.kind != TokenKind::kSpace && t.kind != TokenKind::kPunctuation) {
          gloss = false;
        }
      }
      if (close == tokens->size() || !IsCloseParen((*tokens)[close]) || !gloss || !foreign) {
        continue;
      }
      for (size_t i = open; i <= close; ++i) (*tokens)[i].spoken.clear();
      open = close;
    }
  }

  NormalizerOptions options_;
  std::unique_ptr<LanguageRules> rules_;
  std::vector<LexiconEntry> lexicon_;  // this language's, longest first
};

}  // namespace

StatusOr<std::unique_ptr<Normalizer>> Normalizer::Create(const NormalizerOptions& options) {
  StatusOr<const LanguageProfile*> language = FindLanguage(options.lang);
  if (!language.ok()) return language.status();
  const std::string& name = (*language)->normalizer;
  const Engine* engine = std::find_if(std::begin(kEngines), std::end(kEngines),
                                      [&](const Engine& e) { return name == e.name; });
  if (engine == std::end(kEngines)) {
    std::string known;
    for (const Engine& e : kEngines) known += std::string(known.empty() ? "" : ", ") + e.name;
    return Status::DataError((*language)->file + ": unknown normalizer '" + name + "' (" + known +
                             ")");
  }
  const std::string dir = options.rules_dir.empty() ? DefaultRulesDir() : options.rules_dir;
  StatusOr<std::unique_ptr<LanguageRules>> rules = engine->create(dir + "/" + options.lang);
  if (!rules.ok()) return rules.status();
  return std::unique_ptr<Normalizer>(new RuleNormalizer(options, std::move(rules).value()));
}

StatusOr<std::vector<LexiconEntry>> LoadLexicon(const std::string& path) {
  // language, written form, spoken form
  StatusOr<std::vector<TsvRow>> rows = ReadTsv(path, 3, 3);
  if (!rows.ok()) return rows.status();
  std::vector<LexiconEntry> entries;
  for (TsvRow& row : *rows) {
    entries.push_back({row.fields[0], row.fields[1], row.fields[2]});
  }
  return entries;
}

}  // namespace narrate
