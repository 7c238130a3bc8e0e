// Gain to a target RMS, then a look-ahead limiter. The limiter's gain at each
// sample never exceeds what that sample needs to stay under the ceiling; it is
// eased in before a peak (a backward pass) and out after it (a forward pass).
// Both passes run over blocks with a margin, so memory stays bounded however
// long the file is.
#include "assemble/master.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace narrate {
namespace assemble_internal {
namespace {

constexpr size_t kBlock = 1 << 16;  // samples per block

double MeanSquare(const std::vector<int16_t>& x) {
  double sum = 0;
  for (int16_t v : x) sum += static_cast<double>(v) * v;
  return x.empty() ? 0 : sum / x.size() / (32768.0 * 32768.0);
}

// One round: scale by `gain`, limit to `ceiling`, round back to int16.
// Returns the mean square of the result and lowers *deepest to the strongest
// reduction used.
double GainAndLimit(std::vector<int16_t>* samples, float gain, float ceiling,
                    size_t lookahead, size_t release, float* deepest) {
  std::vector<int16_t>& x = *samples;
  const size_t n = x.size();
  // The attack's backward recursion decays by (1 - 1/lookahead) a sample:
  // after 12 lookaheads its influence is below 1e-5, so that margin suffices.
  const size_t margin = 12 * lookahead + lookahead;
  const float attack_coef = 1.0f / std::max<size_t>(1, lookahead);
  const float release_coef = 1.0f / std::max<size_t>(1, release);
  float carried = 1.0f;  // the release pass's gain at the end of the last block
  double sum = 0;
  std::vector<float> need, eased;
  for (size_t begin = 0; begin < n; begin += kBlock) {
    const size_t end = std::min(n, begin + kBlock);
    const size_t stop = std::min(n, end + margin);
    // Most blocks need no limiting: then the gain is all there is to apply.
    int loudest = 0;
    for (size_t i = begin; i < stop; ++i) loudest = std::max(loudest, std::abs(int{x[i]}));
    if (carried == 1.0f && loudest / 32768.0f * gain <= ceiling) {
      for (size_t i = begin; i < end; ++i) {
        const long v = std::lrint(x[i] / 32768.0f * gain * 32768.0f);
        x[i] = static_cast<int16_t>(std::clamp(v, -32768L, 32767L));
        sum += static_cast<double>(x[i]) * x[i];
      }
      continue;
    }
    need.resize(stop - begin);
    for (size_t i = begin; i < stop; ++i) {
      const float a = std::fabs(x[i] / 32768.0f * gain);
      need[i - begin] = a > ceiling ? ceiling / a : 1.0f;
    }
    // Minimum over the next `lookahead` samples.
    eased.resize(need.size());
    std::deque<size_t> window;
    for (size_t k = need.size(); k-- > 0;) {
      while (!window.empty() && need[window.back()] >= need[k]) window.pop_back();
      window.push_back(k);
      while (window.front() > k + lookahead) window.pop_front();
      eased[k] = need[window.front()];
    }
    // Attack, backwards.
    for (size_t k = eased.size() - 1; k-- > 0;) {
      eased[k] = std::min(eased[k], eased[k + 1] + (1.0f - eased[k + 1]) * attack_coef);
    }
    // Release, forwards, from the previous block's state; apply.
    for (size_t i = begin; i < end; ++i) {
      carried = std::min(eased[i - begin], carried + (1.0f - carried) * release_coef);
      *deepest = std::min(*deepest, carried);
      const float y = x[i] / 32768.0f * gain * carried;
      const long v = std::lrint(y * 32768.0f);
      x[i] = static_cast<int16_t>(std::clamp(v, -32768L, 32767L));
      sum += static_cast<double>(x[i]) * x[i];
    }
  }
  return n == 0 ? 0 : sum / n / (32768.0 * 32768.0);
}

}  // namespace

MasterResult Master(std::vector<int16_t>* samples, int sample_rate,
                    const MasterOptions& options) {
  MasterResult result;
  const float ceiling = static_cast<float>(std::pow(10.0, options.ceiling_db / 20));
  const size_t lookahead = static_cast<size_t>(sample_rate) * options.lookahead_ms / 1000;
  const size_t release = static_cast<size_t>(sample_rate) * options.release_ms / 1000;
  const double target = std::pow(10.0, options.target_rms_db / 20);
  double mean_square = MeanSquare(*samples);
  double total_gain = 1.0;
  float deepest = 1.0f;
  // Two rounds: limiting lowers the RMS a little, the second gain restores it.
  for (int round = 0; round < 2 && mean_square > 0; ++round) {
    const float gain = static_cast<float>(target / std::sqrt(mean_square));
    total_gain *= gain;
    mean_square = GainAndLimit(samples, gain, ceiling, lookahead, release, &deepest);
  }
  result.gain_db = 20 * std::log10(total_gain);
  result.limited_max_db = 20 * std::log10(deepest);
  return result;
}

}  // namespace assemble_internal
}  // namespace narrate
