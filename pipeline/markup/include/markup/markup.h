// The markup stage: normalized paragraphs to a script of chapters and
// utterances (headings, sentences, quoted and block speech, documents), each
// with its speaker, gender and voice.
//
// Language knowledge (speech verbs, pronouns, group nouns, document nouns) is
// data: pipeline/markup/rules/<lang>/*.tsv. Book knowledge (names, aliases,
// genders, timbres, corrections) comes from the book's cast.toml and
// overrides.toml. Pure functions over value types; thread-safe.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {

// One chapter source after normalization, in reading order.
struct ChapterSource {
  std::string file;  // path, for diagnostics
  // The chapter title from book.toml, normalized; empty: the first paragraph
  // when it is a heading, else the profile's default title ("第N章",
  // "Kapitola N").
  std::vector<Token> title;
  int title_line = 0;  // the line of `title` in `file`; 0: from book.toml
  // True for the text before the first heading of a cut source: without a
  // title and a heading first paragraph, it has no title read, and the
  // chapter is named after the book instead of the profile's default title.
  bool untitled = false;
  Lang lang;  // "zh", "sk"
  std::vector<NormalizedParagraph> paragraphs;
};

// How one text source is cut into chapters (book.toml's `split` and
// `chapter_pattern`). Default: not cut, the source is one chapter.
struct ChapterSplit {
  // True: a line of one of the language's heading shapes starts a chapter
  // (pipeline/markup/rules/<lang>/chapters.tsv).
  bool headings = false;
  // An ICU regular expression: a line it matches whole (spaces around the
  // line trimmed) starts a chapter, in place of the language's chapter
  // shapes (its volume shapes then do not apply). Empty: none.
  std::string pattern;
  bool Splits() const { return headings || !pattern.empty(); }
};

// DataError with ICU's reason when `pattern` is not a regular expression.
Status CheckChapterPattern(const std::string& pattern);

// Cuts one source at its heading lines (see ChapterSplit); a source that is
// not to be cut comes back whole. Each chapter's title is its heading line
// (title_line its line), read at its start; paragraphs keep their lines.
//  - A heading line has at most 60 code points and matches a shape whole.
//  - The text before the first heading (a title page, a foreword) is a
//    chapter of its own (untitled: no "第一章" is made up for it); the
//    source's title (book.toml's) goes to it. Nothing there: no chapter.
//  - A volume heading (卷一, Časť prvá) is not a chapter of its own: it is
//    put before the title of the first chapter inside it ("卷一 第一章 …").
//    Text between a volume heading and its first chapter makes the volume a
//    chapter of its own, titled by the volume heading.
//  - A marker line (chapters.tsv's marker: #K#2#-K#) starts a chapter too
//    and is not read; that chapter has no title of its own (the default).
//  - A table of contents, a run of three or more heading lines with nothing
//    between them most of whose lines come again later as headings, is not
//    read (nor a line naming it, 目录 or Obsah, just before it); it is
//    reported (info, file:line).
// Linear in the text. Reports to `reporter` (may be null).
std::vector<ChapterSource> SplitSource(ChapterSource source, const ChapterSplit& split,
                                       Reporter* reporter);

// Who reads narration and documents. Timbre names refer to voices/*.toml.
struct CastOptions {
  std::string narrator = "narrator";  // timbre of narration and headings
  std::string document = "document";  // timbre of quoted documents
};

// One speaker of a book's cast.toml.
struct CastEntry {
  std::string name;                  // canonical speaker name, e.g. "拿破仑"
  std::string gender;                // "m", "f" or "" (unknown)
  std::string voice;                 // timbre; empty: cast automatically
  std::vector<std::string> aliases;  // other spellings and declined forms
};

// A book's cast (cast.toml, read by the book library's LoadCast):
//   [narrator] voice = "narrator"      [document] voice = "document"
//   [[speaker]] name = "拿破仑"  gender = "m"  voice = "male1"
//               aliases = ["Napoleon", "Napoleona", "Napoleonovi"]
struct Cast {
  CastOptions options;
  std::vector<CastEntry> speakers;
};

// A producer's correction (overrides.toml), keyed by a snippet of text:
//   [[override]] match = "snippet"  speaker = "内伊"  kind = "speech"
//   [[override]] match = "第一次退位元帅们"  heading = "第一次退位"
// speaker/kind apply to every utterance whose printed text contains `match`
// (kind "narration" or "heading" also clears the speaker); heading splits that
// text off the start or end of the paragraph containing `match` as a heading.
struct Override {
  std::string match;
  std::string speaker;  // empty: unchanged
  std::string kind;     // "heading", "narration", "speech", "document"; empty: unchanged
  std::string gender;   // empty: unchanged
  std::string heading;  // empty: none
  int line = 0;         // line in the overrides file, for diagnostics
};
struct Overrides {
  std::string file;
  std::vector<Override> entries;
};

// The opening credits (title, author, narrator) and the closing words of a
// book, normalized in the book's language. Read by the narrator: the opening
// credits begin the first chapter, before its title; the closing words end
// the last chapter.
struct Credits {
  Lang lang;                   // the book's language
  std::vector<Token> opening;  // empty: none
  std::vector<Token> closing;  // empty: none
};

// Builds the script. Chapter indices are 1-based in the order given. Utterance
// ids are "cNN-pNNNN-sNN" (chapter, paragraph, sentence; the chapter title is
// "cNN-p0000-s00"), stable across runs as long as the text before them does
// not change; the credits are "c01-credits-open" (paragraph 0 of the first
// chapter) and "cNN-credits-close" (a paragraph after the last one of the last
// chapter). Speakers without a cast entry get a timbre from `voices` by gender,
// those with the most speech first (the main speakers sound unlike each other;
// only minor ones share a timbre); speech that cannot be attributed is speaker
// "unknown" in a character voice. Unattributed speech, unclosed quotes and
// overrides that match nothing are reported. Overrides never apply to the
// credits.
Script Markup(const std::string& title, const std::string& author,
              const std::vector<ChapterSource>& chapters, const Cast& cast,
              const Overrides& overrides, const std::map<std::string, Timbre>& voices,
              Reporter* reporter, const Credits& credits = Credits());

}  // namespace narrate
