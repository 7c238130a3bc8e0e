// Terminal helpers for the live preview: raw key input (restored on exit and
// on SIGINT/SIGTERM), and display-width aware text for the status line.
//
// Thread-safety: one RawTerminal at a time, used from the main thread; the
// signal handler only touches a sig_atomic_t flag and calls tcsetattr.
#pragma once

#include <termios.h>

#include <string>

namespace narrate {
namespace preview_internal {

// Installs SIGINT/SIGTERM handlers that set a flag (and restore the terminal
// when raw); the previous handlers come back on destruction.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  static bool interrupted();
};

// Puts stdin in non-canonical, no-echo mode while alive (Ctrl-C still
// signals).
class RawTerminal {
 public:
  RawTerminal();
  ~RawTerminal();
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
  bool active() const { return active_; }
  // A key pressed within `timeout_ms`, or -1.
  int ReadKey(int timeout_ms);

 private:
  bool active_ = false;
};

// Columns of the terminal on stdout (80 when unknown).
int TerminalColumns();

// Display columns of UTF-8 text: 2 for wide (CJK, full-width) characters.
int DisplayWidth(const std::string& utf8);

// The longest prefix of `utf8` that fits in `columns`.
std::string FitColumns(const std::string& utf8, int columns);

}  // namespace preview_internal
}  // namespace narrate
