// Private to assemble: making libsndfile's Ogg output deterministic.
// libsndfile 1.2.0 picks a random Ogg stream serial number for every file it
// writes (bytes 14-17 of each page), so two identical encodes differ. This
// rewrites the serial in every page and recomputes each page's CRC.
// Thread-safety: stateless; distinct files may be patched concurrently.
#pragma once

#include <cstdint>
#include <string>

#include "core/core.h"

namespace narrate {
namespace assemble_internal {

// Sets the serial number of every page of the single-stream Ogg file at
// `path`, in place. IoError when it cannot, DataError when it is not Ogg.
Status SetOggSerial(const std::string& path, uint32_t serial);

// A serial derived from `text` (FNV-1a, 32 bits): deterministic, and distinct
// for distinct files of a book, so chapter files can be chained.
uint32_t OggSerialFor(const std::string& text);

}  // namespace assemble_internal
}  // namespace narrate
