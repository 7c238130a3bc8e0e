// TerminalProgress and the small helpers every subcommand shares.
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "cli.h"
#include "core/language.h"

namespace narrate {

int Fail(const Status& status) {
  std::fprintf(stderr, "narrate: %s\n", status.message().c_str());
  return status.exit_code();
}

std::vector<std::string> LanguageCodes() {
  std::vector<std::string> codes;
  if (StatusOr<const LanguageSet*> set = Languages(); set.ok()) {
    for (const LanguageProfile& p : (*set)->profiles()) codes.push_back(p.code);
  }
  return codes;
}

std::string LanguageNames() {
  StatusOr<const LanguageSet*> set = Languages();
  return set.ok() ? (*set)->Names() : std::string();
}

std::string Seconds(double s) {
  char buf[32];
  if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60,
                  static_cast<int>(s) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  }
  return buf;
}

TerminalProgress::TerminalProgress() : tty_(::isatty(STDERR_FILENO) == 1) {}

void TerminalProgress::Stage(const std::string& what) {
  std::lock_guard<std::mutex> lock(mutex_);
  ClearLocked();
  std::fprintf(stderr, "%s\n", what.c_str());
  stage_start_ = std::chrono::steady_clock::now();
  counts_.clear();
}

void TerminalProgress::Count(const std::string& what, int done, int total) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!tty_) return;
  auto found = std::find_if(counts_.begin(), counts_.end(),
                            [&](const Counter& c) { return c.what == what; });
  if (found == counts_.end()) found = counts_.insert(counts_.end(), {what, 0, 0});
  found->done = done;
  found->total = total;
  // The bar and the estimate follow the least advanced count.
  const Counter* slowest = &counts_.front();
  for (const Counter& c : counts_) {
    if (c.done * int64_t{slowest->total} < slowest->done * int64_t{c.total}) slowest = &c;
  }
  const int width = 30;
  const int filled = slowest->total ? slowest->done * width / slowest->total : width;
  std::string line = "  [" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
  for (const Counter& c : counts_) {
    line += " " + c.what + " " + std::to_string(c.done) + "/" + std::to_string(c.total);
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stage_start_).count();
  if (slowest->done > 0 && slowest->done < slowest->total && elapsed > 1.0) {
    line +=
        ", about " + Seconds(elapsed / slowest->done * (slowest->total - slowest->done)) + " left";
  }
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  dirty_ = true;
}

void TerminalProgress::Clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  ClearLocked();
}

void TerminalProgress::ClearLocked() {
  if (dirty_) std::fprintf(stderr, "\r\033[K");
  dirty_ = false;
}

}  // namespace narrate
