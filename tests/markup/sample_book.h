// The sample book marked up as `narrate mark` does (ingest, the real
// normalizer, cast.toml and overrides.toml) for the gold-annotation tests, and
// their TSV reader. Built once per test program.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "book/book.h"
#include "ingest/ingest.h"
#include "markup_test_util.h"

namespace narrate {
namespace testing_util {

inline const std::string kSampleBook = NARRATE_SOURCE_DIR "/books/napoleon";
inline const std::string kGold = NARRATE_TEST_DATA "/markup/gold";

// The rows of a gold TSV file (comments and blank lines skipped).
inline std::vector<std::vector<std::string>> GoldRows(const std::string& path) {
  StatusOr<std::vector<TsvRow>> rows = ReadTsv(path, 1, 16);
  EXPECT_TRUE(rows.ok()) << rows.status().message();
  std::vector<std::vector<std::string>> out;
  if (rows.ok()) {
    for (TsvRow& row : *rows) out.push_back(std::move(row.fields));
  }
  return out;
}

struct SampleScript {
  Script script;
  Cast cast;
  std::vector<std::string> files;  // chapter index - 1 -> file name
  CollectingReporter reporter;
  bool complete = false;  // nothing failed while it was read and marked up
};

// The chapters listed in gold/structure.tsv, in that order, with the book's
// cast.toml and overrides.toml, or (with_cast false) as a new user's book is
// read: without them. A failure while it is made is reported in the test that
// made it, and every test that uses it fails too.
inline SampleScript* MakeSampleBook(bool with_cast) {
  const ::testing::TestResult* result =
      ::testing::UnitTest::GetInstance()->current_test_info()->result();
  const int parts_before = result->total_part_count();
  SampleScript* b = new SampleScript;
  std::vector<ChapterSource> sources;
  for (const auto& row : GoldRows(kGold + "/structure.tsv")) {
    if (row[0] != "chapter") continue;
    const std::string file = row[2];
    const Lang lang = file.rfind("004", 0) == 0 ? "sk" : "zh";
    auto clean = IngestFile(kSampleBook + "/text/" + file, IngestOptions{"", lang}, &b->reporter);
    EXPECT_TRUE(clean.ok()) << clean.status().message();
    if (!clean.ok()) continue;
    ChapterSource s;
    s.file = file;
    s.lang = lang;
    s.title = Normalize(lang, row[3], 0).tokens;
    for (const Paragraph& p : clean->paragraphs) {
      s.paragraphs.push_back(Normalize(lang, p.text, p.line));
    }
    sources.push_back(std::move(s));
    b->files.push_back(file);
  }
  auto cast = LoadCast(kSampleBook + "/cast.toml");
  EXPECT_TRUE(cast.ok()) << cast.status().message();
  if (cast.ok()) b->cast = *cast;
  auto overrides = LoadOverrides(kSampleBook + "/overrides.toml");
  EXPECT_TRUE(overrides.ok()) << overrides.status().message();
  b->script = Markup("拿破仑的退位", "佚名", sources, with_cast ? b->cast : Cast(),
                     overrides.ok() && with_cast ? *overrides : Overrides(), {}, &b->reporter);
  b->complete = !b->files.empty() && result->total_part_count() == parts_before;
  return b;
}

// The sample book with its cast and overrides (the cast is in `cast` either
// way, for scoring).
inline const SampleScript& SampleBook(bool with_cast = true) {
  static SampleScript* with = nullptr;
  static SampleScript* without = nullptr;
  SampleScript*& book = with_cast ? with : without;
  if (book == nullptr) book = MakeSampleBook(with_cast);
  EXPECT_TRUE(book->complete) << "the sample book could not be read and marked up";
  return *book;
}

// The chapter of a file, named whole or by its prefix before "_" ("003").
inline const Chapter* ChapterOf(const SampleScript& book, const std::string& file) {
  for (size_t i = 0; i < book.files.size() && i < book.script.chapters.size(); ++i) {
    if (book.files[i] == file || book.files[i].rfind(file + "_", 0) == 0) {
      return &book.script.chapters[i];
    }
  }
  return nullptr;
}

}  // namespace testing_util
}  // namespace narrate
