// Private to assemble: streaming sample-rate conversion (libsoxr, VHQ) for the
// encoders whose rate differs from the rendered rate (Opus: 48 kHz only; MP3:
// 44.1 kHz). Deterministic: single-threaded, no dither (float output).
// Thread-safety: one instance per thread; distinct instances are independent.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace assemble_internal {

class StreamResampler {
 public:
  // Mono int16 at `in_rate` Hz to float [-1, 1] at `out_rate` Hz.
  // Failure when libsoxr rejects the rates.
  static StatusOr<std::unique_ptr<StreamResampler>> Create(int in_rate, int out_rate);
  ~StreamResampler();
  StreamResampler(const StreamResampler&) = delete;
  StreamResampler& operator=(const StreamResampler&) = delete;

  // Converts `count` samples, appending what is ready to `out` (output lags
  // input by the filter length; Flush() delivers the rest).
  Status Process(const int16_t* samples, size_t count, std::vector<float>* out);
  // Ends the stream: appends the remaining output. Call once, last.
  Status Flush(std::vector<float>* out);

 private:
  StreamResampler() = default;
  void* soxr_ = nullptr;  // soxr_t
  double ratio_ = 1.0;    // out_rate / in_rate
};

}  // namespace assemble_internal
}  // namespace narrate
