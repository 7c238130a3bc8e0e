// The eSpeak NG worker: framing, the capture callback, and fork-per-request.
#include "synth/engine.h"

#include <espeak-ng/speak_lib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace narrate {
namespace synth_internal {
namespace {

// Filled by the eSpeak callback during one synchronous espeak_Synth call.
Capture* g_capture = nullptr;

int OnAudio(short* wav, int count, espeak_EVENT* events) {
  if (g_capture == nullptr) return 0;
  for (espeak_EVENT* e = events; e->type != espeakEVENT_LIST_TERMINATED; ++e) {
    if (e->type == espeakEVENT_MARK && e->id.name && e->id.name[0] == 'w') {
      // Mark names are "w<index>"; `sample` counts from the start of the call.
      g_capture->marks.emplace_back(std::atoi(e->id.name + 1), e->sample);
    }
  }
  if (wav != nullptr && count > 0) {
    g_capture->samples.insert(g_capture->samples.end(), wav, wav + count);
  }
  return 0;
}

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

// Synthesizes in this process (advancing eSpeak's state): "K"+capture or "E".
std::string SynthesizeHere(const EngineRequest& r) {
  if (espeak_SetParameter(espeakRATE, r.rate, 0) != EE_OK ||
      espeak_SetParameter(espeakPITCH, r.pitch, 0) != EE_OK ||
      espeak_SetParameter(espeakRANGE, r.range, 0) != EE_OK ||
      espeak_SetParameter(espeakVOLUME, r.volume, 0) != EE_OK) {
    return "EeSpeak NG rejected the rate, pitch, range or volume";
  }
  Capture capture;
  g_capture = &capture;
  espeak_ERROR err = espeak_Synth(r.ssml.c_str(), r.ssml.size() + 1, 0, POS_CHARACTER, 0,
                                  espeakCHARS_UTF8 | espeakSSML, nullptr, nullptr);
  if (err == EE_OK) err = espeak_Synchronize();
  g_capture = nullptr;
  if (err != EE_OK) {
    return "EeSpeak NG failed to synthesize (error " + std::to_string(err) + ")";
  }
  return EncodeCapture(capture);
}

// Runs SynthesizeHere in a forked child and returns its answer.
std::string SynthesizeInChild(const EngineRequest& r) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return "Ecannot create a socket";
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return "Ecannot fork a synthesis process";
  }
  if (pid == 0) {
    ::close(fds[0]);
    ::_exit(WriteFrame(fds[1], SynthesizeHere(r)) ? 0 : 1);
  }
  ::close(fds[1]);
  std::string answer;
  const bool got = ReadFrame(fds[0], &answer);
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return "Ethe eSpeak NG synthesis process died (voice '" + r.voice + "')";
  }
  return answer;
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

int RunEngine(int fd) {
  if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr, espeakINITIALIZE_DONT_EXIT) !=
      22050) {
    WriteFrame(fd, "Ecannot initialize eSpeak NG (is espeak-ng-data installed?)");
    return 1;
  }
  espeak_SetSynthCallback(OnAudio);
  if (!WriteFrame(fd, "R")) return 1;
  std::string current_voice, frame;
  while (ReadFrame(fd, &frame)) {
    EngineRequest r;
    std::string answer;
    if (!DecodeRequest(frame, &r)) {
      answer = "Ea garbled request reached the synthesis worker";
    } else if (r.voice != current_voice &&
               espeak_SetVoiceByName(r.voice.c_str()) != EE_OK) {
      // A failed switch keeps the previous voice inside eSpeak: never use it.
      current_voice.clear();
      answer = "EeSpeak NG has no voice '" + r.voice + "'";
    } else {
      current_voice = r.voice;
      answer = SynthesizeInChild(r);
    }
    if (!WriteFrame(fd, answer)) return 1;
  }
  espeak_Terminate();
  return 0;
}

}  // namespace synth_internal
}  // namespace narrate
