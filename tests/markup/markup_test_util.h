// Helpers of the markup tests: paragraphs through the real normalizer (or a
// small tokenizer when it cannot be created), markup of a few lines, lookups.
// Not thread-safe (a normalizer cache per language).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/core.h"
#include "markup/markup.h"
#include "normalize/normalize.h"

namespace narrate {
namespace testing_util {

// Words, single spaces and single punctuation code points.
inline std::vector<Token> SimpleTokens(const std::string& text) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = text[i];
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    std::string cp = text.substr(i, len);
    const bool space = cp == " ";
    const bool punct = (len == 1 && std::ispunct(c)) ||
                       std::string("，。！？：；“”‘’「」『』〃„»«–—…、（）《》").find(cp) !=
                           std::string::npos;
    const TokenKind kind = space ? TokenKind::kSpace
                           : punct ? TokenKind::kPunctuation : TokenKind::kWord;
    if (kind == TokenKind::kWord && !out.empty() && out.back().kind == TokenKind::kWord) {
      out.back().text += cp;
      out.back().spoken += cp;
    } else {
      out.push_back({kind, cp, cp, ""});
    }
    i += len;
  }
  return out;
}

inline NormalizedParagraph Normalize(const Lang& lang, const std::string& text, int line) {
  static std::map<Lang, std::unique_ptr<Normalizer>> cache;
  if (!cache.count(lang)) {
    NormalizerOptions options;
    options.lang = lang;
    options.rules_dir = NARRATE_SOURCE_DIR "/pipeline/normalize/rules";
    auto n = Normalizer::Create(options);
    cache[lang] = n.ok() ? std::move(n).value() : nullptr;
  }
  CollectingReporter ignored;
  if (cache[lang] != nullptr) {
    NormalizedParagraph p = cache[lang]->Normalize({text, line}, "test", &ignored);
    if (PrintedText(p.tokens) == text) return p;
  }
  return {line, SimpleTokens(text)};
}

inline ChapterSource Source(const Lang& lang, const std::vector<std::string>& paragraphs) {
  ChapterSource s;
  s.file = "test.txt";
  s.lang = lang;
  s.title = SimpleTokens(lang == "zh" ? "标题" : "Titul");
  int line = 0;
  for (const auto& p : paragraphs) s.paragraphs.push_back(Normalize(lang, p, ++line));
  return s;
}

inline Script Mark(const Lang& lang, const std::vector<std::string>& paragraphs,
                   const Cast& cast = Cast(), const Overrides& overrides = Overrides(),
                   Reporter* reporter = nullptr) {
  CollectingReporter ignored;
  return Markup("t", "a", {Source(lang, paragraphs)}, cast, overrides, {},
                reporter ? reporter : &ignored);
}

// The first utterance whose printed text contains `snippet` (nullptr if none).
inline const Utterance* Find(const Script& script, const std::string& snippet) {
  for (const Chapter& c : script.chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.text.find(snippet) != std::string::npos) return &u;
    }
  }
  return nullptr;
}

// "speech/拿破仑", "narration/-", "missing".
inline std::string Who(const Script& script, const std::string& snippet) {
  const Utterance* u = Find(script, snippet);
  if (u == nullptr) return "missing";
  return std::string(ToString(u->kind)) + "/" + (u->speaker ? *u->speaker : "-");
}

inline Cast NapoleonCast() {
  Cast cast;
  cast.speakers.push_back({"拿破仑", "m", "", {"Napoleon", "Napoleona", "Napoleonovi"}});
  cast.speakers.push_back({"麦克唐纳", "m", "", {}});
  cast.speakers.push_back({"玛丽", "f", "", {"Mária", "Márie"}});
  cast.speakers.push_back({"内伊", "m", "", {"奈伊"}});
  cast.speakers.push_back({"Bertrand", "m", "", {"Bertranda"}});
  cast.speakers.push_back({"Jozefína", "f", "", {"Jozefíne"}});
  return cast;
}

}  // namespace testing_util
}  // namespace narrate
