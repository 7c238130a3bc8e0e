// The EPUB's ZIP container through libzip. Thread-compatible.
//
// libzip is loaded (SharedLibrary) when an EPUB is written or read rather
// than with every start of narrate: it brings libcrypto along, a large
// library that most commands never need.
#include "epub_zip.h"

#include <zip.h>

#include <cstdio>
#include <ctime>

namespace narrate {
namespace epub_internal {
namespace {

// The libzip functions used here, from the loaded library.
struct LibZip {
  decltype(&zip_open) open = nullptr;
  decltype(&zip_close) close = nullptr;
  decltype(&zip_discard) discard = nullptr;
  decltype(&zip_strerror) strerror = nullptr;
  decltype(&zip_error_init_with_code) error_init_with_code = nullptr;
  decltype(&zip_error_strerror) error_strerror = nullptr;
  decltype(&zip_error_fini) error_fini = nullptr;
  decltype(&zip_source_buffer) source_buffer = nullptr;
  decltype(&zip_source_file) source_file = nullptr;
  decltype(&zip_source_free) source_free = nullptr;
  decltype(&zip_file_add) file_add = nullptr;
  decltype(&zip_set_file_compression) set_file_compression = nullptr;
  decltype(&zip_file_set_mtime) file_set_mtime = nullptr;
  decltype(&zip_file_set_external_attributes) file_set_external_attributes = nullptr;
  decltype(&zip_get_num_entries) get_num_entries = nullptr;
  decltype(&zip_stat_init) stat_init = nullptr;
  decltype(&zip_stat_index) stat_index = nullptr;
  decltype(&zip_fopen_index) fopen_index = nullptr;
  decltype(&zip_fread) fread = nullptr;
  decltype(&zip_fclose) fclose = nullptr;
  std::string error;  // why it could not be loaded; empty when it was
};

const LibZip& Zip() {
  static const LibZip z = [] {
    LibZip l;
    SharedLibrary library({"libzip.so.4", NARRATE_LIBZIP_LIBRARY}, "libzip", "libzip4");
    library.Bind("zip_open", &l.open);
    library.Bind("zip_close", &l.close);
    library.Bind("zip_discard", &l.discard);
    library.Bind("zip_strerror", &l.strerror);
    library.Bind("zip_error_init_with_code", &l.error_init_with_code);
    library.Bind("zip_error_strerror", &l.error_strerror);
    library.Bind("zip_error_fini", &l.error_fini);
    library.Bind("zip_source_buffer", &l.source_buffer);
    library.Bind("zip_source_file", &l.source_file);
    library.Bind("zip_source_free", &l.source_free);
    library.Bind("zip_file_add", &l.file_add);
    library.Bind("zip_set_file_compression", &l.set_file_compression);
    library.Bind("zip_file_set_mtime", &l.file_set_mtime);
    library.Bind("zip_file_set_external_attributes", &l.file_set_external_attributes);
    library.Bind("zip_get_num_entries", &l.get_num_entries);
    library.Bind("zip_stat_init", &l.stat_init);
    library.Bind("zip_stat_index", &l.stat_index);
    library.Bind("zip_fopen_index", &l.fopen_index);
    library.Bind("zip_fread", &l.fread);
    library.Bind("zip_fclose", &l.fclose);
    l.error = library.error();
    return l;
  }();
  return z;
}

// 1980-01-01T00:00:00Z: the first moment a ZIP (DOS) time stamp holds.
constexpr int64_t kZipEpoch = 315532800;
constexpr zip_uint32_t kFileMode = 0100644;

// libzip turns a time_t into DOS fields with localtime(): pick the time_t whose
// local fields are the UTC fields of `epoch`, so that the bytes do not depend
// on the time zone.
time_t LocalTimeWithUtcFields(int64_t epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch < kZipEpoch ? kZipEpoch : epoch);
  std::tm tm = {};
  gmtime_r(&t, &tm);
  tm.tm_isdst = -1;
  return std::mktime(&tm);
}

std::string ZipError(zip_t* za) { return za ? Zip().strerror(za) : "cannot open"; }

}  // namespace

Status WriteZip(const std::string& path, const std::vector<ZipEntry>& entries, int64_t epoch) {
  if (!Zip().error.empty()) return Status::Failure(Zip().error);
  const std::string part = path + ".part";
  std::remove(part.c_str());
  int error = 0;
  zip_t* za = Zip().open(part.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (za == nullptr) {
    zip_error_t ze;
    Zip().error_init_with_code(&ze, error);
    Status s = Status::IoError(part + ": cannot create: " + Zip().error_strerror(&ze));
    Zip().error_fini(&ze);
    return s;
  }
  const time_t mtime = LocalTimeWithUtcFields(epoch);
  for (const ZipEntry& e : entries) {
    zip_source_t* src = e.file.empty() ? Zip().source_buffer(za, e.data.data(), e.data.size(), 0)
                                       : Zip().source_file(za, e.file.c_str(), 0, -1);
    if (src == nullptr) {
      Status s = Status::IoError((e.file.empty() ? part : e.file) + ": cannot read for " + e.name +
                                 ": " + ZipError(za));
      Zip().discard(za);
      return s;
    }
    const zip_int64_t index = Zip().file_add(za, e.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      Zip().source_free(src);
      Status s = Status::IoError(part + ": cannot add " + e.name + ": " + ZipError(za));
      Zip().discard(za);
      return s;
    }
    const zip_uint64_t i = static_cast<zip_uint64_t>(index);
    if (Zip().set_file_compression(za, i, e.store ? ZIP_CM_STORE : ZIP_CM_DEFLATE,
                                   e.store ? 0 : 9) != 0 ||
        Zip().file_set_mtime(za, i, mtime, 0) != 0 ||
        Zip().file_set_external_attributes(za, i, 0, ZIP_OPSYS_UNIX, kFileMode << 16) != 0) {
      Status s = Status::IoError(part + ": " + e.name + ": " + ZipError(za));
      Zip().discard(za);
      return s;
    }
  }
  if (Zip().close(za) != 0) {
    Status s = Status::IoError(part + ": cannot write: " + ZipError(za));
    Zip().discard(za);
    std::remove(part.c_str());
    return s;
  }
  if (std::rename(part.c_str(), path.c_str()) != 0) {
    std::remove(part.c_str());
    return Status::IoError(path + ": cannot rename " + part + " into place");
  }
  return Status::Ok();
}

StatusOr<std::vector<ZipMember>> ReadZip(const std::string& path) {
  if (!Zip().error.empty()) return Status::Failure(Zip().error);
  int error = 0;
  zip_t* za = Zip().open(path.c_str(), ZIP_RDONLY, &error);
  if (za == nullptr) return Status::IoError(path + ": not a readable ZIP archive");
  std::vector<ZipMember> members;
  const zip_int64_t n = Zip().get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    Zip().stat_init(&st);
    zip_file_t* f = nullptr;
    if (Zip().stat_index(za, i, 0, &st) != 0 || (f = Zip().fopen_index(za, i, 0)) == nullptr) {
      Zip().discard(za);
      return Status::IoError(path + ": cannot read member " + std::to_string(i));
    }
    ZipMember m;
    m.name = st.name;
    m.stored = st.comp_method == ZIP_CM_STORE;
    m.data.resize(st.size);
    const zip_int64_t got = Zip().fread(f, m.data.data(), st.size);
    Zip().fclose(f);
    if (got != static_cast<zip_int64_t>(st.size)) {
      Zip().discard(za);
      return Status::IoError(path + ": " + m.name + ": short read");
    }
    members.push_back(std::move(m));
  }
  Zip().discard(za);
  return members;
}

}  // namespace epub_internal
}  // namespace narrate
