// Private to the ingest stage: Unicode cleanup of one paragraph, and the cut of
// a truncated last sentence.
//
// Cleanup removes U+FFFD, C0/C1 control characters (a tab becomes a space),
// zero-width characters (U+200B-U+200D, U+2060, U+FEFF) and soft hyphens
// (U+00AD); applies NFC; maps full-width ASCII digits and Latin letters
// (U+FF10-U+FF19, U+FF21-U+FF3A, U+FF41-U+FF5A) and the full-width percent
// sign U+FF05 to ASCII, and a full-width full stop U+FF0E between two digits to
// '.'. CJK punctuation (，。：；！？（）“”《》〃 ...) is kept as is. The
// ideographic space U+3000 is kept inside a paragraph (it is whitespace to
// every later stage) and trimmed, like all whitespace, at both ends.
//
// Thread-safe: no shared state (the NFC normalizer is ICU's immutable
// singleton).
#pragma once

#include <unicode/unistr.h>

#include <string>
#include <vector>

namespace narrate {
namespace ingest_internal {

// What CleanParagraph removed, one entry per kind, for the diagnostics.
struct CleanReport {
  int replacement = 0;  // U+FFFD
  int control = 0;      // C0/C1 controls
  int zero_width = 0;   // U+200B-U+200D, U+2060, U+FEFF
  int soft_hyphen = 0;  // U+00AD
  int full_width = 0;   // full-width characters mapped to ASCII
  // "removed 2 replacement characters (U+FFFD)", ... (full-width mapping is
  // not damage and is not listed).
  std::vector<std::string> Messages() const;
};

// Cleans `text` in place.
void CleanParagraph(icu::UnicodeString* text, CleanReport* report);

// True if `text` ends a sentence: its last character, after closing quotes and
// brackets, is a sentence-final mark (。！？!?.…).
bool EndsSentence(const icu::UnicodeString& text);

// Cuts `text` after its last complete sentence. Returns the removed fragment
// (empty when `text` already ends a sentence, or when it holds no sentence end
// at all, e.g. a heading: then nothing is cut).
icu::UnicodeString CutAfterLastSentence(icu::UnicodeString* text);

// Trims whitespace (including U+3000) at both ends.
void TrimSpace(icu::UnicodeString* text);

}  // namespace ingest_internal
}  // namespace narrate
