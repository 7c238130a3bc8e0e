// The synth stage: one utterance's tokens to PCM with word timings, through the
// eSpeak NG C API in-process, and a pool of worker processes that fill a
// content-addressed clip cache.
//
// Thread-safety: eSpeak NG keeps global state and is NOT thread-safe, so it
// never runs in narrate's own process: each Synth owns a worker process
// (narrate-synth-worker, see worker.cc) that does. A Synth is used by one thread
// at a time; several Synths (SynthesizeAll's workers) run in parallel.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/core.h"

namespace narrate {

// What one utterance is said with: the language voice comes from `lang`, the
// timbre (variant, pitch, range, rate, volume) from the cast.
struct SynthRequest {
  Lang lang;                  // "zh", "sk"
  Timbre timbre;
  std::vector<Token> tokens;  // printed and spoken forms (see normalize)
};

// The eSpeak NG voice name for a language: its profile's (core/language.h:
// "zh" -> "cmn-latn-pinyin", "sk" -> "sk"); a language without one as is.
std::string LanguageVoice(const Lang& lang);

// "espeak-ng <version>": part of every cache key.
std::string EngineVersion();

// The cache key of a request: spoken text, voice, timbre, engine version.
std::string ClipKey(const SynthRequest& request);

class Synth {
 public:
  // Starts a worker process and waits until eSpeak NG is initialized there.
  // Failure when the worker cannot start or eSpeak's data cannot be loaded.
  static StatusOr<std::unique_ptr<Synth>> Create();
  ~Synth();
  Synth(const Synth&) = delete;
  Synth& operator=(const Synth&) = delete;

  // Synthesizes one utterance: mono int16 at 22050 Hz, with leading and trailing
  // silence trimmed, and one WordTiming per word (from <mark> events). Failure
  // names the voice when eSpeak rejects it; never falls back silently.
  // Deterministic: the clip depends on the request alone (the worker resets
  // eSpeak before each call, see worker.cc), so clips are byte-identical
  // whatever was synthesized before, in this Synth or another.
  StatusOr<Clip> Synthesize(const SynthRequest& request);

 private:
  struct Impl;
  Synth() = default;
  int fd_ = -1;   // socket to the worker
  int pid_ = -1;  // the worker process
  std::unique_ptr<Impl> impl_;
};

// Starts a Synth on its own thread (its worker takes a few tens of
// milliseconds to be ready) so that it overlaps other work; Take() waits for
// it. The Synth goes away with the warmer if nobody took it.
class SynthWarmer {
 public:
  SynthWarmer();
  ~SynthWarmer();
  SynthWarmer(const SynthWarmer&) = delete;
  SynthWarmer& operator=(const SynthWarmer&) = delete;
  StatusOr<std::unique_ptr<Synth>> Take();

 private:
  StatusOr<std::unique_ptr<Synth>> synth_ = Status::Failure("not created");
  std::thread thread_;
};

// Clip cache files: a small binary format (magic, rate, length, energy, word
// timings, then the samples), written atomically. ReadClipSummary reads all
// but the samples. DataError naming the file for one that is not whole.
Status WriteClip(const std::string& path, const Clip& clip);
StatusOr<Clip> ReadClip(const std::string& path);
StatusOr<ClipSummary> ReadClipSummary(const std::string& path);

struct SynthAllStats {
  int synthesized = 0;  // utterances synthesized in this run
  int reused = 0;       // utterances found in the cache
};

// Makes sure `cache_dir/<ClipKey>.clip` exists for every request, synthesizing
// the missing ones with `jobs` Synths (each with its worker process) driven
// from as many threads; the first is taken from `warm` if there is one.
// `progress(done, total)` is called from the calling thread as clips
// complete. Clips are written atomically, so a killed run leaves only whole
// files behind.
StatusOr<SynthAllStats> SynthesizeAll(
    const std::vector<SynthRequest>& requests, const std::string& cache_dir,
    int jobs, const std::function<void(int, int)>& progress, SynthWarmer* warm = nullptr);

// The path of the clip with `key` (a request's ClipKey) in `cache_dir`.
std::string ClipPath(const std::string& cache_dir, const std::string& key);

}  // namespace narrate
