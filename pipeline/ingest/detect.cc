// Encoding detection and decoding for the ingest stage (see detect.h).
// Thread-safe: no shared state.
#include "detect.h"

#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "codec.h"
#include "core/language.h"

namespace narrate {
namespace ingest_internal {
namespace {

// Fewer stray control characters than this never make a file binary.
constexpr int32_t kMinBadControls = 8;

// Text has no NUL and few control characters; binary data has many. C1
// controls count only for single-byte encodings (`count_c1`): in UTF-8 they
// come from mojibake (UTF-8 read as Latin-1) and are left to the cleanup.
bool LooksLikeText(const icu::UnicodeString& text, bool count_c1) {
  int32_t bad = 0;
  for (int32_t i = 0; i < text.length(); ++i) {
    UChar c = text.charAt(i);
    if (c == 0) return false;
    if (IsBadControl(c) && (count_c1 || c < 0x80 || c > 0x9F)) ++bad;
  }
  return bad < kMinBadControls || bad * 20 <= text.length();  // at most 5%
}

// ICU's confidence (0-100) that `bytes` are in `name`; 0 when not listed.
int UcsdetConfidence(const std::string& bytes, const char* name) {
  UErrorCode status = U_ZERO_ERROR;
  UCharsetDetector* det = ucsdet_open(&status);
  if (U_FAILURE(status)) return 0;
  std::unique_ptr<UCharsetDetector, void (*)(UCharsetDetector*)> guard(det, ucsdet_close);
  ucsdet_setText(det, bytes.data(), static_cast<int32_t>(bytes.size()), &status);
  int32_t count = 0;
  const UCharsetMatch** matches = ucsdet_detectAll(det, &count, &status);
  if (U_FAILURE(status)) return 0;
  for (int32_t i = 0; i < count; ++i) {
    const char* match_name = ucsdet_getName(matches[i], &status);
    if (U_SUCCESS(status) && std::string(match_name) == name) {
      return ucsdet_getConfidence(matches[i], &status);
    }
  }
  return 0;
}

// UTF-16 without a BOM: most ASCII-range characters leave a zero byte in the
// high half.
const char* SniffUtf16(const std::string& bytes) {
  if (bytes.size() < 4 || bytes.size() % 2 != 0) return nullptr;
  size_t even_zero = 0, odd_zero = 0;
  for (size_t i = 0; i < bytes.size(); i += 2) {
    if (bytes[i] == 0) ++even_zero;
    if (bytes[i + 1] == 0) ++odd_zero;
  }
  const size_t units = bytes.size() / 2;
  if (odd_zero * 10 >= units * 3 && even_zero * 20 < units) return "UTF-16LE";
  if (even_zero * 10 >= units * 3 && odd_zero * 20 < units) return "UTF-16BE";
  return nullptr;
}

StatusOr<Decoded> Finish(Decoded decoded, const std::string& file) {
  // A byte order mark that the converter kept is not text.
  if (decoded.text.startsWith(icu::UnicodeString(static_cast<UChar>(0xFEFF)))) {
    decoded.text.remove(0, 1);
  }
  if (!LooksLikeText(decoded.text, /*count_c1=*/false)) {
    return Status::DataError(file + ": not text in " + decoded.encoding +
                             " (control characters or NUL bytes)");
  }
  return decoded;
}

StatusOr<Decoded> DecodeAs(const std::string& bytes, const std::string& file,
                           const std::string& encoding, const std::string& how) {
  Decoded decoded;
  decoded.encoding = encoding;
  decoded.how = how;
  if (!DecodeStrict(bytes, encoding.c_str(), &decoded.text)) {
    return Status::DataError(file + ": cannot be decoded as " + encoding);
  }
  return Finish(std::move(decoded), file);
}

// UTF-8 that is valid, cut inside its last character, or damaged in a few
// places among many good sequences. Returns false when it is not UTF-8.
bool TryUtf8(const std::string& bytes, Decoded* decoded) {
  const Utf8Scan scan = ScanUtf8(bytes);
  if (scan.invalid > 0 && scan.multibyte < 20 * scan.invalid) return false;
  std::string body = bytes.substr(0, bytes.size() - scan.truncated_tail);
  decoded->encoding = "UTF-8";
  decoded->how = "detected";
  decoded->truncated_bytes = scan.truncated_tail;
  if (scan.invalid == 0) return DecodeStrict(body, "UTF-8", &decoded->text);
  return DecodeLenient(body, "UTF-8", &decoded->text, &decoded->replaced_sequences);
}

struct Candidate {
  const char* encoding;
  double score;
  bool chinese;  // a double-byte Chinese encoding
};

// Punctuation common to both languages' typography: „“”‘’–—…·«» and the
// no-break space.
bool IsCommonPunctuation(UChar32 c) {
  return (c >= 0x2010 && c <= 0x2026) || c == 0xA0 || c == 0xAB || c == 0xBB || c == 0xB7;
}

}  // namespace

double ChineseScore(const icu::UnicodeString& text) {
  int expected = 0, other = 0, latin = 0;
  for (int32_t i = 0; i < text.length();) {
    const UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    if (c < 0x80) {
      if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ++latin;
      continue;
    }
    if (IsCommonHan(c) || IsCommonPunctuation(c) || (c >= 0x3000 && c <= 0x303F) ||
        (c >= 0xFF01 && c <= 0xFF5E)) {
      ++expected;
    } else {
      ++other;
    }
  }
  if (expected + other == 0) return 0;
  double share = static_cast<double>(expected) / (expected + other);
  // Chinese prose has more characters than Latin letters; a European text
  // read as double bytes has a few "Hanzi" among many letters.
  const double cjk = expected + other;
  if (cjk < latin) share *= cjk / latin;
  return share;
}

double SlovakScore(const icu::UnicodeString& text) {
  double expected = 0;
  int all = 0;
  for (int32_t i = 0; i < text.length(); ++i) {
    const UChar c = text.charAt(i);
    if (c < 0x80 || c == 0xAD) continue;  // soft hyphens: damage, no signal
    ++all;
    if (c == 0x13E || c == 0x13D) {
      // ľ Ľ are rarer than ž and š: a lone 0xBE is ž in ISO-8859-2 more often
      // than ľ in windows-1250.
      expected += 0.6;
    } else if (IsSlovakLetter(c) || (c >= 0x2013 && c <= 0x2026)) {
      expected += 1;
    } else if ((c >= 0xC0 && c <= 0x17F && c != 0xD7 && c != 0xF7) || c == 0xA0 || c == 0xAB ||
               c == 0xBB || c == 0xB7) {
      // Letters of other Latin alphabets (names: é, ü, ł) and rarer marks.
      expected += 0.5;
    }
  }
  return all == 0 ? 0 : expected / all;
}

StatusOr<Decoded> DecodeBytes(const std::string& bytes, const std::string& file,
                              const std::string& encoding, const std::string& lang) {
  if (!encoding.empty()) {
    // Given UTF-8 gets the same tolerance as detected UTF-8 (a character cut
    // at the end, a few damaged sequences), and its BOM is skipped.
    if (ucnv_compareNames(encoding.c_str(), "UTF-8") == 0) {
      Decoded decoded;
      const bool bom = bytes.compare(0, 3, "\xEF\xBB\xBF") == 0;
      if (!TryUtf8(bom ? bytes.substr(3) : bytes, &decoded)) {
        return Status::DataError(file + ": cannot be decoded as UTF-8");
      }
      decoded.how = "given";
      return Finish(std::move(decoded), file);
    }
    return DecodeAs(bytes, file, encoding, "given");
  }

  if (bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    Decoded decoded;
    if (!TryUtf8(bytes.substr(3), &decoded)) {
      return Status::DataError(file + ": UTF-8 byte order mark but not UTF-8");
    }
    decoded.how = "byte order mark";
    return Finish(std::move(decoded), file);
  }
  if (bytes.compare(0, 2, "\xFF\xFE") == 0) {
    return DecodeAs(bytes.substr(2), file, "UTF-16LE", "byte order mark");
  }
  if (bytes.compare(0, 2, "\xFE\xFF") == 0) {
    return DecodeAs(bytes.substr(2), file, "UTF-16BE", "byte order mark");
  }
  if (const char* utf16 = SniffUtf16(bytes)) {
    return DecodeAs(bytes, file, utf16, "detected");
  }
  if (bytes.find('\0') != std::string::npos) {
    return Status::DataError(file + ": binary data (NUL bytes), not text");
  }
  Decoded utf8;
  if (TryUtf8(bytes, &utf8)) return Finish(std::move(utf8), file);

  // Legacy encodings: the strict decoding that reads most like its
  // language's text wins. A language hint leaves out those its profile does
  // not list.
  constexpr Candidate kLegacy[] = {{"GB18030", 0, true},
                                   {"Big5", 0, true},
                                   {"windows-1250", 0, false},
                                   {"ISO-8859-2", 0, false}};
  const StatusOr<const LanguageProfile*> profile = FindLanguage(lang);
  std::vector<Candidate> candidates;
  for (const Candidate& c : kLegacy) {
    if (!profile.ok() ||
        std::find((*profile)->legacy_encodings.begin(), (*profile)->legacy_encodings.end(),
                  c.encoding) != (*profile)->legacy_encodings.end()) {
      candidates.push_back(c);
    }
  }
  const Candidate* best = nullptr;
  Decoded decoded;
  for (Candidate& c : candidates) {
    icu::UnicodeString text;
    if (!DecodeStrict(bytes, c.encoding, &text) || !LooksLikeText(text, /*count_c1=*/true)) {
      continue;
    }
    c.score = c.chinese ? ChineseScore(text) : SlovakScore(text);
    if (c.chinese) {
      // Near ties between GB18030 and Big5 (short texts, characters common to
      // both) go to ICU's frequency-based detector.
      c.score += UcsdetConfidence(bytes, c.encoding) / 10000.0;
    }
    if (best == nullptr || c.score > best->score) {
      best = &c;
      decoded.text = text;
    }
  }
  if (best == nullptr) {
    return Status::DataError(file +
                             ": cannot be decoded: not UTF-8, UTF-16, GB18030, "
                             "Big5, windows-1250 or ISO-8859-2 text");
  }
  decoded.encoding = best->encoding;
  decoded.how = "detected";
  return decoded;
}

}  // namespace ingest_internal
}  // namespace narrate
