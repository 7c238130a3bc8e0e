// EPUB 3 with Media Overlays (being written; see assemble.h).
#include "assemble/assemble.h"

namespace narrate {

Status WriteEpub(const Script&, const std::string&, const std::string&, Reporter*) {
  return Status::Failure("EPUB output is not available yet");
}

}  // namespace narrate
