// Automatic casting of speakers without a cast entry. A Casting object is
// used by one thread.
#include <algorithm>

#include "internal.h"

namespace narrate {
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
