// Private to the markup stage: code-point text of paragraphs, the rule tables,
// quote and block detection, mentions of people and speaker attribution.
// Plain functions over value types; thread-safe.
#pragma once

#include <unicode/regex.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/core.h"
#include "core/language.h"
#include "markup/markup.h"

namespace narrate {
namespace markup_internal {

std::u32string ToU32(const std::string& utf8);
std::string ToUtf8(const std::u32string& text);
std::string ToUtf8(const std::u32string& text, int begin, int end);
bool IsSpace(char32_t c);
bool IsHan(char32_t c);
bool IsUpper(char32_t c);
bool IsLetter(char32_t c);
// 。！？.!?… (a sentence has ended).
bool IsTerminal(char32_t c);
// Clause separators: terminals plus ，；、,; and colons.
bool IsClauseEnd(char32_t c);
bool IsColon(char32_t c);
bool IsDash(char32_t c);

// The rule tables of one language (pipeline/markup/rules/<lang>/*.tsv), and
// its profile.
struct Rules {
  // Set by DefaultRules, never null there: the language's profile, or a
  // default-constructed one for a language without a profile.
  const LanguageProfile* language = nullptr;
  std::map<std::u32string, std::string> verbs;  // form -> "m"/"f"/"p"/""
  std::set<std::u32string> not_verbs, receive, objects, documents, first_person, groups, adverbs,
      enumerations, no_break_after;
  std::map<std::u32string, std::string> pronouns;  // form -> "m"/"f"/"p"
  // People's names where words are not delimited (names.tsv): surnames
  // (李, 欧阳), prefixes before a surname (老赵, 小刘), titles after one or
  // alone (陈大夫, 李太太) and kinship terms (奶奶), the last two with a gender.
  std::set<std::u32string> surnames, name_prefixes;
  size_t longest_surname = 0;  // in code points
  // Words shaped like a name that are none (小时, 高兴): never a person.
  std::set<std::u32string> not_names;
  // Characters of given names that mostly say a gender (梅 f, 军 m).
  std::map<std::u32string, std::string> given;
  // Characters of grammar no name holds (着, 地, 了): a phrase with one before
  // a speech verb (笑着说, 含含糊糊地说) is no unknown speaker.
  std::set<char32_t> particles;
  // Words that open a subordinate clause (keď, kým, 当): who it names is not
  // the sentence's subject when the main clause names one.
  std::set<std::u32string> subordinators;
  // Endings of past-tense verbs and the gender of their dropped subject
  // (Vstala: f), longest first: a sentence that opens with one has no named
  // subject but one of that gender.
  std::vector<std::pair<std::u32string, std::string>> past_endings;
  // The gender a capitalized name's ending makes likely (Natália, Lehotská:
  // f), in order, the first that fits; an empty ending fits any name.
  std::vector<std::pair<std::u32string, std::string>> gender_endings;
  // The gender of a speaker nothing in the text marks ("" if none): Chinese
  // narration marks women (她, 姑娘, 女士) and leaves men unmarked.
  std::string unmarked_gender;
  // Characters that end the name of a place or a household (府, 村): a
  // surname before one names no person (赵府).
  std::set<char32_t> places;
  // Characters that foreign names are written with (拿, 破, 仑, 麦, 克).
  std::set<char32_t> foreign;
  std::map<std::u32string, std::string> titles, kin;
  // How nouns decline (names.tsv): a nominative ending and the endings of the
  // other cases that replace it, so that a kinship noun's declined forms are
  // the same person (lekárka: lekárke, lekárku).
  std::vector<std::pair<std::u32string, std::vector<std::u32string>>> declensions;
  // Heading shapes (chapters.tsv), each the alternation of its rows: a line
  // one matches whole starts a chapter, starts a volume, or names a table of
  // contents. Null: the language has none.
  std::shared_ptr<const icu::RegexPattern> chapter, volume, contents;
  // A line some e-books put where a chapter starts (#K#2#-K#): it starts one
  // and is not read. Null: none.
  std::shared_ptr<const icu::RegexPattern> marker;
  // How speakers say their own name (我叫苏晴, Volám sa Nováková): each an
  // ICU regular expression whose first group is the name.
  std::vector<std::shared_ptr<const icu::RegexPattern>> introductions;
  // How the narration names the one it has just spoken of (她叫冯淑芬): a
  // pattern like an introduction's and the gender it says ("" if none).
  std::vector<std::pair<std::shared_ptr<const icu::RegexPattern>, std::string>> namings;
};
// Compiles an ICU regular expression; DataError with ICU's reason when it
// does not compile.
StatusOr<std::shared_ptr<const icu::RegexPattern>> CompilePattern(const std::string& pattern);
// Reads every *.tsv under dir/lang (`language` is left null). DataError naming
// file:line when malformed.
StatusOr<Rules> LoadRules(const std::string& dir, const Lang& lang);
// The rules and profile installed with the program (cached; empty tables or a
// default profile on error, which is reported once to `reporter`).
const Rules& DefaultRules(const Lang& lang, Reporter* reporter);

// One paragraph as code points, with the token each code point comes from.
struct Para {
  int line = 0;
  int index = 0;  // 0-based within the chapter
  std::u32string text;
  std::vector<Token> tokens;
};

// A stretch of a paragraph [begin, end) in code points.
struct Span {
  int para = 0;
  int begin = 0;
  int end = 0;
};

// One quote or block speech; it may cover several paragraphs.
struct Speech {
  std::vector<Span> spans;  // in reading order
  bool quoted = true;       // false: a block speech without quote marks
  bool document = false;
  std::string speaker;  // empty: not attributed yet
  std::string gender;   // "m", "f" or ""
  bool group = false;
  bool attributed = false;              // false: speaker "unknown"
  Evidence evidence = Evidence::kNone;  // how the speaker was found
  bool unclosed = false;                // a quote that no mark closes
};

// Per paragraph, per code point: whether it is inside a speech.
std::vector<std::vector<bool>> SpeechMask(const std::vector<Para>& paras,
                                          const std::vector<Speech>& speeches);

// Finds quotes and block speeches in a chapter; decides which are speech.
std::vector<Speech> FindSpeeches(const std::vector<Para>& paras, const Rules& rules);

// A person (or group) named or referred to in narration.
struct Mention {
  int para = 0;
  int begin = 0;
  int end = 0;
  std::string name;    // the canonical speaker name
  std::string gender;  // "m", "f" or ""
  bool group = false;
  bool pronoun = false;
  bool guessed = false;  // a word taken for a name (capitalized) that no cast lists
  bool sentence_initial = false;
  bool oblique = false;              // named in a declined form (NameBook::oblique)
  std::vector<std::string> members;  // of a group joined from names (X和Y)
  std::string pronoun_gender;        // a pronoun's own gender (他: m)
  int sentence = 0;                  // chapter-wide sentence number
};

// Whose name is which: canonical names, genders and aliases from the cast.
struct NameBook {
  std::map<std::u32string, std::string> alias_to_name;
  std::map<std::string, std::string> gender;  // canonical name -> "m"/"f"
  std::set<std::string> discovered;           // names found in the text, not in the cast
  // Declined forms that are not the nominative (Ondrejovi, pána Hudca): the
  // person so named is not the subject of the clause, so not its speaker.
  std::set<std::u32string> oblique;
  // The gender a discovered name's shape makes likely (晓梅 f), when nothing
  // in the text says one: weaker than what the verbs and pronouns say.
  std::map<std::string, std::string> likely_gender;
  // Pronouns that say no gender in this book (他 where 她 is never written).
  std::set<std::u32string> genderless_pronouns;
};
NameBook MakeNameBook(const Cast& cast);

// Every form of a noun: itself, its declined forms (the first declension of
// names.tsv whose nominative ending it has), each also with a capital first
// letter. Where words do not decline, just the noun.
std::vector<std::u32string> DeclinedForms(const std::u32string& noun, const Rules& rules);
// The word with a capital first letter (Doktorka).
std::u32string Capital(const std::u32string& word);

// Adds to `names` the people the narration of a book's chapters in one
// language names (names.tsv), so that attribution knows them as it knows a
// cast. Where words are not delimited (Chinese): titled shapes and kinship
// terms (李太太, 奶奶) once; a prefix or a surname and a given name (小军,
// 李晓梅, known by 晓梅 too) when they open clauses or are called in speech
// often enough; foreign names (拿破仑) in clauses that say something; two
// characters that keep standing before speech verbs (宝玉道); a surname with
// a title (刘师傅, 老刘) is the one full name with that surname. Where words
// decline (Slovak): kinship and role nouns in all their forms, capitalized
// names and their declined forms as one person, a noun put before one name
// only as that person. Genders from titles and kinship terms; the likely one
// from a given name's character. Names already there are kept as they are.
void DiscoverPeople(const std::vector<Para>& paras, const std::vector<Speech>& speeches,
                    const Rules& rules, NameBook* names);

// A speaker known only by a role or kinship noun (女孩, žena, dievča) who says
// their own name (我叫苏晴, Volám sa Nováková, Som Natália) is that name from
// then on: their speeches in the chapter, and the noun in the chapters after.
// A speech attributed to nobody that says a known name so is that person's.
void NameByIntroductions(const std::vector<Para>& paras, const Rules& rules, NameBook* names,
                         std::vector<Speech>* speeches);

// What attribution worked out of a speaker's gender, and from what: "cast",
// "title" (a title or kinship term: 李太太, lekárka), "pronoun", "verb"
// (povedala), "address" (called 爷爷 or mami), "name" (a given name's
// character, a name's ending).
struct GenderFound {
  std::string gender;  // "m" or "f"
  std::string evidence;
};

// Attributes every speech (speaker, gender, group, document) in place; adds
// to `genders` (may be null) the gender of each speaker it has not yet.
void Attribute(const std::vector<Para>& paras, const Rules& rules, const NameBook& names,
               std::vector<Speech>* speeches, std::map<std::string, GenderFound>* genders);

// True when [begin, end) of text contains a speech verb (not inside a
// not_verb compound); `gender` gets the verb's gender column, `at` its start.
bool FindVerb(const std::u32string& text, int begin, int end, const Rules& rules,
              std::string* gender, int* at);

// Auto-casting: the timbre of every speaker, deterministic.
class Casting {
 public:
  Casting(const Cast& cast, const std::map<std::string, Timbre>& voices);
  // The timbre of a speaker: the cast's, else the least used one of its
  // gender so far. Deterministic for the same order of calls; the same name
  // always gets the same timbre.
  std::string VoiceFor(const std::string& speaker, const std::string& gender);
  std::string GenderFor(const std::string& speaker, const std::string& fallback) const;

 private:
  const Cast& cast_;
  std::vector<std::string> male_, female_, all_;
  std::map<std::string, std::string> assigned_;
  std::map<std::string, int> uses_;  // timbre -> speakers given it so far
};

}  // namespace markup_internal

// Splits one paragraph's tokens into sentences (ICU BreakIterator, corrected:
// an opening quote after a sentence end starts the next sentence; no break
// after an abbreviation token or a rules no_break_after entry such as "gen.").
// Every token lands in exactly one sentence; a token is never split.
std::vector<std::vector<Token>> SplitSentences(const std::vector<Token>& tokens, const Lang& lang);

}  // namespace narrate
