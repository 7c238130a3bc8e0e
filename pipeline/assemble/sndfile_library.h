// Private to assemble: libsndfile, loaded (SharedLibrary) the first time
// narrate encodes FLAC, MP3 or Opus or reads an audio file back, not at every
// start: it brings along the codec libraries (FLAC, Vorbis, Opus, mpg123,
// LAME), whose loading every command would otherwise pay for, whether it
// encodes or not. WAV is written without it (audio_file.h). Thread-safe.
#pragma once

#include <sndfile.h>

#include <string>

namespace narrate {
namespace assemble_internal {

// The libsndfile functions narrate uses.
struct LibSndfile {
  decltype(&sf_open) open = nullptr;
  decltype(&sf_close) close = nullptr;
  decltype(&sf_command) command = nullptr;
  decltype(&sf_strerror) strerror = nullptr;
  decltype(&sf_error_number) error_number = nullptr;
  decltype(&sf_read_short) read_short = nullptr;
  decltype(&sf_readf_short) readf_short = nullptr;
  decltype(&sf_write_short) write_short = nullptr;
  decltype(&sf_write_float) write_float = nullptr;
  std::string error;  // why it could not be loaded; empty when it was
};

// Loaded on the first call.
const LibSndfile& Sndfile();

}  // namespace assemble_internal
}  // namespace narrate
