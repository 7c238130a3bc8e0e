// The clip file format (WriteClip, ReadClip, ReadClipSummary). Thread-safe.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "synth/synth.h"

namespace narrate {
namespace {

// Clip files: magic, rate, sample count, energy, the size of the word
// table, the word table, then the samples, so that the summary (everything
// but the samples) is a short read from the head of the file.
constexpr char kMagic[8] = {'N', 'R', 'C', 'L', 'I', 'P', '0', '2'};
constexpr size_t kHeadSize = sizeof kMagic + 4 + 8 + 8 + 4;

template <typename T>
void Put(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
bool Get(const char* in, size_t size, size_t* pos, T* value) {
  if (*pos + sizeof(T) > size) return false;
  std::memcpy(value, in + *pos, sizeof(T));
  *pos += sizeof(T);
  return true;
}

// The head of a clip file: the summary but its words, and the word table's size.
bool DecodeHead(const char* in, size_t size, ClipSummary* summary, uint32_t* table) {
  if (size < kHeadSize || std::memcmp(in, kMagic, sizeof kMagic) != 0) return false;
  size_t pos = sizeof kMagic;
  int32_t rate;
  uint64_t length;
  Get(in, size, &pos, &rate);
  Get(in, size, &pos, &length);
  Get(in, size, &pos, &summary->energy);
  Get(in, size, &pos, table);
  summary->sample_rate = rate;
  summary->length = static_cast<int64_t>(length);
  return rate > 0 && length < (uint64_t{1} << 40);
}

bool DecodeWords(const char* in, size_t size, std::vector<WordTiming>* words) {
  size_t pos = 0;
  uint32_t count;
  if (!Get(in, size, &pos, &count)) return false;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t length;
    WordTiming w;
    if (!Get(in, size, &pos, &length) || pos + length > size) return false;
    w.text.assign(in + pos, length);
    pos += length;
    if (!Get(in, size, &pos, &w.start) || !Get(in, size, &pos, &w.end)) return false;
    words->push_back(std::move(w));
  }
  return pos == size;
}

}  // namespace

Status WriteClip(const std::string& path, const Clip& clip) {
  std::string table;
  Put<uint32_t>(&table, static_cast<uint32_t>(clip.words.size()));
  for (const WordTiming& w : clip.words) {
    Put<uint32_t>(&table, static_cast<uint32_t>(w.text.size()));
    table += w.text;
    Put<int64_t>(&table, w.start);
    Put<int64_t>(&table, w.end);
  }
  std::string head(kMagic, sizeof kMagic);
  Put<int32_t>(&head, clip.sample_rate);
  Put<uint64_t>(&head, clip.samples.size());
  Put<int64_t>(&head, SummarizeClip(clip).energy);
  Put<uint32_t>(&head, static_cast<uint32_t>(table.size()));
  head += table;
  return WriteFileAtomic(path,
                         {head, std::string_view(reinterpret_cast<const char*>(clip.samples.data()),
                                                 clip.samples.size() * sizeof(int16_t))});
}

namespace {

// Reads exactly `size` bytes at `offset`.
bool ReadAt(int fd, char* out, size_t size, off_t offset) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, out, size, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<size_t>(n);
    offset += n;
  }
  return true;
}

// A clip file's summary, and with `samples` its samples too (read straight
// into the vector).
StatusOr<ClipSummary> ReadClipFile(const std::string& path, std::vector<int16_t>* samples) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError(path + ": cannot open: " + std::strerror(errno));
  char head[kHeadSize];
  ClipSummary summary;
  uint32_t table = 0;
  std::string words;
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0 && ReadAt(fd, head, kHeadSize, 0) &&
            DecodeHead(head, kHeadSize, &summary, &table) &&
            static_cast<uint64_t>(st.st_size) ==
                kHeadSize + uint64_t{table} + static_cast<uint64_t>(summary.length) * 2;
  if (ok) {
    words.resize(table);
    ok = ReadAt(fd, &words[0], table, kHeadSize) &&
         DecodeWords(words.data(), words.size(), &summary.words);
  }
  if (ok && samples != nullptr) {
    samples->resize(static_cast<size_t>(summary.length));
    ok = ReadAt(fd, reinterpret_cast<char*>(samples->data()), samples->size() * 2,
                static_cast<off_t>(kHeadSize + table));
  }
  ::close(fd);
  if (!ok) return Status::DataError(path + ": not a valid clip file");
  return summary;
}

}  // namespace

StatusOr<Clip> ReadClip(const std::string& path) {
  Clip clip;
  StatusOr<ClipSummary> summary = ReadClipFile(path, &clip.samples);
  if (!summary.ok()) return summary.status();
  clip.sample_rate = summary->sample_rate;
  clip.words = std::move(summary->words);
  return clip;
}

StatusOr<ClipSummary> ReadClipSummary(const std::string& path) {
  return ReadClipFile(path, nullptr);
}

}  // namespace narrate
