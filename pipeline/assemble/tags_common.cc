// Helpers of tags_writer.h that narrate and its TagLib module both use.
#include <unicode/locid.h>

#include <cstdio>

#include "tags_writer.h"

namespace narrate {
namespace assemble_internal {

std::string Iso639Part2(const std::string& language) {
  if (language.empty()) return "und";
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(language, status);
  if (U_FAILURE(status)) return "und";
  const char* code = locale.getISO3Language();
  return code != nullptr && code[0] != '\0' ? code : "und";
}

std::string ChapterTimestamp(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%03lld",
                static_cast<long long>(ms / 3600000), static_cast<long long>(ms / 60000 % 60),
                static_cast<long long>(ms / 1000 % 60), static_cast<long long>(ms % 1000));
  return buf;
}

}  // namespace assemble_internal
}  // namespace narrate
