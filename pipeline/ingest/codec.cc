// ICU conversion helpers and text statistics for the ingest stage (see
// codec.h). Thread-safe: no mutable shared state besides function-local static
// tables.
#include "codec.h"

#include <unicode/ucnv.h>
#include <unicode/utf8.h>

#include <bitset>
#include <memory>
#include <string>
#include <vector>

namespace narrate {
namespace ingest_internal {
namespace {

struct ConverterCloser {
  void operator()(UConverter* c) const { ucnv_close(c); }
};
using ConverterPtr = std::unique_ptr<UConverter, ConverterCloser>;

ConverterPtr OpenConverter(const char* encoding, bool strict) {
  UErrorCode status = U_ZERO_ERROR;
  ConverterPtr conv(ucnv_open(encoding, &status));
  if (U_FAILURE(status)) return nullptr;
  if (strict) {
    ucnv_setToUCallBack(conv.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
    ucnv_setFromUCallBack(conv.get(), UCNV_FROM_U_CALLBACK_STOP, nullptr, nullptr, nullptr,
                          &status);
  } else {
    // Illegal input becomes U+FFFD whatever the converter's own substitute is.
    static const UChar kReplacement[] = {0xFFFD};
    ucnv_setToUCallBack(conv.get(), UCNV_TO_U_CALLBACK_SUBSTITUTE, nullptr, nullptr, nullptr,
                        &status);
    ucnv_setSubstString(conv.get(), kReplacement, 1, &status);
  }
  if (U_FAILURE(status)) return nullptr;
  return conv;
}

bool Decode(const std::string& bytes, const char* encoding, bool strict, icu::UnicodeString* out) {
  ConverterPtr conv = OpenConverter(encoding, strict);
  if (!conv) return false;
  out->remove();
  if (bytes.empty()) return true;
  // UTF-16 needs at most one unit per byte for every converter used here.
  const int32_t capacity = static_cast<int32_t>(bytes.size()) + 4;
  UChar* buffer = out->getBuffer(capacity);
  UErrorCode status = U_ZERO_ERROR;
  int32_t length = ucnv_toUChars(conv.get(), buffer, capacity, bytes.data(),
                                 static_cast<int32_t>(bytes.size()), &status);
  out->releaseBuffer(U_SUCCESS(status) ? length : 0);
  return U_SUCCESS(status);
}

// Marks in `table` (indexed by code point) what `encoding` decodes each
// two-byte code with a lead in [lead_lo, lead_hi] to, taken alone. All the
// codes are decoded in one call (a call per code would be thousands of
// converter calls in every process that reads Chinese), each followed by a
// newline so that no code runs into the next: an illegal trail byte that could
// be a lead byte is decoded as one, with the newline then. ICU's offsets say
// which byte each character came from.
void AddDoubleByteRange(const char* encoding, int lead_lo, int lead_hi,
                        std::bitset<0x30000>* table) {
  // ICU's default: what cannot be decoded becomes the converter's substitute.
  UErrorCode status = U_ZERO_ERROR;
  ConverterPtr conv(ucnv_open(encoding, &status));
  if (U_FAILURE(status)) return;
  constexpr int kStride = 3;  // lead, trail, newline
  std::string bytes;
  for (int lead = lead_lo; lead <= lead_hi; ++lead) {
    for (int trail = 0x40; trail <= 0xFE; ++trail) {
      if (trail == 0x7F) continue;
      bytes += {static_cast<char>(lead), static_cast<char>(trail), '\n'};
    }
  }
  // At most one UTF-16 unit per byte, as in Decode.
  std::vector<UChar> out(bytes.size() + 4);
  std::vector<int32_t> from(out.size());
  UChar* target = out.data();
  const char* source = bytes.data();
  ucnv_toUnicode(conv.get(), &target, target + out.size(), &source, source + bytes.size(),
                 from.data(), true, &status);
  if (U_FAILURE(status)) return;
  const int32_t n = static_cast<int32_t>(target - out.data());
  for (int32_t i = 0; i < n;) {
    const int32_t at = i;
    UChar32 c;
    U16_NEXT(out.data(), i, n, c);
    // One character from the lead byte, and the next from the newline.
    const bool whole = from[at] % kStride == 0 && i < n && from[i] == from[at] + 2;
    if (whole && c < 0x30000 && IsHan(c)) table->set(c);
  }
}

const std::bitset<0x30000>& CommonHanTable() {
  static const std::bitset<0x30000>* table = [] {
    auto* t = new std::bitset<0x30000>();
    AddDoubleByteRange("GB2312", 0xB0, 0xD7, t);  // GB 2312 level 1
    AddDoubleByteRange("Big5", 0xA4, 0xC6, t);    // Big5 frequent characters
    return t;
  }();
  return *table;
}

}  // namespace

bool DecodeStrict(const std::string& bytes, const char* encoding, icu::UnicodeString* out) {
  return Decode(bytes, encoding, true, out);
}

bool DecodeLenient(const std::string& bytes, const char* encoding, icu::UnicodeString* out,
                   int* errors) {
  if (!Decode(bytes, encoding, false, out)) return false;
  if (errors != nullptr) {
    *errors = 0;
    for (int32_t i = 0; i < out->length(); ++i) {
      if (out->charAt(i) == 0xFFFD) ++*errors;
    }
  }
  return true;
}

bool EncodeStrict(const icu::UnicodeString& text, const char* encoding, std::string* out) {
  ConverterPtr conv = OpenConverter(encoding, true);
  if (!conv) return false;
  out->clear();
  if (text.isEmpty()) return true;
  UErrorCode status = U_ZERO_ERROR;
  int32_t needed =
      ucnv_fromUChars(conv.get(), nullptr, 0, text.getBuffer(), text.length(), &status);
  if (status != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(status)) return false;
  out->resize(static_cast<size_t>(needed));
  status = U_ZERO_ERROR;
  ucnv_resetFromUnicode(conv.get());
  ucnv_fromUChars(conv.get(), out->data(), needed, text.getBuffer(), text.length(), &status);
  return U_SUCCESS(status);
}

Utf8Scan ScanUtf8(const std::string& bytes) {
  Utf8Scan scan;
  const auto* s = reinterpret_cast<const uint8_t*>(bytes.data());
  const int32_t n = static_cast<int32_t>(bytes.size());
  int32_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      ++i;
      continue;
    }
    const int32_t start = i;
    UChar32 c;
    U8_NEXT(s, i, n, c);
    if (c >= 0) {
      ++scan.multibyte;
    } else if (i == n && U8_COUNT_TRAIL_BYTES(s[start]) + 1 > n - start && U8_IS_LEAD(s[start])) {
      scan.truncated_tail = static_cast<size_t>(n - start);
    } else {
      ++scan.invalid;
    }
  }
  return scan;
}

bool IsHan(UChar32 c) {
  return (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3134F);
}

bool IsCommonHan(UChar32 c) { return c >= 0 && c < 0x30000 && CommonHanTable().test(c); }

HanStats CountHan(const icu::UnicodeString& text) {
  HanStats stats;
  for (int32_t i = 0; i < text.length();) {
    UChar32 c = text.char32At(i);
    i += U16_LENGTH(c);
    if (!IsHan(c)) continue;
    ++stats.han;
    if (IsCommonHan(c)) ++stats.common;
  }
  return stats;
}

bool IsSlovakLetter(UChar32 c) {
  static const char16_t kLetters[] = u"áäčďéěíĺľňóôŕřšťúůýžÁÄČĎÉĚÍĹĽŇÓÔŔŘŠŤÚŮÝŽ";
  for (const char16_t* p = kLetters; *p != 0; ++p) {
    if (c == *p) return true;
  }
  return false;
}

bool IsBadControl(UChar32 c) {
  if (c == '\t' || c == '\n' || c == '\r' || c == '\f') return false;
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

std::string ToUtf8(const icu::UnicodeString& text) {
  std::string out;
  text.toUTF8String(out);
  return out;
}

}  // namespace ingest_internal
}  // namespace narrate
