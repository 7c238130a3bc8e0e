// The serializers and parsers of the build's records (records.h) and of the
// chapter cache's (records_internal.h): one list of members per type, which
// one ToJson and one FromJson go through. nlohmann's parser runs without exceptions, and nothing
// here asks a JSON value for a type it does not hold (which would throw): a
// value of the wrong type, a missing member or text that is not JSON is a
// DataError naming the file and the place ("utterances[3].start_ms").
// Pure functions: thread-safe.
#include "assemble/records.h"

#include <climits>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <type_traits>
#include <vector>

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
// Each record's members are listed once, in its Members(): writing and
// reading both go through that list, so writer and reader cannot drift
// apart. `io(key, member)` writes or reads one member; `io.Check(key, value,
// what)` writes a value derived from `what`, or reads it and checks it.

template <typename T, typename Record>
using IfRecord = std::enable_if_t<std::is_same_v<std::remove_const_t<T>, Record>, int>;

template <typename Io, typename T, IfRecord<T, ManifestWord> = 0>
void Members(Io& io, T& word) {
  io("text", word.text);
  io("start_ms", word.start_ms);
  io("end_ms", word.end_ms);
}

template <typename Io, typename T, IfRecord<T, ManifestUtterance> = 0>
void Members(Io& io, T& u) {
  io("id", u.id);
  io("chapter", u.chapter);
  io("paragraph", u.paragraph);
  io("kind", u.kind);
  io("lang", u.lang);
  io("speaker", u.speaker);
  io("voice", u.voice);
  io("text", u.text);
  io("start_ms", u.start_ms);
  io("end_ms", u.end_ms);
  io("words", u.words);
}

template <typename Io, typename T, IfRecord<T, ManifestChapter> = 0>
void Members(Io& io, T& c) {
  io("index", c.index);
  io("title", c.title);
  io("language", c.language);
  io("source", c.source);
  io("file", c.file);
  io("files", c.files);
  io("captions", c.captions);
  io("book_start_ms", c.book_start_ms);
  io("duration_ms", c.duration_ms);
}

template <typename Io, typename T, IfRecord<T, Manifest> = 0>
void Members(Io& io, T& m) {
  io("title", m.title);
  io("author", m.author);
  io("language", m.language);
  io("sample_rate", m.sample_rate);
  io("book_files", m.book_files);
  io("cue_sheet", m.cue_sheet);
  io("chapters", m.chapters);
  io("utterances", m.utterances);
}

// "pass" is written for the reader's convenience; it is read as a check.
template <typename Io, typename T, IfRecord<T, FileQc> = 0>
void Members(Io& io, T& qc) {
  io("file", qc.file);
  io("duration_ms", qc.duration_ms);
  io("rms_db", qc.rms_db);
  io("peak_db", qc.peak_db);
  io("noise_floor_db", qc.noise_floor_db);
  io("loudness_lufs", qc.loudness_lufs);
  io("head_silence_ms", qc.head_silence_ms);
  io("tail_silence_ms", qc.tail_silence_ms);
  io("failures", qc.failures);
  io.Check("pass", qc.failures.empty(), "failures");
}

template <typename Io, typename T, IfRecord<T, Diagnostic> = 0>
void Members(Io& io, T& d) {
  io("severity", d.severity);
  io("file", d.file);
  io("line", d.line);
  io("message", d.message);
}

template <typename Io, typename T, IfRecord<T, Report> = 0>
void Members(Io& io, T& report) {
  io("files", report.files);
  io("diagnostics", report.diagnostics);
}

template <typename Io, typename T, IfRecord<T, RecordedUtterance> = 0>
void Members(Io& io, T& u) {
  io("start_ms", u.start_ms);
  io("end_ms", u.end_ms);
  io("words", u.words);
}

template <typename Io, typename T, IfRecord<T, ChapterRecord> = 0>
void Members(Io& io, T& record) {
  io("samples", record.sample_count);
  io("utterances", record.utterances);
  io("qc", record.qc);
}

template <typename Io, typename T, IfRecord<T, Stamp::Part> = 0>
void Members(Io& io, T& part) {
  io("key", part.key);
  io("samples", part.samples);
}

template <typename Io, typename T, IfRecord<T, Stamp> = 0>
void Members(Io& io, T& stamp) {
  io("chapters", stamp.chapters);
}

// Writing: objects are filled member by member (a book has tens of
// thousands of words, and braced lists would copy each of them twice).

template <typename T>
json ToJson(const T& value);

struct Writer {
  json& object;
  template <typename T>
  void operator()(const char* key, const T& value) {
    object[key] = ToJson(value);
  }
  void Check(const char* key, bool value, const char* /*derived_from*/) { object[key] = value; }
};

template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
json ToJson(const T& value) {
  if constexpr (std::is_same_v<T, std::optional<std::string>>) {
    return value ? json(*value) : json(nullptr);
  } else if constexpr (std::is_same_v<T, UtteranceKind>) {
    return ToString(value);
  } else if constexpr (std::is_same_v<T, Severity>) {
    return SeverityName(value);
  } else if constexpr (IsVector<T>::value) {
    json array = json::array();
    array.get_ref<json::array_t&>().reserve(value.size());
    for (const auto& item : value) array.push_back(ToJson(item));
    return array;
  } else if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
    return json(value);
  } else {
    json object = json::object();
    Writer writer{object};
    Members(writer, value);
    return object;
  }
}

// Reading: a record is read member by member, each through Reader::Member.

struct MemberReader {
  Reader& reader;
  const json& object;
  const Where& at;
  template <typename T>
  void operator()(const char* key, T& member) {
    reader.Member(object, at, key, &member);
  }
  void Check(const char* key, bool expected, const char* derived_from) {
    bool value = false;
    reader.Member(object, at, key, &value);
    if (reader.ok() && value != expected) {
      reader.Fail(Where{&at, key}, std::string("contradicts ") + derived_from);
    }
  }
};

template <typename T>
void FromJson(Reader& r, const json& j, const Where& at, T* record) {
  MemberReader members{r, j, at};
  Members(members, *record);
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
