// The shared foundation of every stage: Status/StatusOr, diagnostics, the value
// types that flow between stages, hashing and atomic file writes.
//
// Every stage takes and returns these plain value types; nothing here knows about
// eSpeak, ICU or audio formats. All types are plain values and thread-compatible
// (no shared mutable state); CollectingReporter is not thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

namespace narrate {

// ---------------------------------------------------------------------------
// Status / StatusOr

// Exit codes of the `narrate` command (ARCHITECTURE.md, sysexits where one fits).
enum class StatusCode {
  kOk = 0,
  kFailure = 1,     // anything else that went wrong
  kUsage = 2,       // bad command line
  kDataError = 65,  // bad input data (EX_DATAERR)
  kIoError = 74,    // cannot read or write a file (EX_IOERR)
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return Status(); }
  static Status Failure(std::string message) {
    return Status(StatusCode::kFailure, std::move(message));
  }
  static Status Usage(std::string message) {
    return Status(StatusCode::kUsage, std::move(message));
  }
  static Status DataError(std::string message) {
    return Status(StatusCode::kDataError, std::move(message));
  }
  static Status IoError(std::string message) {
    return Status(StatusCode::kIoError, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  // What failed, then where ("file:line: ..."). Empty when ok().
  const std::string& message() const { return message_; }
  int exit_code() const { return static_cast<int>(code_); }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Either a value or a non-ok Status. Accessing value() of an error is a bug.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : data_(std::move(value)) {}         // NOLINT: implicit by design
  StatusOr(Status status) : data_(std::move(status)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(data_); }
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T& value() & { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> data_;
};

// ---------------------------------------------------------------------------
// Diagnostics: findings that are not failures (a repaired paragraph, an unknown
// abbreviation). A stage reports them and carries on; the CLI decides how strict
// to be.

enum class Severity { kInfo, kWarning, kError };

struct Diagnostic {
  Severity severity = Severity::kWarning;
  std::string file;  // path as given by the user; may be empty
  int line = 0;      // 1-based source line; 0 when there is none
  std::string message;

  // "file:line: message" (or "file: message" without a line).
  std::string ToString() const;
};

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void Report(const Diagnostic& diagnostic) = 0;
};

// Keeps every diagnostic in order. Not thread-safe.
class CollectingReporter : public Reporter {
 public:
  void Report(const Diagnostic& diagnostic) override { diagnostics_.push_back(diagnostic); }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// ---------------------------------------------------------------------------
// Languages. Book languages are those with a profile (core/language.h): "zh"
// (Mandarin Chinese) and "sk" (Slovak); foreign spans inside them may be "en",
// "fr", "de", "la" ... (BCP 47 primary tags).
using Lang = std::string;

// ---------------------------------------------------------------------------
// ingest -> normalize

// One paragraph of clean text: valid UTF-8, NFC, no control, zero-width or
// replacement characters. Paragraphs are separated by line breaks in the source.
struct Paragraph {
  std::string text;  // UTF-8
  int line = 0;      // 1-based line in the source file where it starts
};

// A decoded, cleaned chapter source.
struct CleanText {
  std::string file;                   // the source path, for diagnostics
  std::string encoding;               // detected or given, e.g. "UTF-8", "GB18030", "windows-1250"
  std::vector<Paragraph> paragraphs;  // empty paragraphs (blank lines) dropped
};

// ---------------------------------------------------------------------------
// normalize -> markup

enum class TokenKind {
  kWord,          // ordinary text (a run of letters or Hanzi), spoken as written
  kSpace,         // whitespace between tokens
  kPunctuation,   // including quote marks
  kNumber,        // digits and what belongs to them (1.1万, 200 000, 3月27日)
  kAbbreviation,  // expanded from a rules table (napr., sv.)
  kLexicon,       // a book lexicon entry
  kForeign,       // a span in another language (lang says which)
};

// A piece of a paragraph. Concatenating `text` of all tokens of a paragraph gives
// the paragraph back byte for byte.
struct Token {
  TokenKind kind = TokenKind::kWord;
  std::string text;    // as printed (UTF-8)
  std::string spoken;  // as said (UTF-8); equals text when nothing changed
  Lang lang;           // empty: the paragraph's language; else a foreign span's
};

struct NormalizedParagraph {
  int line = 0;  // 1-based source line
  std::vector<Token> tokens;
};

// Joins the spoken forms of tokens (what the synthesizer is given).
std::string SpokenText(const std::vector<Token>& tokens);
// Joins the printed forms of tokens.
std::string PrintedText(const std::vector<Token>& tokens);
// The number of code points in valid UTF-8 text.
int CodePointCount(std::string_view utf8);

// ---------------------------------------------------------------------------
// markup -> synth / assemble

enum class UtteranceKind { kHeading, kNarration, kSpeech, kDocument };
const char* ToString(UtteranceKind kind);

// How markup found the speaker of a speech (`narrate mark`'s "evidence"): a
// name of the book (the cast's, or found in the text) before or after the
// speech verb, a phrase before or after it taken for a name nobody listed (a
// guess), a pronoun resolved to a person, the person spoken to in the turn
// before, alternating turns, the turns of a speech that calls the previous
// speaker by name (vocative), a group, the one who acts in the speech's
// paragraph (context), a producer's override; none: not attributed.
enum class Evidence {
  kNone,
  kVerbBefore,
  kVerbAfter,
  kGuessBefore,
  kGuessAfter,
  kPronoun,
  kAddressee,
  kAlternation,
  kVocative,
  kGroup,
  kContext,
  kIntroduction,
  kOverride,
};
// "none", "verb-before", "verb-after", "guess-before", "guess-after",
// "pronoun", "addressee", "alternation", "vocative", "group", "context",
// "introduction" (the speech says the speaker's name: Ja som Mirka),
// "override".
const char* ToString(Evidence evidence);

// A timbre, independent of language (voices/*.toml).
struct Timbre {
  std::string name;     // the file stem, e.g. "narrator"
  std::string variant;  // eSpeak variant, e.g. "m3", "f2"; empty: none
  int pitch = 50;       // eSpeak base pitch, 0-100
  int range = 50;       // eSpeak pitch range, 0-100
  int rate = 175;       // words per minute, 80-450
  int volume = 100;     // eSpeak volume, 0-200
  std::string gender;   // "m", "f" or empty
};

// One unit of the script: a sentence (or heading) said by one voice.
struct Utterance {
  std::string id;     // stable within a build, e.g. "c02-p0005-s03"
  int chapter = 0;    // 1-based chapter index
  int paragraph = 0;  // 1-based paragraph index within the chapter
  int line = 0;       // 1-based source line
  UtteranceKind kind = UtteranceKind::kNarration;
  std::optional<std::string> speaker;  // nullopt for narration and headings
  // Speech only: how the speaker was found, and how sure markup is of it,
  // 0 (not at all: "unknown") to 1 (the producer said so).
  Evidence evidence = Evidence::kNone;
  double confidence = 0;
  std::string gender;         // "m", "f" or empty
  std::string voice;          // timbre name
  Lang lang;                  // language of the utterance ("zh", "sk")
  std::vector<Token> tokens;  // printed and spoken forms, with foreign spans
  std::string text;           // as printed
  std::string spoken;         // as it will be said
};

struct Chapter {
  int index = 0;  // 1-based, reading order
  std::string title;
  std::string source;  // chapter source file
  Lang lang;
  std::vector<Utterance> utterances;
};

// A person markup found in a book's text that its cast does not list, with
// every name the text calls them by (short forms, titles, declined forms).
struct FoundPerson {
  std::string name;
  std::string gender;  // "m", "f" or "" (unknown)
  // What says the gender: "title" (a title or kinship term), "pronoun",
  // "verb" (povedala), "address" (called 爷爷 or mami), "name" (a given
  // name's character, a name's ending); empty with no gender.
  std::string gender_evidence;
  std::vector<std::string> aliases;  // the other names, in code point order
};

struct Script {
  std::string title;
  std::string author;
  Lang lang;  // the book's main language
  std::vector<Chapter> chapters;
  std::vector<FoundPerson> people;  // found in the text, in name order
};

// ---------------------------------------------------------------------------
// synth -> assemble

struct WordTiming {
  // As printed, with the spaces and punctuation that follow it (and, for the
  // first word, what precedes it): the words of an utterance concatenate to
  // its text.
  std::string text;
  int64_t start = 0;  // samples from the start of the clip
  int64_t end = 0;    // samples from the start of the clip (exclusive)
};

// Synthesized audio of one utterance.
struct Clip {
  int sample_rate = 22050;       // Hz
  std::vector<int16_t> samples;  // mono PCM
  std::vector<WordTiming> words;
};

// What is known of a clip without its samples (read from the head of a clip
// file): enough to lay out a chapter and set its gain.
struct ClipSummary {
  int sample_rate = 22050;  // Hz
  int64_t length = 0;       // samples
  int64_t energy = 0;       // the sum of the squared samples
  std::vector<WordTiming> words;
};

ClipSummary SummarizeClip(const Clip& clip);

// ---------------------------------------------------------------------------
// Libraries loaded when first needed

// A shared library narrate loads (dlopen) when a feature first needs it rather
// than at every start: each library loaded at start-up is paid for by every
// command, whether it uses the library or not. `names` are tried in order (the
// soname first, then the file this build was made with); `what` and `package`
// name it in error(). Bind fills function pointers; a library that cannot be
// loaded, or lacks one of them, leaves error() saying so (and the pointers
// null). The library stays loaded for the life of the process.
class SharedLibrary {
 public:
  SharedLibrary(std::initializer_list<const char*> names, const std::string& what,
                const std::string& package);
  template <typename F>
  void Bind(const char* symbol, F* f) {
    *f = reinterpret_cast<F>(Symbol(symbol));
  }
  const std::string& error() const { return error_; }

 private:
  void* Symbol(const char* name);
  void* handle_ = nullptr;
  std::string what_;
  std::string error_;
};

// ---------------------------------------------------------------------------
// Threads

// The thread budget of a session: a fixed set of threads that run the tasks
// handed to them, oldest first. Every stage that needs parallel work takes
// its tasks here instead of starting threads of its own, so `--jobs` bounds
// them all. A task may wait for other tasks only through TaskGroup::Wait,
// which runs the group's queued tasks on the waiting thread: waiting never
// needs a free thread, so no set of waits deadlocks the pool. Thread-safe.
class ThreadPool {
 public:
  // `threads` >= 0; with 0, every task runs on the thread that waits for it.
  explicit ThreadPool(int threads);
  // Runs what is still queued, then joins the threads.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(threads_.size()); }

 private:
  friend class TaskGroup;
  struct Task {
    class TaskGroup* group;
    std::function<void()> run;
  };
  void Work();
  // Runs `task` (taken from the queue) and counts it done in its group.
  void RunTask(Task task, std::unique_lock<std::mutex>* lock);

  std::mutex mutex_;
  std::condition_variable queued_;  // a task was queued, or the pool is closing
  std::condition_variable done_;    // a task finished
  std::deque<Task> queue_;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

// Tasks run on a pool that one can wait for together. Thread-safe; Wait() may
// be called from a task of another group.
class TaskGroup {
 public:
  explicit TaskGroup(ThreadPool* pool) : pool_(pool) {}
  ~TaskGroup() { Wait(); }
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Queues `task` on the pool.
  void Run(std::function<void()> task);
  // Returns once every task run so far has finished, running those of them
  // not yet started on this thread meanwhile.
  void Wait();

 private:
  friend class ThreadPool;
  ThreadPool* pool_;
  int unfinished_ = 0;  // queued or running; guarded by pool_->mutex_
};

// ---------------------------------------------------------------------------
// Files and hashing

// Whether `path` names something (links followed), a folder, a regular file.
bool PathExists(const std::string& path);
bool IsDirectory(const std::string& path);
bool IsRegularFile(const std::string& path);

// The last component of a path ("book" of "books/book/", "a.txt" of "t/a.txt").
std::string BaseName(std::string path);

// Reads a whole file. IoError naming the path when it cannot.
StatusOr<std::string> ReadFile(const std::string& path);

// Writes `data` to a temporary file beside `path` and renames it into place, so
// `path` holds either the old content or the whole new one, even if the
// process is killed midway (not synced to disk: an OS crash may lose it).
Status WriteFileAtomic(const std::string& path, std::string_view data);
// The same with the content given in parts, written one after another.
Status WriteFileAtomic(const std::string& path, std::initializer_list<std::string_view> parts);

// One row of a TSV data file (rules, lexicons).
struct TsvRow {
  int line = 0;                     // 1-based line in the file
  std::vector<std::string> fields;  // split on tabs
};

// Reads a UTF-8 TSV data file: blank lines and lines starting with '#' are
// skipped, CRLF is accepted, and every other row must have `min_fields` to
// `max_fields` fields. IoError when the file cannot be read, DataError naming
// file:line for a row of the wrong width.
StatusOr<std::vector<TsvRow>> ReadTsv(const std::string& path, size_t min_fields,
                                      size_t max_fields);

// Creates a directory and its parents. IoError when it cannot.
Status MakeDirs(const std::string& path);

// The names of the files in `dir` that end with `suffix`, sorted; IoError
// naming the folder if it cannot be read.
StatusOr<std::vector<std::string>> ListFiles(const std::string& dir, const std::string& suffix);

// `name` in the folder of the running program (build/ for narrate): where
// narrate's worker and modules are. Empty when there is no such file, or it
// is not executable with `executable`.
std::string BesideProgram(const std::string& name, bool executable = false);

// A 64-bit FNV-1a hash, and its 16-hex-digit form (content addressing).
uint64_t Fnv1a64(const std::string& data, uint64_t seed = 0xcbf29ce484222325ULL);
std::string HexHash(const std::string& data);

}  // namespace narrate
