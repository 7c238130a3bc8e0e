// libpcaudio.so.0 without an audio device, for narrate-synth-worker only.
//
// eSpeak NG 1.51 creates an audio output object when it initializes, even to
// synthesize into memory (AUDIO_OUTPUT_SYNCHRONOUS), and its libpcaudio tries
// PulseAudio for it: that pulls ~28 more libraries into the worker (PulseAudio,
// D-Bus, X11, systemd, codecs) and probes for a sound server, in every worker
// started. The worker never plays audio, so it
// links this library, which has pcaudio's functions (audio.h of pcaudiolib
// 1.1, declared here: its header is not packaged) and no device. Being a
// direct dependency of the worker, found through its RUNPATH, it is loaded
// before libespeak-ng's own dependencies, and libespeak-ng's libpcaudio.so.0
// resolves to it. Opening and writing fail: eSpeak only would in its playback
// modes, which the worker does not use.
#include <cerrno>
#include <cstddef>
#include <cstdint>

extern "C" {

struct audio_object;

audio_object* create_audio_device_object(const char* /*device*/, const char* /*application_name*/,
                                         const char* /*description*/) {
  static char none;  // an object eSpeak only ever hands back to the functions below
  return reinterpret_cast<audio_object*>(&none);
}

int audio_object_open(audio_object* /*object*/, int /*format*/, uint32_t /*rate*/,
                      uint8_t /*channels*/) {
  return ENODEV;
}

void audio_object_close(audio_object* /*object*/) {}

void audio_object_destroy(audio_object* /*object*/) {}

int audio_object_write(audio_object* /*object*/, const void* /*data*/, size_t /*bytes*/) {
  return ENODEV;
}

int audio_object_drain(audio_object* /*object*/) { return 0; }

int audio_object_flush(audio_object* /*object*/) { return 0; }

const char* audio_object_strerror(audio_object* /*object*/, int /*error*/) {
  return "narrate-synth-worker has no audio output";
}

}  // extern "C"
