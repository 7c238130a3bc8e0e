// The people of a book as its script and cast show them (narrate cast,
// narrate init), and the cast.toml entries that list them.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "book/book.h"
#include "core/toml_file.h"

namespace narrate {
namespace {

int Occurrences(const std::string& text, const std::string& word) {
  if (word.empty()) return 0;
  int n = 0;
  for (size_t at = text.find(word); at != std::string::npos;
       at = text.find(word, at + word.size())) {
    ++n;
  }
  return n;
}

}  // namespace

std::vector<FoundSpeaker> FindSpeakers(const Script& script, const Cast& cast) {
  std::vector<FoundSpeaker> found;
  std::map<std::string, size_t> index;  // name -> position in `found`
  auto person = [&](const std::string& name) -> FoundSpeaker& {
    auto [it, added] = index.emplace(name, found.size());
    if (added) {
      found.emplace_back();
      found.back().name = name;
    }
    return found[it->second];
  };
  for (const CastEntry& entry : cast.speakers) {
    FoundSpeaker& p = person(entry.name);
    p.aliases = entry.aliases;
    p.in_cast = true;
    p.voice = entry.voice;
    if (!entry.gender.empty()) {
      p.gender = entry.gender;
      p.gender_evidence = "cast";
    }
  }
  std::map<std::string, const FoundPerson*> people;  // found in the text
  for (const FoundPerson& f : script.people) people[f.name] = &f;
  std::string printed;  // the whole script's text, for the mentions
  // One speech a paragraph and speaker, however many sentences it has.
  std::set<std::tuple<int, int, std::string>> counted;
  for (const Chapter& c : script.chapters) {
    for (const Utterance& u : c.utterances) {
      printed += u.text;
      printed += '\n';
      if (u.kind != UtteranceKind::kSpeech || !u.speaker || *u.speaker == "unknown") continue;
      FoundSpeaker& p = person(*u.speaker);
      if (!counted.insert({c.index, u.paragraph, *u.speaker}).second) continue;
      if (p.speeches == 0 && !p.in_cast) {
        if (auto f = people.find(p.name); f != people.end()) {
          p.aliases = f->second->aliases;
          if (!f->second->gender.empty()) {
            p.gender = f->second->gender;
            p.gender_evidence = f->second->gender_evidence;
          }
        }
      }
      ++p.speeches;
      if (p.voice.empty()) p.voice = u.voice;
      if (p.gender.empty() && !u.gender.empty()) {
        p.gender = u.gender;
        p.gender_evidence = "speech";
      }
    }
  }
  for (FoundSpeaker& p : found) {
    p.mentions = Occurrences(printed, p.name);
    for (const std::string& alias : p.aliases) p.mentions += Occurrences(printed, alias);
  }
  std::stable_sort(found.begin(), found.end(), [](const FoundSpeaker& a, const FoundSpeaker& b) {
    return a.speeches > b.speeches;
  });
  return found;
}

std::string CastEntries(const std::vector<FoundSpeaker>& speakers) {
  std::string out;
  for (const FoundSpeaker& p : speakers) {
    out += "\n[[speaker]]\nname = " + TomlQuoted(p.name) + "\n";
    if (!p.gender.empty()) {
      out += "gender = " + TomlQuoted(p.gender);
      if (!p.in_cast && !p.gender_evidence.empty()) out += "   # from: " + p.gender_evidence;
      out += "\n";
    }
    if (!p.voice.empty()) {
      // A voice cast automatically follows the gender: it is suggested, not set.
      out += std::string(p.in_cast ? "" : "# ") + "voice = " + TomlQuoted(p.voice) +
             (p.in_cast ? "\n" : "   # the voice cast now; set it to keep it\n");
    }
    if (!p.aliases.empty()) {
      out += "aliases = [";
      for (size_t i = 0; i < p.aliases.size(); ++i) {
        out += (i ? ", " : "") + TomlQuoted(p.aliases[i]);
      }
      out += "]\n";
    }
    out += "# " + std::to_string(p.speeches) + (p.speeches == 1 ? " speech, " : " speeches, ") +
           std::to_string(p.mentions) + (p.mentions == 1 ? " mention\n" : " mentions\n");
  }
  return out;
}

}  // namespace narrate
