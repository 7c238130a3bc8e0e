// The book library: a build session over a book folder. It loads the folder
// (book.toml, cast, overrides, lexicon, voices), runs the stages in order with
// one thread budget and one clip cache, and is the way every front end (the
// CLI, preview, say) runs narrate.
//
// Thread-safety: a BookSession is used by one thread at a time; it runs its
// own work on its thread pool. The free functions are thread-safe.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assemble/assemble.h"
#include "core/core.h"
#include "markup/markup.h"
#include "normalize/normalize.h"
#include "synth/synth.h"

namespace narrate {

class ClipCache;

// One chapter source as listed in book.toml.
struct BookSource {
  std::string file;      // path, absolute or relative to the current directory
  Lang lang;             // "zh", "sk"
  std::string title;     // optional
  std::string encoding;  // optional: overrides detection
  // How the source is cut into chapters: book.toml's split = "headings" or
  // chapter_pattern = "REGEX" (see markup.h's SplitSource). Default: one
  // chapter.
  ChapterSplit split;
  // The source's bytes when it is not a file (a text said alone): `file` then
  // only names it in diagnostics.
  std::optional<std::string> bytes;
};

// A book folder: book.toml, text/, and optionally lexicon.tsv, cast.toml
// (who speaks with which voice) and overrides.toml (producer corrections).
struct Book {
  std::string dir;
  std::string name;  // the folder's name, the default output folder name
  std::string title;
  std::string author;
  Lang lang;  // main language (credits, defaults)
  std::vector<BookSource> chapters;
  std::string lexicon;        // path of lexicon.tsv, empty when there is none
  std::string cast;           // path of cast.toml, empty when there is none
  std::string overrides;      // path of overrides.toml, empty when there is none
  bool skip_glosses = false;  // leave parenthesized foreign glosses unread
  // A book has opening and closing credits and chapter titles; a text said
  // alone (BookFromText) has neither.
  bool whole_book = true;
};

// Reads BOOK_DIR/book.toml. IoError when the folder or file is missing,
// DataError naming book.toml:line on a syntax or schema error.
StatusOr<Book> LoadBook(const std::string& dir);

// A book around a single text file (`narrate mark FILE`), cut into chapters
// at its headings (split = "headings"). `lang` empty: GuessLanguage.
StatusOr<Book> BookFromFile(const std::string& path, const Lang& lang);

// A text said alone (`narrate say`): one source held in memory, no credits,
// no chapter title. `lang` empty: GuessLanguage.
StatusOr<Book> BookFromText(const std::string& text, const Lang& lang);

// The language of a text nobody named: the first language (in the profiles'
// list order) of the script its bytes are in: "han" when they hold Han
// characters (in UTF-8, or pairs of high bytes as in GB18030/Big5), else
// "latin". "zh" or "sk" with the shipped profiles; empty when no profile has
// that script.
Lang GuessLanguage(const std::string& bytes);

// Reads cast.toml (see markup.h's Cast). IoError when unreadable; DataError
// with file:line when malformed (bad TOML, a speaker without a name, a gender
// not m/f).
StatusOr<Cast> LoadCast(const std::string& path);

// Reads overrides.toml (see markup.h's Overrides). IoError when unreadable;
// DataError with file:line when malformed (no match, unknown kind).
StatusOr<Overrides> LoadOverrides(const std::string& path);

// One person of a book, as its script and cast show them (narrate cast).
struct FoundSpeaker {
  std::string name;
  std::vector<std::string> aliases;  // as listed in cast.toml, or found in the text
  std::string gender;                // "m", "f" or "" (unknown)
  // Where the gender comes from: "cast" (cast.toml); for people found in the
  // text, what says it ("title", "pronoun", "verb", "address", "name": see
  // FoundPerson), else "speech" (the speeches attributed to them); "" (nowhere).
  std::string gender_evidence;
  std::string voice;     // the timbre they speak with
  int speeches = 0;      // speeches attributed to them (one a paragraph)
  int mentions = 0;      // times the name or an alias is printed in the script
  bool in_cast = false;  // listed in cast.toml
};

// The people of `script` (every speaker but "unknown", and every cast entry),
// most speeches first, then in order of appearance.
std::vector<FoundSpeaker> FindSpeakers(const Script& script, const Cast& cast);

// cast.toml entries ([[speaker]] tables) for `speakers`, each with a comment
// saying how often they speak; the voice of a speaker cast.toml does not list
// is a comment (a suggestion: set, it would no longer follow the gender).
std::string CastEntries(const std::vector<FoundSpeaker>& speakers);

// narrate init: a book folder made from text files.
struct InitOptions {
  std::vector<std::string> texts;  // the text files, in reading order; required
  std::string dir;                 // the book folder to make; required
  Lang lang;                       // default empty: guessed for each file
  std::string title;   // default empty: from the text where it says it, else the file name
  std::string author;  // default empty: from the text where it says it
  bool force = false;  // write over files already in `dir`
};

// What InitBook made.
struct InitResult {
  Book book;                           // the new folder, as LoadBook reads it
  std::vector<std::string> encodings;  // per text, as detected ("GB18030")
  Script script;                       // as the book's first build will read it
  int cast_speakers = 0;               // speakers in the draft cast.toml
};

// Makes a book folder that builds at once: each text copied byte for byte
// into DIR/text/, book.toml (title and author from the text where it says
// them, each source split at its chapter headings) and a draft cast.toml of
// the speakers found in the text who speak more than once. Writes nothing if any file it would
// write is already there, unless `force` (Usage error naming it); every file is written atomically.
// IoError when a text cannot be read or a file written.
StatusOr<InitResult> InitBook(const InitOptions& options);

// The folder of the voices that ship with narrate (NARRATE_VOICES_DIR at build
// time, or the environment variable of that name).
std::string DefaultVoicesDir();

// Timbres from a voices folder (*.toml), keyed by file stem. DataError naming
// file:line on a bad file.
StatusOr<std::map<std::string, Timbre>> LoadVoices(const std::string& dir);

// Where a long piece of work stands, for a front end to show. Called from any
// of the session's threads: implementations are thread-safe.
class Progress {
 public:
  virtual ~Progress() = default;
  // A new stage begins ("Synthesizing 287 utterances ...").
  virtual void Stage(const std::string& what) = 0;
  // `done` of `total` of something ("utterances", "chapters") in this stage.
  virtual void Count(const std::string& what, int done, int total) = 0;
};

// Session set-up; its lifetime is the session's.
struct SessionOptions {
  // The thread budget: synthesis worker processes, and threads for the
  // session's parallel work (reading the sources, mastering, encoding).
  // Default: 1.
  int jobs = 1;
  // The clip cache folder. Default empty: a build uses OUT_DIR/.cache;
  // preview and say then keep no clips.
  std::string cache_dir;
  // Default empty: DefaultVoicesDir().
  std::string voices_dir;
};

struct BuildOptions {
  std::string out_dir;                         // required; never the book folder or inside it
  std::vector<std::string> formats = {"wav"};  // any of "wav", "flac", "mp3", "opus"
  bool epub = false;  // also write OUT_DIR/<book name>.epub (needs "mp3" in formats)
};

// What a build did.
struct BuildResult {
  int synthesized = 0;        // utterances synthesized in this run
  int reused = 0;             // utterances found in the clip cache
  int chapters_rendered = 0;  // chapters rendered in this run
  int chapters_reused = 0;    // chapters whose files were already up to date
  int chapters = 0;           // chapters in the book
  std::vector<FileQc> files;  // every audio file written, with its QC figures
  int64_t audio_ms = 0;       // the book's length: its chapter files in the first format
  int qc_failed = 0;          // files that failed an ACX-style check
};

class BookSession {
 public:
  // Loads the cast, overrides, lexicon and voices of `book` and creates the
  // session's thread pool. DataError naming file:line for a malformed one.
  static StatusOr<std::unique_ptr<BookSession>> Open(const Book& book,
                                                     const SessionOptions& options);
  ~BookSession();
  BookSession(const BookSession&) = delete;
  BookSession& operator=(const BookSession&) = delete;

  const Book& book() const { return book_; }
  const std::map<std::string, Timbre>& voices() const { return voices_; }
  // The session's thread budget, for a front end's own side work.
  ThreadPool* pool() { return &pool_; }

  // Starts a synthesis worker on the pool, so that it is ready when the first
  // clip is needed (it takes a few tens of milliseconds): call it before
  // Prepare when audio follows. Build does.
  void WarmUp();

  // Ingests, normalizes and marks up every chapter (the sources on the pool),
  // with the credits of a whole book. Diagnostics go to `reporter` in book
  // order. A chapter that cannot be decoded is reported and the others are
  // still processed; the result is then the first such error (DataError, 65).
  StatusOr<Script> Prepare(Reporter* reporter);

  // Prepare's first half: every chapter source ingested and normalized (the
  // spoken forms, `narrate normalize`), diagnostics as Prepare's.
  StatusOr<std::vector<ChapterSource>> Normalize(Reporter* reporter);

  // The whole pipeline into options.out_dir: the script, synthesis of the
  // clips the cache lacks (in the background, in book order), assembly of
  // each chapter as soon as its clips are there, the EPUB. Diagnostics go to
  // `reporter` as they are found; `progress` may be null.
  StatusOr<BuildResult> Build(const BuildOptions& options, Reporter* reporter, Progress* progress);

  // What the synthesizer needs for one utterance: its tokens, language and the
  // timbre of its voice. DataError when the voice is not among voices().
  StatusOr<SynthRequest> RequestFor(const Utterance& utterance) const;

  // The people of the book: FindSpeakers over the prepared script and the
  // book's cast.
  StatusOr<std::vector<FoundSpeaker>> FindCast(Reporter* reporter);

  // Adds the people of `speakers` that cast.toml does not list yet to it (it
  // is made, with the narrator's and document voices, when there is none):
  // what is there stays byte for byte, and the new entries are appended. The
  // number added. The one write into a book folder besides InitBook.
  StatusOr<int> AddToCast(const std::vector<FoundSpeaker>& speakers);

  // The clip of one utterance at `rate_percent` of its voice's rate, for
  // playback: from the clip cache when it is there, else synthesized (and
  // kept in the cache when there is one; then *synthesized is set, if given).
  // Called from one thread at a time.
  StatusOr<Clip> ClipFor(const Utterance& utterance, int rate_percent, bool* synthesized = nullptr);

 private:
  struct Loaded;
  BookSession(const Book& book, const SessionOptions& options);

  Book book_;
  SessionOptions options_;
  std::map<std::string, Timbre> voices_;
  std::unique_ptr<Loaded> loaded_;  // cast, overrides, lexicon
  ThreadPool pool_;                 // first: it outlives every task group below
  // The worker WarmUp() starts, until the first synthesis takes it.
  StatusOr<std::unique_ptr<Synth>> warm_ = Status::Failure("no worker started");
  std::unique_ptr<TaskGroup> warming_;         // after warm_: waited for before warm_ goes
  std::unique_ptr<Synth> synth_;               // ClipFor's
  std::unique_ptr<ClipCache> playback_cache_;  // ClipFor's; null until needed
  bool playback_cache_opened_ = false;

  // The worker WarmUp() started, else a new one.
  StatusOr<std::unique_ptr<Synth>> TakeSynth();
  // Makes the normalizers of `langs` that are not there yet, side by side on
  // the pool; the status of each language's.
  std::map<Lang, Status> MakeNormalizers(const std::vector<Lang>& langs);

  // Normalizers by language, made once per session and shared by the tasks
  // that normalize (a Normalizer is immutable and safe to share).
  std::map<Lang, std::unique_ptr<Normalizer>> normalizers_;
};

}  // namespace narrate
