// The preview stage: hear a book now, from any chapter or sentence, while
// synthesis runs ahead. A producer thread turns utterances into clips (cache
// first, then the synthesizer) and pushes them, with the same pauses as
// `narrate build`, into a lock-free ring; an AudioSink (PortAudio, or a test
// sink) pulls from it in real time through PlaybackFeed::Pull.
//
// Thread-safety: PlaybackFeed::Pull is called by exactly one consumer (the
// audio callback) and never allocates, locks or blocks. Player's public
// methods are for one controlling thread; its producer thread is private and
// is the only thread that calls the ClipProvider (so the provider may own the
// process's one Synth). RunPreview runs on the calling thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "assemble/assemble.h"
#include "core/core.h"
#include "preview/ring_buffer.h"

namespace narrate {

// Preview plays at eSpeak's own rate: no resampling.
inline constexpr int kPreviewSampleRate = 22050;  // Hz, mono int16

// The timbre with its rate scaled by `rate_percent` (100 = as cast), rounded
// and clamped to eSpeak's 80-450 words per minute.
Timbre ScaledTimbre(const Timbre& timbre, int rate_percent);

// What the audio callback reads: the ring plus the few flags the callback
// obeys (pause, discard after a seek, a play limit). Positions are samples on
// the ring's monotonic stream timeline.
class PlaybackFeed {
 public:
  explicit PlaybackFeed(size_t ring_capacity);  // samples, rounded up to 2^k

  // Consumer (real time): fills out[0, n). Zeros while paused, before data
  // arrives or after an underrun. Returns false once the play limit has been
  // reached (the stream should complete). Never allocates, locks or blocks.
  bool Pull(int16_t* out, size_t n);

  SampleRing& ring() { return ring_; }
  const SampleRing& ring() const { return ring_; }

  // Controller side.
  void SetPaused(bool paused) { paused_.store(paused); }
  bool paused() const { return paused_.load(); }
  // Stop after handing out this many ring samples in total (0: no limit).
  void SetLimit(int64_t samples) { limit_.store(samples); }
  bool limit_reached() const { return limit_reached_.load(); }
  // Producer: asks the consumer to drop what is buffered (a seek); the
  // consumer does it at its next Pull and clears discard_pending().
  void RequestDiscard() { discard_.store(true); }
  bool discard_pending() const { return discard_.load(); }
  // Producer: nothing more will be written (until a seek).
  void SetProducerDone(bool done) { producer_done_.store(done); }
  bool producer_done() const { return producer_done_.load(); }

  // Stream position of the next sample to be played (ring read index).
  uint64_t position() const { return ring_.read_index(); }
  // Ring samples handed to the sink (discarded ones not counted).
  int64_t played() const { return played_.load(); }
  // CLOCK_MONOTONIC nanoseconds when the first non-zero sample was handed
  // out; 0 before that.
  int64_t first_sound_ns() const { return first_sound_ns_.load(); }
  // Pulls that found the ring short while the producer was still working.
  int64_t underruns() const { return underruns_.load(); }
  // Number of Pull calls so far (a liveness signal for watchdogs).
  int64_t pulls() const { return pulls_.load(); }

 private:
  SampleRing ring_;
  std::atomic<bool> paused_{false};
  std::atomic<bool> discard_{false};
  std::atomic<bool> producer_done_{false};
  std::atomic<bool> limit_reached_{false};
  std::atomic<bool> flowing_{false};  // data arrived since start or last seek
  std::atomic<int64_t> limit_{0};
  std::atomic<int64_t> played_{0};
  std::atomic<int64_t> first_sound_ns_{0};
  std::atomic<int64_t> underruns_{0};
  std::atomic<int64_t> pulls_{0};
};

// Where samples go: PortAudio, or a test sink. Start() begins calling
// feed->Pull from the sink's own real-time context.
class AudioSink {
 public:
  virtual ~AudioSink() = default;
  virtual Status Start(PlaybackFeed* feed) = 0;
  // Stops pulling. `drain`: let what the device holds play out first.
  virtual Status Stop(bool drain) = 0;
  // Non-ok when the device failed (e.g. unplugged mid-stream).
  virtual Status Health() = 0;
};

// PortAudio output at 22050 Hz mono int16. `device` empty: the default
// output; else an exact device name, a unique substring of one, or an index
// as listed by ListOutputDevices. IoError (74) naming the device when it
// cannot be opened; Failure when narrate was built without PortAudio.
StatusOr<std::unique_ptr<AudioSink>> OpenPortAudioSink(const std::string& device);

// Output devices as "index: name (host API)[ default]" lines.
StatusOr<std::vector<std::string>> ListOutputDevices();

// True when narrate was built with PortAudio.
bool HavePortAudio();

// The clip of an utterance at a rate (percent of its timbre's rate). Called
// on the producer thread only.
using ClipProvider = std::function<StatusOr<Clip>(const Utterance& utterance, int rate_percent)>;

struct PlayerOptions {
  PauseOptions pauses;             // the same silences as `narrate build`
  int rate_percent = 100;          // of each timbre's rate; 100 = as cast
  int64_t limit_samples = 0;       // stop after this much audio; 0: no limit
  int64_t prebuffer_samples = 0;   // buffer this much before starting the sink
  size_t ring_capacity = 1 << 21;  // samples (95 s at 22050 Hz)
  std::string speaker;             // play only this speaker; empty: everyone
};

// What is being heard.
struct PlayPosition {
  bool valid = false;             // false before the first sample
  size_t chapter = 0;             // index into Script::chapters
  size_t utterance = 0;           // index into Chapter::utterances
  int word = -1;                  // index into the clip's words; -1 in a pause
  std::vector<WordTiming> words;  // the clip's words (samples within the clip)
  int rate_percent = 100;         // the rate the heard clip was synthesized at
};

class Player {
 public:
  // Usage error (2) when the options make no sense.
  static StatusOr<std::unique_ptr<Player>> Create(const Script* script, ClipProvider provider,
                                                  const PlayerOptions& options);
  ~Player();
  Player(const Player&) = delete;
  Player& operator=(const Player&) = delete;

  // Starts the producer at (chapter, utterance), waits until the first clip
  // (or the prebuffer) is in the ring, then starts `sink`. `sink` must
  // outlive the Player. Errors from the provider or the sink are returned.
  Status Start(size_t chapter, size_t utterance, AudioSink* sink);

  // Controls; each takes effect within one sentence's synthesis time.
  void SeekTo(size_t chapter, size_t utterance);
  void NextSentence();
  void PreviousSentence();
  void NextChapter();
  void PreviousChapter();
  void SetRate(int rate_percent);  // re-synthesizes from the current sentence
  void TogglePause();

  PlayPosition Now() const;
  int rate_percent() const;
  // Ok while playing; an error once the producer or the sink failed.
  Status health();
  // True when everything was played or the limit was reached.
  bool finished() const;
  // Stops the sink (draining when `drain`) and the producer.
  Status Stop(bool drain);

  const PlaybackFeed& feed() const { return feed_; }

 private:
  struct Segment;  // one utterance placed on the stream timeline
  struct Command {
    bool pending = false;
    size_t chapter = 0;
    size_t utterance = 0;
    int rate_percent = 100;
  };

  Player(const Script* script, ClipProvider provider, const PlayerOptions& options);
  void Produce(size_t chapter, size_t utterance);
  bool PushAll(const int16_t* data, size_t n, bool silence);
  bool Interrupted();
  void Post(size_t chapter, size_t utterance, int rate_percent);
  bool Valid(size_t chapter, size_t utterance) const;

  const Script* script_;
  ClipProvider provider_;
  PlayerOptions options_;
  PlaybackFeed feed_;
  AudioSink* sink_ = nullptr;
  bool sink_started_ = false;
  // The producer is a thread of the player's own, not a task of a session's
  // pool: playback must never wait for a pool's thread to come free.
  std::thread producer_;

  mutable std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  bool stop_ = false;
  Command command_;
  int rate_percent_ = 100;
  Status error_;
  bool first_clip_in_ = false;
  std::deque<Segment> timeline_;
  int64_t last_pulls_ = -1;  // watchdog state (controller thread)
  int64_t last_pull_change_ns_ = 0;
};

struct PreviewOptions {
  PlayerOptions player;
  size_t chapter = 0;        // where to start: index into Script::chapters
  size_t utterance = 0;      // index into that chapter's utterances
  bool interactive = false;  // terminal display and keys (stdin is a tty)
  bool trace = false;        // print the first-sound time and underruns
};

// Plays until the end, the limit, `q` or SIGINT, showing what is heard
// (interactive) or printing one line per sentence to stdout (otherwise).
// IoError (74) when the device fails or stalls; never hangs.
Status RunPreview(const Script& script, ClipProvider provider, const PreviewOptions& options,
                  AudioSink* sink);

// Monotonic nanoseconds when this process started (approximately: when the
// preview library was initialized), for the first-sound trace.
int64_t ProcessStartNs();
int64_t MonotonicNs();

}  // namespace narrate
