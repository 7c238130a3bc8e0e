// The serializers and parsers of the build's records (records.h) and of the
// chapter cache's (records_internal.h): one ToJson and one FromJson per type,
// member by member. nlohmann's parser runs without exceptions, and nothing
// here asks a JSON value for a type it does not hold (which would throw): a
// value of the wrong type, a missing member or text that is not JSON is a
// DataError naming the file and the place ("utterances[3].start_ms").
// Pure functions: thread-safe.
#include "assemble/records.h"

#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "records_internal.h"

namespace narrate {
namespace {

using assemble_internal::ChapterRecord;
using assemble_internal::RecordedUtterance;
using assemble_internal::Stamp;
using nlohmann::json;

// Where a value is in its document: the chain of members and elements that
// leads to it, spelled out ("utterances[3].start_ms") only when something
// there is wrong. The document itself has no parent.
struct Where {
  const Where* parent = nullptr;
  const char* key = nullptr;  // a member of an object; null: element `index` of an array
  size_t index = 0;

  std::string ToString() const {
    if (parent == nullptr) return "";
    const std::string path = parent->ToString();
    if (key == nullptr) return path + "[" + std::to_string(index) + "]";
    return path.empty() ? key : path + "." + key;
  }
};

// "not <what> but <the type of j>".
std::string Expected(const char* what, const json& j) {
  return std::string("not ") + what + " but " + j.type_name();
}

// Reads a parsed document into typed values, keeping the first thing found
// wrong; once something is wrong, nothing more is read.
class Reader {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void Fail(const Where& where, const std::string& what) {
    if (!ok()) return;
    const std::string path = where.ToString();
    error_ = path.empty() ? what : path + ": " + what;
  }

  // The member `key` of the object `j` (at `where`) into `out`.
  template <typename T>
  void Member(const json& j, const Where& where, const char* key, T* out) {
    if (!ok()) return;
    if (!j.is_object()) return Fail(where, Expected("an object", j));
    const auto it = j.find(key);
    const Where member{&where, key};
    if (it == j.end()) return Fail(member, "missing");
    FromJson(*this, *it, member, out);
  }

 private:
  std::string error_;
};

// --- values ----------------------------------------------------------------

void FromJson(Reader& r, const json& j, const Where& at, int64_t* out) {
  if (!j.is_number_integer()) return r.Fail(at, Expected("an integer", j));
  if (j.is_number_unsigned() && j.get<uint64_t>() > uint64_t{INT64_MAX}) {
    return r.Fail(at, "out of range");
  }
  *out = j.get<int64_t>();
}

void FromJson(Reader& r, const json& j, const Where& at, int* out) {
  int64_t value = 0;
  FromJson(r, j, at, &value);
  if (!r.ok()) return;
  if (value < INT_MIN || value > INT_MAX) return r.Fail(at, "out of range");
  *out = static_cast<int>(value);
}

void FromJson(Reader& r, const json& j, const Where& at, double* out) {
  if (!j.is_number()) return r.Fail(at, Expected("a number", j));
  *out = j.get<double>();
}

void FromJson(Reader& r, const json& j, const Where& at, bool* out) {
  if (!j.is_boolean()) return r.Fail(at, Expected("true or false", j));
  *out = j.get<bool>();
}

void FromJson(Reader& r, const json& j, const Where& at, std::string* out) {
  if (!j.is_string()) return r.Fail(at, Expected("a string", j));
  *out = j.get_ref<const std::string&>();
}

void FromJson(Reader& r, const json& j, const Where& at, std::optional<std::string>* out) {
  if (j.is_null()) {
    out->reset();
    return;
  }
  std::string value;
  FromJson(r, j, at, &value);
  *out = std::move(value);
}

template <typename T>
void FromJson(Reader& r, const json& j, const Where& at, std::vector<T>* out) {
  if (!j.is_array()) return r.Fail(at, Expected("an array", j));
  out->resize(j.size());
  for (size_t i = 0; i < j.size() && r.ok(); ++i) {
    FromJson(r, j[i], Where{&at, nullptr, i}, &(*out)[i]);
  }
}

// An enumerator from its name: the one of `values` that `name_of` names.
template <typename Enum, size_t n>
void EnumFromJson(Reader& r, const json& j, const Where& at, const Enum (&values)[n],
                  const char* (*name_of)(Enum), Enum* out) {
  std::string name;
  FromJson(r, j, at, &name);
  if (!r.ok()) return;
  for (Enum value : values) {
    if (name == name_of(value)) {
      *out = value;
      return;
    }
  }
  r.Fail(at, "unknown value \"" + name + "\"");
}

void FromJson(Reader& r, const json& j, const Where& at, UtteranceKind* out) {
  constexpr UtteranceKind kKinds[] = {UtteranceKind::kHeading, UtteranceKind::kNarration,
                                      UtteranceKind::kSpeech, UtteranceKind::kDocument};
  EnumFromJson(r, j, at, kKinds, &ToString, out);
}

const char* SeverityName(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "info";
}

void FromJson(Reader& r, const json& j, const Where& at, Severity* out) {
  constexpr Severity kSeverities[] = {Severity::kError, Severity::kWarning, Severity::kInfo};
  EnumFromJson(r, j, at, kSeverities, &SeverityName, out);
}

// --- records ---------------------------------------------------------------
// Objects are filled member by member (a book has tens of thousands of
// words, and braced lists would copy each of them twice). The declarations
// first: the array template below finds them by name.

json ToJson(const ManifestWord& word);
json ToJson(const ManifestUtterance& utterance);
json ToJson(const ManifestChapter& chapter);
json ToJson(const Manifest& manifest);
json ToJson(const FileQc& qc);
json ToJson(const Diagnostic& diagnostic);
json ToJson(const Report& report);
json ToJson(const RecordedUtterance& utterance);
json ToJson(const ChapterRecord& record);
json ToJson(const Stamp::Part& part);
json ToJson(const Stamp& stamp);

template <typename T>
json ToJson(const std::vector<T>& items) {
  json array = json::array();
  array.get_ref<json::array_t&>().reserve(items.size());
  for (const T& item : items) array.push_back(ToJson(item));
  return array;
}

json ToJson(const ManifestWord& word) {
  json j = json::object();
  j["text"] = word.text;
  j["start_ms"] = word.start_ms;
  j["end_ms"] = word.end_ms;
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, ManifestWord* word) {
  r.Member(j, at, "text", &word->text);
  r.Member(j, at, "start_ms", &word->start_ms);
  r.Member(j, at, "end_ms", &word->end_ms);
}

json ToJson(const ManifestUtterance& u) {
  json j = json::object();
  j["id"] = u.id;
  j["chapter"] = u.chapter;
  j["paragraph"] = u.paragraph;
  j["kind"] = ToString(u.kind);
  j["lang"] = u.lang;
  j["speaker"] = u.speaker ? json(*u.speaker) : json(nullptr);
  j["voice"] = u.voice;
  j["text"] = u.text;
  j["start_ms"] = u.start_ms;
  j["end_ms"] = u.end_ms;
  j["words"] = ToJson(u.words);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, ManifestUtterance* u) {
  r.Member(j, at, "id", &u->id);
  r.Member(j, at, "chapter", &u->chapter);
  r.Member(j, at, "paragraph", &u->paragraph);
  r.Member(j, at, "kind", &u->kind);
  r.Member(j, at, "lang", &u->lang);
  r.Member(j, at, "speaker", &u->speaker);
  r.Member(j, at, "voice", &u->voice);
  r.Member(j, at, "text", &u->text);
  r.Member(j, at, "start_ms", &u->start_ms);
  r.Member(j, at, "end_ms", &u->end_ms);
  r.Member(j, at, "words", &u->words);
}

json ToJson(const ManifestChapter& c) {
  json j = json::object();
  j["index"] = c.index;
  j["title"] = c.title;
  j["language"] = c.language;
  j["source"] = c.source;
  j["file"] = c.file;
  j["files"] = c.files;
  j["captions"] = c.captions;
  j["book_start_ms"] = c.book_start_ms;
  j["duration_ms"] = c.duration_ms;
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, ManifestChapter* c) {
  r.Member(j, at, "index", &c->index);
  r.Member(j, at, "title", &c->title);
  r.Member(j, at, "language", &c->language);
  r.Member(j, at, "source", &c->source);
  r.Member(j, at, "file", &c->file);
  r.Member(j, at, "files", &c->files);
  r.Member(j, at, "captions", &c->captions);
  r.Member(j, at, "book_start_ms", &c->book_start_ms);
  r.Member(j, at, "duration_ms", &c->duration_ms);
}

json ToJson(const Manifest& m) {
  json j = json::object();
  j["title"] = m.title;
  j["author"] = m.author;
  j["language"] = m.language;
  j["sample_rate"] = m.sample_rate;
  j["book_files"] = m.book_files;
  j["cue_sheet"] = m.cue_sheet;
  j["chapters"] = ToJson(m.chapters);
  j["utterances"] = ToJson(m.utterances);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, Manifest* m) {
  r.Member(j, at, "title", &m->title);
  r.Member(j, at, "author", &m->author);
  r.Member(j, at, "language", &m->language);
  r.Member(j, at, "sample_rate", &m->sample_rate);
  r.Member(j, at, "book_files", &m->book_files);
  r.Member(j, at, "cue_sheet", &m->cue_sheet);
  r.Member(j, at, "chapters", &m->chapters);
  r.Member(j, at, "utterances", &m->utterances);
}

// "pass" is written for the reader's convenience; it is read as a check.
json ToJson(const FileQc& qc) {
  json j = json::object();
  j["file"] = qc.file;
  j["duration_ms"] = qc.duration_ms;
  j["rms_db"] = qc.rms_db;
  j["peak_db"] = qc.peak_db;
  j["noise_floor_db"] = qc.noise_floor_db;
  j["loudness_lufs"] = qc.loudness_lufs;
  j["head_silence_ms"] = qc.head_silence_ms;
  j["tail_silence_ms"] = qc.tail_silence_ms;
  j["pass"] = qc.failures.empty();
  j["failures"] = qc.failures;
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, FileQc* qc) {
  r.Member(j, at, "file", &qc->file);
  r.Member(j, at, "duration_ms", &qc->duration_ms);
  r.Member(j, at, "rms_db", &qc->rms_db);
  r.Member(j, at, "peak_db", &qc->peak_db);
  r.Member(j, at, "noise_floor_db", &qc->noise_floor_db);
  r.Member(j, at, "loudness_lufs", &qc->loudness_lufs);
  r.Member(j, at, "head_silence_ms", &qc->head_silence_ms);
  r.Member(j, at, "tail_silence_ms", &qc->tail_silence_ms);
  r.Member(j, at, "failures", &qc->failures);
  bool pass = false;
  r.Member(j, at, "pass", &pass);
  if (r.ok() && pass != qc->failures.empty()) r.Fail(Where{&at, "pass"}, "contradicts failures");
}

json ToJson(const Diagnostic& d) {
  json j = json::object();
  j["severity"] = SeverityName(d.severity);
  j["file"] = d.file;
  j["line"] = d.line;
  j["message"] = d.message;
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, Diagnostic* d) {
  r.Member(j, at, "severity", &d->severity);
  r.Member(j, at, "file", &d->file);
  r.Member(j, at, "line", &d->line);
  r.Member(j, at, "message", &d->message);
}

json ToJson(const Report& report) {
  json j = json::object();
  j["files"] = ToJson(report.files);
  j["diagnostics"] = ToJson(report.diagnostics);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, Report* report) {
  r.Member(j, at, "files", &report->files);
  r.Member(j, at, "diagnostics", &report->diagnostics);
}

json ToJson(const RecordedUtterance& u) {
  json j = json::object();
  j["start_ms"] = u.start_ms;
  j["end_ms"] = u.end_ms;
  j["words"] = ToJson(u.words);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, RecordedUtterance* u) {
  r.Member(j, at, "start_ms", &u->start_ms);
  r.Member(j, at, "end_ms", &u->end_ms);
  r.Member(j, at, "words", &u->words);
}

json ToJson(const ChapterRecord& record) {
  json j = json::object();
  j["samples"] = record.sample_count;
  j["utterances"] = ToJson(record.utterances);
  j["qc"] = ToJson(record.qc);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, ChapterRecord* record) {
  r.Member(j, at, "samples", &record->sample_count);
  r.Member(j, at, "utterances", &record->utterances);
  r.Member(j, at, "qc", &record->qc);
}

json ToJson(const Stamp::Part& part) {
  json j = json::object();
  j["key"] = part.key;
  j["samples"] = part.samples;
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, Stamp::Part* part) {
  r.Member(j, at, "key", &part->key);
  r.Member(j, at, "samples", &part->samples);
}

json ToJson(const Stamp& stamp) {
  json j = json::object();
  j["chapters"] = ToJson(stamp.chapters);
  return j;
}

void FromJson(Reader& r, const json& j, const Where& at, Stamp* stamp) {
  r.Member(j, at, "chapters", &stamp->chapters);
}

// --- documents -------------------------------------------------------------

template <typename T>
StatusOr<T> ParseRecord(std::string_view text, const std::string& file) {
  const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Status::DataError(file + ": not valid JSON");
  Reader reader;
  T value;
  FromJson(reader, j, Where{}, &value);
  if (!reader.ok()) return Status::DataError(file + ": " + reader.error());
  return value;
}

template <typename T>
StatusOr<T> ReadRecord(const std::string& path) {
  StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseRecord<T>(*text, path);
}

}  // namespace

std::string ManifestToJson(const Manifest& manifest) { return ToJson(manifest).dump(2) + "\n"; }

StatusOr<Manifest> ParseManifest(std::string_view text, const std::string& file) {
  return ParseRecord<Manifest>(text, file);
}

StatusOr<Manifest> ReadManifest(const std::string& path) { return ReadRecord<Manifest>(path); }

std::string ReportToJson(const Report& report) { return ToJson(report).dump(2) + "\n"; }

StatusOr<Report> ParseReport(std::string_view text, const std::string& file) {
  return ParseRecord<Report>(text, file);
}

StatusOr<Report> ReadReport(const std::string& path) { return ReadRecord<Report>(path); }

namespace assemble_internal {

std::string ChapterRecordToJson(const ChapterRecord& record) { return ToJson(record).dump(); }

StatusOr<ChapterRecord> ParseChapterRecord(std::string_view text, const std::string& file) {
  return ParseRecord<ChapterRecord>(text, file);
}

StatusOr<ChapterRecord> ReadChapterRecord(const std::string& path) {
  return ReadRecord<ChapterRecord>(path);
}

std::string StampToJson(const Stamp& stamp) { return ToJson(stamp).dump(); }

StatusOr<Stamp> ParseStamp(std::string_view text, const std::string& file) {
  return ParseRecord<Stamp>(text, file);
}

StatusOr<Stamp> ReadStamp(const std::string& path) { return ReadRecord<Stamp>(path); }

}  // namespace assemble_internal
}  // namespace narrate
