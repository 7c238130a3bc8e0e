// Private to the normalize stage: the Chinese rule tables (rules/zh/*.tsv)
// loaded into memory, and the TSV reader they share.
// A ZhTables is immutable after LoadZhTables() and safe to share between
// threads.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace normalize_internal {

// Reads a TSV table (core's ReadTsv) whose rows have exactly `columns`
// non-empty fields. IoError when the file cannot be read, DataError naming
// file:line otherwise.
StatusOr<std::vector<TsvRow>> ReadZhTable(const std::string& path, size_t columns);

struct ZhSymbol {
  enum class Position { kPrefix, kSuffix, kRange };
  std::string text;     // as printed, e.g. "%", "km", "～"
  std::string reading;  // e.g. "百分之", "公里", "到"
  Position position = Position::kSuffix;
};

struct ZhTables {
  // liang.tsv: measure words before which 2 is said 两.
  std::set<std::string> liang;
  // symbols.tsv, longest symbol first (so "km" is tried before "m").
  std::vector<ZhSymbol> symbols;
  // context.tsv: word -> "digits", "era" or "duration".
  std::map<std::string, std::string> context;
  // foreign.tsv: lower-case word or diacritic letter -> language.
  std::map<std::string, Lang> foreign;
  Lang default_foreign = "en";   // the "*" row
  size_t max_liang_chars = 1;    // longest liang entry, in code points
  size_t max_context_chars = 1;  // longest context entry, in code points
};

// Loads tables_dir/{liang,symbols,context,foreign}.tsv (tables_dir: rules/zh).
StatusOr<ZhTables> LoadZhTables(const std::string& tables_dir);

}  // namespace normalize_internal
}  // namespace narrate
