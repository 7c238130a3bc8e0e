// Loading of the language profiles (language.h). Thread-safe: the installed
// set is a function-local static, made once; the rest is pure.
#include "core/language.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <utility>

#include "core/toml_file.h"

#ifndef NARRATE_LANGUAGES_DIR
#define NARRATE_LANGUAGES_DIR "pipeline/languages"
#endif

namespace narrate {
namespace {

// Valid UTF-8 (toml++ checks its strings) as code points.
std::u32string CodePoints(const std::string& utf8) {
  std::u32string out;
  for (size_t i = 0; i < utf8.size();) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    const int extra = b < 0x80 ? 0 : b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
    char32_t c = extra == 0 ? b : b & (0x3F >> extra);
    for (int k = 1; k <= extra && i + k < utf8.size(); ++k) {
      c = (c << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    out.push_back(c);
    i += extra + 1;
  }
  return out;
}

// Reads the keys of one profile's tables; the first problem found is kept
// (status()) and later reads do nothing.
class ProfileReader {
 public:
  explicit ProfileReader(const std::string& path) : path_(path) {}
  const Status& status() const { return status_; }

  // The table under `key` (required), or null.
  const toml::table* Table(const toml::table& t, const char* key) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return nullptr;
    if (!node->is_table()) Fail(*node, std::string("'") + key + "' must be a table");
    return node->as_table();
  }
  void String(const toml::table& t, const char* key, std::string* out) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return;
    if (!node->is_string()) return Fail(*node, std::string("'") + key + "' must be a string");
    *out = node->as_string()->get();
  }
  void CodePointString(const toml::table& t, const char* key, std::u32string* out) {
    std::string s;
    String(t, key, &s);
    *out = CodePoints(s);
  }
  void Bool(const toml::table& t, const char* key, bool* out) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return;
    if (!node->is_boolean()) return Fail(*node, std::string("'") + key + "' must be true or false");
    *out = node->as_boolean()->get();
  }
  void Int(const toml::table& t, const char* key, int min, int max, int* out) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return;
    const int64_t v = node->is_integer() ? node->as_integer()->get() : int64_t{min} - 1;
    if (v < min || v > max) {
      return Fail(*node, std::string("'") + key + "' must be a whole number from " +
                             std::to_string(min) + " to " + std::to_string(max));
    }
    *out = static_cast<int>(v);
  }
  // An array of strings.
  void Strings(const toml::table& t, const char* key, std::vector<std::string>* out) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) return Fail(*node, std::string("'") + key + "' must be an array");
    for (const toml::node& e : *array) {
      if (!e.is_string()) return Fail(e, std::string("'") + key + "' must hold strings");
      out->push_back(e.as_string()->get());
    }
  }
  // The opening marks and their closers: [{open = "„", close = "“”"}, ...].
  void Quotes(const toml::table& t, const char* key, std::vector<QuoteMarks>* out) {
    const toml::node* node = Node(t, key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) return Fail(*node, std::string("'") + key + "' must be an array");
    for (const toml::node& e : *array) {
      const toml::table* mark = e.as_table();
      if (mark == nullptr) return Fail(e, "a quote must be {open = \"…\", close = \"…\"}");
      std::u32string open;
      QuoteMarks marks;
      CodePointString(*mark, "open", &open);
      CodePointString(*mark, "close", &marks.close);
      Known(*mark, {"open", "close"});
      if (!status_.ok()) return;
      if (open.size() != 1 || marks.close.empty()) {
        return Fail(e, "a quote opens with one mark and is closed by at least one");
      }
      marks.open = open[0];
      out->push_back(std::move(marks));
    }
  }
  // Fails on a key of `t` that is not one of `keys` (a misspelt one).
  void Known(const toml::table& t, std::initializer_list<const char*> keys) {
    if (!status_.ok()) return;
    for (const auto& [key, node] : t) {
      const bool known =
          std::any_of(keys.begin(), keys.end(), [&](const char* k) { return key.str() == k; });
      if (!known) return Fail(node, "unknown key '" + std::string(key.str()) + "'");
    }
  }
  void Fail(const toml::node& node, const std::string& message) {
    if (status_.ok()) status_ = Status::DataError(TomlAt(path_, node) + ": " + message);
  }

 private:
  const toml::node* Node(const toml::table& t, const char* key) {
    if (!status_.ok()) return nullptr;
    const toml::node* node = t.get(key);
    if (node == nullptr) Fail(t, std::string("missing '") + key + "'");
    return node;
  }

  const std::string& path_;
  Status status_;
};

StatusOr<LanguageProfile> LoadProfile(const std::string& path, const Lang& code) {
  StatusOr<toml::table> parsed = ParseTomlFile(path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& t = *parsed;
  LanguageProfile p;
  p.code = code;
  p.file = path;
  ProfileReader r(path);
  r.Int(t, "list_order", 0, 1000000, &p.list_order);
  r.Bool(t, "word_delimited", &p.word_delimited);
  r.Int(t, "caption_width", 1, 1000, &p.caption_width);
  r.String(t, "espeak_voice", &p.espeak_voice);
  r.String(t, "normalizer", &p.normalizer);
  r.Strings(t, "legacy_encodings", &p.legacy_encodings);
  if (const toml::table* q = r.Table(t, "quotes")) {
    r.Quotes(*q, "marks", &p.quotes);
    r.Bool(*q, "dash_dialogue", &p.dash_dialogue);
    r.Known(*q, {"marks", "dash_dialogue"});
  }
  if (const toml::table* s = r.Table(t, "sentences")) {
    r.CodePointString(*s, "openers", &p.sentence_openers);
    r.CodePointString(*s, "closers", &p.sentence_closers);
    r.Known(*s, {"openers", "closers"});
  }
  if (const toml::table* m = r.Table(t, "mentions")) {
    std::vector<std::string> joiners;
    r.Strings(*m, "joiners", &joiners);
    for (const std::string& j : joiners) p.joiners.push_back(CodePoints(j));
    r.String(*m, "name_joiner", &p.name_joiner);
    r.String(*m, "plural_pronoun", &p.plural_pronoun);
    r.CodePointString(*m, "group_suffix", &p.group_suffix);
    r.Known(*m, {"joiners", "name_joiner", "plural_pronoun", "group_suffix"});
  }
  if (const toml::table* h = r.Table(t, "headings")) {
    r.Int(*h, "trailing_chars", 1, 1000, &p.trailing_heading_chars);
    r.Int(*h, "trailing_words", 0, 1000, &p.trailing_heading_words);
    r.Bool(*h, "trailing_capitalized", &p.trailing_heading_capitalized);
    r.String(*h, "default_title", &p.default_title);
    r.String(*h, "title_numerals", &p.title_numerals);
    r.Known(*h, {"trailing_chars", "trailing_words", "trailing_capitalized", "default_title",
                 "title_numerals"});
    if (r.status().ok() && p.title_numerals != "arabic" && p.title_numerals != "han") {
      r.Fail(*h->get("title_numerals"), "'title_numerals' must be \"arabic\" or \"han\"");
    }
  }
  r.String(t, "script", &p.script);
  if (r.status().ok() && p.script != "han" && p.script != "latin") {
    r.Fail(*t.get("script"), "'script' must be \"han\" or \"latin\"");
  }
  if (const toml::table* b = r.Table(t, "book")) {
    r.Strings(*b, "title_labels", &p.title_labels);
    r.Strings(*b, "author_labels", &p.author_labels);
    r.Strings(*b, "author_suffixes", &p.author_suffixes);
    r.Strings(*b, "title_marks", &p.title_marks);
    r.Known(*b, {"title_labels", "author_labels", "author_suffixes", "title_marks"});
    if (r.status().ok() && !p.title_marks.empty() && p.title_marks.size() != 2) {
      r.Fail(*b->get("title_marks"),
             "'title_marks' must be none or two marks, opening and closing");
    }
  }
  if (const toml::table* e = r.Table(t, "epub")) {
    r.String(*e, "contents", &p.contents_label);
    r.String(*e, "landmarks", &p.landmarks_label);
    r.String(*e, "start", &p.start_label);
    r.Known(*e, {"contents", "landmarks", "start"});
  }
  if (const toml::table* c = r.Table(t, "credits")) {
    r.String(*c, "before_author", &p.before_author);
    r.String(*c, "before_narrator", &p.before_narrator);
    r.String(*c, "closing", &p.closing);
    r.String(*c, "stop", &p.stop);
    r.Known(*c, {"before_author", "before_narrator", "closing", "stop"});
  }
  r.Known(t, {"list_order", "word_delimited", "script", "caption_width", "espeak_voice",
              "normalizer", "legacy_encodings", "quotes", "sentences", "mentions", "headings",
              "credits", "book", "epub"});
  if (!r.status().ok()) return r.status();
  return p;
}

std::string InstalledDir() {
  if (const char* env = std::getenv("NARRATE_LANGUAGES_DIR")) return env;
  return NARRATE_LANGUAGES_DIR;
}

}  // namespace

LanguageSet::LanguageSet(std::vector<LanguageProfile> profiles) : profiles_(std::move(profiles)) {
  std::sort(profiles_.begin(), profiles_.end(),
            [](const LanguageProfile& a, const LanguageProfile& b) {
              return std::make_pair(a.list_order, a.code) < std::make_pair(b.list_order, b.code);
            });
}

const LanguageProfile* LanguageSet::Find(const Lang& lang) const {
  for (const LanguageProfile& p : profiles_) {
    if (p.code == lang) return &p;
  }
  return nullptr;
}

std::string LanguageSet::Names(const std::string& conjunction) const {
  std::string out;
  for (size_t i = 0; i < profiles_.size(); ++i) {
    if (i > 0) out += i + 1 == profiles_.size() ? " " + conjunction + " " : ", ";
    out += profiles_[i].code;
  }
  return out;
}

StatusOr<LanguageSet> LoadLanguages(const std::string& dir) {
  StatusOr<std::vector<std::string>> names = ListFiles(dir, "");
  if (!names.ok()) return names.status();
  std::vector<LanguageProfile> profiles;
  for (const std::string& name : *names) {
    const std::string path = dir + "/" + name + "/profile.toml";
    if (name[0] == '.' || ::access(path.c_str(), F_OK) != 0) continue;
    StatusOr<LanguageProfile> profile = LoadProfile(path, name);
    if (!profile.ok()) return profile.status();
    profiles.push_back(std::move(profile).value());
  }
  if (profiles.empty()) return Status::IoError(dir + ": no <lang>/profile.toml in the folder");
  return LanguageSet(std::move(profiles));
}

StatusOr<const LanguageSet*> Languages() {
  static const StatusOr<LanguageSet>* const kInstalled =
      new StatusOr<LanguageSet>(LoadLanguages(InstalledDir()));
  if (!kInstalled->ok()) return kInstalled->status();
  return &kInstalled->value();
}

StatusOr<const LanguageProfile*> FindLanguage(const Lang& lang) {
  StatusOr<const LanguageSet*> set = Languages();
  if (!set.ok()) return set.status();
  if (const LanguageProfile* p = (*set)->Find(lang)) return p;
  return Status::Usage("language '" + lang + "' is not supported (" + (*set)->Names() + ")");
}

}  // namespace narrate
