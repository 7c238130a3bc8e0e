// Raw terminal input, signal handling and display widths for the preview.
#include "terminal.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace narrate {
namespace preview_internal {
namespace {

volatile sig_atomic_t g_interrupted = 0;
volatile sig_atomic_t g_raw = 0;
termios g_saved;  // valid while g_raw
struct sigaction g_old_int, g_old_term;

void OnSignal(int) {
  g_interrupted = 1;
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);  // async-signal-safe
}

// Code point at `i` of UTF-8 text; advances `i`.
char32_t Next(const std::string& s, size_t* i) {
  const unsigned char c = s[*i];
  int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (*i + len > s.size()) len = 1;
  char32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (s[*i + k] & 0x3f);
  *i += len;
  return cp;
}

int Width(char32_t cp) {
  if (cp < 0x20 || (cp >= 0x300 && cp < 0x370) || cp == 0x200b) return 0;
  const bool wide = (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) ||
                    (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
                    (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
                    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x20000 && cp <= 0x3fffd);
  return wide ? 2 : 1;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupted = 0;
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &g_old_int);
  ::sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &g_old_int, nullptr);
  ::sigaction(SIGTERM, &g_old_term, nullptr);
}

bool InterruptGuard::interrupted() { return g_interrupted != 0; }

RawTerminal::RawTerminal() {
  if (::isatty(STDIN_FILENO) != 1 || ::tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
  termios raw = g_saved;
  raw.c_lflag &= ~(ICANON | ECHO);  // ISIG stays: Ctrl-C still interrupts
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  g_raw = 1;
  if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) {
    g_raw = 0;
    return;
  }
  active_ = true;
}

RawTerminal::~RawTerminal() {
  if (!active_) return;
  ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
  g_raw = 0;
}

int RawTerminal::ReadKey(int timeout_ms) {
  pollfd p = {STDIN_FILENO, POLLIN, 0};
  if (::poll(&p, 1, timeout_ms) <= 0 || !(p.revents & POLLIN)) return -1;
  unsigned char c;
  return ::read(STDIN_FILENO, &c, 1) == 1 ? c : -1;
}

int TerminalColumns() {
  winsize w = {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  return 80;
}

int DisplayWidth(const std::string& utf8) {
  int width = 0;
  for (size_t i = 0; i < utf8.size();) width += Width(Next(utf8, &i));
  return width;
}

std::string FitColumns(const std::string& utf8, int columns) {
  int width = 0;
  size_t i = 0;
  while (i < utf8.size()) {
    size_t next = i;
    const int w = Width(Next(utf8, &next));
    if (width + w > columns) break;
    width += w;
    i = next;
  }
  return utf8.substr(0, i);
}

}  // namespace preview_internal
}  // namespace narrate
