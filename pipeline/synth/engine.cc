// What narrate and its synthesis worker say to each other: framing, requests
// and captures (see engine.h).
#include "synth/engine.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
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

std::string EncodeCapture(const Capture& c) {
  std::string out = "K";
  Put<uint64_t>(&out, c.samples.size());
  out.append(reinterpret_cast<const char*>(c.samples.data()), c.samples.size() * 2);
  Put<uint32_t>(&out, static_cast<uint32_t>(c.marks.size()));
  for (const auto& [word, sample] : c.marks) {
    Put<int32_t>(&out, word);
    Put<int64_t>(&out, sample);
  }
  return out;
}

bool DecodeCapture(const std::string& in, Capture* c) {
  if (in.empty() || in[0] != 'K') return false;
  Reader reader{in, 1};
  uint64_t n;
  if (!reader.Get(&n) || n > (in.size() - reader.pos) / 2) return false;
  c->samples.resize(n);
  std::memcpy(c->samples.data(), in.data() + reader.pos, n * 2);
  reader.pos += n * 2;
  uint32_t m;
  if (!reader.Get(&m)) return false;
  for (uint32_t i = 0; i < m; ++i) {
    int32_t word;
    int64_t sample;
    if (!reader.Get(&word) || !reader.Get(&sample)) return false;
    c->marks.emplace_back(word, sample);
  }
  return reader.pos == in.size();
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

}  // namespace synth_internal
}  // namespace narrate
