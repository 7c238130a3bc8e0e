// Unicode cleanup and truncation handling for the ingest stage (see clean.h).
// Thread-safe: no shared state.
#include "clean.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>

#include "codec.h"

namespace narrate {
namespace ingest_internal {
namespace {

bool IsZeroWidth(UChar32 c) { return (c >= 0x200B && c <= 0x200D) || c == 0x2060 || c == 0xFEFF; }

bool IsSentenceEnd(UChar32 c) {
  return c == 0x3002 || c == 0xFF01 || c == 0xFF1F || c == '!' || c == '?' || c == '.' ||
         c == 0x2026 || c == 0xFF0E;
}

// Closing quotes and brackets that may follow a sentence end.
bool IsCloser(UChar32 c) {
  switch (c) {
    case 0x201D:
    case 0x2019:
    case 0x300D:
    case 0x300F:
    case 0xFF09:
    case 0x3003:
    case 0x00BB:
    case 0x203A:
    case 0x300B:
    case 0x3011:
    case '"':
    case '\'':
    case ')':
    case ']':
      return true;
    default:
      return false;
  }
}

bool IsAsciiDigit(UChar32 c) { return c >= '0' && c <= '9'; }

std::string Plural(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::vector<std::string> CleanReport::Messages() const {
  std::vector<std::string> out;
  if (replacement > 0) {
    out.push_back("removed " +
                  Plural(replacement, "replacement character", "replacement characters") +
                  " (U+FFFD)");
  }
  if (control > 0) {
    out.push_back("removed " + Plural(control, "control character", "control characters"));
  }
  if (zero_width > 0) {
    out.push_back("removed " + Plural(zero_width, "zero-width character", "zero-width characters"));
  }
  if (soft_hyphen > 0) {
    out.push_back("removed " + Plural(soft_hyphen, "soft hyphen", "soft hyphens") + " (U+00AD)");
  }
  return out;
}

void CleanParagraph(icu::UnicodeString* text, CleanReport* report) {
  icu::UnicodeString out;
  for (int32_t i = 0; i < text->length();) {
    UChar32 c = text->char32At(i);
    i += U16_LENGTH(c);
    if (c == 0xFFFD) {
      ++report->replacement;
    } else if (c == '\t') {
      out.append(static_cast<UChar>(' '));
    } else if (IsBadControl(c) || c == '\n' || c == '\r' || c == '\f') {
      ++report->control;
    } else if (IsZeroWidth(c)) {
      ++report->zero_width;
    } else if (c == 0xAD) {
      ++report->soft_hyphen;
    } else {
      out.append(c);
    }
  }
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
  if (U_SUCCESS(status)) {
    icu::UnicodeString normalized = nfc->normalize(out, status);
    if (U_SUCCESS(status)) out = normalized;
  }
  // Full-width forms (all in the BMP, so indices are code units).
  for (int32_t i = 0; i < out.length(); ++i) {
    const UChar c = out.charAt(i);
    UChar mapped = 0;
    if ((c >= 0xFF10 && c <= 0xFF19) || (c >= 0xFF21 && c <= 0xFF3A) ||
        (c >= 0xFF41 && c <= 0xFF5A) || c == 0xFF05) {
      mapped = static_cast<UChar>(c - 0xFEE0);
    }
    if (mapped != 0) {
      out.setCharAt(i, mapped);
      ++report->full_width;
    }
  }
  // A full-width full stop between digits is a decimal point (１．５ -> 1.5).
  for (int32_t i = 1; i + 1 < out.length(); ++i) {
    if (out.charAt(i) == 0xFF0E && IsAsciiDigit(out.charAt(i - 1)) &&
        IsAsciiDigit(out.charAt(i + 1))) {
      out.setCharAt(i, '.');
      ++report->full_width;
    }
  }
  TrimSpace(&out);
  *text = out;
}

bool EndsSentence(const icu::UnicodeString& text) {
  int32_t i = text.length();
  while (i > 0) {
    UChar32 c = text.char32At(i - 1);
    if (IsCloser(c)) {
      i -= U16_LENGTH(c);
      continue;
    }
    return IsSentenceEnd(c);
  }
  return false;
}

icu::UnicodeString CutAfterLastSentence(icu::UnicodeString* text) {
  if (EndsSentence(*text)) return icu::UnicodeString();
  int32_t end = -1;
  for (int32_t i = 0; i < text->length();) {
    UChar32 c = text->char32At(i);
    i += U16_LENGTH(c);
    if (!IsSentenceEnd(c)) continue;
    // A '.' inside a word or number (3.5, e.g) is not a sentence end, nor
    // one after an initial (J. Novák).
    if (c == '.' && i < text->length() && !u_isspace(text->char32At(i)) &&
        !IsCloser(text->char32At(i))) {
      continue;
    }
    if (c == '.' && i >= 2 && u_isupper(text->char32At(i - 2)) &&
        (i == 2 || u_isspace(text->char32At(i - 3)))) {
      continue;
    }
    int32_t j = i;
    while (j < text->length() &&
           (IsSentenceEnd(text->char32At(j)) || IsCloser(text->char32At(j)))) {
      j += U16_LENGTH(text->char32At(j));
    }
    end = j;
  }
  if (end <= 0) return icu::UnicodeString();
  icu::UnicodeString fragment(*text, end);
  text->truncate(end);
  TrimSpace(text);
  TrimSpace(&fragment);
  return fragment;
}

void TrimSpace(icu::UnicodeString* text) {
  int32_t start = 0;
  while (start < text->length() && u_isUWhiteSpace(text->char32At(start))) {
    start += U16_LENGTH(text->char32At(start));
  }
  int32_t end = text->length();
  while (end > start && u_isUWhiteSpace(text->char32At(end - 1))) {
    end -= U16_LENGTH(text->char32At(end - 1));
  }
  text->retainBetween(start, end);
}

}  // namespace ingest_internal
}  // namespace narrate
