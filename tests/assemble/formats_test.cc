// AudioWriter formats: WAV, FLAC, MP3 (CBR 192, ID3v2.4 + CHAP/CTOC) and Opus
// (48 kHz, Vorbis comments + CHAPTERnn), decoded back with libsndfile and read
// back with TagLib.
#include <gtest/gtest.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <taglib/chapterframe.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tableofcontentsframe.h>
#include <taglib/textidentificationframe.h>
#include <taglib/xiphcomment.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "assemble/audio_file.h"
#include "assemble/samples.h"
#include "assemble/tags_writer.h"
#include "process_util.h"

namespace narrate {
namespace assemble_internal {
namespace {

const char kZhTitle[] = "枫丹白露的告别";
const char kSkTitle[] = "Ľudovít a Šťastná žena";

// `tone_ms` of 440 Hz at half scale, then `silence_ms` of silence.
std::vector<int16_t> ToneThenSilence(int rate, int tone_ms, int silence_ms) {
  std::vector<int16_t> s;
  const int tone = rate * tone_ms / 1000;
  const int total = tone + rate * silence_ms / 1000;
  for (int i = 0; i < total; ++i) {
    s.push_back(i < tone ? static_cast<int16_t>(16000 * std::sin(2 * M_PI * 440 * i / rate)) : 0);
  }
  return s;
}

std::string TempPath(const std::string& name) {
  static const std::string dir = [] {
    std::string t = testing::TempDir() + "narrate_formats_XXXXXX";
    return std::string(mkdtemp(t.data()));
  }();
  return dir + "/" + name;
}

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

AudioTags ChapterTags(const std::string& title, const std::string& lang) {
  return AudioTags{title, "Napoleon", "Autor Knihy", "eSpeak NG", lang, 3, 12};
}

// Writes `samples` in one call (or two halves) and commits.
Status WriteFile(const std::string& path, const std::string& format, int rate,
                 const AudioTags& tags, const std::vector<int16_t>& samples,
                 const std::vector<ChapterMark>& chapters = {}) {
  auto w = AudioWriter::Open(path, format, rate, tags);
  if (!w.ok()) return w.status();
  const size_t half = samples.size() / 2;
  Status s = (*w)->Write({samples.begin(), samples.begin() + half});
  if (s.ok()) s = (*w)->Write({samples.begin() + half, samples.end()});
  for (const ChapterMark& m : chapters) (*w)->AddChapter(m);
  if (s.ok()) s = (*w)->Commit();
  return s;
}

struct Decoded {
  int rate = 0;
  std::vector<int16_t> samples;
};

Decoded Decode(const std::string& path) {
  Decoded d;
  SF_INFO info = {};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  if (f == nullptr) {
    ADD_FAILURE() << path << ": " << sf_strerror(nullptr);
    return d;
  }
  d.rate = info.samplerate;
  d.samples.resize(static_cast<size_t>(info.frames) + 4096);
  d.samples.resize(static_cast<size_t>(sf_read_short(f, d.samples.data(), d.samples.size())));
  sf_close(f);
  return d;
}

// Index of the last sample louder than -30 dBFS, or -1.
long LastLoud(const std::vector<int16_t>& s) {
  for (long i = static_cast<long>(s.size()) - 1; i >= 0; --i) {
    if (std::abs(s[i]) > 1000) return i;
  }
  return -1;
}
long FirstLoud(const std::vector<int16_t>& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (std::abs(s[i]) > 1000) return static_cast<long>(i);
  }
  return -1;
}

std::string Id3Text(TagLib::ID3v2::Tag* tag, const char* id) {
  const auto& frames = tag->frameListMap()[id];
  return frames.isEmpty() ? "" : frames.front()->toString().to8Bit(true);
}

std::string Xiph(TagLib::Ogg::XiphComment* c, const char* key) {
  const auto& map = c->fieldListMap();
  auto it = map.find(key);
  return it == map.end() || it->second.isEmpty() ? "" : it->second.front().to8Bit(true);
}

// narrate starts without libsndfile and TagLib (and their codec libraries):
// they are loaded when a file needs them.
TEST(AudioFormats, NarrateStartsWithoutLibsndfileOrTagLib) {
  const std::string libraries =
      narrate_test::RunShell(std::string("LD_TRACE_LOADED_OBJECTS=1 ") + NARRATE_BINARY).output;
  EXPECT_NE(libraries.find("libicuuc"), std::string::npos) << libraries;
  for (const char* late : {"libsndfile", "libtag", "libFLAC", "libmp3lame", "libopus"}) {
    EXPECT_EQ(libraries.find(late), std::string::npos) << late << " in\n" << libraries;
  }
}

TEST(AudioFormats, KnownFormats) {
  for (const char* f : {"wav", "flac", "mp3", "opus"}) EXPECT_TRUE(IsKnownFormat(f)) << f;
  for (const char* f : {"ogg", "aac", "MP3", "", "m4b"}) EXPECT_FALSE(IsKnownFormat(f)) << f;
}

TEST(AudioFormats, UnknownFormatIsUsageError) {
  auto w = AudioWriter::Open(TempPath("x.aac"), "aac", 44100, {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kUsage);
}

TEST(AudioFormats, UnwritableDirectoryIsIoError) {
  auto w = AudioWriter::Open("/nonexistent-dir/x.wav", "wav", 44100, {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kIoError);
  EXPECT_NE(w.status().message().find("/nonexistent-dir/x.wav"), std::string::npos);
}

TEST(AudioFormats, HelperCodesAndTimestamps) {
  EXPECT_EQ(Iso639Part2("zh"), "zho");
  EXPECT_EQ(Iso639Part2("sk"), "slk");
  EXPECT_EQ(Iso639Part2("zh-Hans"), "zho");
  EXPECT_EQ(Iso639Part2("cs"), "ces");
  EXPECT_EQ(Iso639Part2(""), "und");
  EXPECT_EQ(ChapterTimestamp(0), "00:00:00.000");
  EXPECT_EQ(ChapterTimestamp(3723004), "01:02:03.004");
  EXPECT_EQ(ChapterTimestamp(36000000 + 59999), "10:00:59.999");
  EXPECT_EQ(SamplesToMs(44100, 44100), 1000);
  EXPECT_EQ(SamplesToMs(22050 + 11, 22050), 1000);  // 0.5 ms rounds up
  EXPECT_EQ(SamplesToMs(22050 + 10, 22050), 1000);
  EXPECT_EQ(SamplesToMs(22050 + 12, 22050), 1001);
}

// Round trip per format: the file decodes to the written duration, with the
// tone where it was written (encoder delay compensated).
class RoundTrip : public testing::TestWithParam<std::string> {};

TEST_P(RoundTrip, DurationAndToneSurvive) {
  const std::string format = GetParam();
  const int rate = 44100;
  const auto samples = ToneThenSilence(rate, 1500, 1500);
  const std::string path = TempPath("rt." + format);
  ASSERT_TRUE(WriteFile(path, format, rate, ChapterTags(kSkTitle, "sk"), samples).ok());
  ASSERT_TRUE(Exists(path));
  EXPECT_FALSE(Exists(path + ".part"));
  const Decoded d = Decode(path);
  const int expected_rate = format == "opus" ? 48000 : 44100;
  ASSERT_EQ(d.rate, expected_rate);
  const double in_s = samples.size() / static_cast<double>(rate);
  const double out_s = d.samples.size() / static_cast<double>(d.rate);
  // Measured: libsndfile gives back exactly the written length for all four
  // (LAME header delay/padding, Opus pre-skip). Allow 2 samples for resampling.
  EXPECT_NEAR(out_s, in_s, 2.0 / d.rate) << format;
  // The tone ends at 1.5 s: within 5 ms after lossy coding.
  EXPECT_NEAR(LastLoud(d.samples) / static_cast<double>(d.rate), 1.5, 0.005) << format;
  EXPECT_LE(FirstLoud(d.samples), d.rate / 1000) << format;  // starts in the first ms
  int peak = 0;
  for (int16_t x : d.samples) peak = std::max(peak, std::abs(static_cast<int>(x)));
  EXPECT_NEAR(peak, 16000, 1600) << format;  // level kept (float scaling, no clipping)
}

TEST_P(RoundTrip, InputAt22050IsResampledWhereNeeded) {
  const std::string format = GetParam();
  const auto samples = ToneThenSilence(22050, 1000, 1000);
  const std::string path = TempPath("rt22." + format);
  ASSERT_TRUE(WriteFile(path, format, 22050, ChapterTags(kZhTitle, "zh"), samples).ok());
  const Decoded d = Decode(path);
  const int expected_rate = format == "opus" ? 48000 : format == "mp3" ? 44100 : 22050;
  EXPECT_EQ(d.rate, expected_rate);
  EXPECT_NEAR(d.samples.size() / static_cast<double>(d.rate), 2.0, 2.0 / d.rate);
  EXPECT_NEAR(LastLoud(d.samples) / static_cast<double>(d.rate), 1.0, 0.005);
}

TEST_P(RoundTrip, SameInputGivesIdenticalBytes) {
  const std::string format = GetParam();
  const auto samples = ToneThenSilence(44100, 700, 300);
  const std::vector<ChapterMark> marks = {{0, 22050, kZhTitle}, {22050, 44100, kSkTitle}};
  const std::string a = TempPath("det_a." + format), b = TempPath("det_b." + format);
  ASSERT_TRUE(WriteFile(a, format, 44100, ChapterTags(kZhTitle, "zh"), samples, marks).ok());
  ASSERT_TRUE(WriteFile(b, format, 44100, ChapterTags(kZhTitle, "zh"), samples, marks).ok());
  const std::string bytes_a = ReadBytes(a);
  EXPECT_FALSE(bytes_a.empty());
  EXPECT_TRUE(bytes_a == ReadBytes(b)) << format << " encodes differ";
}

TEST_P(RoundTrip, AbandonedWriterLeavesNothing) {
  const std::string format = GetParam();
  const std::string path = TempPath("abandoned." + format);
  {
    auto w = AudioWriter::Open(path, format, 44100, ChapterTags(kSkTitle, "sk"));
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Write(ToneThenSilence(44100, 200, 0)).ok());
    EXPECT_TRUE(Exists(path + ".part"));
  }
  EXPECT_FALSE(Exists(path));
  EXPECT_FALSE(Exists(path + ".part"));
}

INSTANTIATE_TEST_SUITE_P(AllFormats, RoundTrip, testing::Values("wav", "flac", "mp3", "opus"),
                         [](const auto& info) { return info.param; });

TEST(AudioFormats, CommitTwiceFails) {
  auto w = AudioWriter::Open(TempPath("twice.wav"), "wav", 44100, {});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Commit().ok());
  EXPECT_FALSE((*w)->Commit().ok());
  EXPECT_FALSE((*w)->Write({1, 2, 3}).ok());
}

// --- MP3 ---------------------------------------------------------------------

TEST(Mp3, IsCbr192At44100) {
  const std::string path = TempPath("cbr.mp3");
  ASSERT_TRUE(
      WriteFile(path, "mp3", 44100, ChapterTags(kZhTitle, "zh"), ToneThenSilence(44100, 2000, 2000))
          .ok());
  TagLib::MPEG::File file(path.c_str(), true, TagLib::AudioProperties::Accurate);
  ASSERT_TRUE(file.isValid());
  ASSERT_NE(file.audioProperties(), nullptr);
  // TagLib derives the average from the LAME "Info" frame's byte count:
  // 192-193.
  EXPECT_NEAR(file.audioProperties()->bitrate(), 192, 1);
  EXPECT_EQ(file.audioProperties()->sampleRate(), 44100);
  // CBR: every frame header says 192 kbps.
  int frames = 0;
  for (long pos = file.firstFrameOffset(); pos >= 0 && frames < 1000;
       pos = file.nextFrameOffset(pos + 1)) {
    TagLib::MPEG::Header header(&file, pos, false);
    if (!header.isValid()) break;
    EXPECT_EQ(header.bitrate(), 192) << "frame " << frames;
    EXPECT_EQ(header.sampleRate(), 44100);
    ++frames;
  }
  EXPECT_GE(frames, 4 * 44100 / 1152);
  EXPECT_EQ(file.audioProperties()->channels(), 1);
  EXPECT_EQ(file.audioProperties()->version(), TagLib::MPEG::Header::Version1);
  EXPECT_EQ(file.audioProperties()->layer(), 3);
}

TEST(Mp3, SilenceStillCostsTheSameBitrate) {  // CBR, not VBR
  const std::string tone = TempPath("cbr_tone.mp3"), quiet = TempPath("cbr_quiet.mp3");
  ASSERT_TRUE(WriteFile(tone, "mp3", 44100, {}, ToneThenSilence(44100, 3000, 0)).ok());
  ASSERT_TRUE(WriteFile(quiet, "mp3", 44100, {}, ToneThenSilence(44100, 0, 3000)).ok());
  EXPECT_EQ(ReadBytes(tone).size(), ReadBytes(quiet).size());
  // 192 kbps over 3 s is 72000 bytes, plus ~3 frames of encoder delay, padding
  // and the LAME frame (627 bytes each) and the ID3v2 tag with its padding.
  EXPECT_NEAR(static_cast<double>(ReadBytes(quiet).size()), 72000.0 + 2500.0, 1000.0);
}

TEST(Mp3, Id3v24Utf8Tags) {
  const std::string path = TempPath("tags.mp3");
  ASSERT_TRUE(WriteFile(path, "mp3", 44100,
                        AudioTags{kZhTitle, "拿破仑", "作者", "eSpeak NG", "zh", 3, 12},
                        ToneThenSilence(44100, 500, 500))
                  .ok());
  TagLib::MPEG::File file(path.c_str());
  ASSERT_TRUE(file.hasID3v2Tag());
  EXPECT_FALSE(file.hasID3v1Tag());
  EXPECT_FALSE(file.hasAPETag());
  TagLib::ID3v2::Tag* tag = file.ID3v2Tag();
  EXPECT_EQ(tag->header()->majorVersion(), 4u);
  EXPECT_EQ(Id3Text(tag, "TIT2"), kZhTitle);
  EXPECT_EQ(Id3Text(tag, "TALB"), "拿破仑");
  EXPECT_EQ(Id3Text(tag, "TPE1"), "作者");
  EXPECT_EQ(Id3Text(tag, "TCOM"), "eSpeak NG");
  EXPECT_EQ(Id3Text(tag, "TRCK"), "3/12");
  EXPECT_EQ(Id3Text(tag, "TLAN"), "zho");
  EXPECT_EQ(Id3Text(tag, "TCON"), "Audiobook");
  auto* narrator = TagLib::ID3v2::UserTextIdentificationFrame::find(tag, "NARRATOR");
  ASSERT_NE(narrator, nullptr);
  EXPECT_EQ(narrator->fieldList().back().to8Bit(true), "eSpeak NG");
  // Every text frame is UTF-8 encoded (not Latin-1 labelled).
  auto* tit2 =
      dynamic_cast<TagLib::ID3v2::TextIdentificationFrame*>(tag->frameListMap()["TIT2"].front());
  ASSERT_NE(tit2, nullptr);
  EXPECT_EQ(tit2->textEncoding(), TagLib::String::UTF8);
}

TEST(Mp3, SlovakTitleAndNoTrackOnBookFile) {
  const std::string path = TempPath("sk.mp3");
  ASSERT_TRUE(WriteFile(path, "mp3", 44100, AudioTags{kSkTitle, kSkTitle, "Autor", "N", "sk"},
                        ToneThenSilence(44100, 300, 300))
                  .ok());
  TagLib::MPEG::File file(path.c_str());
  TagLib::ID3v2::Tag* tag = file.ID3v2Tag();
  ASSERT_NE(tag, nullptr);
  EXPECT_EQ(Id3Text(tag, "TIT2"), kSkTitle);
  EXPECT_EQ(Id3Text(tag, "TLAN"), "slk");
  EXPECT_TRUE(tag->frameListMap()["TRCK"].isEmpty());
  EXPECT_TRUE(tag->frameListMap()["CHAP"].isEmpty());
  EXPECT_TRUE(tag->frameListMap()["CTOC"].isEmpty());
}

TEST(Mp3, BookFileHasChapFramesAndOneCtoc) {
  const std::string path = TempPath("book.mp3");
  const auto chapter = ToneThenSilence(44100, 1000, 1000);  // 2 s
  std::vector<int16_t> book = chapter;
  book.insert(book.end(), chapter.begin(), chapter.end());
  book.insert(book.end(), chapter.begin(), chapter.begin() + 44100);  // +1 s
  const std::vector<ChapterMark> marks = {
      {0, 88200, kZhTitle}, {88200, 176400, kSkTitle}, {176400, 220500, "Epilóg"}};
  ASSERT_TRUE(
      WriteFile(path, "mp3", 44100, AudioTags{"Kniha", "Kniha", "A", "N", "sk"}, book, marks).ok());
  TagLib::MPEG::File file(path.c_str());
  TagLib::ID3v2::Tag* tag = file.ID3v2Tag();
  ASSERT_NE(tag, nullptr);
  const auto& chaps = tag->frameListMap()["CHAP"];
  ASSERT_EQ(chaps.size(), 3u);
  const unsigned int starts[] = {0, 2000, 4000}, ends[] = {2000, 4000, 5000};
  const std::string titles[] = {kZhTitle, kSkTitle, "Epilóg"};
  int i = 0;
  for (auto* frame : chaps) {
    auto* chap = dynamic_cast<TagLib::ID3v2::ChapterFrame*>(frame);
    ASSERT_NE(chap, nullptr);
    EXPECT_EQ(chap->elementID(), TagLib::ByteVector(("chp" + std::to_string(i + 1)).c_str()));
    EXPECT_EQ(chap->startTime(), starts[i]);
    EXPECT_EQ(chap->endTime(), ends[i]);
    const auto& sub = chap->embeddedFrameListMap()["TIT2"];
    ASSERT_EQ(sub.size(), 1u);
    EXPECT_EQ(sub.front()->toString().to8Bit(true), titles[i]);
    ++i;
  }
  const auto& tocs = tag->frameListMap()["CTOC"];
  ASSERT_EQ(tocs.size(), 1u);
  auto* toc = dynamic_cast<TagLib::ID3v2::TableOfContentsFrame*>(tocs.front());
  ASSERT_NE(toc, nullptr);
  EXPECT_TRUE(toc->isTopLevel());
  EXPECT_TRUE(toc->isOrdered());
  ASSERT_EQ(toc->entryCount(), 3u);
  EXPECT_EQ(toc->childElements()[0], TagLib::ByteVector("chp1"));
  EXPECT_EQ(toc->childElements()[2], TagLib::ByteVector("chp3"));
  // The tagged file still decodes to its full length.
  const Decoded d = Decode(path);
  EXPECT_EQ(d.samples.size(), book.size());
}

TEST(Mp3, ChapterTimesUseTheInputRate) {  // 22050 Hz input, 44100 Hz file
  const std::string path = TempPath("book22.mp3");
  const auto samples = ToneThenSilence(22050, 1500, 1500);
  ASSERT_TRUE(
      WriteFile(path, "mp3", 22050, {}, samples, {{0, 33075, "Jeden"}, {33075, 66150, "Dva"}})
          .ok());
  TagLib::MPEG::File file(path.c_str());
  const auto& chaps = file.ID3v2Tag()->frameListMap()["CHAP"];
  ASSERT_EQ(chaps.size(), 2u);
  auto* second = dynamic_cast<TagLib::ID3v2::ChapterFrame*>(chaps.back());
  EXPECT_EQ(second->startTime(), 1500u);
  EXPECT_EQ(second->endTime(), 3000u);
}

// --- Opus and FLAC (Vorbis comments)
// -------------------------------------------

class XiphFormats : public testing::TestWithParam<std::string> {};

TEST_P(XiphFormats, Utf8CommentsReadBack) {
  const std::string format = GetParam();
  const std::string path = TempPath("tags." + format);
  ASSERT_TRUE(WriteFile(path, format, 44100,
                        AudioTags{kSkTitle, "Napoleon", "Ľubomír Autor", "eSpeak NG", "sk", 7, 9},
                        ToneThenSilence(44100, 500, 500))
                  .ok());
  auto check = [&](TagLib::Ogg::XiphComment* c) {
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(Xiph(c, "TITLE"), kSkTitle);
    EXPECT_EQ(Xiph(c, "ALBUM"), "Napoleon");
    EXPECT_EQ(Xiph(c, "ARTIST"), "Ľubomír Autor");
    EXPECT_EQ(Xiph(c, "NARRATOR"), "eSpeak NG");
    EXPECT_EQ(Xiph(c, "COMPOSER"), "eSpeak NG");
    EXPECT_EQ(Xiph(c, "TRACKNUMBER"), "7");
    EXPECT_EQ(Xiph(c, "TRACKTOTAL"), "9");
    EXPECT_EQ(Xiph(c, "LANGUAGE"), "slk");
    EXPECT_EQ(Xiph(c, "GENRE"), "Audiobook");
    EXPECT_EQ(Xiph(c, "CHAPTER01"), "");  // a chapter file has no marks
  };
  if (format == "flac") {
    TagLib::FLAC::File f(path.c_str());
    check(f.xiphComment());
  } else {
    TagLib::Ogg::Opus::File f(path.c_str());
    ASSERT_TRUE(f.isValid());
    check(f.tag());
    EXPECT_EQ(f.audioProperties()->sampleRate(), 48000);
  }
  EXPECT_EQ(Decode(path).samples.size() > 0, true);
}

TEST_P(XiphFormats, BookFileHasChapterComments) {
  const std::string format = GetParam();
  const std::string path = TempPath("book." + format);
  const auto chapter = ToneThenSilence(44100, 1000, 1000);
  std::vector<int16_t> book;
  for (int i = 0; i < 3; ++i) book.insert(book.end(), chapter.begin(), chapter.end());
  ASSERT_TRUE(
      WriteFile(path, format, 44100, AudioTags{"拿破仑", "拿破仑", "作者", "N", "zh"}, book,
                {{0, 88200, kZhTitle}, {88200, 176400, kSkTitle}, {176400, 264600, "第三章"}})
          .ok());
  std::vector<std::pair<std::string, std::string>> want = {{"CHAPTER01", "00:00:00.000"},
                                                           {"CHAPTER01NAME", kZhTitle},
                                                           {"CHAPTER02", "00:00:02.000"},
                                                           {"CHAPTER02NAME", kSkTitle},
                                                           {"CHAPTER03", "00:00:04.000"},
                                                           {"CHAPTER03NAME", "第三章"},
                                                           {"CHAPTER04", ""},
                                                           {"TRACKNUMBER", ""}};
  auto check = [&](TagLib::Ogg::XiphComment* c) {
    ASSERT_NE(c, nullptr);
    for (const auto& [key, value] : want) EXPECT_EQ(Xiph(c, key.c_str()), value) << key;
  };
  if (format == "flac") {
    TagLib::FLAC::File f(path.c_str());
    check(f.xiphComment());
  } else {
    TagLib::Ogg::Opus::File f(path.c_str());
    check(f.tag());
  }
  const Decoded d = Decode(path);
  const double seconds = d.samples.size() / static_cast<double>(d.rate);
  EXPECT_NEAR(seconds, 6.0, 2.0 / d.rate);
}

INSTANTIATE_TEST_SUITE_P(FlacAndOpus, XiphFormats, testing::Values("flac", "opus"),
                         [](const auto& info) { return info.param; });

TEST(Opus, SerialDependsOnTheFileNotOnTheRun) {
  const auto samples = ToneThenSilence(44100, 300, 300);
  const std::string a = TempPath("serial_a.opus"), b = TempPath("serial_b.opus");
  ASSERT_TRUE(WriteFile(a, "opus", 44100, ChapterTags("Jeden", "sk"), samples).ok());
  ASSERT_TRUE(WriteFile(b, "opus", 44100, ChapterTags("Dva", "sk"), samples).ok());
  const std::string bytes_a = ReadBytes(a), bytes_b = ReadBytes(b);
  ASSERT_GT(bytes_a.size(), 18u);
  EXPECT_EQ(bytes_a.substr(0, 4), "OggS");
  EXPECT_NE(bytes_a.substr(14, 4), bytes_b.substr(14, 4));  // distinct streams
  // Every page of a file carries the same serial.
  for (size_t pos = bytes_a.find("OggS"); pos != std::string::npos;
       pos = bytes_a.find("OggS", pos + 4)) {
    EXPECT_EQ(bytes_a.substr(pos + 14, 4), bytes_a.substr(14, 4)) << pos;
  }
}

// --- WAV
// -----------------------------------------------------------------------

TEST(Wav, BookFileHasCuePointsAndLabels) {
  const std::string path = TempPath("book.wav");
  ASSERT_TRUE(WriteFile(path, "wav", 44100, AudioTags{"Kniha", "Kniha", "A", "N", "sk"},
                        ToneThenSilence(44100, 1000, 1000),
                        {{0, 44100, kZhTitle}, {44100, 88200, kSkTitle}})
                  .ok());
  const std::string bytes = ReadBytes(path);
  EXPECT_NE(bytes.find(std::string("labl")), std::string::npos);
  EXPECT_NE(bytes.find(kSkTitle), std::string::npos);
  EXPECT_NE(bytes.find(kZhTitle), std::string::npos);
  SF_INFO info = {};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  ASSERT_NE(f, nullptr);
  SF_CUES cues = {};
  ASSERT_EQ(sf_command(f, SFC_GET_CUE, &cues, sizeof cues), SF_TRUE);
  EXPECT_EQ(cues.cue_count, 2u);
  EXPECT_EQ(cues.cue_points[1].sample_offset, 44100u);
  EXPECT_EQ(info.frames, 88200);
  char title[64] = {};
  const char* t = sf_get_string(f, SF_STR_TITLE);
  if (t != nullptr) std::snprintf(title, sizeof title, "%s", t);
  EXPECT_STREQ(title, "Kniha");
  sf_close(f);
}

TEST(Wav, ChapterFileHasNoCueChunk) {
  const std::string path = TempPath("nocue.wav");
  ASSERT_TRUE(WriteFile(path, "wav", 44100, {}, ToneThenSilence(44100, 100, 100)).ok());
  EXPECT_EQ(ReadBytes(path).find("cue "), std::string::npos);
}

// libsndfile reads what narrate writes as the WAV file it would write itself.
TEST(Wav, HeadIsTheCanonicalPcmHead) {
  const std::string path = TempPath("head.wav");
  const auto samples = ToneThenSilence(22050, 100, 50);
  ASSERT_TRUE(WriteFile(path, "wav", 22050, {}, samples).ok());
  const std::string bytes = ReadBytes(path);
  // All but the RIFF size, which counts the chunks after the samples too.
  EXPECT_EQ(bytes.substr(8, 36), WavHead(22050, samples.size() * 2, 0).substr(8));
  SF_INFO info = {};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(info.format, SF_FORMAT_WAV | SF_FORMAT_PCM_16);
  EXPECT_EQ(info.channels, 1);
  EXPECT_EQ(info.frames, static_cast<sf_count_t>(samples.size()));
  sf_close(f);
  EXPECT_EQ(Decode(path).samples, samples);
}

ino_t Inode(const std::string& path) {
  struct stat st = {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// A file written over a longer one is overwritten in place (the same inode),
// and is byte for byte the file written where there was none.
TEST(Wav, WritingOverAFileRewritesItInPlace) {
  const std::string path = TempPath("over.wav"), fresh = TempPath("fresh.wav");
  const std::vector<ChapterMark> marks = {{0, 2205, kSkTitle}, {2205, 8820, kZhTitle}};
  ASSERT_TRUE(WriteFile(path, "wav", 44100, ChapterTags(kZhTitle, "zh"),
                        ToneThenSilence(44100, 900, 900), marks)
                  .ok());
  const ino_t before = Inode(path);
  const auto shorter = ToneThenSilence(44100, 150, 50);
  const AudioTags tags = ChapterTags(kSkTitle, "sk");
  ASSERT_TRUE(WriteFile(path, "wav", 44100, tags, shorter).ok());
  ASSERT_TRUE(WriteFile(fresh, "wav", 44100, tags, shorter).ok());
  EXPECT_EQ(Inode(path), before);
  EXPECT_TRUE(ReadBytes(path) == ReadBytes(fresh));
  EXPECT_EQ(Decode(path).samples, shorter);
  EXPECT_FALSE(Exists(path + ".part"));
}

// What is at the path and cannot be written over stays there (here a
// folder: root, who runs the tests, may write any file).
TEST(Wav, WhatCannotBeWrittenOverStaysInPlace) {
  const std::string path = TempPath("folder.wav");
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  auto w = AudioWriter::Open(path, "wav", 44100, {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kIoError);
  EXPECT_NE(w.status().message().find(path), std::string::npos) << w.status().message();
  struct stat st = {};
  EXPECT_TRUE(::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode));
  EXPECT_FALSE(Exists(path + ".part"));
}

// Resume keeps the first samples and replaces the rest, chunks included.
TEST(Wav, ResumeKeepsTheHeadAndReplacesTheEnd) {
  const std::string path = TempPath("resume.wav"), whole = TempPath("whole.wav");
  const auto a = ToneThenSilence(22050, 300, 100), b = ToneThenSilence(22050, 100, 500);
  const AudioTags tags{"Kniha", "Kniha", "A", "N", "sk"};
  ASSERT_TRUE(WriteFile(path, "wav", 22050, tags, a, {{0, 1000, "x"}}).ok());
  auto w = AudioWriter::Resume(path, 22050, tags, 4000);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_FALSE(Exists(path));
  ASSERT_TRUE((*w)->Write(b).ok());
  (*w)->AddChapter({0, 4000, kSkTitle});
  (*w)->AddChapter({4000, 4000 + static_cast<int64_t>(b.size()), kZhTitle});
  ASSERT_TRUE((*w)->Commit().ok());

  std::vector<int16_t> expected(a.begin(), a.begin() + 4000);
  expected.insert(expected.end(), b.begin(), b.end());
  const std::vector<ChapterMark> marks = {{0, 4000, kSkTitle},
                                          {4000, static_cast<int64_t>(expected.size()), kZhTitle}};
  ASSERT_TRUE(WriteFile(whole, "wav", 22050, tags, expected, marks).ok());
  EXPECT_TRUE(ReadBytes(path) == ReadBytes(whole));
}

// Only a file narrate wrote, at the same rate and long enough, is resumed;
// any other is dropped, and the build writes it anew.
TEST(Wav, ResumeRefusesAnotherFile) {
  const std::string path = TempPath("other.wav");
  auto write_with_libsndfile = [&](int format) {
    SF_INFO info = {};
    info.samplerate = 22050;
    info.channels = 1;
    info.format = format;
    SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
    ASSERT_NE(f, nullptr);
    const auto samples = ToneThenSilence(22050, 100, 100);
    sf_write_short(f, samples.data(), static_cast<sf_count_t>(samples.size()));
    sf_close(f);
  };
  write_with_libsndfile(SF_FORMAT_WAV | SF_FORMAT_FLOAT);
  EXPECT_FALSE(AudioWriter::Resume(path, 22050, {}, 100).ok());
  EXPECT_FALSE(Exists(path));
  EXPECT_FALSE(Exists(path + ".part"));

  ASSERT_TRUE(WriteFile(path, "wav", 22050, {}, ToneThenSilence(22050, 100, 0)).ok());
  EXPECT_FALSE(AudioWriter::Resume(path, 44100, {}, 100).ok());  // another rate
  ASSERT_TRUE(WriteFile(path, "wav", 22050, {}, ToneThenSilence(22050, 100, 0)).ok());
  EXPECT_FALSE(AudioWriter::Resume(path, 22050, {}, 5000).ok());  // shorter
  EXPECT_FALSE(Exists(path + ".part"));
}

}  // namespace
}  // namespace assemble_internal
}  // namespace narrate
