// File-name slugs, cue sheet and caption writing.
#include "outputs.h"

#include "core/language.h"
#include "tags_writer.h"

#include <unicode/normalizer2.h>
#include <unicode/translit.h>
#include <unicode/uchar.h>
#include <unicode/udata.h>
#include <unicode/unistr.h>
#include <unicode/ures.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

namespace narrate {
namespace assemble_internal {
namespace {

// The pinyin readings of Han characters, from ICU's own Han-Latin rules,
// read once per process. Those are "[characters]→reading" rules and a few
// readings that depend on the next character ("重 } \u0020? 庆 →chóng");
// read as a table they are a quick scan, where building ICU's Han-Latin
// transliterator from them compiles thousands of rules in every process that
// names a file (README: figures). Empty when the rules are not
// laid out like that (another ICU): the characters then go to ICU's
// transliterator, with the same result.
class HanReadings {
 public:
  static const HanReadings& Get() {
    static const HanReadings readings = Read();
    return readings;
  }

  // The reading of the character at `i` of `text`, null if none.
  const icu::UnicodeString* Of(const icu::UnicodeString& text, int32_t i) const {
    const UChar32 c = text.char32At(i);
    int32_t next = text.moveIndex32(i, 1);
    if (next < text.length() && text.char32At(next) == u' ') ++next;
    if (next < text.length()) {
      auto found = before_.find({c, text.char32At(next)});
      if (found != before_.end()) return &readings_[found->second];
    }
    auto found = std::lower_bound(alone_.begin(), alone_.end(), std::make_pair(c, uint32_t{0}));
    return found != alone_.end() && found->first == c ? &readings_[found->second] : nullptr;
  }

 private:
  static HanReadings Read();

  std::vector<icu::UnicodeString> readings_;
  std::vector<std::pair<UChar32, uint32_t>> alone_;         // by character: its reading's index
  std::map<std::pair<UChar32, UChar32>, uint32_t> before_;  // (c, next): c's reading's index
};

icu::UnicodeString Trimmed(const icu::UnicodeString& s) {
  icu::UnicodeString t = s;
  return t.trim();
}

HanReadings HanReadings::Read() {
  HanReadings none, table;
  UErrorCode status = U_ZERO_ERROR;
  icu::LocalUResourceBundlePointer data(
      ures_openDirect(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "translit", "root", &status));
  icu::LocalUResourceBundlePointer ids(
      ures_getByKey(data.getAlias(), "RuleBasedTransliteratorIDs", nullptr, &status));
  icu::LocalUResourceBundlePointer han(
      ures_getByKey(ids.getAlias(), "Hani-Latn", nullptr, &status));
  icu::LocalUResourceBundlePointer file(ures_getByKey(han.getAlias(), "file", nullptr, &status));
  int32_t length = 0;
  const UChar* source = ures_getStringByKey(file.getAlias(), "resource", &length, &status);
  if (U_FAILURE(status)) return none;
  const icu::UnicodeString rules(false, source, length);  // read-only alias
  table.alone_.reserve(static_cast<size_t>(length));      // more than the characters listed
  for (int32_t at = 0; at < rules.length();) {
    int32_t end = rules.indexOf(u';', at);
    if (end < 0) end = rules.length();
    const icu::UnicodeString rule = Trimmed(icu::UnicodeString(rules, at, end - at));
    at = end + 1;
    if (rule.isEmpty() || rule == u"::Han-Spacedhan()") continue;  // the spacing: see Slug
    const int32_t arrow = rule.indexOf(u'→');
    if (arrow <= 0) return none;
    const icu::UnicodeString left = Trimmed(icu::UnicodeString(rule, 0, arrow));
    const auto reading = static_cast<uint32_t>(table.readings_.size());
    table.readings_.push_back(Trimmed(icu::UnicodeString(rule, arrow + 1)));
    if (left.length() > 2 && left[0] == u'[' && left[left.length() - 1] == u']') {
      // A set of characters and ranges ("辧-辩"), no escapes.
      const icu::UnicodeString set(left, 1, left.length() - 2);
      for (int32_t i = 0; i < set.length(); i = set.moveIndex32(i, 1)) {
        const UChar32 first = set.char32At(i);
        UChar32 last = first;
        const int32_t dash = set.moveIndex32(i, 1);
        if (dash + 1 < set.length() && set[dash] == u'-') {
          last = set.char32At(dash + 1);
          i = dash + 1;
        }
        for (UChar32 c = first; c <= last; ++c) table.alone_.emplace_back(c, reading);
      }
    } else if (left.countChar32() == 1) {
      table.alone_.emplace_back(left.char32At(0), reading);
    } else {
      // "c } \u0020? d": c, when d follows (after a space or not).
      const icu::UnicodeString rest = Trimmed(icu::UnicodeString(left, left.moveIndex32(0, 1)));
      const icu::UnicodeString context = u"} \\u0020? ";
      if (!rest.startsWith(context) || rest.countChar32() != context.length() + 1) return none;
      table.before_.emplace(std::make_pair(left.char32At(0), rest.char32At(context.length())),
                            reading);
    }
  }
  // By character, then by rule: of a character's rules, the first wins (as in
  // ICU).
  std::sort(table.alone_.begin(), table.alone_.end());
  table.alone_.erase(std::unique(table.alone_.begin(), table.alone_.end(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; }),
                     table.alone_.end());
  return table;
}

}  // namespace

std::string ChapterFileStem(const Chapter& chapter) {
  char num[16];
  std::snprintf(num, sizeof num, "%02d-", chapter.index);
  return num + Slug(chapter.title);
}

std::string Slug(const std::string& title) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString text = icu::UnicodeString::fromUTF8(title);
  // Han characters as pinyin, each a word of its own; the rest as it is.
  const HanReadings& readings = HanReadings::Get();
  icu::UnicodeString latin;
  for (int32_t i = 0; i < text.length(); i = text.moveIndex32(i, 1)) {
    const UChar32 c = text.char32At(i);
    const icu::UnicodeString* reading = readings.Of(text, i);
    if (reading != nullptr) {
      latin.append(u' ').append(*reading).append(u' ');
    } else {
      latin.append(c);
    }
  }
  // To ASCII: compatibility forms and accents go (Ｆ, ﬁ, á, ǎ); what is not
  // a letter or digit only separates words. A letter with no ASCII form
  // (ß, Cyrillic, kana, a Han character ICU has no reading for) needs ICU's
  // transliterators.
  const icu::Normalizer2* nfkd = icu::Normalizer2::getNFKDInstance(status);
  const icu::UnicodeString folded = U_SUCCESS(status) ? nfkd->normalize(latin, status) : latin;
  std::string ascii;
  bool other_letters = U_FAILURE(status);
  for (int32_t i = 0; i < folded.length() && !other_letters; i = folded.moveIndex32(i, 1)) {
    const UChar32 c = folded.char32At(i);
    if (c < 0x80) {
      ascii += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (u_charType(c) != U_NON_SPACING_MARK) {
      if (u_isalnum(c)) other_letters = true;
      ascii += ' ';
    }
  }
  if (other_letters) {
    status = U_ZERO_ERROR;
    std::unique_ptr<icu::Transliterator> t(icu::Transliterator::createInstance(
        "Any-Latin; Latin-ASCII; Lower", UTRANS_FORWARD, status));
    ascii.clear();
    if (U_SUCCESS(status)) {
      icu::UnicodeString u = latin;
      t->transliterate(u);
      u.toUTF8String(ascii);
    }
  }
  std::string slug;
  for (char c : ascii) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      slug += c;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
    if (slug.size() >= 40) break;
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "chapter" : slug;
}

std::string ChapterVtt(const Chapter& chapter, const ChapterRecord& audio) {
  const StatusOr<const LanguageProfile*> language = FindLanguage(chapter.lang);
  const int max_chars =
      language.ok() ? (*language)->caption_width : LanguageProfile().caption_width;
  std::string vtt = "WEBVTT\n\n";
  int cue = 0;
  for (size_t i = 0; i < chapter.utterances.size(); ++i) {
    const RecordedUtterance& u = audio.utterances[i];
    const std::vector<ManifestWord>& words = u.words;
    // Group words into cues; an utterance without words is one cue.
    size_t w = 0;
    do {
      std::string text;
      int64_t start = u.start_ms, end = u.end_ms;
      if (!words.empty()) {
        start = words[w].start_ms;
        while (
            w < words.size() &&
            (text.empty() || CodePointCount(text) + CodePointCount(words[w].text) <= max_chars)) {
          text += words[w].text;
          end = words[w].end_ms;
          ++w;
        }
      } else {
        text = chapter.utterances[i].text;
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      if (end <= start) end = start + 1;
      vtt += std::to_string(++cue) + "\n" + ChapterTimestamp(start) + " --> " +
             ChapterTimestamp(end) + "\n" + text + "\n\n";
    } while (w < words.size());
  }
  return vtt;
}

std::string CueTrack(int index, const std::string& title, int64_t start_ms) {
  // INDEX is MM:SS:FF with 75 frames a second.
  char buf[96];
  const int64_t frames = start_ms * 75 / 1000;
  std::snprintf(buf, sizeof buf, "  TRACK %02d AUDIO\n", index);
  std::string out = buf;
  out += "    TITLE \"" + title + "\"\n";
  std::snprintf(buf, sizeof buf, "    INDEX 01 %02lld:%02lld:%02lld\n",
                static_cast<long long>(frames / 75 / 60), static_cast<long long>(frames / 75 % 60),
                static_cast<long long>(frames % 75));
  return out + buf;
}

}  // namespace assemble_internal
}  // namespace narrate
