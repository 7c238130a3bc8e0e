// Languages as data: what every stage needs to know of a book language (its
// script, quote marks, headings, credits, captions, eSpeak voice, normalizer
// engine, legacy encodings), read from one profile per language:
// pipeline/languages/<lang>/profile.toml (the folder name is the language
// code). The folder is NARRATE_LANGUAGES_DIR when that environment variable is
// set, else the one given at build time. Adding a language is a new folder
// there, its rule tables (pipeline/markup/rules/<lang>/,
// pipeline/normalize/rules/<lang>/) and, where none of the normalizer engines
// fits it, a new engine.
//
// Thread-safe: the installed profiles are loaded once, on first use, and
// immutable after that; LoadLanguages is a pure function.
#pragma once

#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {

// One opening quote mark and the marks that close a quote it opens.
struct QuoteMarks {
  char32_t open = 0;
  std::u32string close;  // any one of them closes it
};

// What a stage knows of one language. A default-constructed profile (no quote
// marks, no credits words) is what a stage falls back on for a language that
// has none (a foreign span's, a test's empty one).
struct LanguageProfile {
  Lang code;         // the BCP 47 primary tag, the profile's folder: "zh", "sk"
  std::string file;  // the profile's path, for diagnostics
  // Where the language comes in lists shown to people ("zh or sk"): ascending.
  int list_order = 0;

  // Script. True when words are separated by spaces (Slovak): speech verbs,
  // names and pronouns then match whole words only, and capitalized words
  // inside a sentence are names. False for Chinese, written without spaces.
  bool word_delimited = true;

  // Speech (markup). Every opening mark with the marks that close it, in the
  // order the profile gives them.
  std::vector<QuoteMarks> quotes;
  // True when a paragraph starting with a dash and a space is dialogue
  // ("– Áno, – povedal."), as in Slovak.
  bool dash_dialogue = false;

  // Sentences (markup). Marks that ICU may leave at the end of a sentence
  // although they open the next one ("“", "（"), and marks it may put at the
  // start of one although they close the one before ("”", "）").
  std::u32string sentence_openers;
  std::u32string sentence_closers;

  // Mentions of people (markup). What may stand between two names that speak
  // as one group ("和", " a "), the words that join their names in the group's
  // name ("和", " a "), the speaker of plural speech nobody is named for
  // ("他们", "oni"), and a plural suffix that a group noun is named without
  // (士兵们 is 士兵; empty: none).
  std::vector<std::u32string> joiners;
  std::string name_joiner;
  std::string plural_pronoun;
  std::u32string group_suffix;

  // Headings (markup). A short fragment after the last sentence of a
  // paragraph is a heading when it has at most `trailing_heading_chars` code
  // points, at most `trailing_heading_words` words (0: any number) and, when
  // `trailing_heading_capitalized`, starts with a capital letter.
  int trailing_heading_chars = 0;
  int trailing_heading_words = 0;
  bool trailing_heading_capitalized = false;
  // The title of a chapter without one: `{n}` is replaced by the chapter's
  // 1-based number, written with `title_numerals`: "arabic" (12) or "han"
  // (十二, up to 99).
  std::string default_title;
  std::string title_numerals;

  // Credits (read at the start and end of a book). The opening credits are
  // title + stop, before_author + author + stop, before_narrator + narrator +
  // stop (trailing spaces dropped); the closing ones are `closing`.
  std::string before_author;    // "作者：", "Autor: "
  std::string before_narrator;  // "朗读：", "Číta "
  std::string closing;          // "全书完。", "Koniec."
  std::string stop;             // sentence end with its space: "。", ". "

  // Where a text says its own title and author (narrate init), in its first
  // paragraphs: a paragraph that starts with a label and a colon ("作者：",
  // "Autor:"); a title alone between `title_marks` (opening, closing: 《 》);
  // an author's name followed by a suffix ("曹雪芹 著"). Empty: none.
  std::vector<std::string> title_labels;
  std::vector<std::string> author_labels;
  std::vector<std::string> author_suffixes;
  std::vector<std::string> title_marks;  // none or two

  // Captions (WebVTT): at most this many code points of text per cue.
  int caption_width = 60;

  // The EPUB's navigation document: the labels of its table of contents, its
  // landmarks and the landmark of the start of the text (English for a
  // language without a profile).
  std::string contents_label = "Contents";
  std::string landmarks_label = "Landmarks";
  std::string start_label = "Start of the text";

  // What tells a text in this language from others when nobody says which
  // it is (GuessLanguage): "han" (Han characters, in UTF-8 or a legacy
  // two-byte encoding) or "latin" (letters of the Latin script).
  std::string script = "latin";

  // Synthesis: the eSpeak NG voice ("cmn-latn-pinyin": the `cmn` voice of
  // eSpeak NG 1.51 reads tone digits aloud).
  std::string espeak_voice;

  // Normalization: the name of the normalizer engine (C++ code, see
  // normalize.h) that reads the language's rule tables: "chinese", "slovak".
  std::string normalizer;

  // Ingest: the legacy (non-Unicode) encodings a file in this language may be
  // in, of those ingest can tell apart ("GB18030", "Big5", "windows-1250",
  // "ISO-8859-2"); the others are not tried.
  std::vector<std::string> legacy_encodings;
};

// The profiles of a languages folder.
class LanguageSet {
 public:
  explicit LanguageSet(std::vector<LanguageProfile> profiles);
  // The profile of `lang`, or null.
  const LanguageProfile* Find(const Lang& lang) const;
  // In list order.
  const std::vector<LanguageProfile>& profiles() const { return profiles_; }
  // The codes in list order, joined for a message: "zh or sk", "zh, sk or xx".
  std::string Names(const std::string& conjunction = "or") const;

 private:
  std::vector<LanguageProfile> profiles_;
};

// Reads every <dir>/<lang>/profile.toml. IoError when the folder or a profile
// cannot be read; DataError naming file:line when a profile is malformed (bad
// TOML, a missing, unknown or mistyped key, a value out of range).
StatusOr<LanguageSet> LoadLanguages(const std::string& dir);

// The installed profiles, loaded on first use (see the top of this file).
StatusOr<const LanguageSet*> Languages();

// The installed profile of `lang`. Usage "language 'fr' is not supported (zh
// or sk)" when there is none; the loading error when the profiles are bad.
StatusOr<const LanguageProfile*> FindLanguage(const Lang& lang);

}  // namespace narrate
