// libsndfile, loaded when first needed (see sndfile_library.h).
#include "sndfile_library.h"

#include "core/core.h"

namespace narrate {
namespace assemble_internal {

const LibSndfile& Sndfile() {
  static const LibSndfile sndfile = [] {
    LibSndfile l;
    SharedLibrary library({"libsndfile.so.1", NARRATE_SNDFILE_LIBRARY}, "libsndfile",
                          "libsndfile1");
    library.Bind("sf_open", &l.open);
    library.Bind("sf_close", &l.close);
    library.Bind("sf_command", &l.command);
    library.Bind("sf_strerror", &l.strerror);
    library.Bind("sf_error_number", &l.error_number);
    library.Bind("sf_read_short", &l.read_short);
    library.Bind("sf_readf_short", &l.readf_short);
    library.Bind("sf_write_short", &l.write_short);
    library.Bind("sf_write_float", &l.write_float);
    l.error = library.error();
    return l;
  }();
  return sndfile;
}

}  // namespace assemble_internal
}  // namespace narrate
