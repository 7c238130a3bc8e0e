// Mojibake detection and repair for the ingest stage (see mojibake.h).
// Thread-safe: no shared state.
#include "mojibake.h"

#include "codec.h"
#include "frequent_han.h"

namespace narrate {
namespace ingest_internal {
namespace {

// Below this share of common Hanzi a paragraph is suspicious...
constexpr double kGarbledShare = 0.8;
// ...and a repair must reach this share to be believed.
constexpr double kRealShare = 0.9;
// Fewer Hanzi than this say too little to judge by share alone.
constexpr int kMinHan = 6;
// A byte-shifted GBK decoding turns any bytes into Hanzi, most of them common:
// it must also read like prose, with this share of frequent characters (real
// prose: above 0.8; random level-1 characters: about 0.3, rarely above 0.55
// over 40 characters) over at least kMinShiftedHan characters.
constexpr double kFrequentShare = 0.7;
constexpr int kMinShiftedHan = 8;

// Characters that a single-byte code page produces from UTF-8 lead bytes
// (0xC2-0xF4) in windows-1252/1250 and ISO-8859-1/2.
bool IsLatinLeadArtifact(UChar c) {
  return (c >= 0xC2 && c <= 0xF4) || c == 0x102 || c == 0x103 || c == 0x139 || c == 0x13A ||
         c == 0x141 || c == 0x143 || c == 0x147 || c == 0x150 || c == 0x154 || c == 0x158 ||
         c == 0x164 || c == 0x16E || c == 0x170 || c == 0x10C || c == 0x10D || c == 0x10E ||
         c == 0x10F || c == 0x11A || c == 0x118 || c == 0x155 || c == 0x159 || c == 0x165 ||
         c == 0x16F || c == 0x171 || c == 0x144 || c == 0x148 || c == 0x151 || c == 0x111 ||
         c == 0x110;
}

// A real-text judgement for a repaired candidate. `from_any_bytes`: the
// decoding would have succeeded on random bytes too (shifted GBK), so the
// candidate must also be made of frequent characters.
bool ReadsAsReal(const icu::UnicodeString& text, bool from_any_bytes = false) {
  if (from_any_bytes && text.indexOf(static_cast<UChar>(0xFFFD)) >= 0) {
    return false;
  }
  for (int32_t i = 0; i < text.length(); ++i) {
    if (IsBadControl(text.charAt(i))) return false;
  }
  const HanStats stats = CountHan(text);
  if (from_any_bytes) {
    if (stats.han < kMinShiftedHan) return false;
    int frequent = 0;
    for (int32_t i = 0; i < text.length();) {
      const UChar32 c = text.char32At(i);
      i += U16_LENGTH(c);
      if (IsFrequentHan(c)) ++frequent;
    }
    if (frequent < kFrequentShare * stats.han) return false;
  }
  if (stats.han > 0) return stats.CommonShare() >= kRealShare;
  return true;
}

// Characters a repair may produce: Latin-1 and Latin Extended-A (every Central
// and Western European language), general and CJK punctuation, the euro sign,
// Hanzi and full-width forms. Anything else (Latin Extended-B, Khmer ...) means
// the "repair" was a coincidence.
bool IsPlausibleRepair(UChar32 c) {
  return c < 0x80 || (c >= 0xA0 && c <= 0x17F) || (c >= 0x2010 && c <= 0x206F) || c == 0x20AC ||
         (c >= 0x3000 && c <= 0x303F) || IsHan(c) || (c >= 0xFF00 && c <= 0xFFEF);
}

// Repairs one run of non-ASCII characters that is UTF-8 read as `page`.
// False when the run is not that (then it is left as it is).
bool RepairRun(const icu::UnicodeString& run, const char* page, icu::UnicodeString* out) {
  std::string bytes;
  if (!EncodeStrict(run, page, &bytes)) return false;
  const Utf8Scan scan = ScanUtf8(bytes);
  if (scan.invalid > 0 || scan.truncated_tail > 0 || scan.multibyte == 0) {
    return false;
  }
  if (!DecodeStrict(bytes, "UTF-8", out)) return false;
  for (int32_t i = 0; i < out->length();) {
    const UChar32 c = out->char32At(i);
    i += U16_LENGTH(c);
    if (!IsPlausibleRepair(c)) return false;
  }
  return true;
}

// UTF-8 mis-read as a single-byte code page: each run of non-ASCII characters
// that re-encodes to well-formed UTF-8 is replaced by its decoding. Runs of
// genuine accented letters (á, ľú, môž) are not well-formed UTF-8 and stay.
bool TryLatinRepair(const icu::UnicodeString& text, icu::UnicodeString* out, std::string* what) {
  int artifacts = 0;
  for (int32_t i = 0; i < text.length(); ++i) {
    if (IsLatinLeadArtifact(text.charAt(i))) ++artifacts;
  }
  if (artifacts == 0) return false;
  static const char* const kPages[] = {"windows-1252", "windows-1250", "ISO-8859-1", "ISO-8859-2"};
  int best = 0;
  const int32_t n = text.length();
  for (const char* page : kPages) {
    icu::UnicodeString candidate;
    int repaired = 0;
    for (int32_t i = 0; i < n;) {
      if (text.charAt(i) < 0x80) {
        candidate.append(text.charAt(i++));
        continue;
      }
      int32_t j = i;
      while (j < n && text.charAt(j) >= 0x80) ++j;
      icu::UnicodeString run(text, i, j - i);
      icu::UnicodeString fixed;
      if (RepairRun(run, page, &fixed)) {
        candidate.append(fixed);
        ++repaired;
      } else {
        candidate.append(run);
      }
      i = j;
    }
    if (repaired > best && ReadsAsReal(candidate)) {
      best = repaired;
      *out = candidate;
      *what = std::string("UTF-8 text decoded as ") + page;
    }
  }
  return best > 0;
}

// UTF-8 read as GBK: the GBK bytes of the garbled text are the UTF-8 bytes.
// Each U+FFFD in it stands for one byte GBK could not pair; it is kept as an
// invalid byte, so the character it belonged to comes out as U+FFFD (removed
// and reported by the cleanup) and the rest of the paragraph survives.
bool TryUtf8ReadAsGbk(const icu::UnicodeString& text, const char* gbk, icu::UnicodeString* out,
                      std::string* what) {
  std::string bytes;
  int32_t start = 0;
  while (true) {
    const int32_t lost = text.indexOf(static_cast<UChar>(0xFFFD), start);
    const int32_t end = lost < 0 ? text.length() : lost;
    std::string piece;
    if (!EncodeStrict(icu::UnicodeString(text, start, end - start), gbk, &piece)) {
      return false;
    }
    bytes += piece;
    if (lost < 0) break;
    bytes += '\xFF';  // never valid in UTF-8
    start = lost + 1;
  }
  const Utf8Scan scan = ScanUtf8(bytes);
  if (scan.multibyte == 0) return false;
  icu::UnicodeString candidate;
  if (!DecodeLenient(bytes, "UTF-8", &candidate, nullptr)) return false;
  int lost_chars = 0;  // one per unpaired byte
  for (int32_t i = 0; i < text.length(); ++i) {
    if (text.charAt(i) == 0xFFFD) ++lost_chars;
  }
  icu::UnicodeString kept(candidate);
  kept.findAndReplace(icu::UnicodeString(static_cast<UChar>(0xFFFD)), icu::UnicodeString());
  const HanStats stats = CountHan(kept);
  // Few losses (one character in eight, one more in a short line), and what
  // is left is real text.
  if (stats.han == 0 || lost_chars * 8 > stats.han + 8) return false;
  if (!ReadsAsReal(kept)) return false;
  // One U+FFFD per lost character (the decoder may give two for one).
  const icu::UnicodeString two(u"\uFFFD\uFFFD", 2);
  while (candidate.indexOf(two) >= 0) {
    candidate.findAndReplace(two, icu::UnicodeString(static_cast<UChar>(0xFFFD)));
  }
  *out = candidate;
  *what = "UTF-8 text decoded as GBK";
  if (lost_chars > 0) {
    *what += "; " + std::to_string(lost_chars) + " unpaired byte(s), " + "their characters lost";
  }
  return true;
}

// GBK read one byte out of step: the GBK bytes of the garbled text, shifted by
// one byte, are the real GBK bytes (the first and last character are lost).
bool TryShiftedGbk(const icu::UnicodeString& text, const char* gbk, icu::UnicodeString* out,
                   std::string* what) {
  icu::UnicodeString body(text);
  // A U+FFFD stands for a byte the wrong decoding could not place.
  body.findAndReplace(icu::UnicodeString(static_cast<UChar>(0xFFFD)), icu::UnicodeString());
  std::string bytes;
  if (!EncodeStrict(body, gbk, &bytes) || bytes.size() < 3) return false;
  const std::string tries[] = {bytes.substr(1), bytes.substr(1, bytes.size() - 2)};
  for (const std::string& b : tries) {
    icu::UnicodeString candidate;
    if (!DecodeStrict(b, "GB18030", &candidate)) continue;
    if (!ReadsAsReal(candidate, /*from_any_bytes=*/true)) continue;
    *out = candidate;
    *what = "GBK text decoded one byte out of step";
    return true;
  }
  return false;
}

}  // namespace

bool LooksGarbledChinese(const icu::UnicodeString& text) {
  const HanStats stats = CountHan(text);
  if (stats.han >= kMinHan) return stats.CommonShare() < kGarbledShare;
  // A short run of mostly rare characters is garbled too.
  return stats.han >= 3 && stats.han - stats.common >= 3 && stats.CommonShare() < 0.5;
}

MojibakeResult CheckMojibake(const icu::UnicodeString& paragraph) {
  MojibakeResult result;
  std::string what;
  icu::UnicodeString repaired;
  if (TryLatinRepair(paragraph, &repaired, &what)) {
    result.verdict = MojibakeVerdict::kRepaired;
    result.repaired = repaired;
    result.what = what;
    return result;
  }
  if (!LooksGarbledChinese(paragraph)) return result;
  // Windows' GBK (code page 936: 0x80 is the euro sign) and GB18030 differ in
  // a few single characters: the garbling program may have used either.
  for (const char* gbk : {"GBK", "GB18030"}) {
    if (TryUtf8ReadAsGbk(paragraph, gbk, &repaired, &what) ||
        TryShiftedGbk(paragraph, gbk, &repaired, &what)) {
      result.verdict = MojibakeVerdict::kRepaired;
      result.repaired = repaired;
      result.what = what;
      return result;
    }
  }
  result.verdict = MojibakeVerdict::kGarbled;
  result.what = "garbled Chinese text (few common characters)";
  return result;
}

}  // namespace ingest_internal
}  // namespace narrate
