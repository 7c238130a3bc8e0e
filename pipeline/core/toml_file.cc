// Implementation of toml_file.h.
#include "core/toml_file.h"

#include <cstdio>

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

std::string TomlQuoted(std::string_view text) {
  std::string out = "\"";
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04X", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

std::string TomlAt(const std::string& path, const toml::node& node) {
  return path + ":" + std::to_string(node.source().begin.line);
}

}  // namespace narrate
