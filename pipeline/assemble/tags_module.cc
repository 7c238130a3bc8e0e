// narrate's TagLib module (see tags_writer.h): what it exports.
#include "tags_writer.h"

extern "C" {
extern const narrate::assemble_internal::TagWriters narrate_tag_writers;
const narrate::assemble_internal::TagWriters narrate_tag_writers = {
    &narrate::assemble_internal::TagLibId3Tags, &narrate::assemble_internal::TagLibXiphTags};
}
