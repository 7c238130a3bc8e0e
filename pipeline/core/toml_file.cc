// Implementation of toml_file.h.
#include "core/toml_file.h"

namespace narrate {

StatusOr<toml::table> ParseTomlFile(const std::string& path) {
  StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  try {  // Debian's toml++ is built with exceptions; they stop here.
    return toml::parse(*text, path);
  } catch (const toml::parse_error& e) {
    return Status::DataError(path + ":" + std::to_string(e.source().begin.line) + ": " +
                             std::string(e.description()));
  }
}

std::string TomlAt(const std::string& path, const toml::node& node) {
  return path + ":" + std::to_string(node.source().begin.line);
}

}  // namespace narrate
