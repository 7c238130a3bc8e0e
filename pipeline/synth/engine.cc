// What narrate and its synthesis worker say to each other: framing, requests
// and captures (see engine.h).
#include "synth/engine.h"

#include <sys/socket.h>
#include <unistd.h>

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

// A capture's frame: "K", the sample count (u64), the samples, the mark count
// (u32), then each mark's word (i32) and sample (i64).
bool WriteCapture(int fd, const Capture& c) {
  const uint64_t n = c.samples.size();
  const uint64_t size = 1 + 8 + 2 * n + 4 + 12 * c.marks.size();
  if (size > UINT32_MAX) return false;
  std::string head;
  Put<uint32_t>(&head, static_cast<uint32_t>(size));
  head += 'K';
  Put<uint64_t>(&head, n);
  std::string tail;
  Put<uint32_t>(&tail, static_cast<uint32_t>(c.marks.size()));
  for (const auto& [word, sample] : c.marks) {
    Put<int32_t>(&tail, word);
    Put<int64_t>(&tail, sample);
  }
  return WriteAll(fd, head.data(), head.size()) &&
         WriteAll(fd, reinterpret_cast<const char*>(c.samples.data()), 2 * n) &&
         WriteAll(fd, tail.data(), tail.size());
}

bool ReadAnswer(int fd, Capture* c, std::string* error) {
  uint32_t size;
  char kind;
  if (!ReadAll(fd, reinterpret_cast<char*>(&size), sizeof size) || size < 1 ||
      !ReadAll(fd, &kind, 1)) {
    return false;
  }
  if (kind == 'E') {
    error->resize(size - 1);
    if (!ReadAll(fd, &(*error)[0], size - 1)) return false;
    if (error->empty()) *error = "the synthesis worker failed";
    return true;
  }
  uint64_t n;
  uint32_t m;
  if (kind != 'K' || size < 1 + 8 + 4 || !ReadAll(fd, reinterpret_cast<char*>(&n), sizeof n) ||
      n > (size - 1 - 8 - 4) / 2) {
    return false;
  }
  c->samples.resize(n);
  if (!ReadAll(fd, reinterpret_cast<char*>(c->samples.data()), 2 * n) ||
      !ReadAll(fd, reinterpret_cast<char*>(&m), sizeof m) ||
      size != 1 + 8 + 2 * n + 4 + 12 * uint64_t{m}) {
    return false;
  }
  std::string table(12 * size_t{m}, '\0');
  if (!ReadAll(fd, &table[0], table.size())) return false;
  Reader reader{table, 0};
  c->marks.clear();
  for (uint32_t i = 0; i < m; ++i) {
    int32_t word = 0;
    int64_t sample = 0;
    if (!reader.Get(&word) || !reader.Get(&sample)) return false;
    c->marks.emplace_back(word, sample);
  }
  return true;
}

}  // namespace synth_internal
}  // namespace narrate
