// Shared by the Chinese normalizer tests: options pointing at the rules in the
// source tree, and Say(), the spoken form of a paragraph (checking that the
// tokens give the printed text back).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "normalize/normalize.h"

namespace narrate {
namespace testing_util {

inline NormalizerOptions ZhOptions(const std::string& rules_dir = NARRATE_SOURCE_DIR
                                   "/pipeline/normalize/rules") {
  NormalizerOptions options;
  options.lang = "zh";
  options.rules_dir = rules_dir;
  return options;
}

// One case: the printed text and what a careful narrator says.
struct Case {
  const char* in;
  const char* spoken;
};

inline std::string Say(const std::string& text) {
  static const std::unique_ptr<Normalizer> normalizer = [] {
    auto n = Normalizer::Create(ZhOptions());
    EXPECT_TRUE(n.ok()) << n.status().message();
    return std::move(n).value();
  }();
  CollectingReporter reporter;
  NormalizedParagraph p = normalizer->Normalize({text, 1}, "t.txt", &reporter);
  EXPECT_EQ(PrintedText(p.tokens), text);
  return SpokenText(p.tokens);
}

}  // namespace testing_util
}  // namespace narrate
