// Private to assemble: the one conversion from samples to milliseconds.
// Pure; thread-safe.
#pragma once

#include <cstdint>

namespace narrate {

// Milliseconds of `samples` at `sample_rate` Hz, rounded to the nearest: the
// one conversion behind every time in the manifest, captions, tags and QC.
inline int64_t SamplesToMs(int64_t samples, int sample_rate) {
  return (samples * 1000 + sample_rate / 2) / sample_rate;
}

}  // namespace narrate
