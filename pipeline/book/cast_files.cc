// cast.toml and overrides.toml: a book's cast and its producer's corrections,
// read into markup's Cast and Overrides. Thread-safe: pure functions.
#include "book/book.h"
#include "core/toml_file.h"

namespace narrate {
namespace {

bool ValidGender(const std::string& g) { return g.empty() || g == "m" || g == "f"; }

}  // namespace

StatusOr<Cast> LoadCast(const std::string& path) {
  StatusOr<toml::table> parsed = ParseTomlFile(path);
  if (!parsed.ok()) return parsed.status();
  const toml::table& t = *parsed;
  Cast cast;
  if (auto v = t["narrator"]["voice"].value<std::string>()) cast.options.narrator = *v;
  if (auto v = t["document"]["voice"].value<std::string>()) cast.options.document = *v;
  if (const toml::node* node = t.get("speaker")) {
    const toml::array* speakers = node->as_array();
    if (speakers == nullptr) {
      return Status::DataError(TomlAt(path, *node) + ": 'speaker' must be [[speaker]] tables");
    }
    for (const toml::node& n : *speakers) {
      const toml::table* s = n.as_table();
      if (s == nullptr) {
        return Status::DataError(TomlAt(path, n) + ": a [[speaker]] must be a table");
      }
      CastEntry e;
      e.name = (*s)["name"].value_or(std::string());
      e.gender = (*s)["gender"].value_or(std::string());
      e.voice = (*s)["voice"].value_or(std::string());
      if (e.name.empty()) return Status::DataError(TomlAt(path, n) + ": speaker without a name");
      if (!ValidGender(e.gender)) {
        return Status::DataError(TomlAt(path, n) + ": gender of '" + e.name +
                                 "' must be \"m\", \"f\" or \"\"");
      }
      if (const toml::array* aliases = (*s)["aliases"].as_array()) {
        for (const toml::node& a : *aliases) {
          auto text = a.value<std::string>();
          if (!text) return Status::DataError(TomlAt(path, a) + ": an alias must be a string");
          e.aliases.push_back(*text);
        }
      }
      cast.speakers.push_back(std::move(e));
    }
  }
  return cast;
}

StatusOr<Overrides> LoadOverrides(const std::string& path) {
  StatusOr<toml::table> parsed = ParseTomlFile(path);
  if (!parsed.ok()) return parsed.status();
  Overrides out;
  out.file = path;
  const toml::node* node = parsed->get("override");
  if (node == nullptr) return out;
  const toml::array* entries = node->as_array();
  if (entries == nullptr) {
    return Status::DataError(TomlAt(path, *node) + ": 'override' must be [[override]] tables");
  }
  for (const toml::node& n : *entries) {
    const toml::table* e = n.as_table();
    if (e == nullptr) {
      return Status::DataError(TomlAt(path, n) + ": an [[override]] must be a table");
    }
    Override o;
    o.line = static_cast<int>(n.source().begin.line);
    o.match = (*e)["match"].value_or(std::string());
    o.speaker = (*e)["speaker"].value_or(std::string());
    o.kind = (*e)["kind"].value_or(std::string());
    o.gender = (*e)["gender"].value_or(std::string());
    o.heading = (*e)["heading"].value_or(std::string());
    if (o.match.empty()) return Status::DataError(TomlAt(path, n) + ": override without 'match'");
    if (!o.kind.empty() && o.kind != "heading" && o.kind != "narration" && o.kind != "speech" &&
        o.kind != "document") {
      return Status::DataError(TomlAt(path, n) + ": unknown kind '" + o.kind +
                               "' (heading, narration, speech or document)");
    }
    if (!ValidGender(o.gender)) {
      return Status::DataError(TomlAt(path, n) + ": gender must be \"m\", \"f\" or \"\"");
    }
    if (o.speaker.empty() && o.kind.empty() && o.gender.empty() && o.heading.empty()) {
      return Status::DataError(TomlAt(path, n) + ": override changes nothing");
    }
    out.entries.push_back(std::move(o));
  }
  return out;
}

}  // namespace narrate
