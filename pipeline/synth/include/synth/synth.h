// The synth stage: one utterance's tokens to PCM with word timings, through the
// eSpeak NG C API called in a worker process (narrate-synth-worker), and the
// clip file format the book library's clip cache keeps.
//
// Thread-safety: eSpeak NG keeps global state and is NOT thread-safe, so it
// never runs in narrate's own process: each Synth owns a worker process
// (narrate-synth-worker, see worker.cc) that does. A Synth is used by one thread
// at a time; several Synths (a build's workers) run in parallel.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {

// What one utterance is said with: the language voice comes from `lang`, the
// timbre (variant, pitch, range, rate, volume) from the cast.
struct SynthRequest {
  Lang lang;  // "zh", "sk"
  Timbre timbre;
  std::vector<Token> tokens;  // printed and spoken forms (see normalize)
};

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

  // Synthesize in two halves, so that one thread keeps several Synths busy:
  // Start sends the request to the worker and returns at once; Finish waits
  // for the answer (which is there once fd() polls readable) and makes the
  // clip. One request at a time: Finish before the next Start.
  Status Start(const SynthRequest& request);
  StatusOr<Clip> Finish();
  // The socket to the worker, for poll(2).
  int fd() const { return fd_; }

 private:
  struct Impl;
  Synth() = default;
  int fd_ = -1;   // socket to the worker
  int pid_ = -1;  // the worker process
  std::unique_ptr<Impl> impl_;
};

// Clip files (the book library's clip cache keeps them): a small binary
// format (magic, rate, length, energy, word timings, then the samples),
// written atomically. ReadClipSummary reads all
// but the samples. DataError naming the file for one that is not whole.
Status WriteClip(const std::string& path, const Clip& clip);
StatusOr<Clip> ReadClip(const std::string& path);
StatusOr<ClipSummary> ReadClipSummary(const std::string& path);

}  // namespace narrate
