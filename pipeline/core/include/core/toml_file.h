// Reading narrate's TOML data files (book.toml, cast.toml, language profiles)
// with toml++, its parse errors turned into a Status naming file:line.
// Thread-safe: pure functions.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <string_view>

#include "core/core.h"

namespace narrate {

// Parses the TOML file at `path`. IoError when it cannot be read, DataError
// naming file:line on a syntax error.
StatusOr<toml::table> ParseTomlFile(const std::string& path);

// `text` as a TOML basic string, quotes included: backslashes, quotes and
// control characters escaped ("a\"b" for a"b), the rest as it is (UTF-8).
std::string TomlQuoted(std::string_view text);

// "path:line" of a node of the file at `path`, for diagnostics.
std::string TomlAt(const std::string& path, const toml::node& node);

}  // namespace narrate
