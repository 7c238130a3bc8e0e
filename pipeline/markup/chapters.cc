// Chapters inside one source: heading lines (the shapes of the language's
// chapters.tsv, or a book's chapter_pattern) cut a source into chapters; a
// table of contents is found and left unread. Thread-safe: pure functions
// (a compiled ICU pattern is shared read-only; each call makes its matchers).
#include <unicode/regex.h>

#include <map>
#include <memory>

#include "internal.h"
#include "markup/markup.h"

namespace narrate {
namespace {

using markup_internal::IsSpace;
using markup_internal::ToU32;

// No heading shape is longer: longer lines are never tried.
constexpr int kMaxHeadingChars = 60;
// A table of contents lists at least this many headings in a row.
constexpr size_t kMinContentsLines = 3;

enum class Line { kBody, kChapter, kVolume, kContents, kMarker };

// `tokens` without spaces at either end.
std::vector<Token> Trimmed(const std::vector<Token>& tokens) {
  size_t b = 0, e = tokens.size();
  while (b < e && tokens[b].kind == TokenKind::kSpace) ++b;
  while (e > b && tokens[e - 1].kind == TokenKind::kSpace) --e;
  return std::vector<Token>(tokens.begin() + b, tokens.begin() + e);
}

// The line's text without spaces around it; empty when too long to be a heading.
std::u32string HeadingCandidate(const NormalizedParagraph& p) {
  const std::u32string t = ToU32(PrintedText(p.tokens));
  size_t b = 0, e = t.size();
  while (b < e && IsSpace(t[b])) ++b;
  while (e > b && IsSpace(t[e - 1])) --e;
  if (e - b > kMaxHeadingChars) return U"";
  return t.substr(b, e - b);
}

// One heading shape's matcher, made once per source and reset for each line.
class Shape {
 public:
  explicit Shape(const icu::RegexPattern* pattern) {
    UErrorCode status = U_ZERO_ERROR;
    if (pattern != nullptr) matcher_.reset(pattern->matcher(status));
    if (U_FAILURE(status)) matcher_.reset();
  }
  // True when `line` (the text reset() was given) matches the shape whole.
  bool Matches(const icu::UnicodeString& line) {
    if (matcher_ == nullptr || line.isEmpty()) return false;
    UErrorCode status = U_ZERO_ERROR;
    matcher_->reset(line);
    return matcher_->matches(status) && U_SUCCESS(status);
  }

 private:
  std::unique_ptr<icu::RegexMatcher> matcher_;
};

// A line without the page number a table of contents puts after a heading
// ("第一章 出发……1", "Kapitola 1 .......... 5", "第三章 尾声 　30"): the
// number after leaders or a wide gap, not the 1 of "Kapitola 1".
std::u32string WithoutPageNumber(const std::u32string& line) {
  auto leader = [](char32_t c) {
    return IsSpace(c) || c == U'.' || c == U'．' || c == U'·' || c == U'…' || c == U'—' ||
           c == U'-' || c == U'_';
  };
  auto digit = [](char32_t c) { return (c >= U'0' && c <= U'9') || (c >= U'０' && c <= U'９'); };
  size_t d = line.size();
  while (d > 0 && digit(line[d - 1])) --d;
  size_t l = d;
  bool dotted = false;
  while (l > 0 && leader(line[l - 1])) dotted |= !IsSpace(line[--l]);
  if (d < line.size() && l > 0 && (dotted || d - l >= 2)) return line.substr(0, l);
  return line;
}

// The same heading however it is spaced: its code points without spaces.
std::u32string Key(const std::u32string& line) {
  std::u32string key;
  for (char32_t c : line) {
    if (!IsSpace(c)) key.push_back(c);
  }
  return key;
}

// Sets `drop` on the lines of every table of contents: in a run of heading
// lines with nothing between them, its lines (but for its last chapter and
// the volumes just before it when that chapter is not listed again later),
// when there are kMinContentsLines or more of them and most come again later
// as headings; and a contents line just before them.
void FindContents(const ChapterSource& source, const std::vector<Line>& kinds,
                  const std::vector<std::u32string>& keys, Reporter* reporter,
                  std::vector<bool>* drop) {
  auto heading = [&](size_t i) { return kinds[i] == Line::kChapter || kinds[i] == Line::kVolume; };
  std::map<std::u32string, size_t> last;  // heading key -> its last line's index
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (heading(i)) last[keys[i]] = i;
  }
  for (size_t i = 0; i < kinds.size();) {
    if (!heading(i)) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < kinds.size() && heading(end)) ++end;
    // The run's last chapter heads what follows, unless it comes again later.
    size_t listed = end;
    if (last[keys[end - 1]] == end - 1) {
      for (--listed; listed > i && kinds[listed - 1] == Line::kVolume;) --listed;
    }
    size_t again = 0;
    for (size_t k = i; k < listed; ++k) again += last[keys[k]] > k ? 1 : 0;
    if (listed - i >= kMinContentsLines && 2 * again > listed - i) {
      size_t from = i;
      if (from > 0 && kinds[from - 1] == Line::kContents) --from;
      for (size_t k = from; k < listed; ++k) (*drop)[k] = true;
      if (reporter != nullptr) {
        reporter->Report({Severity::kInfo, source.file, source.paragraphs[from].line,
                          "table of contents (" + std::to_string(listed - from) +
                              " lines) not read: its chapters follow"});
      }
    }
    i = end;
  }
}

}  // namespace

Status CheckChapterPattern(const std::string& pattern) {
  return markup_internal::CompilePattern(pattern).status();
}

std::vector<ChapterSource> SplitSource(ChapterSource source, const ChapterSplit& split,
                                       Reporter* reporter) {
  std::vector<ChapterSource> chapters;
  if (!split.Splits()) {
    chapters.push_back(std::move(source));
    return chapters;
  }
  const markup_internal::Rules& rules = markup_internal::DefaultRules(source.lang, reporter);
  std::shared_ptr<const icu::RegexPattern> chapter = rules.chapter;
  std::shared_ptr<const icu::RegexPattern> volume = rules.volume;
  if (!split.pattern.empty()) {
    StatusOr<std::shared_ptr<const icu::RegexPattern>> own =
        markup_internal::CompilePattern(split.pattern);
    if (!own.ok()) {
      if (reporter != nullptr) {
        reporter->Report({Severity::kError, source.file, 0,
                          "chapter_pattern: " + own.status().message() + "; not split"});
      }
      chapters.push_back(std::move(source));
      return chapters;
    }
    chapter = std::move(own).value();
    volume = nullptr;
  }

  const size_t n = source.paragraphs.size();
  std::vector<Line> kinds(n, Line::kBody);
  std::vector<std::u32string> keys(n);
  Shape chapters_shape(chapter.get()), volumes_shape(volume.get()),
      contents_shape(rules.contents.get()), markers_shape(rules.marker.get());
  for (size_t i = 0; i < n; ++i) {
    const std::u32string line = WithoutPageNumber(HeadingCandidate(source.paragraphs[i]));
    if (line.empty()) continue;
    const icu::UnicodeString text = icu::UnicodeString::fromUTF32(
        reinterpret_cast<const UChar32*>(line.data()), static_cast<int32_t>(line.size()));
    if (markers_shape.Matches(text)) {
      kinds[i] = Line::kMarker;
    } else if (chapters_shape.Matches(text)) {
      kinds[i] = Line::kChapter;
    } else if (volumes_shape.Matches(text)) {
      kinds[i] = Line::kVolume;
    } else if (contents_shape.Matches(text)) {
      kinds[i] = Line::kContents;
    }
    if (kinds[i] != Line::kBody && kinds[i] != Line::kMarker) keys[i] = Key(line);
  }
  std::vector<bool> drop(n, false);
  FindContents(source, kinds, keys, reporter, &drop);

  // The text before the first heading, then one chapter per heading.
  auto start = [&](std::vector<Token> title, int line) {
    ChapterSource c;
    c.file = source.file;
    c.lang = source.lang;
    c.title = std::move(title);
    c.title_line = line;
    chapters.push_back(std::move(c));
  };
  start(std::move(source.title), 0);
  chapters.back().untitled = true;
  bool preamble = true;      // the last chapter is the text before the first heading
  bool volume_open = false;  // the last chapter is a volume heading with no text yet
  for (size_t i = 0; i < n; ++i) {
    if (drop[i]) continue;
    NormalizedParagraph& p = source.paragraphs[i];
    if (kinds[i] != Line::kChapter && kinds[i] != Line::kVolume && kinds[i] != Line::kMarker) {
      chapters.back().paragraphs.push_back(std::move(p));
      volume_open = false;
      continue;
    }
    // A marker starts a chapter and is not read: the chapter has the
    // language's default title ("Kapitola 2").
    std::vector<Token> title = kinds[i] == Line::kMarker ? std::vector<Token>() : Trimmed(p.tokens);
    if (kinds[i] != Line::kVolume && volume_open && !title.empty()) {
      // The first chapter of a volume: "卷一 第一章 …".
      std::vector<Token>& volume_title = chapters.back().title;
      volume_title.push_back({TokenKind::kSpace, " ", " ", ""});
      volume_title.insert(volume_title.end(), title.begin(), title.end());
      chapters.back().title_line = p.line;
      volume_open = false;
      continue;
    }
    if (preamble && chapters.back().paragraphs.empty()) chapters.pop_back();
    preamble = false;
    start(std::move(title), p.line);
    volume_open = kinds[i] == Line::kVolume;
  }
  return chapters;
}

}  // namespace narrate
