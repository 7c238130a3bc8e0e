// Private to assemble: the ZIP container of the EPUB (libzip), and a reader
// for tests and checks.
//
// Entries are written in the order given with a fixed time stamp and file
// mode, so the same entries give the same bytes. Thread-compatible: each call
// works on its own archive.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/core.h"

namespace narrate {
namespace epub_internal {

// One member of an archive to write.
struct ZipEntry {
  std::string name;    // path inside the archive, '/' separated
  std::string data;    // the content, when `file` is empty
  std::string file;    // else a file on disk to copy (read when the archive closes)
  bool store = false;  // true: no compression (mimetype, MP3)
};

// Writes `entries` to `path` through `path`.part renamed into place. Every
// member gets the modification time `epoch` (seconds since 1970, UTC; dates
// before 1980 become 1980-01-01) and mode 0644. IoError naming the file.
Status WriteZip(const std::string& path, const std::vector<ZipEntry>& entries, int64_t epoch);

// A member read back from an archive.
struct ZipMember {
  std::string name;
  std::string data;
  bool stored = false;  // true: not compressed
};

// Every member of the archive at `path`, in archive order.
StatusOr<std::vector<ZipMember>> ReadZip(const std::string& path);

}  // namespace epub_internal
}  // namespace narrate
