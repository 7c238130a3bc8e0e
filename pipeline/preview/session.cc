// RunPreview: the controlling loop of a live preview. Starts the player,
// watches its health (never waits on the device without a timeout), shows
// what is heard and handles keys on a terminal.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "preview/preview.h"
#include "terminal.h"

namespace narrate {
namespace {

using preview_internal::DisplayWidth;
using preview_internal::FitColumns;
using preview_internal::InterruptGuard;
using preview_internal::RawTerminal;
using preview_internal::TerminalColumns;

constexpr int kTickMs = 20;

const char* kKeysHelp =
    "keys: space pause/resume  n/p next/previous sentence  N/P chapter  "
    "+/- rate  q quit";

std::string Who(const Utterance& u) {
  if (u.speaker) return *u.speaker;
  return u.kind == UtteranceKind::kHeading ? "heading" : "narrator";
}

// One line per sentence as it starts: "c02-p0003-s01 [speaker] text".
std::string SentenceLine(const Utterance& u) { return u.id + " [" + Who(u) + "] " + u.text; }

// The status line: where we are, and the current word highlighted among its
// neighbours, fitted to the terminal width.
std::string StatusLine(const Script& script, const PlayPosition& p, bool paused) {
  const Chapter& c = script.chapters[p.chapter];
  std::string head = std::string(paused ? "|| " : "> ") + "ch " + std::to_string(p.chapter + 1) +
                     "/" + std::to_string(script.chapters.size()) + " " +
                     std::to_string(p.utterance + 1) + "/" + std::to_string(c.utterances.size()) +
                     " " + std::to_string(p.rate_percent) + "% ";
  const int columns = TerminalColumns() - 1;
  std::string line = FitColumns(head, columns);
  int room = columns - DisplayWidth(line);
  if (p.word < 0 || room <= 0) return line;
  const size_t first = p.word >= 2 ? p.word - 2 : 0;
  for (size_t i = first; i < p.words.size() && room > 0; ++i) {
    const std::string text = FitColumns(p.words[i].text, room);
    room -= DisplayWidth(text) + 1;
    line += static_cast<int>(i) == p.word ? "\033[7m" + text + "\033[0m " : text + " ";
  }
  return line;
}

// Prints when the first non-zero sample went to the device (recorded by the
// callback in an atomic); false while there was none yet.
bool TraceFirstSound(const Player& player) {
  const int64_t at = player.feed().first_sound_ns();
  if (at == 0) return false;
  std::fprintf(stderr, "narrate preview: first sound %.1f ms after start\n",
               (at - ProcessStartNs()) / 1e6);
  return true;
}

void HandleKey(int key, Player* player, bool* quit) {
  switch (key) {
    case ' ':
      player->TogglePause();
      break;
    case 'n':
      player->NextSentence();
      break;
    case 'p':
      player->PreviousSentence();
      break;
    case 'N':
      player->NextChapter();
      break;
    case 'P':
      player->PreviousChapter();
      break;
    case '+':
    case '=':
      player->SetRate(player->rate_percent() + 10);
      break;
    case '-':
    case '_':
      player->SetRate(player->rate_percent() - 10);
      break;
    case 'q':
    case 'Q':
    case 27:
      *quit = true;
      break;
    default:
      break;
  }
}

}  // namespace

Status RunPreview(const Script& script, ClipProvider provider, const PreviewOptions& options,
                  AudioSink* sink) {
  StatusOr<std::unique_ptr<Player>> created =
      Player::Create(&script, std::move(provider), options.player);
  if (!created.ok()) return created.status();
  Player& player = **created;
  InterruptGuard interrupts;
  std::unique_ptr<RawTerminal> terminal;
  if (options.interactive) {
    terminal = std::make_unique<RawTerminal>();
    std::fprintf(stderr, "%s\n", kKeysHelp);
  }
  Status started = player.Start(options.chapter, options.utterance, sink);
  if (!started.ok()) {
    (void)player.Stop(false);
    return started;
  }
  if (options.trace) {
    std::fprintf(stderr, "narrate preview: stream started at %.1f ms\n",
                 (MonotonicNs() - ProcessStartNs()) / 1e6);
  }

  bool quit = false, traced_first = false, status_shown = false;
  size_t shown_chapter = SIZE_MAX, shown_utterance = SIZE_MAX;
  Status result;
  while (!quit) {
    if (InterruptGuard::interrupted()) break;
    result = player.health();
    if (!result.ok()) break;
    if (player.finished()) break;
    if (terminal && terminal->active()) {
      const int key = terminal->ReadKey(kTickMs);
      if (key >= 0) HandleKey(key, &player, &quit);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(kTickMs));
    }
    if (options.trace && !traced_first) traced_first = TraceFirstSound(player);
    const PlayPosition p = player.Now();
    if (!p.valid) continue;
    if (p.chapter != shown_chapter || p.utterance != shown_utterance) {
      const Chapter& c = script.chapters[p.chapter];
      if (status_shown) std::printf("\r\033[K");
      if (p.chapter != shown_chapter && options.interactive) {
        std::printf("== %d. %s\n", c.index, c.title.c_str());
      }
      std::printf("%s\n", SentenceLine(c.utterances[p.utterance]).c_str());
      status_shown = false;
      shown_chapter = p.chapter;
      shown_utterance = p.utterance;
    }
    if (options.interactive && ::isatty(STDOUT_FILENO) == 1) {
      std::printf("\r\033[K%s", StatusLine(script, p, player.feed().paused()).c_str());
      status_shown = true;
    }
    std::fflush(stdout);
  }
  if (status_shown) std::printf("\r\033[K");
  std::fflush(stdout);
  const bool drain = result.ok() && !quit && !InterruptGuard::interrupted();
  Status stopped = player.Stop(drain);
  if (result.ok()) result = stopped;
  if (options.trace) {
    if (!traced_first) TraceFirstSound(player);
    std::fprintf(stderr, "narrate preview: played %.2f s, underruns %lld\n",
                 player.feed().played() / static_cast<double>(kPreviewSampleRate),
                 static_cast<long long>(player.feed().underruns()));
  }
  return result;
}

}  // namespace narrate
