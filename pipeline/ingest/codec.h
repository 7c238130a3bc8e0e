// Private to the ingest stage: byte <-> text conversion through ICU converters,
// strict UTF-8 scanning, and the statistics that tell real text from garbled
// text (share of common Hanzi, Slovak letters).
//
// Thread-safe: every function opens its own converter; the common-Hanzi tables
// are built once under a function-local static.
#pragma once

#include <unicode/unistr.h>

#include <cstddef>
#include <string>

namespace narrate {
namespace ingest_internal {

// Decodes `bytes` with the ICU converter `encoding`. Strict: fails (returns
// false) on the first illegal or unmapped byte sequence. `out` is undefined on
// failure.
bool DecodeStrict(const std::string& bytes, const char* encoding, icu::UnicodeString* out);

// Decodes with substitution: an illegal sequence becomes U+FFFD. `errors` (may
// be null) receives how many sequences were substituted.
bool DecodeLenient(const std::string& bytes, const char* encoding, icu::UnicodeString* out,
                   int* errors);

// Encodes `text` with `encoding`. Strict: false if any character has no
// mapping.
bool EncodeStrict(const icu::UnicodeString& text, const char* encoding, std::string* out);

// What a scan of bytes as UTF-8 found.
struct Utf8Scan {
  size_t multibyte = 0;       // well-formed sequences of 2-4 bytes
  size_t invalid = 0;         // ill-formed sequences (each counted once)
  size_t truncated_tail = 0;  // bytes of an incomplete sequence at the very end
};
Utf8Scan ScanUtf8(const std::string& bytes);

// Han characters (CJK unified ideographs, extensions, compatibility).
bool IsHan(UChar32 c);

// True if `c` is a common Hanzi: among the 3,755 level-1 characters of GB 2312
// (EUC-CN lead bytes 0xB0-0xD7), or the 5,401 frequent characters of Big5
// (lead bytes 0xA4-0xC6), so that traditional text counts as real too.
bool IsCommonHan(UChar32 c);

struct HanStats {
  int han = 0;     // Han characters
  int common = 0;  // of which IsCommonHan
  double CommonShare() const { return han == 0 ? 1.0 : static_cast<double>(common) / han; }
};
HanStats CountHan(const icu::UnicodeString& text);

// Letters of the Slovak (and Czech) alphabet beyond ASCII: á ä č ď é ě í ĺ ľ ň
// ó ô ŕ ř š ť ú ů ý ž, either case.
bool IsSlovakLetter(UChar32 c);

// C0 (except tab, LF, CR, FF) and C1 control characters.
bool IsBadControl(UChar32 c);

std::string ToUtf8(const icu::UnicodeString& text);

}  // namespace ingest_internal
}  // namespace narrate
