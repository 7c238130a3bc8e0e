// Manifest, report, cue sheet and caption writing, and the chapter cache.
#include "assemble/outputs.h"

#include "assemble/tags_writer.h"

#include <unicode/translit.h>
#include <unicode/unistr.h>

#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <memory>

namespace narrate {
namespace assemble_internal {
namespace {

using nlohmann::json;


int CodePoints(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

const char* SeverityName(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "info";
}

}  // namespace

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

StatusOr<ChapterRecord> LoadChapterRecord(const std::string& dir, const std::string& key) {
  StatusOr<std::string> meta = ReadFile(dir + "/" + key + ".json");
  if (!meta.ok()) return meta.status();
  json j = json::parse(*meta, nullptr, false);
  const Status damaged = Status::DataError(dir + "/" + key + ": damaged chapter cache entry");
  if (j.is_discarded() || !j.contains("timings") || !j.contains("samples") || !j.contains("qc")) {
    return damaged;
  }
  ChapterRecord c;
  c.sample_count = j["samples"].get<int64_t>();
  const json& qc = j["qc"];
  c.qc.duration_ms = qc["duration_ms"];
  c.qc.rms_db = qc["rms_db"];
  c.qc.peak_db = qc["peak_db"];
  c.qc.noise_floor_db = qc["noise_floor_db"];
  c.qc.loudness_lufs = qc["loudness_lufs"];
  c.qc.head_silence_ms = qc["head_silence_ms"];
  c.qc.tail_silence_ms = qc["tail_silence_ms"];
  for (const json& t : j["timings"]) {
    UtteranceTiming timing;
    timing.start_ms = t[0];
    timing.end_ms = t[1];
    std::vector<std::string> texts;
    for (const json& w : t[2]) {
      timing.word_ms.emplace_back(w[1].get<int64_t>(), w[2].get<int64_t>());
      texts.push_back(w[0]);
    }
    c.timings.push_back(std::move(timing));
    c.word_texts.push_back(std::move(texts));
  }
  return c;
}

Status SaveChapterRecord(const std::string& dir, const std::string& key,
                         const ChapterRecord& c) {
  json timings = json::array();
  for (size_t i = 0; i < c.timings.size(); ++i) {
    json words = json::array();
    for (size_t w = 0; w < c.timings[i].word_ms.size(); ++w) {
      words.push_back({c.word_texts[i][w], c.timings[i].word_ms[w].first,
                       c.timings[i].word_ms[w].second});
    }
    timings.push_back({c.timings[i].start_ms, c.timings[i].end_ms, words});
  }
  return WriteFileAtomic(
      dir + "/" + key + ".json",
      json{{"samples", c.sample_count}, {"qc", QcJson(c.qc)}, {"timings", timings}}.dump());
}

std::string ChapterVtt(const Chapter& chapter, const ChapterRecord& audio) {
  const int max_chars = chapter.lang == "zh" ? 24 : 60;
  std::string vtt = "WEBVTT\n\n";
  int cue = 0;
  for (size_t i = 0; i < chapter.utterances.size(); ++i) {
    const UtteranceTiming& t = audio.timings[i];
    const std::vector<std::string>& texts = audio.word_texts[i];
    // Group words into cues; an utterance without words is one cue.
    size_t w = 0;
    do {
      std::string text;
      int64_t start = t.start_ms, end = t.end_ms;
      if (!texts.empty()) {
        start = t.word_ms[w].first;
        while (w < texts.size() &&
               (text.empty() || CodePoints(text) + CodePoints(texts[w]) <= max_chars)) {
          text += texts[w];
          end = t.word_ms[w].second;
          ++w;
        }
      } else {
        text = chapter.utterances[i].text;
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      if (end <= start) end = start + 1;
      vtt += std::to_string(++cue) + "\n" + ChapterTimestamp(start) + " --> " + ChapterTimestamp(end) +
             "\n" + text + "\n\n";
    } while (w < texts.size());
  }
  return vtt;
}

std::string CueTrack(int index, const std::string& title, int64_t start_ms) {
  // INDEX is MM:SS:FF with 75 frames a second.
  char buf[96];
  const int64_t frames = start_ms * 75 / 1000;
  std::snprintf(buf, sizeof buf, "  TRACK %02d AUDIO\n", index);
  std::string out = buf;
  out += "    TITLE \"" + title + "\"\n";
  std::snprintf(buf, sizeof buf, "    INDEX 01 %02lld:%02lld:%02lld\n",
                static_cast<long long>(frames / 75 / 60),
                static_cast<long long>(frames / 75 % 60),
                static_cast<long long>(frames % 75));
  return out + buf;
}

json ChapterJson(const Chapter& chapter, const std::string& stem,
                 const std::vector<std::string>& formats, int64_t duration_ms,
                 int64_t book_start_ms) {
  json files = json::array();
  for (const std::string& format : formats) files.push_back(stem + "." + format);
  return {{"index", chapter.index},
          {"title", chapter.title},
          {"language", chapter.lang},
          {"source", chapter.source},
          {"file", stem + "." + formats.front()},
          {"files", files},
          {"captions", stem + ".vtt"},
          {"book_start_ms", book_start_ms},
          {"duration_ms", duration_ms}};
}

json UtteranceJson(const Utterance& u, const UtteranceTiming& t,
                   const std::vector<std::string>& word_texts) {
  json words = json::array();
  for (size_t w = 0; w < t.word_ms.size(); ++w) {
    words.push_back({{"text", word_texts[w]},
                     {"start_ms", t.word_ms[w].first},
                     {"end_ms", t.word_ms[w].second}});
  }
  return {{"id", u.id},
          {"chapter", u.chapter},
          {"paragraph", u.paragraph},
          {"kind", ToString(u.kind)},
          {"lang", u.lang},
          {"speaker", u.speaker ? json(*u.speaker) : json(nullptr)},
          {"voice", u.voice},
          {"text", u.text},
          {"start_ms", t.start_ms},
          {"end_ms", t.end_ms},
          {"words", words}};
}

json QcJson(const FileQc& qc) {
  return {{"file", qc.file},
          {"duration_ms", qc.duration_ms},
          {"rms_db", qc.rms_db},
          {"peak_db", qc.peak_db},
          {"noise_floor_db", qc.noise_floor_db},
          {"loudness_lufs", qc.loudness_lufs},
          {"head_silence_ms", qc.head_silence_ms},
          {"tail_silence_ms", qc.tail_silence_ms},
          {"pass", qc.failures.empty()},
          {"failures", qc.failures}};
}

json DiagnosticJson(const Diagnostic& d) {
  return {{"severity", SeverityName(d.severity)},
          {"file", d.file},
          {"line", d.line},
          {"message", d.message}};
}

}  // namespace assemble_internal
}  // namespace narrate
