// Private to assemble: mastering of one file's audio, once per file (never per
// sentence): a gain to a target RMS and a look-ahead peak limiter, both
// deterministic. Thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

namespace narrate {
namespace assemble_internal {

struct MasterOptions {
  double target_rms_db = -20.0;  // dBFS over the whole file (ACX: -23..-18)
  double ceiling_db = -3.2;      // sample peaks never exceed this (ACX: -3)
  int lookahead_ms = 3;          // the limiter starts reducing before a peak
  int release_ms = 60;           // and recovers after it
};

struct MasterResult {
  double gain_db = 0;       // the makeup gain applied
  double limited_max_db = 0;  // the deepest gain reduction of the limiter (<= 0)
};

// Masters `samples` (mono, `sample_rate` Hz) in place.
MasterResult Master(std::vector<int16_t>* samples, int sample_rate,
                    const MasterOptions& options);

}  // namespace assemble_internal
}  // namespace narrate
