// The EPUB's ZIP container through libzip. Thread-compatible.
#include "assemble/epub_zip.h"

#include <zip.h>

#include <cstdio>
#include <ctime>

namespace narrate {
namespace epub_internal {
namespace {

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

std::string ZipError(zip_t* za) { return za ? zip_strerror(za) : "cannot open"; }

}  // namespace

Status WriteZip(const std::string& path, const std::vector<ZipEntry>& entries,
                int64_t epoch) {
  const std::string part = path + ".part";
  std::remove(part.c_str());
  int error = 0;
  zip_t* za = zip_open(part.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (za == nullptr) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, error);
    Status s = Status::IoError(part + ": cannot create: " + zip_error_strerror(&ze));
    zip_error_fini(&ze);
    return s;
  }
  const time_t mtime = LocalTimeWithUtcFields(epoch);
  for (const ZipEntry& e : entries) {
    zip_source_t* src =
        e.file.empty() ? zip_source_buffer(za, e.data.data(), e.data.size(), 0)
                       : zip_source_file(za, e.file.c_str(), 0, -1);
    if (src == nullptr) {
      Status s = Status::IoError((e.file.empty() ? part : e.file) +
                                 ": cannot read for " + e.name + ": " + ZipError(za));
      zip_discard(za);
      return s;
    }
    const zip_int64_t index = zip_file_add(za, e.name.c_str(), src, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(src);
      Status s = Status::IoError(part + ": cannot add " + e.name + ": " + ZipError(za));
      zip_discard(za);
      return s;
    }
    const zip_uint64_t i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(za, i, e.store ? ZIP_CM_STORE : ZIP_CM_DEFLATE,
                                 e.store ? 0 : 9) != 0 ||
        zip_file_set_mtime(za, i, mtime, 0) != 0 ||
        zip_file_set_external_attributes(za, i, 0, ZIP_OPSYS_UNIX, kFileMode << 16) != 0) {
      Status s = Status::IoError(part + ": " + e.name + ": " + ZipError(za));
      zip_discard(za);
      return s;
    }
  }
  if (zip_close(za) != 0) {
    Status s = Status::IoError(part + ": cannot write: " + ZipError(za));
    zip_discard(za);
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
  int error = 0;
  zip_t* za = zip_open(path.c_str(), ZIP_RDONLY, &error);
  if (za == nullptr) return Status::IoError(path + ": not a readable ZIP archive");
  std::vector<ZipMember> members;
  const zip_int64_t n = zip_get_num_entries(za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    zip_file_t* f = nullptr;
    if (zip_stat_index(za, i, 0, &st) != 0 ||
        (f = zip_fopen_index(za, i, 0)) == nullptr) {
      zip_discard(za);
      return Status::IoError(path + ": cannot read member " + std::to_string(i));
    }
    ZipMember m;
    m.name = st.name;
    m.stored = st.comp_method == ZIP_CM_STORE;
    m.data.resize(st.size);
    const zip_int64_t got = zip_fread(f, m.data.data(), st.size);
    zip_fclose(f);
    if (got != static_cast<zip_int64_t>(st.size)) {
      zip_discard(za);
      return Status::IoError(path + ": " + m.name + ": short read");
    }
    members.push_back(std::move(m));
  }
  zip_discard(za);
  return members;
}

}  // namespace epub_internal
}  // namespace narrate
