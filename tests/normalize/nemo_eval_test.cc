// Agreement with a peer's Chinese normalization cases (NVIDIA NeMo
// text-processing, Apache-2.0, kept in tests/data/nemo-zh-tn/*.txt as
// `input~expected` lines). Prints the agreement per file and overall; fails
// below a floor set under what was measured, so it guards against regressions,
// and fails when the cases are missing. Disagreements are often deliberate (see
// the README there): 〇 vs 零 in years, 零 in 3:04, 二 vs 两.
#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "normalize/normalize.h"
#include "zh_test_util.h"

namespace narrate {
namespace {

using testing_util::ZhOptions;

const char kEvalDir[] = NARRATE_TEST_DATA "/nemo-zh-tn";
// Measured 2026-11-30: 253/301 = 84.1% agree; the floor is 5 points below.
constexpr double kFloorPercent = 79.0;

std::vector<std::string> CaseFiles() {
  std::vector<std::string> files;
  if (DIR* dir = opendir(kEvalDir)) {
    while (dirent* entry = readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0) {
        files.push_back(std::string(kEvalDir) + "/" + name);
      }
    }
    closedir(dir);
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(NemoEval, AgreementRate) {
  std::vector<std::string> files = CaseFiles();
  // All seven case files of the copy (cardinal, date, decimal, fraction,
  // measure, ordinal, time).
  ASSERT_EQ(files.size(), 7u) << "NeMo cases missing from " << kEvalDir;
  auto normalizer = Normalizer::Create(ZhOptions());
  ASSERT_TRUE(normalizer.ok()) << normalizer.status().message();
  const bool verbose = std::getenv("NEMO_EVAL_VERBOSE") != nullptr;
  int total = 0, agreed = 0;
  for (const std::string& file : files) {
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    std::string line;
    int n = 0, ok = 0;
    while (std::getline(in, line)) {
      size_t tilde = line.find('~');
      if (line.empty() || tilde == std::string::npos) continue;
      std::string input = line.substr(0, tilde), expected = line.substr(tilde + 1);
      CollectingReporter reporter;
      NormalizedParagraph p = (*normalizer)->Normalize({input, 1}, file, &reporter);
      std::string spoken = SpokenText(p.tokens);
      EXPECT_EQ(PrintedText(p.tokens), input);
      ++n;
      if (spoken == expected) {
        ++ok;
      } else if (verbose) {
        std::printf("  %s: %s -> %s (nemo: %s)\n", file.c_str(), input.c_str(), spoken.c_str(),
                    expected.c_str());
      }
    }
    std::printf("%-60s %3d/%3d  %5.1f%%\n", file.c_str(), ok, n, n ? 100.0 * ok / n : 0.0);
    total += n;
    agreed += ok;
  }
  double rate = total ? 100.0 * agreed / total : 0.0;
  std::printf("overall %d/%d  %.1f%%\n", agreed, total, rate);
  EXPECT_EQ(total, 301);  // every case of the copy was read
  EXPECT_GE(rate, kFloorPercent);
}

}  // namespace
}  // namespace narrate
