// The `preview`, `devices` and `say` subcommands: live playback of a book or
// of one text through PortAudio (see preview/preview.h). Thin: the session
// prepares the script and supplies the clips (its cache first, then eSpeak
// NG); the preview stage plays them; this file finds where to start.
//
// Thread-safety: the clips are asked for on the preview's producer thread;
// everything else runs on the main thread.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "cli.h"
#include "preview/preview.h"

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

// Opens the audio device as a task on the session's pool while the script
// is prepared: PortAudio's set-up overlaps ingest and normalization.
class SinkOpener {
 public:
  SinkOpener(ThreadPool* pool, const std::string& device) : task_(pool) {
    task_.Run([this, device] { sink_ = OpenPortAudioSink(device); });
  }
  StatusOr<std::unique_ptr<AudioSink>> Take() {
    task_.Wait();
    return std::move(sink_);
  }

 private:
  StatusOr<std::unique_ptr<AudioSink>> sink_ = Status::Failure("not opened");
  TaskGroup task_;  // last: waited for before sink_ goes
};

// Where to start: --chapter (1-based) and --from (an id anywhere, else the
// first sentence whose printed or spoken text contains the snippet, within
// --chapter when given). Usage error (2) when nothing matches.
Status FindStart(const Script& script, const PreviewArgs& args, size_t* chapter,
                 size_t* utterance) {
  const size_t count = script.chapters.size();
  if (args.chapter < 0 || static_cast<size_t>(args.chapter) > count) {
    return Status::Usage("--chapter " + std::to_string(args.chapter) + ": the book has " +
                         std::to_string(count) + " chapters");
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
  return Status::Usage(
      "--from '" + args.from + "': no sentence has that id or text" +
      (args.chapter > 0 ? " in chapter " + std::to_string(args.chapter) : std::string()));
}

// Plays `script` from (chapter, utterance) on the opened device.
int Play(const Script& script, const PreviewArgs& args, size_t chapter, size_t utterance,
         BookSession* session, StatusOr<std::unique_ptr<AudioSink>> sink) {
  if (!sink.ok()) return Fail(sink.status());
  PreviewOptions options;
  options.player.rate_percent = args.rate;
  options.player.limit_samples = static_cast<int64_t>(args.for_seconds * kPreviewSampleRate + 0.5);
  options.player.prebuffer_samples =
      static_cast<int64_t>(args.prebuffer * kPreviewSampleRate + 0.5);
  options.player.speaker = args.speaker;
  options.chapter = chapter;
  options.utterance = utterance;
  options.interactive = args.for_seconds <= 0 && ::isatty(STDIN_FILENO) == 1;
  options.trace = Tracing();
  Status played = RunPreview(
      script,
      [session](const Utterance& u, int rate) {
        bool synthesized = false;
        StatusOr<Clip> clip = session->ClipFor(u, rate, &synthesized);
        if (synthesized) Trace("clip synthesized");
        return clip;
      },
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
    std::fprintf(stderr, "narrate: %d warnings about the text (see `narrate mark`)\n", quiet);
  }
}

// Prepares the session's script with the audio device opening meanwhile,
// then plays it from where `args` say. `voice`: every utterance in this
// timbre (say --speaker); empty: the cast's.
int PrepareAndPlay(const StatusOr<Book>& book, PreviewArgs args, const std::string& voice) {
  if (!book.ok()) return Fail(book.status());
  // Two threads: the worker and the audio device start side by side while
  // this thread prepares the script.
  auto opened = BookSession::Open(*book, SessionOptions{2, args.cache_dir, ""});
  if (!opened.ok()) return Fail(opened.status());
  BookSession* session = opened->get();
  if (!voice.empty() && !session->voices().count(voice)) {
    std::string names;
    for (const auto& [name, timbre] : session->voices()) names += " " + name;
    return Fail(Status::Usage("--speaker '" + voice + "': no such voice; voices:" + names));
  }
  session->WarmUp();
  SinkOpener opener(session->pool(), args.device);
  CollectingReporter reporter;
  StatusOr<Script> script = session->Prepare(&reporter);
  Trace("script ready");
  StatusOr<std::unique_ptr<AudioSink>> sink = opener.Take();
  Trace("device open");
  PrintDiagnostics(reporter);
  if (!script.ok()) return Fail(script.status());
  if (!voice.empty()) {
    for (Chapter& c : script->chapters) {
      for (Utterance& u : c.utterances) u.voice = voice;
    }
  }
  size_t chapter = 0, utterance = 0;
  Status start = FindStart(*script, args, &chapter, &utterance);
  if (!start.ok()) return Fail(start);
  return Play(*script, args, chapter, utterance, session, std::move(sink));
}

int RunPreviewCommand(PreviewArgs args) {
  if (!HavePortAudio()) return Fail(OpenPortAudioSink(args.device).status());
  StatusOr<Book> book =
      IsDirectory(args.input) ? LoadBook(args.input) : BookFromFile(args.input, args.lang);
  if (book.ok() && args.cache_dir.empty()) args.cache_dir = "output/" + book->name + "/.cache";
  return PrepareAndPlay(book, args, "");
}

int RunSay(const std::string& text, PreviewArgs args) {
  if (!HavePortAudio()) return Fail(OpenPortAudioSink(args.device).status());
  const std::string voice = args.speaker;
  args.speaker.clear();    // a timbre here, not a filter
  args.cache_dir.clear();  // no book, no cache
  return PrepareAndPlay(BookFromText(text + "\n", args.lang), args, voice);
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
  CLI::App* cmd =
      app->add_subcommand("preview",
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
  cmd->add_option("BOOK_DIR|FILE", preview->input, "A book folder or one text file")->required();
  cmd->add_option("--lang", preview->lang, "Language of a single FILE (default: guessed)")
      ->check(CLI::IsMember(LanguageCodes()));
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
  CLI::App* say_cmd =
      app->add_subcommand("say",
                          "Normalize and speak one text, to audition a voice or a lexicon entry.\n"
                          "--speaker names a voice (a timbre in voices/, e.g. narrator, female1);\n"
                          "without it the voices are cast as in a book (quoted speech: a speaker\n"
                          "voice).\n\n"
                          "Examples:\n"
                          "  narrate say '1815年6月18日，滑铁卢。' --speaker male2\n"
                          "  narrate say 'Dňa 22. júna 1815 abdikoval.' --lang sk --rate 80");
  say_cmd->add_option("TEXT", *text, "The text to speak")->required();
  say_cmd->add_option("--lang", say->lang, LanguageNames() + " (default: guessed)")
      ->check(CLI::IsMember(LanguageCodes()));
  say_cmd->add_option("--speaker", say->speaker, "A voice from voices/ (e.g. narrator)");
  AddPlaybackOptions(say_cmd, say.get());
  say_cmd->callback([say, text, exit_code] { *exit_code = RunSay(*text, *say); });
}

}  // namespace narrate
