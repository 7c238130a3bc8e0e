// Private to synth: what narrate and narrate-synth-worker, the process that
// owns eSpeak NG (worker.cc), say to each other over a socket.
//
// The worker is the one owner of eSpeak NG in narrate: eSpeak is global and
// not thread-safe. Its state also carries over from one call to the next, so
// the worker puts eSpeak back into the state it had right after the voice was
// selected before every request (worker.cc): each clip depends on its request
// alone.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace narrate {
namespace synth_internal {

// One request: SSML with <mark name="wN"/> before word N, said with `voice`.
struct EngineRequest {
  std::string voice;  // eSpeak voice name, e.g. "cmn-latn-pinyin+m3"
  int rate = 175, pitch = 50, range = 50, volume = 100;
  std::string ssml;
};

// What eSpeak produced: 22050 Hz mono samples and the sample of each mark.
struct Capture {
  std::vector<int16_t> samples;
  std::vector<std::pair<int, int64_t>> marks;  // (word index, sample)
};

std::string EncodeRequest(const EngineRequest& r);
bool DecodeRequest(const std::string& in, EngineRequest* r);

// Frames: a u32 length, then the bytes. False on EOF or error.
bool WriteFrame(int fd, const std::string& bytes);
bool ReadFrame(int fd, std::string* bytes);

// The worker replies "R" once eSpeak is ready (or "E<message>"), then to each
// request frame "K"+capture or "E"+message. A capture goes straight from and
// into the Capture's buffers (no copy of the samples on either side; reused,
// they stop costing fresh pages after the first few clips).
bool WriteCapture(int fd, const Capture& c);
// One answer: true with `c` filled, or with `error` set (and `c` untouched);
// false on EOF or a garbled frame.
bool ReadAnswer(int fd, Capture* c, std::string* error);

}  // namespace synth_internal
}  // namespace narrate
