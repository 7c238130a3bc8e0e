// The XHTML side of the EPUB: sentence elements with foreign spans and word
// spans, chapter content documents, the navigation document, the style sheet.
// Pure functions: thread-compatible.
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstdio>

#include "core/language.h"
#include "epub_internal.h"

namespace narrate {
namespace epub_internal {
namespace {

constexpr char kXhtmlHead[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n"
    "<html xmlns=\"http://www.w3.org/1999/xhtml\" "
    "xmlns:epub=\"http://www.idpf.org/2007/ops\"";

// The navigation labels of the book's language (English without a profile).
const LanguageProfile& LabelsFor(const Lang& lang) {
  static const LanguageProfile kEnglish;
  StatusOr<const LanguageProfile*> profile = FindLanguage(lang);
  return profile.ok() ? **profile : kEnglish;
}

// Code point at byte `i` of `s`, advancing `i`.
UChar32 NextCodePoint(std::string_view s, size_t* i) {
  UChar32 c;
  int32_t pos = static_cast<int32_t>(*i);
  U8_NEXT(s.data(), pos, static_cast<int32_t>(s.size()), c);
  *i = static_cast<size_t>(pos);
  return c;
}

bool IsSpace(UChar32 c) { return c < 0 || u_isUWhiteSpace(c); }

// True when `s` has no letter, digit or mark: spaces and punctuation only.
bool IsGlue(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const UChar32 c = NextCodePoint(s, &i);
    if (c >= 0 && (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_N_MASK | U_GC_M_MASK))) {
      return false;
    }
  }
  return true;
}

// Byte offsets [begin, end) of `s` without leading and trailing white space.
std::pair<size_t, size_t> Trimmed(std::string_view s) {
  size_t begin = 0;
  while (begin < s.size()) {
    size_t next = begin;
    if (!IsSpace(NextCodePoint(s, &next))) break;
    begin = next;
  }
  size_t end = begin;
  for (size_t i = begin; i < s.size();) {
    if (!IsSpace(NextCodePoint(s, &i))) end = i;
  }
  return {begin, end};
}

std::string LangAttributes(const Lang& lang) {
  const std::string l = XmlEscape(lang);
  return " xml:lang=\"" + l + "\" lang=\"" + l + "\"";
}

// A marked range of a sentence: a foreign span or a word.
struct Range {
  size_t begin = 0;  // bytes into the sentence
  size_t end = 0;
  bool is_word = false;
  std::string attributes;  // of the <span>
};

// Foreign spans of an utterance, byte ranges into `text` (the trimmed
// sentence that starts at byte `offset` of utterance.text).
std::vector<Range> ForeignRanges(const Utterance& u, std::string_view text, size_t offset) {
  std::vector<Range> ranges;
  std::vector<Lang> langs;
  const bool exact = PrintedText(u.tokens) == u.text;
  size_t pos = 0;  // into u.text
  for (const Token& t : u.tokens) {
    size_t begin = pos;
    if (!exact) {
      begin = u.text.find(t.text, pos);
      if (begin == std::string::npos) continue;
    }
    pos = begin + t.text.size();
    if (t.lang.empty() || t.lang == u.lang || t.text.empty()) continue;
    // Into the trimmed sentence, without the token's own outer spaces.
    const auto [b, e] = Trimmed(t.text);
    if (b == e) continue;
    size_t rb = begin + b, re = begin + e;
    if (re <= offset || rb >= offset + text.size()) continue;
    rb = std::max(rb, offset) - offset;
    re = std::min(re, offset + text.size()) - offset;
    // One span for neighbouring words of the same language.
    if (!ranges.empty() && langs.back() == t.lang &&
        Trimmed(text.substr(ranges.back().end, rb - ranges.back().end)).first ==
            rb - ranges.back().end) {
      ranges.back().end = re;
      continue;
    }
    ranges.push_back({rb, re, false, ""});
    langs.push_back(t.lang);
  }
  for (size_t i = 0; i < ranges.size(); ++i) {
    ranges[i].attributes = LangAttributes(langs[i]);
  }
  return ranges;
}

// `s` without the spaces and punctuation at either end.
std::string_view Core(std::string_view s) {
  size_t begin = 0, end = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t at = i;
    NextCodePoint(s, &i);
    if (!IsGlue(s.substr(at, i - at))) {
      if (end == 0) begin = at;
      end = i;
    }
  }
  return s.substr(begin, end - begin);
}

// Word ranges, when every word (without the spaces and punctuation a word
// carries along) is found in order with only spaces and punctuation between;
// empty otherwise. A word of punctuation alone gets no range.
std::vector<Range> WordRanges(const Utterance& u, std::string_view text,
                              const UtteranceClip& clip) {
  std::vector<Range> ranges;
  size_t pos = 0;
  for (size_t i = 0; i < clip.words.size(); ++i) {
    const std::string_view word = Core(clip.words[i].text);
    if (word.empty()) continue;
    const size_t begin = text.find(word, pos);
    if (begin == std::string::npos || !IsGlue(text.substr(pos, begin - pos))) return {};
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "-w%02zu", i + 1);
    ranges.push_back(
        {begin, begin + word.size(), true, " id=\"" + XmlEscape(u.id + suffix) + "\""});
    pos = begin + word.size();
  }
  if (!IsGlue(text.substr(pos))) return {};
  return ranges;
}

// Sorts ranges outer first; false when two of them cross.
bool Nest(std::vector<Range>* ranges) {
  std::stable_sort(ranges->begin(), ranges->end(), [](const Range& a, const Range& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end > b.end;
    return !a.is_word && b.is_word;
  });
  std::vector<size_t> open;  // ends of the enclosing ranges
  for (const Range& r : *ranges) {
    while (!open.empty() && open.back() <= r.begin) open.pop_back();
    if (!open.empty() && r.end > open.back()) return false;
    open.push_back(r.end);
  }
  return true;
}

// `text` with the ranges (sorted by Nest) as nested spans.
std::string Markup(std::string_view text, const std::vector<Range>& ranges) {
  std::string out;
  std::vector<size_t> open;
  size_t pos = 0;
  auto close_until = [&](size_t at) {
    while (!open.empty() && open.back() <= at) {
      out += XmlEscape(text.substr(pos, open.back() - pos));
      pos = open.back();
      out += "</span>";
      open.pop_back();
    }
  };
  for (const Range& r : ranges) {
    close_until(r.begin);
    out += XmlEscape(text.substr(pos, r.begin - pos));
    pos = r.begin;
    out += "<span" + r.attributes + ">";
    open.push_back(r.end);
  }
  close_until(text.size());
  out += XmlEscape(text.substr(pos));
  return out;
}

// A block of the chapter: a heading, or the utterances of one paragraph.
struct Block {
  bool heading = false;
  std::vector<const Utterance*> utterances;
};

std::vector<Block> Blocks(const Chapter& chapter) {
  std::vector<Block> blocks;
  for (const Utterance& u : chapter.utterances) {
    if (!HasText(u)) continue;
    const bool heading = u.kind == UtteranceKind::kHeading;
    if (heading || blocks.empty() || blocks.back().heading ||
        blocks.back().utterances.back()->paragraph != u.paragraph) {
      blocks.push_back({heading, {}});
    }
    blocks.back().utterances.push_back(&u);
  }
  return blocks;
}

}  // namespace

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

bool HasText(const Utterance& utterance) {
  const auto [begin, end] = Trimmed(utterance.text);
  return begin < end;
}

std::string SentenceElement(const Utterance& u, const Lang& chapter_lang, const UtteranceClip* clip,
                            bool* words_marked) {
  const auto [begin, end] = Trimmed(u.text);
  const std::string_view text = std::string_view(u.text).substr(begin, end - begin);
  std::vector<Range> foreign = ForeignRanges(u, text, begin);
  std::vector<Range> ranges = foreign;
  bool words = false;
  if (clip != nullptr && !clip->words.empty()) {
    std::vector<Range> w = WordRanges(u, text, *clip);
    ranges.insert(ranges.end(), w.begin(), w.end());
    words = !w.empty() && Nest(&ranges);
    if (!words) ranges = foreign;
  }
  Nest(&ranges);  // foreign spans never cross each other
  if (words_marked != nullptr) *words_marked = words;

  std::string attributes = " id=\"" + XmlEscape(u.id) + "\"";
  if (!u.lang.empty() && u.lang != chapter_lang) attributes += LangAttributes(u.lang);
  std::string tag = "span";
  if (u.kind == UtteranceKind::kHeading) {
    tag = u.paragraph == 0 ? "h1" : "h2";
  } else {
    attributes += std::string(" class=\"") + ToString(u.kind) + "\"";
    if (u.kind == UtteranceKind::kSpeech && u.speaker) {
      attributes += " data-speaker=\"" + XmlEscape(*u.speaker) + "\"";
    }
  }
  return "<" + tag + attributes + ">" + Markup(text, ranges) + "</" + tag + ">";
}

std::string ChapterXhtml(const EpubChapter& ec, int* words_marked) {
  const Chapter& chapter = *ec.chapter;
  std::string out = kXhtmlHead + LangAttributes(chapter.lang) + ">\n<head>\n" +
                    "<meta charset=\"UTF-8\"/>\n<title>" + XmlEscape(chapter.title) +
                    "</title>\n<link rel=\"stylesheet\" type=\"text/css\" "
                    "href=\"narrate.css\"/>\n</head>\n<body>\n"
                    "<section id=\"" +
                    ec.name + "\" epub:type=\"chapter\">\n";
  std::vector<Block> blocks = Blocks(chapter);
  bool titled = false;  // the title is read aloud, as a heading of paragraph 0
  for (const Block& block : blocks) {
    titled = titled || (block.heading && block.utterances.front()->paragraph == 0);
  }
  if (!titled) out += "<h1>" + XmlEscape(chapter.title) + "</h1>\n";
  int marked = 0;
  for (const Block& block : blocks) {
    bool document = true;
    for (const Utterance* u : block.utterances) {
      document = document && u->kind == UtteranceKind::kDocument;
    }
    if (!block.heading) out += document ? "<p class=\"document\">" : "<p>";
    for (size_t i = 0; i < block.utterances.size(); ++i) {
      const Utterance& u = *block.utterances[i];
      auto clip = ec.clips.find(u.id);
      bool words = false;
      const std::string element = SentenceElement(
          u, chapter.lang, clip == ec.clips.end() ? nullptr : &clip->second, &words);
      marked += words ? 1 : 0;
      if (block.heading) {
        out += element + "\n";
        continue;
      }
      // The spaces between sentences stay outside the sentence elements.
      const auto [begin, end] = Trimmed(u.text);
      if (i > 0) out += XmlEscape(u.text.substr(0, begin));
      out += element;
      if (i + 1 < block.utterances.size()) out += XmlEscape(u.text.substr(end));
    }
    if (!block.heading) out += "</p>\n";
  }
  if (words_marked != nullptr) *words_marked = marked;
  return out + "</section>\n</body>\n</html>\n";
}

std::string NavXhtml(const Script& script, const std::vector<EpubChapter>& chapters) {
  const LanguageProfile& labels = LabelsFor(script.lang);
  std::string out = kXhtmlHead + LangAttributes(script.lang) + ">\n<head>\n" +
                    "<meta charset=\"UTF-8\"/>\n<title>" + XmlEscape(script.title) +
                    "</title>\n<link rel=\"stylesheet\" type=\"text/css\" "
                    "href=\"narrate.css\"/>\n</head>\n<body>\n"
                    "<nav epub:type=\"toc\" id=\"toc\">\n<h1>" +
                    labels.contents_label + "</h1>\n<ol>\n";
  for (const EpubChapter& ec : chapters) {
    const Chapter& chapter = *ec.chapter;
    const std::string file = ec.name + ".xhtml";
    std::string target = file;
    std::vector<const Utterance*> sections;
    for (const Utterance& u : chapter.utterances) {
      if (u.kind != UtteranceKind::kHeading || !HasText(u)) continue;
      if (u.paragraph == 0 && target == file) {
        target = file + "#" + u.id;
      } else {
        sections.push_back(&u);
      }
    }
    const Lang& lang = chapter.lang.empty() ? script.lang : chapter.lang;
    const std::string lang_attr = lang == script.lang ? "" : LangAttributes(lang);
    const auto [title_begin, title_end] = Trimmed(chapter.title);
    const std::string title = title_begin < title_end
                                  ? chapter.title.substr(title_begin, title_end - title_begin)
                                  : ec.name;
    out +=
        "<li" + lang_attr + "><a href=\"" + XmlEscape(target) + "\">" + XmlEscape(title) + "</a>";
    if (!sections.empty()) {
      out += "\n<ol>\n";
      for (const Utterance* u : sections) {
        const auto [begin, end] = Trimmed(u->text);
        out += "<li><a href=\"" + XmlEscape(file + "#" + u->id) + "\">" +
               XmlEscape(u->text.substr(begin, end - begin)) + "</a></li>\n";
      }
      out += "</ol>\n";
    }
    out += "</li>\n";
  }
  out +=
      "</ol>\n</nav>\n<nav epub:type=\"landmarks\" id=\"landmarks\" hidden=\"\">\n"
      "<h2>" +
      labels.landmarks_label + "</h2>\n<ol>\n";
  if (!chapters.empty()) {
    out += "<li><a epub:type=\"bodymatter\" href=\"" + chapters.front().name + ".xhtml\">" +
           labels.start_label + "</a></li>\n";
  }
  return out + "</ol>\n</nav>\n</body>\n</html>\n";
}

std::string StyleSheet() {
  return std::string(
             "/* narrate: the accessible edition. */\n"
             "body { line-height: 1.6; }\n"
             "h1, h2 { line-height: 1.3; }\n"
             "p { margin: 0 0 0.8em 0; text-indent: 0; }\n"
             "p.document { margin-left: 1.5em; margin-right: 1.5em; }\n"
             ".speech { font-style: normal; }\n"
             "/* The sentence being read aloud (media:active-class). */\n.") +
         kActiveClass +
         " {\n  background-color: #fff3a0;\n  color: #000000;\n"
         "  border-radius: 0.15em;\n}\n";
}

}  // namespace epub_internal
}  // namespace narrate
