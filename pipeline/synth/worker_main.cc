// narrate-synth-worker: the process that owns eSpeak NG. Started by
// narrate's Synth with a socket on file descriptor 3; not meant to be run by hand.
#include "synth/engine.h"

int main() { return narrate::synth_internal::RunEngine(3); }
