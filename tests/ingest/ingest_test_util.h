// Helpers shared by the ingest tests: encode UTF-8 test text into other
// encodings with ICU converters (to build encoded copies and mojibake), and
// run Ingest with a collecting reporter. Not thread-safe (test use only).
#pragma once

#include <unicode/ucnv.h>

#include <string>
#include <vector>

#include "core/core.h"
#include "ingest/ingest.h"

namespace narrate {
namespace testing_util {

// Converts `text` from encoding `from` to encoding `to` (ICU names). Bytes that
// `from` cannot decode become the converter's substitute, as a careless
// program would produce.
inline std::string Convert(const std::string& text, const char* to, const char* from = "UTF-8") {
  UErrorCode status = U_ZERO_ERROR;
  std::string out(text.size() * 4 + 16, '\0');
  int32_t n = ucnv_convert(to, from, out.data(), static_cast<int32_t>(out.size()), text.data(),
                           static_cast<int32_t>(text.size()), &status);
  if (U_FAILURE(status)) return "<conversion failed: " + std::string(u_errorName(status)) + ">";
  out.resize(static_cast<size_t>(n));
  return out;
}

// Mojibake: UTF-8 `text` whose bytes were read as `wrong` and saved as UTF-8.
inline std::string Garble(const std::string& text, const char* wrong) {
  return Convert(text, "UTF-8", wrong);
}

struct Result {
  StatusOr<CleanText> clean;
  std::vector<Diagnostic> diagnostics;

  // Paragraph texts joined with '\n'.
  std::string Text() const {
    std::string out;
    if (!clean.ok()) return "<error: " + clean.status().message() + ">";
    for (const Paragraph& p : clean->paragraphs) {
      if (!out.empty()) out += "\n";
      out += p.text;
    }
    return out;
  }
  // Diagnostics as "file:line: message", joined with '\n'.
  std::string Diags() const {
    std::string out;
    for (const Diagnostic& d : diagnostics) out += d.ToString() + "\n";
    return out;
  }
  // True if a diagnostic at `line` contains `needle`.
  bool Reported(int line, const std::string& needle) const {
    for (const Diagnostic& d : diagnostics) {
      if (d.line == line && d.message.find(needle) != std::string::npos) {
        return true;
      }
    }
    return false;
  }
  // Count of warnings or errors (info left out).
  int Warnings() const {
    int n = 0;
    for (const Diagnostic& d : diagnostics) n += d.severity != Severity::kInfo;
    return n;
  }
};

inline Result IngestBytes(const std::string& bytes, const std::string& encoding = "",
                          const std::string& lang = "") {
  CollectingReporter reporter;
  IngestOptions options;
  options.encoding = encoding;
  options.lang = lang;
  StatusOr<CleanText> clean = Ingest(bytes, "t.txt", options, &reporter);
  return Result{std::move(clean), reporter.diagnostics()};
}

}  // namespace testing_util
}  // namespace narrate
