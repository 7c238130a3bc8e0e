// AssembleBook: renders chapter by chapter, writes chapter files, the whole
// book with chapter marks, a cue sheet, manifest.json and report.json.
#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "assemble/assemble.h"
#include "assemble/audio_file.h"

namespace narrate {
namespace {

using assemble_internal::AudioWriter;
using assemble_internal::QcMeter;
using assemble_internal::AudioTags;
using nlohmann::json;

constexpr const char* kNarrator = "eSpeak NG";

std::string Slug(const std::string& title) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::Transliterator> t(icu::Transliterator::createInstance(
      "Any-Latin; Latin-ASCII; Lower", UTRANS_FORWARD, status));
  std::string ascii;
  if (U_SUCCESS(status)) {
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(title);
    t->transliterate(u);
    u.toUTF8String(ascii);
  }
  std::string slug;
  for (char c : ascii) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      slug += c;
    } else if (!slug.empty() && slug.back() != '-') {
      slug += '-';
    }
    if (slug.size() >= 40) break;
  }
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug.empty() ? "chapter" : slug;
}

std::string CueTime(int64_t ms) {
  // MM:SS:FF with 75 frames a second.
  char buf[32];
  const int64_t frames = ms * 75 / 1000;
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld",
                static_cast<long long>(frames / 75 / 60),
                static_cast<long long>(frames / 75 % 60),
                static_cast<long long>(frames % 75));
  return buf;
}

json QcJson(const FileQc& qc) {
  // ACX-style limits; head/tail silence is checked by construction.
  std::vector<std::string> failures;
  if (qc.rms_db < -23 || qc.rms_db > -18) failures.push_back("RMS outside -23..-18 dB");
  if (qc.peak_db > -3) failures.push_back("peak above -3 dBFS");
  if (qc.noise_floor_db > -60) failures.push_back("noise floor above -60 dB");
  return {{"file", qc.file},
          {"duration_ms", qc.duration_ms},
          {"rms_db", qc.rms_db},
          {"peak_db", qc.peak_db},
          {"noise_floor_db", qc.noise_floor_db},
          {"pass", failures.empty()},
          {"failures", failures}};
}

const char* SeverityName(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "info";
}

}  // namespace

std::string ChapterFileStem(const Chapter& chapter) {
  char num[16];
  std::snprintf(num, sizeof num, "%02d-", chapter.index);
  return num + Slug(chapter.title);
}

StatusOr<std::vector<FileQc>> AssembleBook(
    const Script& script, const ClipSource& clip_source,
    const AssembleOptions& options, const std::vector<Diagnostic>& diagnostics,
    const std::function<void(int)>& progress) {
  const std::string& out = options.out_dir;
  Status made = MakeDirs(out + "/chapters");
  if (!made.ok()) return made;

  const std::string book_stem = Slug(script.title);
  std::vector<std::unique_ptr<AudioWriter>> book_files;
  std::vector<QcMeter> book_meters;
  for (const std::string& format : options.formats) {
    AudioTags tags{script.title, script.title, script.author, kNarrator, script.lang};
    auto w = AudioWriter::Open(out + "/" + book_stem + "." + format, format,
                               options.sample_rate, tags);
    if (!w.ok()) return w.status();
    book_files.push_back(std::move(w).value());
    book_meters.emplace_back(options.sample_rate);
  }

  json manifest = {{"title", script.title},
                   {"author", script.author},
                   {"language", script.lang},
                   {"sample_rate", options.sample_rate},
                   {"book_files", json::array()},
                   {"chapters", json::array()},
                   {"utterances", json::array()}};
  std::vector<FileQc> qcs;
  std::string cue = "TITLE \"" + script.title + "\"\nPERFORMER \"" +
                    script.author + "\"\nFILE \"" + book_stem + "." +
                    options.formats.front() + "\" WAVE\n";
  int64_t book_frames = 0;

  for (const Chapter& chapter : script.chapters) {
    StatusOr<std::vector<Clip>> clips = clip_source(chapter);
    if (!clips.ok()) return clips.status();
    StatusOr<RenderedChapter> rendered = RenderChapter(chapter, *clips, options);
    if (!rendered.ok()) return rendered.status();
    const std::string stem = "chapters/" + ChapterFileStem(chapter);
    for (size_t f = 0; f < options.formats.size(); ++f) {
      const std::string file = stem + "." + options.formats[f];
      AudioTags tags{chapter.title, script.title, script.author, kNarrator, chapter.lang,
                     chapter.index, static_cast<int>(script.chapters.size())};
      auto w = AudioWriter::Open(out + "/" + file, options.formats[f],
                                 options.sample_rate, tags);
      if (!w.ok()) return w.status();
      Status s = (*w)->Write(rendered->samples);
      if (s.ok()) s = (*w)->Commit();
      if (!s.ok()) return s;
      QcMeter meter(options.sample_rate);
      meter.Add(rendered->samples);
      qcs.push_back(meter.Finish(file));
      book_files[f]->AddChapter(
          {book_frames, book_frames + static_cast<int64_t>(rendered->samples.size()),
           chapter.title});
      s = book_files[f]->Write(rendered->samples);
      if (!s.ok()) return s;
      book_meters[f].Add(rendered->samples);
    }
    const int64_t duration_ms =
        (static_cast<int64_t>(rendered->samples.size()) * 1000 +
         options.sample_rate / 2) / options.sample_rate;
    const int64_t book_start_ms = (book_frames * 1000 + options.sample_rate / 2) /
                                  options.sample_rate;
    char track[64];
    std::snprintf(track, sizeof track, "  TRACK %02d AUDIO\n", chapter.index);
    cue += track + std::string("    TITLE \"") + chapter.title + "\"\n    INDEX 01 " +
           CueTime(book_start_ms) + "\n";
    book_frames += static_cast<int64_t>(rendered->samples.size());

    json files = json::array();
    for (const std::string& format : options.formats) files.push_back(stem + "." + format);
    manifest["chapters"].push_back({{"index", chapter.index},
                                    {"title", chapter.title},
                                    {"language", chapter.lang},
                                    {"source", chapter.source},
                                    {"file", stem + "." + options.formats.front()},
                                    {"files", files},
                                    {"book_start_ms", book_start_ms},
                                    {"duration_ms", duration_ms}});
    for (size_t i = 0; i < chapter.utterances.size(); ++i) {
      const Utterance& u = chapter.utterances[i];
      const UtteranceTiming& t = rendered->timings[i];
      json words = json::array();
      for (size_t w = 0; w < t.word_ms.size(); ++w) {
        words.push_back({{"text", (*clips)[i].words[w].text},
                         {"start_ms", t.word_ms[w].first},
                         {"end_ms", t.word_ms[w].second}});
      }
      manifest["utterances"].push_back(
          {{"id", u.id},
           {"chapter", u.chapter},
           {"paragraph", u.paragraph},
           {"kind", ToString(u.kind)},
           {"lang", u.lang},
           {"speaker", u.speaker ? json(*u.speaker) : json(nullptr)},
           {"voice", u.voice},
           {"text", u.text},
           {"start_ms", t.start_ms},
           {"end_ms", t.end_ms},
           {"words", words}});
    }
    if (progress) progress(chapter.index);
  }

  for (size_t f = 0; f < options.formats.size(); ++f) {
    Status s = book_files[f]->Commit();
    if (!s.ok()) return s;
    const std::string file = book_stem + "." + options.formats[f];
    qcs.push_back(book_meters[f].Finish(file));
    manifest["book_files"].push_back(file);
  }
  Status s = WriteFileAtomic(out + "/" + book_stem + ".cue", cue);
  if (!s.ok()) return s;

  json report = {{"files", json::array()}, {"diagnostics", json::array()}};
  for (const FileQc& qc : qcs) report["files"].push_back(QcJson(qc));
  for (const Diagnostic& d : diagnostics) {
    report["diagnostics"].push_back({{"severity", SeverityName(d.severity)},
                                     {"file", d.file},
                                     {"line", d.line},
                                     {"message", d.message}});
  }
  s = WriteFileAtomic(out + "/report.json", report.dump(2) + "\n");
  if (!s.ok()) return s;
  // The manifest goes last: its presence says the build finished.
  s = WriteFileAtomic(out + "/manifest.json", manifest.dump(2) + "\n");
  if (!s.ok()) return s;
  return qcs;
}

}  // namespace narrate
