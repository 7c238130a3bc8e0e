// Implementation of the small shared pieces declared in core.h.
#include "core/core.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace narrate {

std::string Diagnostic::ToString() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  if (!out.empty()) out += ": ";
  return out + message;
}

std::string SpokenText(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) out += t.spoken;
  return out;
}

std::string PrintedText(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) out += t.text;
  return out;
}

int CodePointCount(std::string_view utf8) {
  int n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;  // all but continuation bytes
  return n;
}

const char* ToString(UtteranceKind kind) {
  switch (kind) {
    case UtteranceKind::kHeading:
      return "heading";
    case UtteranceKind::kNarration:
      return "narration";
    case UtteranceKind::kSpeech:
      return "speech";
    case UtteranceKind::kDocument:
      return "document";
  }
  return "narration";
}

const char* ToString(Evidence evidence) {
  switch (evidence) {
    case Evidence::kNone:
      return "none";
    case Evidence::kVerbBefore:
      return "verb-before";
    case Evidence::kVerbAfter:
      return "verb-after";
    case Evidence::kGuessBefore:
      return "guess-before";
    case Evidence::kGuessAfter:
      return "guess-after";
    case Evidence::kPronoun:
      return "pronoun";
    case Evidence::kAddressee:
      return "addressee";
    case Evidence::kAlternation:
      return "alternation";
    case Evidence::kVocative:
      return "vocative";
    case Evidence::kGroup:
      return "group";
    case Evidence::kContext:
      return "context";
    case Evidence::kIntroduction:
      return "introduction";
    case Evidence::kOverride:
      return "override";
  }
  return "none";
}

bool PathExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsRegularFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string BaseName(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

StatusOr<std::string> ReadFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  }
  // Straight into the string: room for the whole file (for a regular file;
  // more is made when a read fills it), then read until the end.
  struct stat st;
  std::string data;
  size_t size = 0;
  data.resize(::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) + 1
                                                           : size_t{1} << 16);
  for (;;) {
    if (size == data.size()) data.resize(data.size() * 2);
    const ssize_t n = ::read(fd, &data[size], data.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return Status::IoError(path + ": read error: " + why);
    }
    if (n == 0) break;
    size += static_cast<size_t>(n);
  }
  ::close(fd);
  data.resize(size);
  return data;
}

Status WriteFileAtomic(const std::string& path, std::string_view data) {
  return WriteFileAtomic(path, {data});
}

Status WriteFileAtomic(const std::string& path, std::initializer_list<std::string_view> parts) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return Status::IoError(path + ": cannot write: " + std::strerror(errno));
  }
  for (std::string_view data : parts) {
    size_t done = 0;
    while (done < data.size()) {
      ssize_t n = ::write(fd, data.data() + done, data.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        std::string why = std::strerror(errno);
        ::close(fd);
        ::unlink(tmp.c_str());
        return Status::IoError(path + ": cannot write: " + why);
      }
      done += static_cast<size_t>(n);
    }
  }
  // No fsync: the rename is what keeps a killed process from leaving a partial
  // file; surviving a power cut is not worth an fsync per artifact.
  if (::close(fd) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::IoError(path + ": cannot write: " + why);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return Status::IoError(path + ": cannot rename into place: " + why);
  }
  return Status::Ok();
}

StatusOr<std::vector<TsvRow>> ReadTsv(const std::string& path, size_t min_fields,
                                      size_t max_fields) {
  StatusOr<std::string> data = ReadFile(path);
  if (!data.ok()) return data.status();
  std::vector<TsvRow> rows;
  size_t start = 0;
  for (int line = 1; start < data->size(); ++line) {
    size_t end = data->find('\n', start);
    if (end == std::string::npos) end = data->size();
    std::string text = data->substr(start, end - start);
    start = end + 1;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (text.empty() || text[0] == '#') continue;
    TsvRow row{line, {}};
    for (size_t from = 0;;) {
      const size_t tab = text.find('\t', from);
      row.fields.push_back(text.substr(from, tab - from));
      if (tab == std::string::npos) break;
      from = tab + 1;
    }
    if (row.fields.size() < min_fields || row.fields.size() > max_fields) {
      const std::string wanted = min_fields == max_fields ? std::to_string(min_fields)
                                                          : std::to_string(min_fields) + " to " +
                                                                std::to_string(max_fields);
      return Status::DataError(path + ":" + std::to_string(line) + ": expected " + wanted +
                               " tab-separated fields, found " + std::to_string(row.fields.size()));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

Status MakeDirs(const std::string& path) {
  if (path.empty()) return Status::Ok();
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    partial = path.substr(0, pos);
    if (partial.empty()) continue;
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      return Status::IoError(partial + ": cannot create directory: " + std::strerror(errno));
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Status::IoError(path + ": not a directory");
  }
  return Status::Ok();
}

uint64_t Fnv1a64(const std::string& data, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string HexHash(const std::string& data) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(Fnv1a64(data)));
  return buf;
}

ClipSummary SummarizeClip(const Clip& clip) {
  ClipSummary summary;
  summary.sample_rate = clip.sample_rate;
  summary.length = static_cast<int64_t>(clip.samples.size());
  for (int16_t v : clip.samples) summary.energy += int64_t{v} * v;
  summary.words = clip.words;
  return summary;
}

StatusOr<std::vector<std::string>> ListFiles(const std::string& dir, const std::string& suffix) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    return Status::IoError(dir + ": cannot read the folder: " + std::strerror(errno));
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      names.push_back(name);
    }
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string BesideProgram(const std::string& name, bool executable) {
  char self[4096];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return "";
  std::string path(self, static_cast<size_t>(n));
  path = path.substr(0, path.rfind('/') + 1) + name;
  return ::access(path.c_str(), executable ? X_OK : R_OK) == 0 ? path : "";
}

SharedLibrary::SharedLibrary(std::initializer_list<const char*> names, const std::string& what,
                             const std::string& package)
    : what_(what) {
  const char* why = "no file to load";
  for (const char* name : names) {
    handle_ = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) return;
    why = ::dlerror();
  }
  error_ = "cannot load " + what + " (" + (why != nullptr ? why : "?") + "): install " + package +
           " (apt-get install " + package + ")";
}

void* SharedLibrary::Symbol(const char* name) {
  if (handle_ == nullptr) return nullptr;
  void* symbol = ::dlsym(handle_, name);
  if (symbol == nullptr && error_.empty()) {
    error_ = "the installed " + what_ + " lacks " + name + ", which narrate needs";
  }
  return symbol;
}

}  // namespace narrate
