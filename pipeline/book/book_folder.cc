// Book folders (book.toml), single texts and voices/*.toml: what a session opens.
#include <algorithm>
#include <cstdlib>

#include "book/book.h"
#include "core/language.h"
#include "core/toml_file.h"

namespace narrate {
namespace {

// A chapter source's `split` ("headings" or "none") and `chapter_pattern`
// (an ICU regular expression). DataError naming book.toml:line when bad.
Status ReadSplit(const std::string& toml_path, const toml::table& source, ChapterSplit* split) {
  if (const toml::node* node = source.get("split")) {
    const std::optional<std::string> value = node->value<std::string>();
    if (!value || (*value != "headings" && *value != "none")) {
      return Status::DataError(TomlAt(toml_path, *node) +
                               ": split must be \"headings\" or \"none\"");
    }
    split->headings = *value == "headings";
  }
  if (const toml::node* node = source.get("chapter_pattern")) {
    const std::optional<std::string> value = node->value<std::string>();
    if (!value || value->empty()) {
      return Status::DataError(TomlAt(toml_path, *node) +
                               ": chapter_pattern must be a regular expression");
    }
    if (Status checked = CheckChapterPattern(*value); !checked.ok()) {
      return Status::DataError(TomlAt(toml_path, *node) +
                               ": chapter_pattern: " + checked.message());
    }
    split->pattern = *value;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<Book> LoadBook(const std::string& dir_in) {
  std::string dir = dir_in;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (!IsDirectory(dir)) {
    return Status::IoError(dir + ": no such book folder");
  }
  const std::string toml_path = dir + "/book.toml";
  if (!IsRegularFile(toml_path)) {
    return Status::IoError(toml_path + ": missing (a book folder needs a book.toml)");
  }
  StatusOr<toml::table> parsed = ParseTomlFile(toml_path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& t = *parsed;

  Book book;
  book.dir = dir;
  book.name = BaseName(dir);
  book.title = t["title"].value_or(std::string());
  book.author = t["author"].value_or(std::string());
  book.lang = t["language"].value_or(std::string());
  book.skip_glosses = t["skip_glosses"].value_or(false);
  if (book.title.empty()) {
    return Status::DataError(toml_path + ": missing 'title'");
  }
  const toml::array* chapters = t["chapters"].as_array();
  if (chapters == nullptr || chapters->empty()) {
    return Status::DataError(toml_path +
                             ": no [[chapters]] (each names a text file and its language)");
  }
  for (const toml::node& node : *chapters) {
    const toml::table* c = node.as_table();
    const std::string where = TomlAt(toml_path, node);
    if (c == nullptr) return Status::DataError(where + ": a chapter must be a table");
    BookSource chapter;
    chapter.file = (*c)["file"].value_or(std::string());
    chapter.lang = (*c)["language"].value_or(book.lang);
    chapter.title = (*c)["title"].value_or(std::string());
    chapter.encoding = (*c)["encoding"].value_or(std::string());
    if (chapter.file.empty()) {
      return Status::DataError(where + ": chapter has no 'file'");
    }
    if (Status split = ReadSplit(toml_path, *c, &chapter.split); !split.ok()) return split;
    if (StatusOr<const LanguageProfile*> known = FindLanguage(chapter.lang); !known.ok()) {
      return Status::DataError(where + ": chapter " + known.status().message());
    }
    chapter.file = dir + "/" + chapter.file;
    book.chapters.push_back(std::move(chapter));
  }
  if (book.lang.empty()) {
    book.lang = book.chapters.front().lang;
  } else if (StatusOr<const LanguageProfile*> known = FindLanguage(book.lang); !known.ok()) {
    return Status::DataError(TomlAt(toml_path, *t["language"].node()) + ": book " +
                             known.status().message());
  }
  const std::string lexicon = t["lexicon"].value_or(std::string("lexicon.tsv"));
  if (IsRegularFile(dir + "/" + lexicon)) {
    book.lexicon = dir + "/" + lexicon;
  } else if (t.contains("lexicon")) {
    return Status::IoError(dir + "/" + lexicon + ": lexicon named in book.toml is missing");
  }
  if (IsRegularFile(dir + "/cast.toml")) book.cast = dir + "/cast.toml";
  if (IsRegularFile(dir + "/overrides.toml")) book.overrides = dir + "/overrides.toml";
  return book;
}

Lang GuessLanguage(const std::string& bytes) {
  // Chinese if a few Hanzi appear: in UTF-8 three bytes, a lead byte
  // E4-E9 and two continuation bytes; in GB18030/Big5 pairs of high bytes.
  // European letters are two-byte UTF-8 sequences (C2-DF, continuation) or,
  // in legacy code pages, single high bytes between ASCII letters (é, ä).
  int hanzi = 0, high_pairs = 0, european = 0;
  const size_t n = std::min<size_t>(bytes.size(), 8192);
  auto cont = [&](size_t i) { return i < n && (bytes[i] & 0xC0) == 0x80; };
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = bytes[i];
    if (c < 0x80) continue;
    if (c >= 0xE4 && c <= 0xE9 && cont(i + 1) && cont(i + 2)) {
      ++hanzi;
      i += 2;
    } else if (c >= 0xC2 && c <= 0xDF && cont(i + 1)) {
      ++european;
      ++i;
    } else if (i + 1 < n && static_cast<unsigned char>(bytes[i + 1]) >= 0x80) {
      ++high_pairs;
      ++i;
    } else {
      ++european;
    }
  }
  const std::string script = hanzi >= 3 || high_pairs > 3 * std::max(1, european) ? "han" : "latin";
  // The first language (in list order) written in that script.
  StatusOr<const LanguageSet*> languages = Languages();
  if (languages.ok()) {
    for (const LanguageProfile& p : (*languages)->profiles()) {
      if (p.script == script) return p.code;
    }
  }
  return "";
}

StatusOr<Book> BookFromFile(const std::string& path, const Lang& lang_in) {
  StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  const Lang lang = lang_in.empty() ? GuessLanguage(*bytes) : lang_in;
  if (StatusOr<const LanguageProfile*> known = FindLanguage(lang); !known.ok()) {
    return known.status();
  }
  Book book;
  book.dir = ".";
  book.name = BaseName(path);
  book.title = book.name;
  book.lang = lang;
  book.chapters.push_back({path, lang, "", "", ChapterSplit{true, ""}, std::nullopt});
  return book;
}

StatusOr<Book> BookFromText(const std::string& text, const Lang& lang_in) {
  const Lang lang = lang_in.empty() ? GuessLanguage(text) : lang_in;
  if (StatusOr<const LanguageProfile*> known = FindLanguage(lang); !known.ok()) {
    return known.status();
  }
  Book book;
  book.dir = ".";
  book.name = "text";
  book.title = book.name;
  book.lang = lang;
  book.whole_book = false;
  book.chapters.push_back({"(the text)", lang, "", "", ChapterSplit(), text});
  return book;
}

std::string DefaultVoicesDir() {
  if (const char* env = std::getenv("NARRATE_VOICES_DIR")) return env;
  return NARRATE_VOICES_DIR;
}

StatusOr<std::map<std::string, Timbre>> LoadVoices(const std::string& dir) {
  StatusOr<std::vector<std::string>> files = ListFiles(dir, ".toml");
  if (!files.ok()) return Status::IoError(dir + ": cannot open voices folder");
  std::map<std::string, Timbre> voices;
  for (const std::string& name : *files) {
    const std::string path = dir + "/" + name;
    StatusOr<toml::table> parsed = ParseTomlFile(path);
    if (!parsed.ok()) return parsed.status();
    const toml::table& t = *parsed;
    Timbre timbre;
    timbre.name = name.substr(0, name.size() - 5);
    timbre.variant = t["variant"].value_or(std::string());
    timbre.pitch = t["pitch"].value_or(timbre.pitch);
    timbre.range = t["range"].value_or(timbre.range);
    timbre.rate = t["rate"].value_or(timbre.rate);
    timbre.volume = t["volume"].value_or(timbre.volume);
    timbre.gender = t["gender"].value_or(std::string());
    if (timbre.pitch < 0 || timbre.pitch > 100 || timbre.range < 0 || timbre.range > 100 ||
        timbre.rate < 80 || timbre.rate > 450 || timbre.volume < 0 || timbre.volume > 200) {
      return Status::DataError(path +
                               ": pitch and range must be 0-100, rate "
                               "80-450, volume 0-200");
    }
    voices[timbre.name] = timbre;
  }
  return voices;
}

}  // namespace narrate
