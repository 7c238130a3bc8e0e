// Markup: chapters, headings, sentences, speech and documents, speakers and
// voices. This file orchestrates; quotes.cc finds speech, attribute.cc names
// speakers, cast.cc loads the cast and overrides. Thread-safe: pure functions.
#include "markup/markup.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "internal.h"

namespace narrate {
namespace {

using markup_internal::IsSpace;
using markup_internal::IsTerminal;
using markup_internal::Para;
using markup_internal::Speech;
using markup_internal::ToU32;
using markup_internal::ToUtf8;

bool IsSentenceEnd(char32_t c) {
  return IsTerminal(c) || c == U':' || c == U';' || c == U'：' || c == U'；' || c == U'”' ||
         c == U'’' || c == U'」' || c == U'』' || c == U'〃' || c == U'«' || c == U'“' ||
         c == U'"' || c == U')' || c == U'）' || c == U',' || c == U'，';
}

// A standalone short line with no closing punctuation reads as a heading.
bool LooksLikeHeading(const std::u32string& t) {
  int e = static_cast<int>(t.size());
  while (e > 0 && IsSpace(t[e - 1])) --e;
  return e > 0 && e <= 40 && !IsSentenceEnd(t[e - 1]);
}

// Whether a chapter's first paragraph is its title: book.toml gives none and
// the paragraph reads as a heading.
bool HeadingFirst(const ChapterSource& source) {
  return source.title.empty() && !source.paragraphs.empty() &&
         LooksLikeHeading(ToU32(PrintedText(source.paragraphs[0].tokens)));
}

// A short trailing fragment without closing punctuation after the last
// sentence of a paragraph ("… na Atlantik. Obrana Paríža"): its start, or -1.
int TrailingHeading(const std::u32string& t, const LanguageProfile& language) {
  int e = static_cast<int>(t.size());
  while (e > 0 && IsSpace(t[e - 1])) --e;
  if (e == 0 || IsSentenceEnd(t[e - 1])) return -1;
  int s = e;
  while (s > 0 && !IsTerminal(t[s - 1])) --s;
  if (s == 0) return -1;
  while (s < e && (IsSpace(t[s]) || IsSentenceEnd(t[s]))) ++s;
  if (s >= e) return -1;
  int words = 1;
  for (int i = s; i < e; ++i) {
    if (IsSentenceEnd(t[i]) || t[i] == U'、') return -1;
    words += IsSpace(t[i]) ? 1 : 0;
  }
  const bool fits =
      e - s <= language.trailing_heading_chars &&
      (language.trailing_heading_words == 0 || words <= language.trailing_heading_words) &&
      (!language.trailing_heading_capitalized || markup_internal::IsUpper(t[s]));
  return fits ? s : -1;
}

// The profile's default title of chapter `index` (1-based).
std::string DefaultTitle(const LanguageProfile& language, int index) {
  std::string n;
  if (language.title_numerals == "han") {
    static const char* kDigits[] = {"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
    if (index >= 10) n += (index / 10 > 1 ? std::string(kDigits[index / 10]) : "") + "十";
    if (index % 10 != 0 || index < 10) n += kDigits[index % 10];
  } else {
    n = std::to_string(index);
  }
  std::string title = language.default_title;
  const size_t at = title.find("{n}");
  if (at != std::string::npos) title.replace(at, 3, n);
  return title;
}

// How sure markup is of a speaker found by `evidence`, from how often each
// kind was right on the gold of tests/markup (the sample book with its cast,
// 20 stories without one; 2026-12-01): a name of the book (the cast's or
// found in the text) beside a speech verb 99% (verb-before, verb-after:
// 0.9), the one who acts in the speech's paragraph 94% (context: 0.75), a
// pronoun 81% (0.7), the turns of a dialogue 75% (alternation: 0.6), a
// group, a call by name or a capitalized word nobody listed fewer (0.5).
double Confidence(Evidence evidence) {
  switch (evidence) {
    case Evidence::kOverride:
      return 1.0;
    case Evidence::kVerbBefore:
    case Evidence::kVerbAfter:
      return 0.9;
    case Evidence::kContext:
    case Evidence::kIntroduction:
      return 0.75;
    case Evidence::kPronoun:
      return 0.7;
    case Evidence::kAddressee:
    case Evidence::kAlternation:
      return 0.6;
    case Evidence::kGroup:
    case Evidence::kVocative:
    case Evidence::kGuessBefore:
    case Evidence::kGuessAfter:
      return 0.5;
    case Evidence::kNone:
      return 0.0;
  }
  return 0.0;
}

std::string MakeId(int chapter, int paragraph, int sentence) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "c%02d-p%04d-s%02d", chapter, paragraph, sentence);
  return buf;
}

std::string Snippet(const std::string& text) {
  const std::u32string t = ToU32(text);
  return t.size() <= 16 ? text : ToUtf8(t, 0, 16) + "…";
}

// What a stretch of a paragraph is: narration, heading, or speech number n.
struct Label {
  UtteranceKind kind = UtteranceKind::kNarration;
  int speech = -1;
  bool operator==(const Label& o) const { return kind == o.kind && speech == o.speech; }
};

struct Segment {
  Label label;
  std::vector<Token> tokens;
};

// Cuts a paragraph's tokens at label changes. A token is split only where its
// printed and spoken forms are equal; otherwise it goes whole to the stretch
// where it starts.
std::vector<Segment> Segments(const Para& para, const std::vector<Label>& labels) {
  std::vector<Segment> out;
  int pos = 0;
  auto add = [&](const Label& l, Token t) {
    if (out.empty() || !(out.back().label == l)) out.push_back({l, {}});
    out.back().tokens.push_back(std::move(t));
  };
  for (const Token& t : para.tokens) {
    const std::u32string cps = ToU32(t.text);
    const int n = static_cast<int>(cps.size());
    int cut = 0;
    if (t.text == t.spoken) {
      for (int i = 1; i < n; ++i) {
        if (!(labels[pos + i] == labels[pos + i - 1])) {
          Token piece = t;
          piece.text = piece.spoken = ToUtf8(cps, cut, i);
          add(labels[pos + cut], piece);
          cut = i;
        }
      }
    }
    Token rest = t;
    if (cut > 0) rest.text = rest.spoken = ToUtf8(cps, cut, n);
    if (n > 0) add(labels[pos + cut], rest);
    pos += n;
  }
  // Stretches of only spaces and punctuation (a 。 after a closing quote)
  // join the stretch before them: nobody reads a lone full stop.
  std::vector<Segment> merged;
  for (Segment& s : out) {
    bool blank = true;
    for (const Token& t : s.tokens) {
      blank &= t.kind == TokenKind::kSpace || t.kind == TokenKind::kPunctuation;
    }
    if (blank && !merged.empty()) {
      for (Token& t : s.tokens) merged.back().tokens.push_back(std::move(t));
    } else {
      merged.push_back(std::move(s));
    }
  }
  return merged;
}

Utterance MakeUtterance(const std::vector<Token>& tokens, const Lang& lang, UtteranceKind kind) {
  Utterance u;
  u.kind = kind;
  u.lang = lang;
  u.tokens = tokens;
  u.text = PrintedText(tokens);
  u.spoken = SpokenText(tokens);
  return u;
}

std::map<std::string, Timbre> DefaultPalette() {
  std::map<std::string, Timbre> voices;
  for (const char* name : {"male1", "male2", "male3", "male4"})
    voices[name] = {name, "", 50, 50, 175, 100, "m"};
  for (const char* name : {"female1", "female2", "female3"})
    voices[name] = {name, "", 50, 50, 175, 100, "f"};
  return voices;
}

// The credits as narration: the opening ones first in the first chapter, the
// closing ones last in the last chapter (see Credits).
void AddCredits(const Credits& credits, const std::string& narrator, Script* script) {
  if (script->chapters.empty()) return;
  auto make = [&](const std::vector<Token>& tokens, const Chapter& chapter, const char* id,
                  int paragraph) {
    Utterance u = MakeUtterance(tokens, credits.lang, UtteranceKind::kNarration);
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "c%02d-", chapter.index);
    u.id = prefix + std::string(id);
    u.chapter = chapter.index;
    u.paragraph = paragraph;
    u.voice = narrator;
    return u;
  };
  Chapter& first = script->chapters.front();
  if (!credits.opening.empty()) {
    first.utterances.insert(first.utterances.begin(),
                            make(credits.opening, first, "credits-open", 0));
  }
  Chapter& last = script->chapters.back();
  if (!credits.closing.empty()) {
    const int after = last.utterances.empty() ? 1 : last.utterances.back().paragraph + 1;
    last.utterances.push_back(make(credits.closing, last, "credits-close", after));
  }
}

// One gender per speaker across the book: for a speaker of several chapters
// (each works genders out from its own text), what most of their speeches
// say, for the speeches that say none or another. Groups, "unknown" and the
// genders overrides.toml gives (`kept`, utterance ids) keep theirs.
void OneGenderEach(const std::set<std::string>& kept, Script* script) {
  std::map<std::string, std::pair<int, int>> said;  // speaker -> men, women
  std::map<std::string, std::set<int>> chapters;    // speaker -> chapters they speak in
  for (const Chapter& c : script->chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.kind != UtteranceKind::kSpeech || !u.speaker) continue;
      chapters[*u.speaker].insert(c.index);
      if (u.gender == "m") ++said[*u.speaker].first;
      if (u.gender == "f") ++said[*u.speaker].second;
    }
  }
  // Within a chapter, attribution has settled each speaker's gender already.
  for (const auto& [speaker, in] : chapters) {
    if (in.size() < 2) said.erase(speaker);
  }
  for (Chapter& c : script->chapters) {
    for (Utterance& u : c.utterances) {
      if (u.kind != UtteranceKind::kSpeech || !u.speaker || *u.speaker == "unknown" ||
          kept.count(u.id)) {
        continue;
      }
      const auto it = said.find(*u.speaker);
      if (it == said.end() || it->second.first == it->second.second) continue;
      if (u.gender == "m" || u.gender == "f" || u.gender.empty()) {
        u.gender = it->second.first > it->second.second ? "m" : "f";
      }
    }
  }
}

// The timbre of every speech: speakers with the most speech first, so that
// the main speakers sound unlike each other and only minor ones share a
// timbre; then in order of first speech. Deterministic.
void AssignVoices(markup_internal::Casting* casting, Script* script) {
  struct Speaker {
    int speeches = 0;
    int first = 0;
    std::string gender;  // of the first speech
  };
  std::map<std::string, Speaker> speakers;
  int order = 0;
  for (const Chapter& c : script->chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.kind != UtteranceKind::kSpeech || !u.speaker) continue;
      Speaker& s = speakers[*u.speaker];
      if (s.speeches++ == 0) {
        s.first = order++;
        s.gender = u.gender;
      }
    }
  }
  std::vector<std::pair<std::pair<int, int>, std::string>> by_prominence;
  for (const auto& [name, s] : speakers) by_prominence.push_back({{-s.speeches, s.first}, name});
  std::sort(by_prominence.begin(), by_prominence.end());
  for (const auto& [rank, name] : by_prominence) casting->VoiceFor(name, speakers[name].gender);
  for (Chapter& c : script->chapters) {
    for (Utterance& u : c.utterances) {
      if (u.kind == UtteranceKind::kSpeech && u.speaker)
        u.voice = casting->VoiceFor(*u.speaker, u.gender);
    }
  }
}

}  // namespace

Script Markup(const std::string& title, const std::string& author,
              const std::vector<ChapterSource>& chapters, const Cast& cast,
              const Overrides& overrides, const std::map<std::string, Timbre>& voices,
              Reporter* reporter, const Credits& credits) {
  markup_internal::Casting casting(cast, voices.empty() ? DefaultPalette() : voices);
  // The cast's names, and the people each chapter's narration names.
  markup_internal::NameBook names = markup_internal::MakeNameBook(cast);
  std::vector<bool> used(overrides.entries.size(), false);
  std::set<std::string> gendered_by_override;                         // utterance ids
  std::map<std::string, markup_internal::GenderFound> genders_found;  // the first chapter's say
  Script script;
  script.title = title;
  script.author = author;
  script.lang = chapters.empty() ? "" : chapters.front().lang;
  // Every chapter's body and speech first: the people of a book are found in
  // all its chapters of a language together, so that a name said once in
  // each of many short chapters is still a name said often.
  std::vector<std::vector<Para>> bodies(chapters.size());
  std::vector<std::vector<Speech>> speech_of(chapters.size());
  std::map<Lang, std::pair<std::vector<Para>, std::vector<Speech>>> by_language;
  for (size_t ci = 0; ci < chapters.size(); ++ci) {
    const ChapterSource& source = chapters[ci];
    const markup_internal::Rules& rules = markup_internal::DefaultRules(source.lang, reporter);
    for (size_t pi = HeadingFirst(source) ? 1 : 0; pi < source.paragraphs.size(); ++pi) {
      Para p;
      p.line = source.paragraphs[pi].line;
      p.index = static_cast<int>(pi);
      p.tokens = source.paragraphs[pi].tokens;
      p.text = ToU32(PrintedText(p.tokens));
      bodies[ci].push_back(std::move(p));
    }
    speech_of[ci] = markup_internal::FindSpeeches(bodies[ci], rules);
    auto& [all_paras, all_speeches] = by_language[source.lang];
    const int offset = static_cast<int>(all_paras.size());
    all_paras.insert(all_paras.end(), bodies[ci].begin(), bodies[ci].end());
    for (Speech s : speech_of[ci]) {
      for (markup_internal::Span& span : s.spans) span.para += offset;
      all_speeches.push_back(std::move(s));
    }
  }
  for (const auto& [lang, text] : by_language) {
    markup_internal::DiscoverPeople(text.first, text.second,
                                    markup_internal::DefaultRules(lang, reporter), &names);
  }
  by_language.clear();
  for (size_t ci = 0; ci < chapters.size(); ++ci) {
    const ChapterSource& source = chapters[ci];
    const markup_internal::Rules& rules = markup_internal::DefaultRules(source.lang, reporter);
    Chapter chapter;
    chapter.index = static_cast<int>(ci) + 1;
    chapter.source = source.file;
    chapter.lang = source.lang;
    std::vector<Token> title_tokens = source.title;
    int title_line = source.title_line;
    if (HeadingFirst(source)) {
      title_tokens = source.paragraphs[0].tokens;
      title_line = source.paragraphs[0].line;
    }
    if (title_tokens.empty() && source.untitled) {
      chapter.title = title;  // not read: the opening credits say it
    } else {
      if (title_tokens.empty()) {
        const std::string t = DefaultTitle(*rules.language, chapter.index);
        title_tokens.push_back({TokenKind::kWord, t, t, ""});
      }
      chapter.title = PrintedText(title_tokens);
      Utterance heading = MakeUtterance(title_tokens, source.lang, UtteranceKind::kHeading);
      heading.voice = cast.options.narrator;
      heading.id = MakeId(chapter.index, 0, 0);
      heading.chapter = chapter.index;
      heading.line = title_line;
      chapter.utterances.push_back(std::move(heading));
    }

    const std::vector<Para>& paras = bodies[ci];
    std::vector<Speech>& speeches = speech_of[ci];
    markup_internal::Attribute(paras, rules, names, &speeches, &genders_found);
    markup_internal::NameByIntroductions(paras, rules, &names, &speeches);

    // Labels per code point: narration, then speech, then headings on top.
    std::vector<std::vector<Label>> labels(paras.size());
    for (size_t i = 0; i < paras.size(); ++i) labels[i].resize(paras[i].text.size());
    for (size_t s = 0; s < speeches.size(); ++s) {
      const Label l{speeches[s].document ? UtteranceKind::kDocument : UtteranceKind::kSpeech,
                    static_cast<int>(s)};
      for (const auto& sp : speeches[s].spans) {
        for (int i = sp.begin; i < sp.end; ++i) labels[sp.para][i] = l;
      }
    }
    for (size_t i = 0; i < paras.size(); ++i) {
      const std::u32string& t = paras[i].text;
      const int n = static_cast<int>(t.size());
      int from = -1, to = -1;
      if (LooksLikeHeading(t)) {
        from = 0, to = n;
      } else if (int s = TrailingHeading(t, *rules.language); s >= 0) {
        from = s, to = n;
      }
      for (size_t o = 0; o < overrides.entries.size(); ++o) {
        const Override& ov = overrides.entries[o];
        const std::u32string h = ToU32(ov.heading);
        if (h.empty() || t.find(ToU32(ov.match)) == std::u32string::npos) continue;
        if (t.compare(0, h.size(), h) == 0) {
          from = 0, to = static_cast<int>(h.size());
          used[o] = true;
        } else if (t.size() >= h.size() && t.compare(n - h.size(), h.size(), h) == 0) {
          from = n - static_cast<int>(h.size()), to = n;
          used[o] = true;
        }
      }
      for (int k = std::max(0, from); k < to; ++k)
        labels[i][k] = Label{UtteranceKind::kHeading, -1};
    }

    for (const Speech& s : speeches) {
      if (s.unclosed && reporter != nullptr) {
        const Para& p = paras[s.spans.back().para];
        reporter->Report({Severity::kWarning, source.file, p.line,
                          "quote not closed by the end of the paragraph; it ends there"});
      }
    }
    std::vector<bool> reported(speeches.size(), false);
    for (size_t i = 0; i < paras.size(); ++i) {
      const int paragraph_index = paras[i].index + 1;
      int sentence = 0;
      for (const auto& seg : Segments(paras[i], labels[i])) {
        std::vector<std::vector<Token>> parts;
        if (seg.label.kind == UtteranceKind::kHeading) {
          parts.push_back(seg.tokens);
        } else {
          parts = SplitSentences(seg.tokens, source.lang);
        }
        for (auto& part : parts) {
          Utterance u = MakeUtterance(part, source.lang, seg.label.kind);
          u.id = MakeId(chapter.index, paragraph_index, ++sentence);
          u.chapter = chapter.index;
          u.paragraph = paragraph_index;
          u.line = paras[i].line;
          u.voice = cast.options.narrator;
          if (seg.label.kind == UtteranceKind::kDocument) {
            u.voice = cast.options.document;
          } else if (seg.label.kind == UtteranceKind::kSpeech) {
            const Speech& s = speeches[seg.label.speech];
            const std::string name = s.attributed ? s.speaker : "unknown";
            u.speaker = name;
            u.evidence = s.attributed ? s.evidence : Evidence::kNone;
            u.confidence = Confidence(u.evidence);
            u.gender = casting.GenderFor(name, s.gender == "p" ? "" : s.gender);
            if (!s.attributed && !reported[seg.label.speech] && reporter != nullptr) {
              reported[seg.label.speech] = true;
              reporter->Report(
                  {Severity::kWarning, source.file, paras[i].line,
                   "speech not attributed, read as 'unknown': \"" + Snippet(u.text) + "\""});
            }
          }
          chapter.utterances.push_back(std::move(u));
        }
      }
    }
    // Producer corrections keyed by a snippet of the utterance text.
    for (size_t o = 0; o < overrides.entries.size(); ++o) {
      const Override& ov = overrides.entries[o];
      if (!ov.heading.empty()) continue;
      for (Utterance& u : chapter.utterances) {
        if (u.text.find(ov.match) == std::string::npos) continue;
        used[o] = true;
        if (ov.kind == "heading") u.kind = UtteranceKind::kHeading;
        if (ov.kind == "narration") u.kind = UtteranceKind::kNarration;
        if (ov.kind == "speech") u.kind = UtteranceKind::kSpeech;
        if (ov.kind == "document") u.kind = UtteranceKind::kDocument;
        if (u.kind == UtteranceKind::kSpeech) {
          if (!ov.speaker.empty()) u.speaker = ov.speaker;
          if (!u.speaker) u.speaker = "unknown";
          if (!ov.speaker.empty()) {
            u.evidence = Evidence::kOverride;
            u.confidence = Confidence(u.evidence);
          }
          u.gender = ov.gender.empty() ? casting.GenderFor(*u.speaker, u.gender) : ov.gender;
          if (!ov.gender.empty()) gendered_by_override.insert(u.id);
        } else {
          u.speaker.reset();
          u.evidence = Evidence::kNone;
          u.confidence = 0;
          u.gender.clear();
          u.voice =
              u.kind == UtteranceKind::kDocument ? cast.options.document : cast.options.narrator;
        }
      }
    }
    script.chapters.push_back(std::move(chapter));
  }
  for (size_t o = 0; o < overrides.entries.size(); ++o) {
    if (!used[o] && reporter != nullptr) {
      reporter->Report({Severity::kWarning, overrides.file, overrides.entries[o].line,
                        "override matches nothing: \"" + overrides.entries[o].match + "\""});
    }
  }
  OneGenderEach(gendered_by_override, &script);
  AssignVoices(&casting, &script);
  // The people found in the text, each with the gender their speech is
  // voiced with (of the first of their speeches that has one), and what said
  // it.
  std::map<std::string, std::string> voiced_gender;
  for (const Chapter& c : script.chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.kind == UtteranceKind::kSpeech && u.speaker && !u.gender.empty())
        voiced_gender.emplace(*u.speaker, u.gender);
    }
  }
  for (const std::string& name : names.discovered) {
    FoundPerson person{name, "", "", {}};
    if (auto voiced = voiced_gender.find(name); voiced != voiced_gender.end())
      person.gender = voiced->second;
    if (auto found = genders_found.find(name);
        !person.gender.empty() && found != genders_found.end()) {
      person.gender_evidence =
          found->second.gender == person.gender ? found->second.evidence : "speech";
    }
    for (const auto& [alias, to] : names.alias_to_name) {
      const std::string written = ToUtf8(alias);
      if (to == name && written != name) person.aliases.push_back(written);
    }
    script.people.push_back(std::move(person));
  }
  AddCredits(credits, cast.options.narrator, &script);
  return script;
}

}  // namespace narrate
