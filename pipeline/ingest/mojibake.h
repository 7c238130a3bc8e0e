// Private to the ingest stage: finds paragraphs of garbled text (mojibake) and
// repairs them when a re-decoding is clearly real text.
//
// Kinds handled, each tried on every suspicious paragraph:
//  - GBK bytes decoded one byte out of step (a lost or extra byte): re-encode
//    the garbled characters as GBK, shift by one byte, decode as GBK;
//  - UTF-8 bytes decoded as GBK (and saved again): re-encode as GBK, decode as
//    UTF-8;
//  - UTF-8 bytes decoded as a single-byte code page (windows-1252,
//  windows-1250,
//    ISO-8859-1/2): each run of non-ASCII characters that re-encodes with that
//    code page to well-formed UTF-8 of plausible characters (Latin letters,
//    punctuation, Hanzi) is replaced by its decoding; genuine accented letters
//    never form such runs (Ľudovít, môže stay as they are).
// A U+FFFD in a repaired paragraph marks a character that was lost (a byte
// the wrong decoder could not pair); the cleanup removes and reports it.
// Chinese text is judged by its share of common Hanzi (GB 2312 level 1 or Big5
// frequent): real prose is above 90%, garbled text far below.
//
// Thread-safe: no shared state.
#pragma once

#include <unicode/unistr.h>

#include <string>

namespace narrate {
namespace ingest_internal {

enum class MojibakeVerdict {
  kClean,     // not garbled (text unchanged)
  kRepaired,  // garbled; `repaired` holds the real text
  kGarbled,   // garbled and no repair reads as real text: drop it
};

struct MojibakeResult {
  MojibakeVerdict verdict = MojibakeVerdict::kClean;
  icu::UnicodeString repaired;
  std::string what;  // e.g. "UTF-8 decoded as GBK", for the diagnostic
};

MojibakeResult CheckMojibake(const icu::UnicodeString& paragraph);

// Garbled Chinese: enough Hanzi with a low share of common ones.
bool LooksGarbledChinese(const icu::UnicodeString& text);

}  // namespace ingest_internal
}  // namespace narrate
