// The PortAudio AudioSink: a callback-mode output stream at 22050 Hz mono
// int16 whose callback only calls PlaybackFeed::Pull (no allocation, lock or
// I/O), and the device listing for `narrate devices`.
//
// PortAudio is loaded (SharedLibrary) when a preview or a device listing
// first needs it rather than with every start of narrate: it brings along the
// ALSA and JACK libraries, whose loading every command would otherwise pay for.
//
// Thread-safety: PortAudio is loaded once per process and initialized once
// per use (reference counted by PortAudio itself); a sink is used from one
// controlling thread.
#include <fcntl.h>
#include <portaudio.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "preview/preview.h"

namespace narrate {
namespace {

constexpr unsigned long kFramesPerBuffer = 256;  // 11.6 ms at 22050 Hz

// The PortAudio functions narrate calls, from the loaded library.
struct PortAudio {
  decltype(&Pa_Initialize) Initialize = nullptr;
  decltype(&Pa_Terminate) Terminate = nullptr;
  decltype(&Pa_GetErrorText) GetErrorText = nullptr;
  decltype(&Pa_GetDeviceCount) GetDeviceCount = nullptr;
  decltype(&Pa_GetDeviceInfo) GetDeviceInfo = nullptr;
  decltype(&Pa_GetHostApiInfo) GetHostApiInfo = nullptr;
  decltype(&Pa_GetDefaultOutputDevice) GetDefaultOutputDevice = nullptr;
  decltype(&Pa_OpenStream) OpenStream = nullptr;
  decltype(&Pa_StartStream) StartStream = nullptr;
  decltype(&Pa_StopStream) StopStream = nullptr;
  decltype(&Pa_AbortStream) AbortStream = nullptr;
  decltype(&Pa_CloseStream) CloseStream = nullptr;
  decltype(&Pa_IsStreamActive) IsStreamActive = nullptr;
  std::string error;  // why it could not be loaded; empty when it was
};

const PortAudio& Pa() {
  static const PortAudio pa = [] {
    PortAudio p;
    SharedLibrary library({"libportaudio.so.2", NARRATE_PORTAUDIO_LIBRARY}, "PortAudio",
                          "libportaudio2");
    library.Bind("Pa_Initialize", &p.Initialize);
    library.Bind("Pa_Terminate", &p.Terminate);
    library.Bind("Pa_GetErrorText", &p.GetErrorText);
    library.Bind("Pa_GetDeviceCount", &p.GetDeviceCount);
    library.Bind("Pa_GetDeviceInfo", &p.GetDeviceInfo);
    library.Bind("Pa_GetHostApiInfo", &p.GetHostApiInfo);
    library.Bind("Pa_GetDefaultOutputDevice", &p.GetDefaultOutputDevice);
    library.Bind("Pa_OpenStream", &p.OpenStream);
    library.Bind("Pa_StartStream", &p.StartStream);
    library.Bind("Pa_StopStream", &p.StopStream);
    library.Bind("Pa_AbortStream", &p.AbortStream);
    library.Bind("Pa_CloseStream", &p.CloseStream);
    library.Bind("Pa_IsStreamActive", &p.IsStreamActive);
    p.error = library.error();
    return p;
  }();
  return pa;
}

// Pa_Initialize probes JACK and ALSA, which print noise on stderr when there
// is no server or card; keep it quiet unless tracing.
PaError QuietInitialize() {
  if (std::getenv("NARRATE_PREVIEW_TRACE") != nullptr) return Pa().Initialize();
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO);
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved >= 0 && null >= 0) ::dup2(null, STDERR_FILENO);
  const PaError err = Pa().Initialize();
  std::fflush(stderr);
  if (saved >= 0) {
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
  }
  if (null >= 0) ::close(null);
  return err;
}

Status PaFailure(const std::string& what, PaError err) {
  return Status::IoError(what + ": " + Pa().GetErrorText(err));
}

std::string Describe(PaDeviceIndex i) {
  const PaDeviceInfo* info = Pa().GetDeviceInfo(i);
  const PaHostApiInfo* api = Pa().GetHostApiInfo(info->hostApi);
  std::string line = std::to_string(i) + ": " + info->name + " (" + (api ? api->name : "?") + ")";
  if (i == Pa().GetDefaultOutputDevice()) line += " default";
  return line;
}

// The output device `name` designates: empty (default), an index, an exact
// name or a unique substring.
StatusOr<PaDeviceIndex> FindDevice(const std::string& name) {
  if (name.empty()) {
    const PaDeviceIndex d = Pa().GetDefaultOutputDevice();
    if (d == paNoDevice) return Status::IoError("no default audio output device");
    return d;
  }
  const PaDeviceIndex count = Pa().GetDeviceCount();
  if (name.find_first_not_of("0123456789") == std::string::npos) {
    const long i = std::strtol(name.c_str(), nullptr, 10);
    if (i >= 0 && i < count && Pa().GetDeviceInfo(i)->maxOutputChannels > 0) {
      return static_cast<PaDeviceIndex>(i);
    }
  }
  PaDeviceIndex found = paNoDevice;
  int matches = 0;
  for (PaDeviceIndex i = 0; i < count; ++i) {
    const PaDeviceInfo* info = Pa().GetDeviceInfo(i);
    if (info == nullptr || info->maxOutputChannels < 1) continue;
    if (name == info->name) return i;
    if (std::strstr(info->name, name.c_str()) != nullptr) {
      found = i;
      ++matches;
    }
  }
  if (matches == 1) return found;
  return Status::IoError("audio output device '" + name + "' " +
                         (matches ? "is ambiguous" : "not found") + " (see `narrate devices`)");
}

class PortAudioSink : public AudioSink {
 public:
  PortAudioSink() = default;
  ~PortAudioSink() override {
    if (stream_ != nullptr) {
      Pa().AbortStream(stream_);
      Pa().CloseStream(stream_);
    }
    if (initialized_) Pa().Terminate();
  }

  Status Open(const std::string& device) {
    PaError err = QuietInitialize();
    if (err != paNoError) return PaFailure("cannot initialize PortAudio", err);
    initialized_ = true;
    StatusOr<PaDeviceIndex> index = FindDevice(device);
    if (!index.ok()) return index.status();
    device_name_ = Pa().GetDeviceInfo(*index)->name;
    PaStreamParameters out = {};
    out.device = *index;
    out.channelCount = 1;
    out.sampleFormat = paInt16;
    out.suggestedLatency = Pa().GetDeviceInfo(*index)->defaultLowOutputLatency;
    err = Pa().OpenStream(&stream_, nullptr, &out, kPreviewSampleRate, kFramesPerBuffer, paNoFlag,
                          &PortAudioSink::Callback, this);
    if (err != paNoError) {
      stream_ = nullptr;
      return PaFailure("cannot open audio device '" + device_name_ + "' at 22050 Hz mono", err);
    }
    return Status::Ok();
  }

  Status Start(PlaybackFeed* feed) override {
    feed_ = feed;
    const PaError err = Pa().StartStream(stream_);
    if (err != paNoError) return PaFailure("cannot start audio device '" + device_name_ + "'", err);
    started_ = true;
    return Status::Ok();
  }

  Status Stop(bool drain) override {
    if (!started_) return Status::Ok();
    started_ = false;
    // Pa_StopStream lets the device play out what it holds; after the feed's
    // limit the callback has already completed the stream.
    const PaError err = drain ? Pa().StopStream(stream_) : Pa().AbortStream(stream_);
    if (err != paNoError && err != paStreamIsStopped) {
      return PaFailure("audio device '" + device_name_ + "' failed to stop", err);
    }
    return Status::Ok();
  }

  Status Health() override {
    if (!started_) return Status::Ok();
    const PaError active = Pa().IsStreamActive(stream_);
    if (active < 0) return PaFailure("audio device '" + device_name_ + "' failed", active);
    if (active == 0 && !feed_->limit_reached()) {
      return Status::IoError("audio device '" + device_name_ + "' stopped playing");
    }
    return Status::Ok();
  }

 private:
  static int Callback(const void*, void* output, unsigned long frames,
                      const PaStreamCallbackTimeInfo*, PaStreamCallbackFlags, void* self) {
    PlaybackFeed* feed = static_cast<PortAudioSink*>(self)->feed_;
    return feed->Pull(static_cast<int16_t*>(output), frames) ? paContinue : paComplete;
  }

  bool initialized_ = false;
  bool started_ = false;
  PaStream* stream_ = nullptr;
  PlaybackFeed* feed_ = nullptr;
  std::string device_name_;
};

}  // namespace

bool HavePortAudio() { return true; }

StatusOr<std::unique_ptr<AudioSink>> OpenPortAudioSink(const std::string& device) {
  if (!Pa().error.empty()) return Status::Failure(Pa().error);
  auto sink = std::make_unique<PortAudioSink>();
  Status opened = sink->Open(device);
  if (!opened.ok()) return opened;
  return std::unique_ptr<AudioSink>(std::move(sink));
}

StatusOr<std::vector<std::string>> ListOutputDevices() {
  if (!Pa().error.empty()) return Status::Failure(Pa().error);
  PaError err = QuietInitialize();
  if (err != paNoError) return PaFailure("cannot initialize PortAudio", err);
  std::vector<std::string> lines;
  for (PaDeviceIndex i = 0; i < Pa().GetDeviceCount(); ++i) {
    const PaDeviceInfo* info = Pa().GetDeviceInfo(i);
    if (info != nullptr && info->maxOutputChannels > 0) lines.push_back(Describe(i));
  }
  Pa().Terminate();
  return lines;
}

}  // namespace narrate
