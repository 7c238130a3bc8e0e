// The `narrate` command: book loading, the build orchestration and the
// subcommands. Thin: each stage does its own work. Single-threaded.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/core.h"
#include "synth/synth.h"

namespace CLI {
class App;
}  // namespace CLI

namespace narrate {

// One chapter source as listed in book.toml.
struct BookChapter {
  std::string file;      // absolute or relative to the current directory
  Lang lang;             // "zh", "sk"
  std::string title;     // optional
  std::string encoding;  // optional: override detection
};

// A book folder: book.toml, text/, and optionally lexicon.tsv, cast.toml
// (who speaks with which voice) and overrides.toml (producer corrections).
struct Book {
  std::string dir;
  std::string name;  // the folder's name, the default output folder name
  std::string title;
  std::string author;
  Lang lang;  // main language (credits, defaults)
  std::vector<BookChapter> chapters;
  std::string lexicon;    // path of lexicon.tsv, empty when there is none
  std::string cast;       // path of cast.toml, empty when there is none
  std::string overrides;  // path of overrides.toml, empty when there is none
  bool skip_glosses = false;  // leave parenthesized foreign glosses unread
};

// Reads BOOK_DIR/book.toml. IoError when the folder or file is missing,
// DataError naming book.toml:line on a syntax or schema error.
StatusOr<Book> LoadBook(const std::string& dir);

// "zh" when a file's bytes hold Chinese (Hanzi in UTF-8, or pairs of high
// bytes as in GB18030/Big5), else "sk".
Lang GuessLanguage(const std::string& bytes);

// A one-chapter book around a single text file (`narrate mark FILE`). `lang`
// empty: GuessLanguage.
StatusOr<Book> BookFromFile(const std::string& path, const Lang& lang);

// Timbres from a voices folder (*.toml), keyed by file stem. DataError naming
// file:line on a bad file.
StatusOr<std::map<std::string, Timbre>> LoadVoices(const std::string& dir);

// The folder of the voices that ship with narrate (NARRATE_VOICES_DIR at build
// time, or the environment variable of that name).
std::string DefaultVoicesDir();

// Ingests, normalizes and marks up every chapter. Diagnostics go to
// `reporter`. A chapter that cannot be decoded is reported and the others are
// still processed; the result is then the first such error (DataError, 65).
StatusOr<Script> PrepareScript(const Book& book, Reporter* reporter);

// What the synthesizer needs for one utterance: its tokens, language and the
// timbre of its voice. DataError when the voice is not among `voices`.
StatusOr<SynthRequest> RequestFor(const Utterance& utterance,
                                  const std::map<std::string, Timbre>& voices);

struct BuildOptions {
  std::string out_dir;  // required; never inside the book folder
  std::vector<std::string> formats = {"wav"};
  int jobs = 1;            // synthesis worker processes
  std::string cache_dir;   // default: OUT_DIR/.cache
  bool epub = false;       // also write OUT_DIR/<book name>.epub (implies mp3)
  bool strict = false;     // a failed QC check fails the build
};

// The whole pipeline: script, synthesis, assembly. Prints progress and a
// summary on stderr (a live line on a terminal, plain lines when piped).
Status BuildBook(const Book& book, const BuildOptions& options);

// Runs `narrate` with its command line; returns the process exit code.
int RunNarrate(int argc, char** argv);

// Registers `preview`, `devices` and `say` (preview_commands.cc); the one
// that runs stores its exit code in *exit_code (left as is otherwise).
void AddPreviewCommands(CLI::App* app, int* exit_code);

}  // namespace narrate
