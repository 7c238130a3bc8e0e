// Chinese normalization rules: numbers read as Hanzi numerals (cardinals,
// decimals, years, dates, times, ordinals, percentages, ranges, fractions, 两)
// and Latin-script foreign spans. The tables are rules/zh/*.tsv
// (zh_tables.h), the scanning in zh_scanner.h, the number words in
// zh_numbers.h. ChineseRules is immutable and safe to share between threads.
#include "rules.h"
#include "zh_scanner.h"
#include "zh_tables.h"

namespace narrate {
namespace normalize_internal {
namespace {

class ChineseRules : public LanguageRules {
 public:
  explicit ChineseRules(ZhTables tables) : tables_(std::move(tables)) {}

  void Tokenize(const std::string& text, const RuleContext&,
                std::vector<Token>* out) const override {
    ZhScanner(text, tables_).Run(out);
  }

 private:
  ZhTables tables_;
};

}  // namespace

StatusOr<std::unique_ptr<LanguageRules>> CreateChineseRules(const std::string& tables_dir) {
  StatusOr<ZhTables> tables = LoadZhTables(tables_dir);
  if (!tables.ok()) return tables.status();
  return std::unique_ptr<LanguageRules>(new ChineseRules(std::move(tables).value()));
}

}  // namespace normalize_internal
}  // namespace narrate
