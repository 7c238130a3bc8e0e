// StreamMaster (gain, true-peak limiter, loudness, resampling, QC in one pass)
// and QcMeter, on signals made here.
#include "assemble/master.h"

#include <ebur128.h>
#include <gtest/gtest.h>

#include <cmath>

#include "assemble/qc.h"
#include "assemble/samples.h"

namespace narrate {
namespace assemble_internal {
namespace {

constexpr int kIn = 22050, kOut = 44100;

// `seconds` of a sine of `hz` at `amplitude` (full scale 1), starting at `phase`.
std::vector<int16_t> Sine(double seconds, double hz, double amplitude, double phase = 0) {
  std::vector<int16_t> s(static_cast<size_t>(seconds * kIn));
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = static_cast<int16_t>(
        std::lrint(32767 * amplitude * std::sin(2 * M_PI * hz * i / kIn + phase)));
  }
  return s;
}

double MeanSquare(const std::vector<int16_t>& s) {
  double sum = 0;
  for (int16_t v : s) sum += double(v) * v;
  return sum / s.size() / (32768.0 * 32768.0);
}

struct Mastered {
  std::vector<int16_t> out;
  FileQc qc;
  int64_t clipped = 0;
};

// Masters head silence + `signal` + tail silence, fed in pieces of `piece`.
Mastered MasterAll(const std::vector<int16_t>& signal, size_t piece = 1 << 20,
                   size_t head = kIn * 7 / 10, size_t tail = kIn * 2) {
  Mastered m;
  const double mean_square = MeanSquare(signal) * signal.size() / (head + signal.size() + tail);
  auto master = StreamMaster::Create(kIn, kOut, mean_square, MasterOptions(),
                                     [&](const std::vector<int16_t>& block) {
                                       m.out.insert(m.out.end(), block.begin(), block.end());
                                       return Status::Ok();
                                     });
  EXPECT_TRUE(master.ok());
  EXPECT_TRUE((*master)->AddSilence(head).ok());
  for (size_t at = 0; at < signal.size(); at += piece) {
    const size_t n = std::min(piece, signal.size() - at);
    EXPECT_TRUE((*master)->Add(signal.data() + at, n).ok());
  }
  EXPECT_TRUE((*master)->AddSilence(tail).ok());
  auto qc = (*master)->Finish();
  EXPECT_TRUE(qc.ok());
  if (qc.ok()) m.qc = *qc;
  m.clipped = (*master)->clipped();
  return m;
}

double PeakDb(const std::vector<int16_t>& s) {
  int peak = 0;
  for (int16_t v : s) peak = std::max(peak, std::abs(int{v}));
  return 20 * std::log10(peak / 32768.0);
}

TEST(StreamMaster, BringsTheFileToTheTargetRmsAtTwiceTheRate) {
  // A quiet, speech-like signal: a 300 Hz tone whose level swells and fades.
  std::vector<int16_t> signal = Sine(6, 300, 0.05);
  for (size_t i = 0; i < signal.size(); ++i) {
    signal[i] = static_cast<int16_t>(signal[i] * (0.5 + 0.5 * std::sin(i * 2 * M_PI / kIn)));
  }
  const Mastered m = MasterAll(signal);
  const size_t in = kIn * 7 / 10 + signal.size() + kIn * 2;
  EXPECT_NEAR(static_cast<double>(m.out.size()), 2.0 * in, 2);
  EXPECT_NEAR(m.qc.rms_db, -20.0, 0.5);
  EXPECT_LE(m.qc.peak_db, -3.0);
  EXPECT_NEAR(m.qc.peak_db, PeakDb(m.out), 1e-9);
  EXPECT_NEAR(m.qc.head_silence_ms, 700, 2);
  EXPECT_NEAR(m.qc.tail_silence_ms, 2000, 2);
  EXPECT_EQ(m.qc.noise_floor_db, -120.0);  // digital silence
  EXPECT_EQ(m.qc.duration_ms, SamplesToMs(static_cast<int64_t>(m.out.size()), kOut));
  EXPECT_EQ(m.clipped, 0);
}

TEST(StreamMaster, KeepsPeaksBetweenSamplesUnderTheCeiling) {
  // A tone at a quarter of the input rate, sampled 45 degrees off its crests:
  // every input sample is 3 dB below the true peak, which the 44.1 kHz output
  // shows. Bursts of it on a quiet bed make the limiter work hard.
  std::vector<int16_t> signal = Sine(8, 300, 0.05);
  const std::vector<int16_t> burst = Sine(0.02, kIn / 4.0, 0.6, M_PI / 4);
  for (size_t at = kIn / 2; at + burst.size() < signal.size(); at += 2 * kIn) {
    std::copy(burst.begin(), burst.end(), signal.begin() + at);
  }
  const Mastered m = MasterAll(signal);
  EXPECT_LE(PeakDb(m.out), -3.0);
  EXPECT_GT(PeakDb(m.out), -4.0);  // limited to the ceiling, not far below
  // The limiter saw the peaks between samples: the last-resort clip touched
  // only a few samples of the bursts' abrupt edges (without the estimate,
  // every crest of every burst would exceed the limit).
  int64_t crests = 0;
  for (int16_t v : m.out) crests += std::abs(int{v}) > 20000;
  EXPECT_LT(m.clipped, crests / 20) << crests;
}

TEST(StreamMaster, OutputDoesNotDependOnHowTheInputIsCut) {
  std::vector<int16_t> signal = Sine(3, 440, 0.3);
  const std::vector<int16_t> loud = Sine(0.2, 2000, 0.9);
  std::copy(loud.begin(), loud.end(), signal.begin() + kIn);
  const Mastered whole = MasterAll(signal);
  const Mastered pieces = MasterAll(signal, 777);
  EXPECT_EQ(whole.out, pieces.out);
  EXPECT_EQ(whole.qc.loudness_lufs, pieces.qc.loudness_lufs);
}

TEST(StreamMaster, ReportsTheLoudnessTheOutputHas) {
  std::vector<int16_t> signal = Sine(10, 700, 0.1);
  for (size_t i = 0; i < signal.size(); ++i) {
    signal[i] = static_cast<int16_t>(signal[i] * (i / kIn % 2 ? 1.0 : 0.3));
  }
  const Mastered m = MasterAll(signal);
  // libebur128 over the 44.1 kHz output itself.
  ebur128_state* st = ebur128_init(1, kOut, EBUR128_MODE_I);
  ebur128_add_frames_short(st, m.out.data(), m.out.size());
  double lufs = 0;
  ebur128_loudness_global(st, &lufs);
  ebur128_destroy(&st);
  EXPECT_NEAR(m.qc.loudness_lufs, lufs, 0.1);
}

TEST(QcMeter, FiguresDoNotDependOnHowTheSamplesArrive) {
  std::vector<int16_t> s(44100 * 3, 0);
  for (size_t i = 30000; i < 90000; ++i) s[i] = static_cast<int16_t>((i % 200) * 40 - 4000);
  s[100000] = 500;  // a lone click after the sound
  QcMeter whole(44100), pieces(44100);
  whole.Add(s.data(), s.size());
  for (size_t at = 0; at < s.size(); at += 1234) {
    pieces.Add(s.data() + at, std::min<size_t>(1234, s.size() - at));
  }
  const FileQc a = whole.Finish("a", -20), b = pieces.Finish("b", -20);
  EXPECT_EQ(a.head_silence_ms, SamplesToMs(30000, 44100));
  EXPECT_EQ(a.tail_silence_ms, SamplesToMs(s.size() - 1 - 100000, 44100));
  EXPECT_EQ(a.head_silence_ms, b.head_silence_ms);
  EXPECT_EQ(a.tail_silence_ms, b.tail_silence_ms);
  EXPECT_EQ(a.rms_db, b.rms_db);
  EXPECT_EQ(a.peak_db, b.peak_db);
  EXPECT_EQ(a.noise_floor_db, b.noise_floor_db);
  EXPECT_NEAR(a.peak_db, 20 * std::log10(4000 / 32768.0), 1e-9);
}

// RMS and peak are exact, full scale included (-32768's magnitude does not
// fit 16 bits; two squares of it make 2^31), however a block ends.
TEST(QcMeter, RmsAndPeakAreExactAtFullScale) {
  std::vector<int16_t> s(44100 * 2);
  uint32_t x = 12345;
  for (int16_t& v : s) {
    x = x * 1664525u + 1013904223u;  // a fixed pseudo-random signal
    v = static_cast<int16_t>(x >> 16);
  }
  s[1001] = -32768;
  s[1002] = -32768;
  for (size_t length : {s.size(), s.size() - 5}) {
    QcMeter meter(44100);
    meter.Add(s.data(), length);
    const FileQc qc = meter.Finish("x", -20);
    long double squares = 0;
    for (size_t i = 0; i < length; ++i) squares += static_cast<long double>(s[i]) * s[i];
    const double rms_db =
        10 * std::log10(static_cast<double>(squares / length) / (32768.0 * 32768.0));
    EXPECT_NEAR(qc.rms_db, rms_db, 1e-9) << length;
    EXPECT_EQ(qc.peak_db, 0.0) << length;
  }
}

}  // namespace
}  // namespace assemble_internal
}  // namespace narrate
