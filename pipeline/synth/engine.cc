// What narrate and its synthesis worker say to each other: framing, requests
// and captures (see engine.h).
#include "engine.h"

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace narrate {
namespace synth_internal {
namespace {

template <typename T>
void Put(std::string* out, T v) {
  out->append(reinterpret_cast<const char*>(&v), sizeof v);
}

struct Reader {
  const std::string& in;
  size_t pos;
  template <typename T>
  bool Get(T* v) {
    if (pos + sizeof(T) > in.size()) return false;
    std::memcpy(v, in.data() + pos, sizeof(T));
    pos += sizeof(T);
    return true;
  }
};

bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool ReadAll(int fd, char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string EncodeRequest(const EngineRequest& r) {
  std::string out;
  for (int v : {r.rate, r.pitch, r.range, r.volume}) Put<int32_t>(&out, v);
  Put<uint32_t>(&out, static_cast<uint32_t>(r.voice.size()));
  return out + r.voice + r.ssml;
}

bool DecodeRequest(const std::string& in, EngineRequest* r) {
  Reader reader{in, 0};
  int32_t v[4];
  uint32_t voice_size;
  for (int32_t& x : v) {
    if (!reader.Get(&x)) return false;
  }
  if (!reader.Get(&voice_size) || reader.pos + voice_size > in.size()) return false;
  r->rate = v[0];
  r->pitch = v[1];
  r->range = v[2];
  r->volume = v[3];
  r->voice = in.substr(reader.pos, voice_size);
  r->ssml = in.substr(reader.pos + voice_size);
  return true;
}

bool WriteFrame(int fd, const std::string& bytes) {
  const uint32_t size = static_cast<uint32_t>(bytes.size());
  return WriteAll(fd, reinterpret_cast<const char*>(&size), sizeof size) &&
         WriteAll(fd, bytes.data(), bytes.size());
}

bool ReadFrame(int fd, std::string* bytes) {
  uint32_t size;
  if (!ReadAll(fd, reinterpret_cast<char*>(&size), sizeof size)) return false;
  bytes->resize(size);
  return ReadAll(fd, &(*bytes)[0], size);
}

// A capture's frame: "K", the sample count (u64), the mark count (u32), then
// each mark's word (i32) and sample (i64).
bool WriteCapture(int fd, const Capture& c) {
  std::string frame = "K";
  Put<uint64_t>(&frame, c.count);
  Put<uint32_t>(&frame, static_cast<uint32_t>(c.marks.size()));
  for (const auto& [word, sample] : c.marks) {
    Put<int32_t>(&frame, word);
    Put<int64_t>(&frame, sample);
  }
  return WriteFrame(fd, frame);
}

bool ReadAnswer(int fd, Capture* c, std::string* error) {
  std::string frame;
  if (!ReadFrame(fd, &frame) || frame.empty()) return false;
  if (frame[0] == 'E') {
    *error = frame.size() > 1 ? frame.substr(1) : "the synthesis worker failed";
    return true;
  }
  Reader reader{frame, 1};
  uint64_t count;
  uint32_t m;
  if (frame[0] != 'K' || !reader.Get(&count) || !reader.Get(&m) ||
      frame.size() != reader.pos + 12 * uint64_t{m}) {
    return false;
  }
  c->count = static_cast<size_t>(count);
  c->marks.clear();
  for (uint32_t i = 0; i < m; ++i) {
    int32_t word = 0;
    int64_t sample = 0;
    if (!reader.Get(&word) || !reader.Get(&sample)) return false;
    c->marks.emplace_back(word, sample);
  }
  return true;
}

std::unique_ptr<SampleBuffer> SampleBuffer::Create() {
  const int fd = ::memfd_create("narrate-samples", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  return std::unique_ptr<SampleBuffer>(new SampleBuffer(fd));
}

std::unique_ptr<SampleBuffer> SampleBuffer::Adopt(int fd) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return nullptr;
  return std::unique_ptr<SampleBuffer>(new SampleBuffer(fd));
}

SampleBuffer::~SampleBuffer() {
  if (data_ != nullptr) ::munmap(data_, mapped_);
  ::close(fd_);
}

bool SampleBuffer::Map(size_t bytes) {
  void* m = data_ == nullptr ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0)
                             : ::mremap(data_, mapped_, bytes, MREMAP_MAYMOVE);
  if (m == MAP_FAILED) return false;
  data_ = static_cast<int16_t*>(m);
  mapped_ = bytes;
  return true;
}

bool SampleBuffer::Reserve(size_t count) {
  if (count > (SIZE_MAX >> 2)) return false;
  const size_t bytes = count * sizeof(int16_t);
  if (bytes <= mapped_) return true;
  // At least 4 MB (95 s) and doubling, so that growing is rare.
  const size_t want = std::max({bytes, mapped_ * 2, size_t{4} << 20});
  struct stat st;
  if (::fstat(fd_, &st) != 0) return false;
  if (static_cast<size_t>(st.st_size) < want && ::ftruncate(fd_, static_cast<off_t>(want)) != 0) {
    return false;
  }
  return Map(std::max(want, static_cast<size_t>(st.st_size)));
}

bool SampleBuffer::Expose(size_t count) {
  if (count > (SIZE_MAX >> 2)) return false;
  const size_t bytes = count * sizeof(int16_t);
  if (bytes <= mapped_) return true;
  struct stat st;
  if (::fstat(fd_, &st) != 0 || static_cast<size_t>(st.st_size) < bytes) return false;
  return Map(static_cast<size_t>(st.st_size));
}

}  // namespace synth_internal
}  // namespace narrate
