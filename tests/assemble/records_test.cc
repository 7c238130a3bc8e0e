// The build's records (assemble/records.h) and the chapter cache's
// (assemble/records_internal.h): what is written reads back equal, a real
// manifest and report (tests/data/records, cut down from a build of the
// sample book) are written again byte for byte, and damaged text is a
// DataError naming the file and the place, never an exception.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "assemble/records.h"
#include "assemble/records_internal.h"
#include "process_util.h"

namespace narrate {
namespace {

using assemble_internal::ChapterRecord;
using assemble_internal::RecordedUtterance;
using assemble_internal::Stamp;

const std::string kData = std::string(NARRATE_TEST_DATA) + "/records";

// Every field of the records, for comparing them.
auto Fields(const ManifestWord& w) { return std::tie(w.text, w.start_ms, w.end_ms); }
auto Fields(const ManifestUtterance& u) {
  return std::tie(u.id, u.chapter, u.paragraph, u.kind, u.lang, u.speaker, u.voice, u.text,
                  u.start_ms, u.end_ms);
}
auto Fields(const ManifestChapter& c) {
  return std::tie(c.index, c.title, c.language, c.source, c.file, c.files, c.captions,
                  c.book_start_ms, c.duration_ms);
}
auto Fields(const Manifest& m) {
  return std::tie(m.title, m.author, m.language, m.sample_rate, m.book_files, m.cue_sheet);
}
auto Fields(const FileQc& q) {
  return std::tie(q.file, q.duration_ms, q.rms_db, q.peak_db, q.noise_floor_db, q.loudness_lufs,
                  q.head_silence_ms, q.tail_silence_ms, q.failures);
}
auto Fields(const Diagnostic& d) { return std::tie(d.severity, d.file, d.line, d.message); }

// Records are the same when all their fields are (the ones with arrays of
// records declared first, for the array template to find them).
bool Same(const ManifestUtterance& a, const ManifestUtterance& b);
bool Same(const Manifest& a, const Manifest& b);
template <typename T>
bool Same(const T& a, const T& b) {
  return Fields(a) == Fields(b);
}
template <typename T>
bool Same(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Same(a[i], b[i])) return false;
  }
  return true;
}
bool Same(const ManifestUtterance& a, const ManifestUtterance& b) {
  return Fields(a) == Fields(b) && Same(a.words, b.words);
}
bool Same(const Manifest& a, const Manifest& b) {
  return Fields(a) == Fields(b) && Same(a.chapters, b.chapters) && Same(a.utterances, b.utterances);
}
bool Same(const Report& a, const Report& b) {
  return Same(a.files, b.files) && Same(a.diagnostics, b.diagnostics);
}

Manifest SmallManifest() {
  Manifest m;
  m.title = "小书";
  m.author = "测试 \"quoted\"";
  m.language = "zh";
  m.sample_rate = 44100;
  m.book_files = {"xiao-shu.wav", "xiao-shu.mp3"};
  m.cue_sheet = "xiao-shu.cue";
  ManifestChapter c;
  c.index = 1;
  c.title = "春天";
  c.language = "zh";
  c.source = "text/zh.txt";
  c.file = "chapters/01-chun-tian.wav";
  c.files = {"chapters/01-chun-tian.wav", "chapters/01-chun-tian.mp3"};
  c.captions = "chapters/01-chun-tian.vtt";
  c.book_start_ms = 0;
  c.duration_ms = 5300;
  m.chapters.push_back(c);
  c.index = 2;
  c.title = "Jeseň";
  c.language = "sk";
  c.book_start_ms = 5300;
  c.duration_ms = 0;
  m.chapters.push_back(c);
  ManifestUtterance u;
  u.id = "c01-p0000-s00";
  u.chapter = 1;
  u.kind = UtteranceKind::kHeading;
  u.lang = "zh";
  u.voice = "narrator";
  u.text = "春天";
  u.start_ms = 700;
  u.end_ms = 1500;
  u.words = {{"春天", 700, 1500}};
  m.utterances.push_back(u);
  u.id = "c01-p0001-s01";
  u.paragraph = 1;
  u.kind = UtteranceKind::kSpeech;
  u.speaker = "老师";
  u.voice = "teacher";
  u.text = "“我们去。”";
  u.start_ms = 2700;
  u.end_ms = 3400;
  u.words = {{"“我们", 2700, 3000}, {"去。”", 3000, 3400}};
  m.utterances.push_back(u);
  u.id = "c02-p0001-s01";
  u.chapter = 2;
  u.kind = UtteranceKind::kDocument;
  u.speaker.reset();
  u.lang = "sk";
  u.text = "Milý priateľ,";
  u.words.clear();
  m.utterances.push_back(u);
  return m;
}

Report SmallReport() {
  Report r;
  FileQc qc;
  qc.file = "chapters/01-chun-tian.wav";
  qc.duration_ms = 5300;
  qc.rms_db = -20.5;
  qc.peak_db = -3.0;
  qc.noise_floor_db = -120;
  qc.loudness_lufs = -19.955814478549968;
  qc.head_silence_ms = 700;
  qc.tail_silence_ms = 2000;
  r.files.push_back(qc);
  qc.file = "xiao-shu.wav";
  qc.peak_db = -1.5;
  qc.failures = {"peak -1.5 dBFS above -3 dBFS"};
  r.files.push_back(qc);
  r.diagnostics = {{Severity::kInfo, "text/zh.txt", 0, "encoding UTF-8 (detected)"},
                   {Severity::kWarning, "text/sk.txt", 3, "removed 1 replacement character"},
                   {Severity::kError, "", 0, "an error"}};
  return r;
}

// A DataError whose message starts with the file and has `what` in it.
void ExpectDataError(const Status& s, const std::string& file, const std::string& what) {
  EXPECT_EQ(s.code(), StatusCode::kDataError) << s.message();
  EXPECT_EQ(s.message().rfind(file + ": ", 0), 0u) << s.message();
  EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
}

TEST(Records, ManifestReadsBackEqual) {
  const Manifest m = SmallManifest();
  const std::string text = ManifestToJson(m);
  StatusOr<Manifest> back = ParseManifest(text, "out/manifest.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(Same(*back, m));
  EXPECT_EQ(ManifestToJson(*back), text);
}

TEST(Records, ManifestIsIndentedSortedAndEndsWithANewline) {
  Manifest m;
  m.title = "T";
  m.chapters.emplace_back();
  m.chapters[0].files = {"a.wav"};
  m.utterances.emplace_back();
  m.utterances[0].words = {{"w", 1, 2}};
  EXPECT_EQ(ManifestToJson(m),
            "{\n"
            "  \"author\": \"\",\n"
            "  \"book_files\": [],\n"
            "  \"chapters\": [\n"
            "    {\n"
            "      \"book_start_ms\": 0,\n"
            "      \"captions\": \"\",\n"
            "      \"duration_ms\": 0,\n"
            "      \"file\": \"\",\n"
            "      \"files\": [\n"
            "        \"a.wav\"\n"
            "      ],\n"
            "      \"index\": 0,\n"
            "      \"language\": \"\",\n"
            "      \"source\": \"\",\n"
            "      \"title\": \"\"\n"
            "    }\n"
            "  ],\n"
            "  \"cue_sheet\": \"\",\n"
            "  \"language\": \"\",\n"
            "  \"sample_rate\": 44100,\n"
            "  \"title\": \"T\",\n"
            "  \"utterances\": [\n"
            "    {\n"
            "      \"chapter\": 0,\n"
            "      \"end_ms\": 0,\n"
            "      \"id\": \"\",\n"
            "      \"kind\": \"narration\",\n"
            "      \"lang\": \"\",\n"
            "      \"paragraph\": 0,\n"
            "      \"speaker\": null,\n"
            "      \"start_ms\": 0,\n"
            "      \"text\": \"\",\n"
            "      \"voice\": \"\",\n"
            "      \"words\": [\n"
            "        {\n"
            "          \"end_ms\": 2,\n"
            "          \"start_ms\": 1,\n"
            "          \"text\": \"w\"\n"
            "        }\n"
            "      ]\n"
            "    }\n"
            "  ]\n"
            "}\n");
}

TEST(Records, RealManifestIsWrittenAgainByteForByte) {
  const std::string path = kData + "/manifest.json";
  StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  StatusOr<Manifest> m = ReadManifest(path);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->chapters.size(), 2u);
  EXPECT_EQ(m->utterances.size(), 6u);
  EXPECT_EQ(ManifestToJson(*m), *text);
}

TEST(Records, ReportReadsBackEqual) {
  const Report r = SmallReport();
  const std::string text = ReportToJson(r);
  EXPECT_NE(text.find("\"pass\": false"), std::string::npos) << text;
  EXPECT_NE(text.find("\"peak_db\": -3.0,"), std::string::npos) << text;  // a double
  StatusOr<Report> back = ParseReport(text, "out/report.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(Same(*back, r));
  EXPECT_EQ(ReportToJson(*back), text);
}

TEST(Records, RealReportIsWrittenAgainByteForByte) {
  const std::string path = kData + "/report.json";
  StatusOr<std::string> text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  StatusOr<Report> r = ReadReport(path);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->files.size(), 4u);
  EXPECT_EQ(ReportToJson(*r), *text);
}

TEST(Records, DamagedManifestIsADataErrorNamingTheFileAndThePlace) {
  const std::string file = "out/manifest.json";
  const std::string good = ManifestToJson(SmallManifest());
  auto parse = [&](const std::string& text) {
    StatusOr<Manifest> m = Status::Failure("");
    EXPECT_NO_THROW(m = ParseManifest(text, file));
    return m.status();
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    const size_t at = good.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return std::string(good).replace(at, from.size(), to);
  };
  ExpectDataError(parse(good.substr(0, good.size() / 2)), file, "not valid JSON");
  ExpectDataError(parse(""), file, "not valid JSON");
  ExpectDataError(parse("[]"), file, "not an object but array");
  ExpectDataError(parse(replaced("\"start_ms\": 700", "\"start_ms\": \"x\"")), file,
                  "utterances[0].start_ms: not an integer but string");
  ExpectDataError(parse(replaced("\"start_ms\": 2700", "\"start_ms\": 2.5")), file,
                  "utterances[1].start_ms: not an integer but number");
  ExpectDataError(parse(replaced("\"end_ms\": 3000", "\"end_ms\": null")), file,
                  "utterances[1].words[0].end_ms: not an integer but null");
  ExpectDataError(parse(replaced("\"duration_ms\": 5300,", "")), file,
                  "chapters[0].duration_ms: missing");
  ExpectDataError(parse(replaced("\"index\": 2", "\"index\": 10000000000")), file,
                  "chapters[1].index: out of range");
  ExpectDataError(parse(replaced("\"index\": 2", "\"index\": 18446744073709551615")), file,
                  "chapters[1].index: out of range");
  ExpectDataError(parse(replaced("\"kind\": \"speech\"", "\"kind\": \"song\"")), file,
                  "utterances[1].kind: unknown value \"song\"");
  ExpectDataError(parse(replaced("\"speaker\": \"老师\"", "\"speaker\": 7")), file,
                  "utterances[1].speaker: not a string but number");
  ExpectDataError(parse(replaced("\"book_files\": [", "\"book_files\": 3, \"x\": [")), file,
                  "book_files: not an array but number");
  ExpectDataError(parse("{\"chapters\": 3, \"utterances\": []}"), file, "missing");
}

TEST(Records, ReadManifestNamesTheFile) {
  const std::string dir = narrate_test::ScratchDir();
  StatusOr<Manifest> missing = ReadManifest(dir + "/manifest.json");
  EXPECT_EQ(missing.status().code(), StatusCode::kIoError);
  EXPECT_NE(missing.status().message().find(dir + "/manifest.json"), std::string::npos);
  ASSERT_TRUE(WriteFileAtomic(dir + "/manifest.json", "{\"title\": ").ok());
  ExpectDataError(ReadManifest(dir + "/manifest.json").status(), dir + "/manifest.json",
                  "not valid JSON");
}

TEST(Records, DamagedReportIsADataError) {
  const std::string file = "out/report.json";
  const std::string good = ReportToJson(SmallReport());
  auto replaced = [&](const std::string& from, const std::string& to) {
    const size_t at = good.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return std::string(good).replace(at, from.size(), to);
  };
  ExpectDataError(ParseReport(replaced("\"pass\": false", "\"pass\": true"), file).status(), file,
                  "files[1].pass: contradicts failures");
  ExpectDataError(
      ParseReport(replaced("\"severity\": \"error\"", "\"severity\": \"fatal\""), file).status(),
      file, "diagnostics[2].severity: unknown value \"fatal\"");
  ExpectDataError(ParseReport(replaced("\"rms_db\": -20.5", "\"rms_db\": true"), file).status(),
                  file, "files[0].rms_db: not a number but boolean");
}

TEST(Records, ChapterRecordReadsBackEqual) {
  ChapterRecord record;
  record.sample_count = 233730;
  record.qc = SmallReport().files[0];
  record.qc.file.clear();
  record.utterances = {RecordedUtterance{700, 1500, {{"春天", 700, 1500}}},
                       RecordedUtterance{2700, 3400, {}}};
  StatusOr<ChapterRecord> back =
      assemble_internal::ParseChapterRecord(ChapterRecordToJson(record), "k.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->sample_count, record.sample_count);
  EXPECT_TRUE(Same(back->qc, record.qc));
  ASSERT_EQ(back->utterances.size(), 2u);
  EXPECT_EQ(back->utterances[0].start_ms, 700);
  EXPECT_EQ(back->utterances[1].end_ms, 3400);
  EXPECT_TRUE(Same(back->utterances[0].words, record.utterances[0].words));
  EXPECT_TRUE(back->utterances[1].words.empty());
}

TEST(Records, ChapterRecordOfAnotherShapeIsADataError) {
  const std::string file = "cache/chapters/0123.json";
  ChapterRecord record;
  record.utterances = {RecordedUtterance{0, 5, {{"a", 0, 5}}}};
  const std::string good = ChapterRecordToJson(record);
  const size_t utterances = good.find("\"utterances\":");
  ASSERT_NE(utterances, std::string::npos) << good;
  StatusOr<ChapterRecord> r = Status::Failure("");
  // The positional layout of earlier builds.
  const std::string positional =
      good.substr(0, utterances) + "\"utterances\":[[0,5,[[\"a\",0,5]]]]}";
  EXPECT_NO_THROW(r = assemble_internal::ParseChapterRecord(positional, file));
  ExpectDataError(r.status(), file, "utterances[0]: not an object but array");
  const std::string timings = good.substr(0, utterances) + "\"timings\":[[0,5,[]]]}";
  EXPECT_NO_THROW(r = assemble_internal::ParseChapterRecord(timings, file));
  ExpectDataError(r.status(), file, "utterances: missing");
  EXPECT_NO_THROW(r = assemble_internal::ParseChapterRecord(good.substr(0, 20), file));
  ExpectDataError(r.status(), file, "not valid JSON");
}

TEST(Records, StampReadsBackEqualAndAnOldStampIsADataError) {
  const Stamp stamp{{{"0123abcd", 44100}, {"4567ef01", 22050}}};
  StatusOr<Stamp> back = assemble_internal::ParseStamp(StampToJson(stamp), "a.wav.key");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->chapters.size(), 2u);
  EXPECT_EQ(back->chapters[1].key, "4567ef01");
  EXPECT_EQ(back->chapters[1].samples, 22050);
  // The plain-text stamps of earlier builds: "key frames" lines, or the key.
  ExpectDataError(assemble_internal::ParseStamp("0123abcd 44100\n", "a.wav.key").status(),
                  "a.wav.key", "not valid JSON");
  ExpectDataError(
      assemble_internal::ParseStamp("{\"chapters\": [{\"key\": 1}]}", "a.wav.key").status(),
      "a.wav.key", "chapters[0].key: not a string but number");
}

}  // namespace
}  // namespace narrate
