// Private to synth: what narrate and narrate-synth-worker, the process that
// owns eSpeak NG (worker.cc), say to each other over a socket.
//
// The worker is the one owner of eSpeak NG in narrate: eSpeak is global and
// not thread-safe. Its state also carries over from one call to the next, so
// the worker puts eSpeak back into the state it had right after the voice was
// selected before every request (worker.cc): each clip depends on its request
// alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace narrate {
namespace synth_internal {

// The eSpeak NG voice name for a language: its profile's (core/language.h:
// "zh" -> "cmn-latn-pinyin", "sk" -> "sk"); a language without one as is.
std::string LanguageVoice(const std::string& lang);

// "espeak-ng <version>" of the eSpeak NG narrate was built against: part of
// every cache key; a worker running another one is refused.
std::string EngineVersion();

// One request: SSML with <mark name="wN"/> before word N, said with `voice`.
struct EngineRequest {
  std::string voice;  // eSpeak voice name, e.g. "cmn-latn-pinyin+m3"
  int rate = 175, pitch = 50, range = 50, volume = 100;
  std::string ssml;
};

// What eSpeak produced: `count` 22050 Hz mono samples, at the start of the
// SampleBuffer the two processes share, and the sample of each mark.
struct Capture {
  size_t count = 0;
  std::vector<std::pair<int, int64_t>> marks;  // (word index, sample)
};

// The samples of an answer, in memory narrate and its worker share (a memfd
// both map): they go from eSpeak's callback to narrate's clip without passing
// through the socket (which would copy every sample twice more, into the
// kernel and out of it). The worker writes an answer's samples from the start; narrate
// reads them once the answer's frame has come and before it sends the next
// request. The file and the mappings grow as a longer clip needs it.
class SampleBuffer {
 public:
  static std::unique_ptr<SampleBuffer> Create();       // narrate; null on failure
  static std::unique_ptr<SampleBuffer> Adopt(int fd);  // the worker, given the fd
  ~SampleBuffer();
  SampleBuffer(const SampleBuffer&) = delete;
  SampleBuffer& operator=(const SampleBuffer&) = delete;

  int fd() const { return fd_; }
  int16_t* data() const { return data_; }
  // Writer: room for `count` samples (grows the file and maps it); false when
  // the memory cannot be had.
  bool Reserve(size_t count);
  // Reader: maps the first `count` samples, which the writer made room for;
  // false if it did not (a garbled answer).
  bool Expose(size_t count);

 private:
  explicit SampleBuffer(int fd) : fd_(fd) {}
  bool Map(size_t bytes);
  int fd_ = -1;
  int16_t* data_ = nullptr;
  size_t mapped_ = 0;  // bytes
};

std::string EncodeRequest(const EngineRequest& r);
bool DecodeRequest(const std::string& in, EngineRequest* r);

// Frames: a u32 length, then the bytes. False on EOF or error.
bool WriteFrame(int fd, const std::string& bytes);
bool ReadFrame(int fd, std::string* bytes);

// The worker replies "R<eSpeak's version>" once eSpeak is ready (or
// "E<message>"), then to each request frame "K"+capture (its count and marks;
// the samples are in the SampleBuffer) or "E"+message.
bool WriteCapture(int fd, const Capture& c);
// One answer: true with `c` filled, or with `error` set (and `c` untouched);
// false on EOF or a garbled frame.
bool ReadAnswer(int fd, Capture* c, std::string* error);

}  // namespace synth_internal
}  // namespace narrate
