// The ingest stage: file bytes to clean UTF-8 paragraphs.
//
// Detects the encoding (BOMs, strict UTF-8, GB18030/GBK, Big5, Windows-1250,
// ISO-8859-2), repairs or drops garbled (mojibake) paragraphs, and removes damage
// (U+FFFD, control and zero-width characters, soft hyphens, a truncated tail).
// Everything repaired or dropped is reported with its file and line.
// Thread-safe: no shared state.
#pragma once

#include <string>

#include "core/core.h"

namespace narrate {

struct IngestOptions {
  // Encoding to decode with, as an ICU converter name ("UTF-8", "GB18030",
  // "windows-1250", ...). Default: empty, detect it.
  std::string encoding;
  // The language the text is expected to be in ("zh", "sk"), a hint for
  // encoding detection and mojibake repair. Default: empty, no hint.
  Lang lang;
};

// Decodes and cleans `bytes` read from `file` (the name is used in diagnostics).
// Returns DataError naming the file when the bytes cannot be decoded at all.
StatusOr<CleanText> Ingest(const std::string& bytes, const std::string& file,
                           const IngestOptions& options, Reporter* reporter);

// Reads `path` and ingests it. IoError when the file cannot be read.
StatusOr<CleanText> IngestFile(const std::string& path, const IngestOptions& options,
                               Reporter* reporter);

}  // namespace narrate
