// The `preview`, `devices` and `say` subcommands: live playback of a book or
// of one text through PortAudio (see preview/preview.h). Thin: the preview
// stage does the playing; this file loads the book, finds where to start and
// supplies clips (build cache first, then eSpeak NG).
//
// Thread-safety: the clip supplier runs on the preview's producer thread and
// owns the process's one Synth; everything else runs on the main thread.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "cli/cli.h"
#include "preview/preview.h"
#include "synth/synth.h"

namespace narrate {
namespace {

struct PreviewArgs {
  std::string input;       // BOOK_DIR or FILE
  std::string lang;        // of a single FILE
  int chapter = 0;         // 1-based; 0: from the start
  std::string from;        // utterance id or a snippet of its text
  std::string speaker;     // preview: only this speaker; say: a timbre
  int rate = 100;          // percent of each timbre's rate
  std::string device;      // PortAudio output device
  double for_seconds = 0;  // play this much audio, then exit
  double prebuffer = 0;    // seconds to buffer before playback starts
  std::string cache_dir;   // default: output/<book name>/.cache
};

// NARRATE_PREVIEW_TRACE=1: phase times on stderr, for scripts/bench.
bool Tracing() {
  const char* trace = std::getenv("NARRATE_PREVIEW_TRACE");
  return trace != nullptr && *trace != '\0' && std::string(trace) != "0";
}

void Trace(const char* what) {
  if (!Tracing()) return;
  std::fprintf(stderr, "narrate preview: %s at %.1f ms\n", what,
               (MonotonicNs() - ProcessStartNs()) / 1e6);
}

int Fail(const Status& status) {
  std::fprintf(stderr, "narrate: %s\n", status.message().c_str());
  return status.exit_code();
}

bool IsDirectory(const std::string& path) {
  return ::access((path + "/.").c_str(), F_OK) == 0;
}

// Clips for the player: the build cache when the clip is there, else eSpeak
// NG (created on first use, on the producer thread). New clips are written
// back when the cache folder exists, so a later build reuses them.
class ClipSupplier {
 public:
  ClipSupplier(std::map<std::string, Timbre> voices, std::string cache_dir,
               std::shared_ptr<SynthWarmer> warmer)
      : voices_(std::move(voices)),
        cache_dir_(std::move(cache_dir)),
        warmer_(std::move(warmer)) {}

  StatusOr<Clip> Get(const Utterance& u, int rate_percent) {
    StatusOr<SynthRequest> request = RequestFor(u, voices_);
    if (!request.ok()) return request.status();
    if (rate_percent != 100) {
      request->timbre = ScaledTimbre(request->timbre, rate_percent);
    }
    const bool cached = !cache_dir_.empty() && IsDirectory(cache_dir_);
    const std::string path = cached ? ClipPath(cache_dir_, ClipKey(*request)) : "";
    if (cached) {
      // A clip not in the cache (or damaged) is synthesized again below.
      StatusOr<Clip> clip = ReadClip(path);
      if (clip.ok()) return clip;
    }
    if (!synth_) {
      StatusOr<std::unique_ptr<Synth>> synth = warmer_->Take();
      if (!synth.ok()) return synth.status();
      synth_ = std::move(synth).value();
      Trace("synthesizer ready");
    }
    StatusOr<Clip> clip = synth_->Synthesize(*request);
    Trace("clip synthesized");
    if (!clip.ok()) return Status(clip.status());
    if (cached) {
      (void)WriteClip(path, *clip);
    }
    return clip;
  }

 private:
  std::map<std::string, Timbre> voices_;
  std::string cache_dir_;
  std::shared_ptr<SynthWarmer> warmer_;
  std::unique_ptr<Synth> synth_;
};

// Opens the audio device on another thread while the script is prepared:
// PortAudio's set-up (~25 ms with ALSA) overlaps ingest and normalization.
class SinkOpener {
 public:
  explicit SinkOpener(const std::string& device)
      : thread_([this, device] { sink_ = OpenPortAudioSink(device); }) {}
  ~SinkOpener() {
    if (thread_.joinable()) thread_.join();
  }
  StatusOr<std::unique_ptr<AudioSink>> Take() {
    if (thread_.joinable()) thread_.join();
    return std::move(sink_);
  }

 private:
  StatusOr<std::unique_ptr<AudioSink>> sink_ = Status::Failure("not opened");
  std::thread thread_;
};

// Where to start: --chapter (1-based) and --from (an id anywhere, else the
// first sentence whose printed or spoken text contains the snippet, within
// --chapter when given). Usage error (2) when nothing matches.
Status FindStart(const Script& script, const PreviewArgs& args, size_t* chapter,
                 size_t* utterance) {
  const size_t count = script.chapters.size();
  if (args.chapter < 0 || static_cast<size_t>(args.chapter) > count) {
    return Status::Usage("--chapter " + std::to_string(args.chapter) +
                         ": the book has " + std::to_string(count) + " chapters");
  }
  *chapter = args.chapter > 0 ? args.chapter - 1 : 0;
  *utterance = 0;
  if (args.from.empty()) {
    while (*chapter < count && script.chapters[*chapter].utterances.empty()) ++*chapter;
    if (*chapter == count) return Status::DataError("the book has nothing to say");
    return Status::Ok();
  }
  for (size_t c = 0; c < count; ++c) {
    const auto& us = script.chapters[c].utterances;
    for (size_t i = 0; i < us.size(); ++i) {
      if (us[i].id == args.from) {
        *chapter = c;
        *utterance = i;
        return Status::Ok();
      }
    }
  }
  const size_t first = args.chapter > 0 ? *chapter : 0;
  const size_t last = args.chapter > 0 ? *chapter + 1 : count;
  for (size_t c = first; c < last; ++c) {
    const auto& us = script.chapters[c].utterances;
    for (size_t i = 0; i < us.size(); ++i) {
      if (us[i].text.find(args.from) != std::string::npos ||
          us[i].spoken.find(args.from) != std::string::npos) {
        *chapter = c;
        *utterance = i;
        return Status::Ok();
      }
    }
  }
  return Status::Usage("--from '" + args.from + "': no sentence has that id or text" +
                       (args.chapter > 0 ? " in chapter " + std::to_string(args.chapter)
                                         : std::string()));
}

// Plays `script` from (chapter, utterance) on the opened device.
int Play(const Script& script, const PreviewArgs& args, size_t chapter,
         size_t utterance, std::map<std::string, Timbre> voices,
         StatusOr<std::unique_ptr<AudioSink>> sink,
         std::shared_ptr<SynthWarmer> warmer) {
  if (!sink.ok()) return Fail(sink.status());
  auto supplier = std::make_shared<ClipSupplier>(std::move(voices), args.cache_dir,
                                                 std::move(warmer));
  PreviewOptions options;
  options.player.rate_percent = args.rate;
  options.player.limit_samples =
      static_cast<int64_t>(args.for_seconds * kPreviewSampleRate + 0.5);
  options.player.prebuffer_samples =
      static_cast<int64_t>(args.prebuffer * kPreviewSampleRate + 0.5);
  options.player.speaker = args.speaker;
  options.chapter = chapter;
  options.utterance = utterance;
  options.interactive = args.for_seconds <= 0 && ::isatty(STDIN_FILENO) == 1;
  options.trace = Tracing();
  Status played = RunPreview(
      script,
      [supplier](const Utterance& u, int rate) { return supplier->Get(u, rate); },
      options, sink->get());
  return played.ok() ? 0 : Fail(played);
}

void PrintDiagnostics(const CollectingReporter& reporter) {
  int quiet = 0;
  for (const Diagnostic& d : reporter.diagnostics()) {
    if (d.severity == Severity::kError) {
      std::fprintf(stderr, "%s\n", d.ToString().c_str());
    } else if (d.severity == Severity::kWarning) {
      ++quiet;
    }
  }
  if (quiet > 0) {
    std::fprintf(stderr, "narrate: %d warnings about the text (see `narrate mark`)\n",
                 quiet);
  }
}

int RunPreviewCommand(PreviewArgs args) {
  if (!HavePortAudio()) return Fail(OpenPortAudioSink(args.device).status());
  SinkOpener opener(args.device);
  auto warmer = std::make_shared<SynthWarmer>();
  StatusOr<Book> book =
      IsDirectory(args.input) ? LoadBook(args.input) : BookFromFile(args.input, args.lang);
  if (!book.ok()) return Fail(book.status());
  if (args.cache_dir.empty()) args.cache_dir = "output/" + book->name + "/.cache";
  CollectingReporter reporter;
  StatusOr<Script> script = PrepareScript(*book, &reporter);
  Trace("script ready");
  StatusOr<std::unique_ptr<AudioSink>> sink = opener.Take();
  Trace("device open");
  PrintDiagnostics(reporter);
  if (!script.ok()) return Fail(script.status());
  StatusOr<std::map<std::string, Timbre>> voices = LoadVoices(DefaultVoicesDir());
  if (!voices.ok()) return Fail(voices.status());
  size_t chapter = 0, utterance = 0;
  Status start = FindStart(*script, args, &chapter, &utterance);
  if (!start.ok()) return Fail(start);
  return Play(*script, args, chapter, utterance, std::move(voices).value(),
              std::move(sink), std::move(warmer));
}

int RunSay(const std::string& text, PreviewArgs args) {
  if (!HavePortAudio()) return Fail(OpenPortAudioSink(args.device).status());
  SinkOpener opener(args.device);
  auto warmer = std::make_shared<SynthWarmer>();
  char path[] = "/tmp/narrate-say-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return Fail(Status::IoError("/tmp: cannot create a temporary file"));
  const std::string body = text + "\n";
  const bool written = ::write(fd, body.data(), body.size()) ==
                       static_cast<ssize_t>(body.size());
  ::close(fd);
  StatusOr<Book> book = written ? BookFromFile(path, args.lang)
                                : StatusOr<Book>(Status::IoError(
                                      std::string(path) + ": cannot write"));
  CollectingReporter reporter;
  StatusOr<Script> script = book.ok() ? PrepareScript(*book, &reporter)
                                      : StatusOr<Script>(book.status());
  ::unlink(path);
  StatusOr<std::unique_ptr<AudioSink>> sink = opener.Take();
  PrintDiagnostics(reporter);
  if (!script.ok()) return Fail(script.status());
  StatusOr<std::map<std::string, Timbre>> voices = LoadVoices(DefaultVoicesDir());
  if (!voices.ok()) return Fail(voices.status());
  if (!args.speaker.empty() && !voices->count(args.speaker)) {
    std::string names;
    for (const auto& [name, timbre] : *voices) names += " " + name;
    return Fail(Status::Usage("--speaker '" + args.speaker +
                              "': no such voice; voices:" + names));
  }
  // The text alone: no generated chapter heading; --speaker names the timbre.
  for (Chapter& c : script->chapters) {
    std::vector<Utterance> kept;
    for (Utterance& u : c.utterances) {
      if (u.kind == UtteranceKind::kHeading) continue;
      if (!args.speaker.empty()) u.voice = args.speaker;
      kept.push_back(std::move(u));
    }
    c.utterances = std::move(kept);
  }
  args.speaker.clear();  // a timbre here, not a filter
  args.cache_dir.clear();  // no book, no cache
  size_t chapter = 0, utterance = 0;
  Status start = FindStart(*script, args, &chapter, &utterance);
  if (!start.ok()) return Fail(start);
  return Play(*script, args, chapter, utterance, std::move(voices).value(),
              std::move(sink), std::move(warmer));
}

int RunDevices() {
  StatusOr<std::vector<std::string>> devices = ListOutputDevices();
  if (!devices.ok()) return Fail(devices.status());
  if (devices->empty()) {
    return Fail(Status::IoError("no audio output devices (is ALSA configured?)"));
  }
  for (const std::string& line : *devices) std::printf("%s\n", line.c_str());
  return 0;
}

void AddPlaybackOptions(CLI::App* cmd, PreviewArgs* args) {
  cmd->add_option("--rate", args->rate,
                  "Speaking rate in percent of each voice's rate (default 100)")
      ->check(CLI::Range(10, 1000));
  cmd->add_option("--device", args->device,
                  "Output device: a name, part of one, or an index from "
                  "`narrate devices` (default: the system default)");
  cmd->add_option("--for", args->for_seconds,
                  "Play this many seconds of audio, then exit (no keys)")
      ->check(CLI::NonNegativeNumber);
}

}  // namespace

void AddPreviewCommands(CLI::App* app, int* exit_code) {
  auto preview = std::make_shared<PreviewArgs>();
  CLI::App* cmd = app->add_subcommand(
      "preview",
      "Play a book now, from any chapter or sentence, while synthesis runs\n"
      "ahead (clips from the build cache are reused). On a terminal it shows\n"
      "the sentence being heard and takes keys: space pause/resume, n/p\n"
      "next/previous sentence, N/P next/previous chapter, +/- rate, q quit.\n"
      "Piped or with --for it plays and exits. Set NARRATE_PREVIEW_TRACE=1 to\n"
      "print the time to the first sound and the underrun count.\n\n"
      "Examples:\n"
      "  narrate preview books/napoleon --chapter 3\n"
      "  narrate preview books/napoleon --from c02-p0004-s01 --rate 130\n"
      "  narrate preview books/napoleon --from 枫丹白露 --for 20");
  cmd->add_option("BOOK_DIR|FILE", preview->input, "A book folder or one text file")
      ->required();
  cmd->add_option("--lang", preview->lang, "Language of a single FILE (default: guessed)")
      ->check(CLI::IsMember({"zh", "sk"}));
  cmd->add_option("--chapter", preview->chapter, "Start at this chapter (1-based)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--from", preview->from,
                  "Start at this sentence: its id (see `narrate mark`) or a piece "
                  "of its text");
  cmd->add_option("--speaker", preview->speaker,
                  "Play only what this speaker says (a cast name; 'narrator' for "
                  "narration and headings)");
  AddPlaybackOptions(cmd, preview.get());
  cmd->add_option("--prebuffer", preview->prebuffer,
                  "Seconds of audio to synthesize before playback starts "
                  "(default 0: start with the first sentence)")
      ->check(CLI::Range(0.0, 90.0));
  cmd->add_option("--cache", preview->cache_dir,
                  "Clip cache folder (default: output/<book>/.cache)");
  cmd->callback([preview, exit_code] { *exit_code = RunPreviewCommand(*preview); });

  CLI::App* devices = app->add_subcommand(
      "devices", "List the audio output devices `narrate preview --device` accepts.");
  devices->callback([exit_code] { *exit_code = RunDevices(); });

  auto say = std::make_shared<PreviewArgs>();
  auto text = std::make_shared<std::string>();
  CLI::App* say_cmd = app->add_subcommand(
      "say",
      "Normalize and speak one text, to audition a voice or a lexicon entry.\n"
      "--speaker names a voice (a timbre in voices/, e.g. narrator, female1);\n"
      "without it the voices are cast as in a book (quoted speech: a speaker\n"
      "voice).\n\n"
      "Examples:\n"
      "  narrate say '1815年6月18日，滑铁卢。' --speaker male2\n"
      "  narrate say 'Dňa 22. júna 1815 abdikoval.' --lang sk --rate 80");
  say_cmd->add_option("TEXT", *text, "The text to speak")->required();
  say_cmd->add_option("--lang", say->lang, "zh or sk (default: guessed)")
      ->check(CLI::IsMember({"zh", "sk"}));
  say_cmd->add_option("--speaker", say->speaker, "A voice from voices/ (e.g. narrator)");
  AddPlaybackOptions(say_cmd, say.get());
  say_cmd->callback([say, text, exit_code] { *exit_code = RunSay(*text, *say); });
}

}  // namespace narrate
