// Stand-ins used when narrate is built without PortAudio (portaudio19-dev
// missing at configure time): preview and devices say what is missing.
// Thread-safety: stateless.
#include "preview/preview.h"

namespace narrate {
namespace {

Status Missing() {
  return Status::Failure(
      "narrate was built without PortAudio, so it cannot play sound: install "
      "portaudio19-dev (apt-get install portaudio19-dev) and rebuild");
}

}  // namespace

bool HavePortAudio() { return false; }

StatusOr<std::unique_ptr<AudioSink>> OpenPortAudioSink(const std::string&) { return Missing(); }

StatusOr<std::vector<std::string>> ListOutputDevices() { return Missing(); }

}  // namespace narrate
