// Private to the ingest stage: finds the encoding of a chapter file and decodes
// it to UTF-16 (ICU) text.
//
// Order: a declared encoding (IngestOptions::encoding) wins; then BOMs (UTF-8,
// UTF-16 LE/BE); then UTF-16 without BOM (zero bytes in alternate positions);
// then UTF-8 (strict, or with a few damaged sequences, or cut inside its last
// character); then the legacy encodings GB18030, Big5, windows-1250 and
// ISO-8859-2: of those that decode strictly, the one whose non-ASCII
// characters are most often what its language expects wins (common Hanzi and
// CJK punctuation; Slovak letters and typographic punctuation). This is what
// tells windows-1250 from ISO-8859-2: Š Ž š ž ť ľ sit at different bytes and
// read as ©, ®, ą, µ or C1 controls in the wrong one. A language hint with a
// profile leaves out the encodings it does not list (LanguageProfile::
// legacy_encodings: "zh" the Slovak ones, "sk" the Chinese ones). ICU's ucsdet
// (weak for these languages) only breaks near ties between GB18030 and Big5.
//
// Thread-safe: no shared state.
#pragma once

#include <unicode/unistr.h>

#include <string>

#include "core/core.h"

namespace narrate {
namespace ingest_internal {

struct Decoded {
  std::string encoding;  // ICU name as reported, e.g. "UTF-8", "GB18030"
  std::string how;       // "given", "byte order mark", "detected"
  icu::UnicodeString text;
  // Damage found while decoding (reported by the caller with line numbers).
  int replaced_sequences = 0;  // ill-formed UTF-8 sequences turned into U+FFFD
  size_t truncated_bytes = 0;  // bytes of a character cut off at the end
};

// Decodes `bytes`. `lang` is a hint ("zh", "sk" or empty). DataError naming
// `file` when no encoding decodes them as text.
StatusOr<Decoded> DecodeBytes(const std::string& bytes, const std::string& file,
                              const std::string& encoding, const std::string& lang);

// Share (0-1) of the non-ASCII characters of a decoded text that its
// language expects. Exposed for tests.
double ChineseScore(const icu::UnicodeString& text);
double SlovakScore(const icu::UnicodeString& text);

}  // namespace ingest_internal
}  // namespace narrate
