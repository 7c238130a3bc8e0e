// Entry point of the `narrate` command; everything else is in narrate_cli.
#include "cli/cli.h"

int main(int argc, char** argv) { return narrate::RunNarrate(argc, argv); }
