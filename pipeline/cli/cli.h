// The `narrate` command: parses arguments, runs a BookSession (book/book.h),
// prints, and maps statuses to exit codes. Nothing else: the building is the
// book library's. Single-threaded but for TerminalProgress.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <vector>

#include "book/book.h"
#include "core/core.h"

namespace CLI {
class App;
}  // namespace CLI

namespace narrate {

// Runs `narrate` with its command line; returns the process exit code.
int RunNarrate(int argc, char** argv);

// Registers `preview`, `devices` and `say` (preview_commands.cc); the one
// that runs stores its exit code in *exit_code (left as is otherwise).
void AddPreviewCommands(CLI::App* app, int* exit_code);

// Prints "narrate: <message>" on stderr; the status's exit code.
int Fail(const Status& status);

// The codes of the book languages (those with a profile), and them in words
// ("zh or sk"), for options and their help.
std::vector<std::string> LanguageCodes();
std::string LanguageNames();

// "1.5 s", "3 min 07 s".
std::string Seconds(double s);

// Progress on stderr: a line per stage, and on a terminal a bar rewritten in
// place, with every count of the stage (utterances synthesized, chapters
// assembled) and the time left estimated from the pace of the least advanced.
// Thread-safe: the session reports from its tasks.
class TerminalProgress : public Progress {
 public:
  TerminalProgress();
  void Stage(const std::string& what) override;
  void Count(const std::string& what, int done, int total) override;
  // Clears the bar (before other lines are printed).
  void Clear();

 private:
  struct Counter {
    std::string what;
    int done, total;
  };
  void ClearLocked();
  std::mutex mutex_;
  bool tty_;
  bool dirty_ = false;
  std::vector<Counter> counts_;
  std::chrono::steady_clock::time_point stage_start_ = std::chrono::steady_clock::now();
};

}  // namespace narrate
