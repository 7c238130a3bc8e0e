// InitBook: a book folder from text files (narrate init). The title and
// author come from the text where it names them (the language profile says
// how), the chapters from the text's headings, the draft cast from the
// speakers its first script attributes speech to.
#include <unistd.h>

#include <algorithm>
#include <map>

#include "book/book.h"
#include "core/language.h"
#include "core/toml_file.h"
#include "ingest/ingest.h"

namespace narrate {
namespace {

constexpr size_t kLookedAt = 12;  // first paragraphs searched for title and author

// "hongloumeng" of "corpus/hongloumeng.gbk.txt".
std::string Stem(const std::string& path) {
  const std::string base = BaseName(path);
  const size_t dot = base.find('.');
  return dot == 0 || dot == std::string::npos ? base : base.substr(0, dot);
}

// `text` without leading and trailing spaces (ASCII and U+3000).
std::string Trimmed(std::string text) {
  static const std::string kIdeographicSpace = "\u3000";
  for (bool again = true; again;) {
    again = false;
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.erase(0, 1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
    if (text.rfind(kIdeographicSpace, 0) == 0) {
      text.erase(0, kIdeographicSpace.size());
      again = true;
    }
    if (text.size() >= kIdeographicSpace.size() &&
        text.compare(text.size() - kIdeographicSpace.size(), std::string::npos,
                     kIdeographicSpace) == 0) {
      text.erase(text.size() - kIdeographicSpace.size());
      again = true;
    }
  }
  return text;
}

// What follows `label` and a colon at the start of `line` ("作者：曹雪芹"), or
// empty.
std::string Labelled(const std::string& line, const std::vector<std::string>& labels) {
  for (const std::string& label : labels) {
    if (line.rfind(label, 0) != 0) continue;
    std::string rest = Trimmed(line.substr(label.size()));
    for (const char* colon : {"：", ":"}) {
      const std::string c = colon;
      if (rest.rfind(c, 0) == 0) return Trimmed(rest.substr(c.size()));
    }
  }
  return "";
}

// `line` without `suffix` at its end ("曹雪芹 著" -> "曹雪芹"), or empty.
std::string BeforeSuffix(const std::string& line, const std::vector<std::string>& suffixes) {
  for (const std::string& suffix : suffixes) {
    if (line.size() > suffix.size() &&
        line.compare(line.size() - suffix.size(), std::string::npos, suffix) == 0) {
      return Trimmed(line.substr(0, line.size() - suffix.size()));
    }
  }
  return "";
}

// The title and author a text names in its first paragraphs (those it does
// not name stay empty).
void TitleAndAuthor(const CleanText& text, const LanguageProfile& language, std::string* title,
                    std::string* author) {
  for (size_t i = 0; i < text.paragraphs.size() && i < kLookedAt; ++i) {
    const std::string line = Trimmed(text.paragraphs[i].text);
    if (title->empty()) *title = Labelled(line, language.title_labels);
    if (author->empty()) *author = Labelled(line, language.author_labels);
    if (author->empty()) *author = BeforeSuffix(line, language.author_suffixes);
    const std::vector<std::string>& marks = language.title_marks;
    if (title->empty() && marks.size() == 2 && line.rfind(marks[0], 0) == 0 &&
        line.size() > marks[0].size() + marks[1].size() &&
        line.compare(line.size() - marks[1].size(), std::string::npos, marks[1]) == 0 &&
        line.find(marks[1]) == line.size() - marks[1].size()) {
      *title = line.substr(marks[0].size(), line.size() - marks[0].size() - marks[1].size());
    }
  }
}

// book.toml for `book`, with a line of comment on what each setting does.
std::string BookToml(const Book& book, const std::vector<std::string>& files,
                     const std::vector<std::string>& encodings) {
  std::string out =
      "# Made by `narrate init`. Edit it freely: narrate reads it on every run.\n"
      "title = " +
      TomlQuoted(book.title) + "\n" + "author = " + TomlQuoted(book.author) + "\n" +
      "language = " + TomlQuoted(book.lang) + "          # the book's main language\n";
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    out += "\n[[chapters]]\nfile = " + TomlQuoted(files[i]) +
           "\nlanguage = " + TomlQuoted(book.chapters[i].lang) +
           "\nsplit = \"headings\"   # each chapter heading in the file starts a chapter\n"
           "# encoding = " +
           TomlQuoted(encodings[i]) + "   # detected; uncomment to insist\n";
  }
  return out;
}

}  // namespace

StatusOr<InitResult> InitBook(const InitOptions& options) {
  if (options.texts.empty()) return Status::Usage("narrate init: no text file given");
  if (options.dir.empty()) return Status::Usage("narrate init: no book folder given (-o)");
  std::string dir = options.dir;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();

  // Read and look at every text before anything is written.
  InitResult result;
  Book& book = result.book;
  std::vector<std::string> bytes, files;
  std::string title = options.title, author = options.author;
  for (const std::string& path : options.texts) {
    StatusOr<std::string> read = ReadFile(path);
    if (!read.ok()) return read.status();
    const Lang lang = options.lang.empty() ? GuessLanguage(*read) : options.lang;
    StatusOr<const LanguageProfile*> language = FindLanguage(lang);
    if (!language.ok()) return Status::Usage(path + ": " + language.status().message());
    CollectingReporter ignored;  // the first build reports the text's damage
    StatusOr<CleanText> clean = Ingest(*read, path, IngestOptions{"", lang}, &ignored);
    if (!clean.ok()) return clean.status();
    if (book.chapters.empty() && (title.empty() || author.empty())) {
      std::string found_title, found_author;
      TitleAndAuthor(*clean, **language, &found_title, &found_author);
      if (title.empty()) title = found_title;
      if (author.empty()) author = found_author;
    }
    std::string name = "text/" + BaseName(path);
    for (int n = 2; std::find(files.begin(), files.end(), name) != files.end(); ++n) {
      name = "text/" + std::to_string(n) + "-" + BaseName(path);
    }
    files.push_back(name);
    result.encodings.push_back(clean->encoding);
    bytes.push_back(std::move(read).value());
    book.chapters.push_back({dir + "/" + name, lang, "", "", ChapterSplit{true, ""}, std::nullopt});
  }
  book.dir = dir;
  book.name = BaseName(dir);
  book.title = title.empty() ? Stem(options.texts.front()) : title;
  book.author = author;
  book.lang = book.chapters.front().lang;

  const std::string book_toml = dir + "/book.toml", cast_toml = dir + "/cast.toml";
  if (!options.force) {
    std::vector<std::string> targets = {book_toml, cast_toml};
    for (const std::string& f : files) targets.push_back(dir + "/" + f);
    for (const std::string& target : targets) {
      if (PathExists(target)) {
        return Status::Usage(target + ": already there; --force writes over it");
      }
    }
  }
  Status made = MakeDirs(dir + "/text");
  if (!made.ok()) return made;
  for (size_t i = 0; i < files.size(); ++i) {
    Status written = WriteFileAtomic(dir + "/" + files[i], bytes[i]);
    if (!written.ok()) return written;
  }
  Status written = WriteFileAtomic(book_toml, BookToml(book, files, result.encodings));
  if (!written.ok()) return written;

  // The draft cast, from the script as the first build will read it (written
  // last: a book without one builds as well).
  StatusOr<Book> loaded = LoadBook(dir);
  if (!loaded.ok()) return loaded.status();
  Book uncast = *loaded;
  uncast.cast.clear();  // a cast from an earlier init (--force) is written over
  StatusOr<std::unique_ptr<BookSession>> session = BookSession::Open(uncast, SessionOptions());
  if (!session.ok()) return session.status();
  CollectingReporter reporter;
  StatusOr<Script> script = (*session)->Prepare(&reporter);
  if (!script.ok()) return script.status();
  ::unlink(cast_toml.c_str());
  // Those who speak more than once: a long book has hundreds who speak once,
  // whom the automatic casting voices as well, and a draft is read by a person.
  std::vector<FoundSpeaker> speakers = FindSpeakers(*script, Cast());
  speakers.erase(std::remove_if(speakers.begin(), speakers.end(),
                                [](const FoundSpeaker& p) { return p.speeches < 2; }),
                 speakers.end());
  StatusOr<int> cast = (*session)->AddToCast(speakers);
  if (!cast.ok()) return cast.status();
  result.cast_speakers = *cast;
  result.book = *loaded;
  result.book.cast = cast_toml;
  result.script = std::move(script).value();
  return result;
}

}  // namespace narrate
