// Helpers of the markup tests: paragraphs through the real normalizer (a test
// fails when it cannot be made), markup of a few lines, lookups.
// Not thread-safe (a normalizer cache per language).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/core.h"
#include "markup/markup.h"
#include "normalize/normalize.h"

namespace narrate {
namespace testing_util {

// `text` as one paragraph at `line` through the real normalizer of `lang` (one
// per language, made on first use). A normalizer that cannot be made, or
// tokens that do not print `text` back, fail the calling test (and yield no
// tokens).
inline NormalizedParagraph Normalize(const Lang& lang, const std::string& text, int line) {
  static std::map<Lang, std::unique_ptr<Normalizer>> cache;
  std::unique_ptr<Normalizer>& normalizer = cache[lang];
  if (normalizer == nullptr) {
    NormalizerOptions options;
    options.lang = lang;
    options.rules_dir = NARRATE_SOURCE_DIR "/pipeline/normalize/rules";
    auto made = Normalizer::Create(options);
    if (!made.ok()) {
      ADD_FAILURE() << "no " << lang << " normalizer: " << made.status().message();
      return {line, {}};
    }
    normalizer = std::move(made).value();
  }
  CollectingReporter ignored;
  NormalizedParagraph p = normalizer->Normalize({text, line}, "test", &ignored);
  EXPECT_EQ(PrintedText(p.tokens), text) << "the normalizer's tokens do not print the text back";
  return p;
}

inline ChapterSource Source(const Lang& lang, const std::vector<std::string>& paragraphs) {
  ChapterSource s;
  s.file = "test.txt";
  s.lang = lang;
  s.title = Normalize(lang, lang == "zh" ? "标题" : "Titul", 0).tokens;
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
