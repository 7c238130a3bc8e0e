// Loading of the Chinese rule tables (see zh_tables.h). Runs once per
// Normalizer::Create(); no shared state.
#include "zh_tables.h"

#include <algorithm>

namespace narrate {
namespace normalize_internal {
namespace {

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

Status RowError(const std::string& path, int line, const std::string& what) {
  return Status::DataError(path + ":" + std::to_string(line) + ": " + what);
}

}  // namespace

StatusOr<std::vector<TsvRow>> ReadZhTable(const std::string& path, size_t columns) {
  StatusOr<std::vector<TsvRow>> rows = ReadTsv(path, columns, columns);
  if (!rows.ok()) return rows.status();
  for (const TsvRow& row : *rows) {
    for (const std::string& f : row.fields) {
      if (f.empty()) return RowError(path, row.line, "empty column");
    }
  }
  return rows;
}

StatusOr<ZhTables> LoadZhTables(const std::string& tables_dir) {
  const std::string dir = tables_dir + "/";
  ZhTables tables;

  auto liang = ReadZhTable(dir + "liang.tsv", 1);
  if (!liang.ok()) return liang.status();
  for (const TsvRow& r : *liang) {
    const auto& row = r.fields;
    tables.liang.insert(row[0]);
    tables.max_liang_chars = std::max(tables.max_liang_chars, CodePoints(row[0]));
  }

  const std::string symbols_path = dir + "symbols.tsv";
  auto symbols = ReadZhTable(symbols_path, 3);
  if (!symbols.ok()) return symbols.status();
  for (const TsvRow& r : *symbols) {
    const auto& row = r.fields;
    ZhSymbol symbol{row[0], row[1], ZhSymbol::Position::kSuffix};
    if (row[2] == "prefix") {
      symbol.position = ZhSymbol::Position::kPrefix;
    } else if (row[2] == "range") {
      symbol.position = ZhSymbol::Position::kRange;
    } else if (row[2] != "suffix") {
      return RowError(symbols_path, r.line,
                      "position '" + row[2] + "' is not prefix, suffix or range");
    }
    tables.symbols.push_back(symbol);
  }
  std::stable_sort(
      tables.symbols.begin(), tables.symbols.end(),
      [](const ZhSymbol& a, const ZhSymbol& b) { return a.text.size() > b.text.size(); });

  const std::string context_path = dir + "context.tsv";
  auto context = ReadZhTable(context_path, 2);
  if (!context.ok()) return context.status();
  for (const TsvRow& r : *context) {
    const auto& row = r.fields;
    if (row[1] != "digits" && row[1] != "era" && row[1] != "duration") {
      return RowError(context_path, r.line,
                      "class '" + row[1] + "' is not digits, era or duration");
    }
    tables.context[row[0]] = row[1];
    tables.max_context_chars = std::max(tables.max_context_chars, CodePoints(row[0]));
  }

  auto foreign = ReadZhTable(dir + "foreign.tsv", 2);
  if (!foreign.ok()) return foreign.status();
  for (const TsvRow& r : *foreign) {
    const auto& row = r.fields;
    if (row[0] == "*") {
      tables.default_foreign = row[1];
    } else {
      tables.foreign[row[0]] = row[1];
    }
  }
  return tables;
}

}  // namespace normalize_internal
}  // namespace narrate
