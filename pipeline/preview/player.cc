// Player: the producer thread that synthesizes ahead and fills the ring with
// clips and pauses, the stream timeline that maps the playback position back
// to an utterance and word, and the controls (seek, rate, pause).
#include <algorithm>
#include <chrono>

#include "preview/preview.h"

namespace narrate {
namespace {

using std::chrono::milliseconds;

constexpr int kTimelineKeep = 256;           // segments remembered
constexpr int64_t kDiscardTimeoutMs = 3000;  // the consumer must ack a seek
constexpr int64_t kStallTimeoutNs = 3000000000;

int64_t MsToSamples(int64_t ms) { return ms * kPreviewSampleRate / 1000; }

}  // namespace

struct Player::Segment {
  uint64_t clip_start = 0;  // stream position of the clip's first sample
  uint64_t clip_end = 0;
  size_t chapter = 0;
  size_t utterance = 0;
  int rate_percent = 100;  // the rate the clip was synthesized at
  std::vector<WordTiming> words;
};

Player::Player(const Script* script, ClipProvider provider, const PlayerOptions& options)
    : script_(script),
      provider_(std::move(provider)),
      options_(options),
      feed_(options.ring_capacity),
      rate_percent_(options.rate_percent) {
  feed_.SetLimit(options.limit_samples);
}

StatusOr<std::unique_ptr<Player>> Player::Create(const Script* script, ClipProvider provider,
                                                 const PlayerOptions& options) {
  if (script == nullptr || !provider) {
    return Status::Usage("preview: no script or no clip provider");
  }
  if (options.rate_percent < 10 || options.rate_percent > 1000) {
    return Status::Usage("--rate must be between 10 and 1000 percent");
  }
  if (options.limit_samples < 0 || options.prebuffer_samples < 0) {
    return Status::Usage("--for and --prebuffer must not be negative");
  }
  return std::unique_ptr<Player>(new Player(script, std::move(provider), options));
}

Player::~Player() { (void)Stop(false); }

bool Player::Valid(size_t chapter, size_t utterance) const {
  return chapter < script_->chapters.size() &&
         utterance < script_->chapters[chapter].utterances.size();
}

Status Player::Start(size_t chapter, size_t utterance, AudioSink* sink) {
  if (!Valid(chapter, utterance)) {
    return Status::Usage("preview: no such chapter or sentence to start from");
  }
  sink_ = sink;
  producer_ = std::thread(&Player::Produce, this, chapter, utterance);
  const size_t want = static_cast<size_t>(
      std::min<int64_t>(options_.prebuffer_samples, static_cast<int64_t>(feed_.ring().capacity())));
  {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      if (!error_.ok()) return error_;
      if (stop_) return Status::Ok();
      const size_t buffered = feed_.ring().size();
      if (feed_.producer_done() || (first_clip_in_ && buffered >= want) ||
          (want > 0 && buffered >= want)) {
        break;
      }
      cv_.wait_for(lock, milliseconds(5));
    }
  }
  Status started = sink_->Start(&feed_);
  if (!started.ok()) return started;
  std::lock_guard<std::mutex> lock(mu_);
  sink_started_ = true;
  return Status::Ok();
}

bool Player::Interrupted() {
  std::lock_guard<std::mutex> lock(mu_);
  return stop_ || command_.pending;
}

bool Player::PushAll(const int16_t* data, size_t n, bool silence) {
  SampleRing& ring = feed_.ring();
  size_t done = 0;
  while (done < n) {
    const size_t wrote = silence ? ring.WriteSilence(n - done) : ring.Write(data + done, n - done);
    done += wrote;
    if (done < n) {
      std::unique_lock<std::mutex> lock(mu_);
      if (stop_ || command_.pending) return false;
      cv_.wait_for(lock, milliseconds(2));  // the consumer frees space
    }
  }
  return true;
}

void Player::Produce(size_t chapter, size_t utterance) {
  bool first = true;
  size_t prev_chapter = 0, prev_utterance = 0;
  int rate = options_.rate_percent;
  auto fail = [&](Status status) {
    std::lock_guard<std::mutex> lock(mu_);
    error_ = std::move(status);
    feed_.SetProducerDone(true);
    cv_.notify_all();
  };
  for (;;) {
    bool seek = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      if (stop_) return;
      if (command_.pending) {
        chapter = command_.chapter;
        utterance = command_.utterance;
        rate = rate_percent_ = command_.rate_percent;
        command_.pending = false;
        seek = true;
      }
    }
    if (seek) {
      feed_.SetProducerDone(false);
      feed_.RequestDiscard();
      const auto deadline = std::chrono::steady_clock::now() + milliseconds(kDiscardTimeoutMs);
      while (feed_.discard_pending()) {
        std::unique_lock<std::mutex> lock(mu_);
        if (stop_) return;
        if (std::chrono::steady_clock::now() > deadline) {
          lock.unlock();
          return fail(Status::IoError("the audio device stopped taking samples (no callback for " +
                                      std::to_string(kDiscardTimeoutMs / 1000) + " s)"));
        }
        cv_.wait_for(lock, milliseconds(2));
      }
      first = true;
    }
    while (chapter < script_->chapters.size() &&
           utterance >= script_->chapters[chapter].utterances.size()) {
      ++chapter;  // past the end of a chapter (or an empty one)
      utterance = 0;
    }
    if (!Valid(chapter, utterance)) {  // the end of the book
      std::unique_lock<std::mutex> lock(mu_);
      feed_.SetProducerDone(true);
      first_clip_in_ = true;
      cv_.notify_all();
      cv_.wait(lock, [&] { return stop_ || command_.pending; });
      continue;
    }
    const Chapter& c = script_->chapters[chapter];
    const Utterance& u = c.utterances[utterance];
    const size_t here_chapter = chapter, here_utterance = utterance++;
    if (!options_.speaker.empty() && u.speaker.value_or("narrator") != options_.speaker) {
      continue;
    }
    StatusOr<Clip> clip = provider_(u, rate);
    if (!clip.ok()) return fail(clip.status());
    if (clip->sample_rate != kPreviewSampleRate) {
      return fail(Status::Failure(u.id + ": clip is not at 22050 Hz"));
    }
    if (Interrupted()) continue;  // a seek arrived while synthesizing

    int64_t pause = 0;
    if (!first) {
      if (prev_chapter != here_chapter) {
        pause = options_.pauses.tail_ms + options_.pauses.head_ms;
      } else if (prev_utterance + 1 == here_utterance) {
        pause = PauseBeforeMs(c, here_utterance, options_.pauses);
      } else {  // sentences skipped by --speaker
        pause = std::max(PauseBeforeMs(c, here_utterance, options_.pauses),
                         options_.pauses.paragraph_ms);
      }
    }
    Segment segment;
    segment.clip_start = feed_.ring().write_index() + MsToSamples(pause);
    segment.clip_end = segment.clip_start + clip->samples.size();
    segment.chapter = here_chapter;
    segment.utterance = here_utterance;
    segment.rate_percent = rate;
    segment.words = clip->words;
    {
      std::lock_guard<std::mutex> lock(mu_);
      timeline_.push_back(std::move(segment));
      if (timeline_.size() > kTimelineKeep) timeline_.pop_front();
    }
    if (!PushAll(nullptr, MsToSamples(pause), true)) continue;
    if (!PushAll(clip->samples.data(), clip->samples.size(), false)) continue;
    {
      std::lock_guard<std::mutex> lock(mu_);
      first_clip_in_ = true;
      cv_.notify_all();
    }
    first = false;
    prev_chapter = here_chapter;
    prev_utterance = here_utterance;
  }
}

PlayPosition Player::Now() const {
  PlayPosition p;
  const uint64_t pos = feed_.position();
  std::lock_guard<std::mutex> lock(mu_);
  p.rate_percent = rate_percent_;
  const Segment* current = nullptr;
  for (auto it = timeline_.rbegin(); it != timeline_.rend(); ++it) {
    if (it->clip_start <= pos) {
      current = &*it;
      break;
    }
  }
  if (current == nullptr) {
    if (timeline_.empty()) return p;
    current = &timeline_.front();  // in the silence before the first clip
  }
  p.valid = true;
  p.rate_percent = current->rate_percent;
  p.chapter = current->chapter;
  p.utterance = current->utterance;
  p.words = current->words;
  if (pos >= current->clip_start && pos < current->clip_end) {
    const int64_t at = static_cast<int64_t>(pos - current->clip_start);
    for (size_t i = 0; i < current->words.size(); ++i) {
      if (current->words[i].start <= at) p.word = static_cast<int>(i);
    }
  }
  return p;
}

int Player::rate_percent() const {
  std::lock_guard<std::mutex> lock(mu_);
  return command_.pending ? command_.rate_percent : rate_percent_;
}

void Player::Post(size_t chapter, size_t utterance, int rate_percent) {
  std::lock_guard<std::mutex> lock(mu_);
  command_ = {true, chapter, utterance, rate_percent};
  cv_.notify_all();
}

void Player::SeekTo(size_t chapter, size_t utterance) {
  if (Valid(chapter, utterance)) Post(chapter, utterance, rate_percent());
}

void Player::NextSentence() {
  const PlayPosition p = Now();
  if (!p.valid) return;
  if (Valid(p.chapter, p.utterance + 1)) {
    SeekTo(p.chapter, p.utterance + 1);
  } else if (Valid(p.chapter + 1, 0)) {
    SeekTo(p.chapter + 1, 0);
  }
}

void Player::PreviousSentence() {
  const PlayPosition p = Now();
  if (!p.valid) return;
  if (p.utterance > 0) {
    SeekTo(p.chapter, p.utterance - 1);
  } else if (p.chapter > 0) {
    const size_t n = script_->chapters[p.chapter - 1].utterances.size();
    SeekTo(p.chapter - 1, n == 0 ? 0 : n - 1);
  } else {
    SeekTo(0, 0);
  }
}

void Player::NextChapter() {
  const PlayPosition p = Now();
  if (p.valid && Valid(p.chapter + 1, 0)) SeekTo(p.chapter + 1, 0);
}

void Player::PreviousChapter() {
  const PlayPosition p = Now();
  if (p.valid) SeekTo(p.chapter > 0 ? p.chapter - 1 : 0, 0);
}

void Player::SetRate(int rate_percent) {
  rate_percent = std::clamp(rate_percent, 10, 1000);
  const PlayPosition p = Now();
  if (p.valid) Post(p.chapter, p.utterance, rate_percent);
}

void Player::TogglePause() { feed_.SetPaused(!feed_.paused()); }

Status Player::health() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!error_.ok()) return error_;
    if (!sink_started_) return Status::Ok();
  }
  Status sink = sink_->Health();
  if (!sink.ok()) return sink;
  // Watchdog: a live stream calls Pull every few milliseconds.
  const int64_t now = MonotonicNs();
  const int64_t pulls = feed_.pulls();
  if (pulls != last_pulls_ || finished()) {
    last_pulls_ = pulls;
    last_pull_change_ns_ = now;
  } else if (last_pull_change_ns_ == 0) {
    last_pull_change_ns_ = now;
  } else if (now - last_pull_change_ns_ > kStallTimeoutNs) {
    return Status::IoError("the audio device stopped taking samples (stalled for " +
                           std::to_string(kStallTimeoutNs / 1000000000) + " s)");
  }
  return Status::Ok();
}

bool Player::finished() const {
  if (feed_.limit_reached()) return true;
  std::lock_guard<std::mutex> lock(mu_);
  return !command_.pending && feed_.producer_done() && error_.ok() && !feed_.discard_pending() &&
         feed_.ring().size() == 0;
}

Status Player::Stop(bool drain) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
    cv_.notify_all();
  }
  if (producer_.joinable()) producer_.join();
  Status stopped;
  bool started;
  {
    std::lock_guard<std::mutex> lock(mu_);
    started = sink_started_;
    sink_started_ = false;
  }
  if (started) stopped = sink_->Stop(drain);
  return stopped;
}

}  // namespace narrate
