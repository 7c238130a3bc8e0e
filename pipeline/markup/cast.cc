// cast.toml and overrides.toml loading, and automatic casting of speakers
// without a cast entry. Thread-safe: LoadCast/LoadOverrides are pure; a
// Casting object is used by one thread.
#include <algorithm>

#include "core/toml_file.h"
#include "internal.h"

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

namespace markup_internal {

Casting::Casting(const Cast& cast, const std::map<std::string, Timbre>& voices) : cast_(cast) {
  std::set<std::string> taken;
  for (const CastEntry& e : cast.speakers) {
    if (!e.voice.empty()) taken.insert(e.voice);
    if (!e.voice.empty()) ++uses_[e.voice];  // reserved by the cast
  }
  // The palette: every character timbre (not the narrator's or the document's),
  // in name order; timbres already given in the cast come last.
  std::vector<std::pair<bool, std::string>> order;
  for (const auto& [name, timbre] : voices) {
    if (name == cast.options.narrator || name == cast.options.document) continue;
    if (timbre.gender != "m" && timbre.gender != "f") continue;
    order.push_back({taken.count(name) > 0, name});
  }
  std::stable_sort(order.begin(), order.end());
  for (const auto& [is_taken, name] : order) {
    (voices.at(name).gender == "m" ? male_ : female_).push_back(name);
    all_.push_back(name);
  }
  if (all_.empty()) all_.push_back(cast.options.narrator);
}

std::string Casting::GenderFor(const std::string& speaker, const std::string& fallback) const {
  for (const CastEntry& e : cast_.speakers) {
    if (e.name == speaker && !e.gender.empty()) return e.gender;
  }
  return fallback;
}

std::string Casting::VoiceFor(const std::string& speaker, const std::string& gender) {
  auto it = assigned_.find(speaker);
  if (it != assigned_.end()) return it->second;
  std::string voice;
  for (const CastEntry& e : cast_.speakers) {
    if (e.name == speaker && !e.voice.empty()) voice = e.voice;
  }
  if (voice.empty()) {
    // The least used timbre of the speaker's gender among the speakers met so
    // far (ties: palette order), so that a new speaker rarely sounds like one
    // already heard.
    const std::vector<std::string>& palette = gender == "m" && !male_.empty()     ? male_
                                              : gender == "f" && !female_.empty() ? female_
                                                                                  : all_;
    voice = palette[0];
    for (const std::string& v : palette) {
      if (uses_[v] < uses_[voice]) voice = v;
    }
  }
  bool in_cast = false;
  for (const CastEntry& e : cast_.speakers) in_cast |= e.name == speaker && !e.voice.empty();
  if (!in_cast) ++uses_[voice];
  assigned_[speaker] = voice;
  return voice;
}

}  // namespace markup_internal
}  // namespace narrate
