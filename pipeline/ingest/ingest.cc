// The ingest stage: decodes a chapter file, splits it into paragraphs (one per
// non-blank source line), repairs or drops garbled paragraphs, cleans Unicode
// damage and cuts a truncated last sentence, reporting everything it changes.
// The pieces live in codec, detect, mojibake and clean (all private).
// Thread-safe: no shared state.
#include "ingest/ingest.h"

#include <unicode/unistr.h>

#include <utility>
#include <vector>

#include "clean.h"
#include "codec.h"
#include "detect.h"
#include "mojibake.h"

namespace narrate {
namespace {

using ingest_internal::CleanReport;
using ingest_internal::MojibakeResult;
using ingest_internal::MojibakeVerdict;

constexpr int32_t kPreviewChars = 16;

// The first characters of `text`, quoted, for a diagnostic.
std::string Preview(const icu::UnicodeString& text) {
  icu::UnicodeString head(text, 0, kPreviewChars);
  std::string out = "\"" + ingest_internal::ToUtf8(head);
  if (text.length() > kPreviewChars) out += "...";
  return out + "\"";
}

struct Line {
  icu::UnicodeString text;
  int number = 0;  // 1-based
};

// Splits on LF, CRLF or a lone CR.
std::vector<Line> SplitLines(const icu::UnicodeString& text) {
  std::vector<Line> lines;
  int number = 1;
  int32_t start = 0;
  const int32_t n = text.length();
  for (int32_t i = 0; i <= n; ++i) {
    const bool at_end = i == n;
    const UChar c = at_end ? 0 : text.charAt(i);
    if (!at_end && c != '\n' && c != '\r') continue;
    lines.push_back({icu::UnicodeString(text, start, i - start), number++});
    if (c == '\r' && i + 1 < n && text.charAt(i + 1) == '\n') ++i;
    start = i + 1;
  }
  return lines;
}

bool IsBlank(const icu::UnicodeString& text) {
  icu::UnicodeString copy(text);
  ingest_internal::TrimSpace(&copy);
  for (int32_t i = 0; i < copy.length(); ++i) {
    const UChar c = copy.charAt(i);
    if (!(c == 0xFEFF || (c >= 0x200B && c <= 0x200D) || c == 0x2060)) {
      return false;
    }
  }
  return true;
}

class Ingester {
 public:
  Ingester(const std::string& file, Reporter* reporter) : file_(file), reporter_(reporter) {}

  void Report(Severity severity, int line, const std::string& message) {
    if (reporter_ == nullptr) return;
    Diagnostic d;
    d.severity = severity;
    d.file = file_;
    d.line = line;
    d.message = message;
    reporter_->Report(d);
  }

  // Cleans one source line; false when nothing is left of it.
  bool CleanLine(Line* line) {
    MojibakeResult mojibake = ingest_internal::CheckMojibake(line->text);
    if (mojibake.verdict == MojibakeVerdict::kRepaired) {
      Report(Severity::kWarning, line->number,
             "garbled text (" + mojibake.what + ") " + Preview(line->text) + ": repaired as " +
                 Preview(mojibake.repaired));
      line->text = mojibake.repaired;
    } else if (mojibake.verdict == MojibakeVerdict::kGarbled) {
      Report(Severity::kWarning, line->number,
             mojibake.what + " " + Preview(line->text) +
                 ": no decoding reads as real text; paragraph dropped");
      return false;
    }
    CleanReport report;
    ingest_internal::CleanParagraph(&line->text, &report);
    for (const std::string& message : report.Messages()) {
      Report(Severity::kWarning, line->number, message);
    }
    return !line->text.isEmpty();
  }

  // Cuts an unfinished last sentence off the file's last paragraph.
  void CutTruncatedTail(Line* line) {
    icu::UnicodeString fragment = ingest_internal::CutAfterLastSentence(&line->text);
    if (fragment.isEmpty()) return;
    Report(Severity::kWarning, line->number,
           "text ends in the middle of a sentence: dropped the unfinished "
           "fragment " +
               Preview(fragment));
  }

 private:
  const std::string& file_;
  Reporter* reporter_;
};

}  // namespace

StatusOr<CleanText> Ingest(const std::string& bytes, const std::string& file,
                           const IngestOptions& options, Reporter* reporter) {
  StatusOr<ingest_internal::Decoded> decoded =
      ingest_internal::DecodeBytes(bytes, file, options.encoding, options.lang);
  if (!decoded.ok()) return decoded.status();

  Ingester ingester(file, reporter);
  ingester.Report(Severity::kInfo, 0, "encoding " + decoded->encoding + " (" + decoded->how + ")");

  std::vector<Line> lines = SplitLines(decoded->text);
  int last_line = 0;
  for (const Line& line : lines) {
    if (!IsBlank(line.text)) last_line = line.number;
  }
  if (decoded->truncated_bytes > 0) {
    ingester.Report(Severity::kWarning, last_line,
                    "file ends inside a character: dropped " +
                        std::to_string(decoded->truncated_bytes) + " trailing byte(s)");
  }

  CleanText out;
  out.file = file;
  out.encoding = decoded->encoding;
  for (Line& line : lines) {
    if (IsBlank(line.text)) continue;
    if (!ingester.CleanLine(&line)) continue;
    if (line.number == last_line) {
      ingester.CutTruncatedTail(&line);
      if (line.text.isEmpty()) continue;
    }
    out.paragraphs.push_back({ingest_internal::ToUtf8(line.text), line.number});
  }
  return out;
}

StatusOr<CleanText> IngestFile(const std::string& path, const IngestOptions& options,
                               Reporter* reporter) {
  StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  return Ingest(*bytes, path, options, reporter);
}

}  // namespace narrate
