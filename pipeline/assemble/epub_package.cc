// The package side of the EPUB: Media Overlay (SMIL) documents, the package
// document with overlay and accessibility metadata, the container, the
// deterministic identifier and date. Pure functions: thread-compatible (reads
// the SOURCE_DATE_EPOCH environment variable).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "epub_internal.h"

namespace narrate {
namespace epub_internal {
namespace {

// 2000-01-01T00:00:00Z, when SOURCE_DATE_EPOCH is not set.
constexpr int64_t kDefaultEpoch = 946684800;
// 9999-12-31T23:59:59Z: the last moment the date format holds.
constexpr int64_t kLastEpoch = 253402300799;

constexpr char kNarrator[] = "eSpeak NG";
constexpr char kSummary[] =
    "Narrated edition. Every sentence of the printed text is synchronized with "
    "a recording of it read by a synthetic voice (EPUB 3 Media Overlays): a "
    "reading system can read the book aloud while it highlights the sentence "
    "being read. Chapters and their sections are in the table of contents; "
    "quoted speech is marked with its speaker. The text has no images, tables "
    "or formulas, and no content hazards.";

std::string Meta(const std::string& property, const std::string& value,
                 const std::string& extra = "") {
  return "<meta property=\"" + property + "\"" + extra + ">" + XmlEscape(value) + "</meta>\n";
}

}  // namespace

std::string ClockValue(int64_t ms) {
  if (ms < 0) ms = 0;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%" PRId64 ":%02d:%02d.%03d", ms / 3600000,
                static_cast<int>(ms / 60000 % 60), static_cast<int>(ms / 1000 % 60),
                static_cast<int>(ms % 1000));
  return buf;
}

int64_t OverlayDurationMs(const EpubChapter& ec) {
  int64_t total = 0;
  for (const Utterance& u : ec.chapter->utterances) {
    auto clip = ec.clips.find(u.id);
    if (!HasText(u) || clip == ec.clips.end()) continue;
    total += clip->second.end_ms - clip->second.start_ms;
  }
  return total;
}

std::string ChapterSmil(const EpubChapter& ec) {
  const std::string xhtml = ec.name + ".xhtml";
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<smil xmlns=\"http://www.w3.org/ns/SMIL\" "
      "xmlns:epub=\"http://www.idpf.org/2007/ops\" version=\"3.0\">\n<body>\n"
      "<seq id=\"seq-" +
      ec.name + "\" epub:textref=\"" + xhtml + "#" + ec.name + "\" epub:type=\"chapter\">\n";
  const std::string audio = XmlEscape(ec.audio);
  for (const Utterance& u : ec.chapter->utterances) {
    auto clip = ec.clips.find(u.id);
    if (!HasText(u) || clip == ec.clips.end()) continue;
    const std::string id = XmlEscape(u.id);
    out += "<par id=\"par-" + id + "\">\n<text src=\"" + xhtml + "#" + id + "\"/>\n<audio src=\"" +
           audio + "\" clipBegin=\"" + ClockValue(clip->second.start_ms) + "\" clipEnd=\"" +
           ClockValue(clip->second.end_ms) + "\"/>\n</par>\n";
  }
  return out + "</seq>\n</body>\n</smil>\n";
}

std::string PackageOpf(const Script& script, const std::vector<EpubChapter>& chapters,
                       const PackageInfo& info) {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" "
      "unique-identifier=\"book-id\" xml:lang=\"" +
      XmlEscape(script.lang) +
      "\">\n"
      "<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n"
      "<dc:identifier id=\"book-id\">" +
      XmlEscape(info.identifier) + "</dc:identifier>\n<dc:title>" + XmlEscape(script.title) +
      "</dc:title>\n";
  if (!script.author.empty()) {
    out += "<dc:creator id=\"author\">" + XmlEscape(script.author) + "</dc:creator>\n";
  }
  // The book's language first, then every other language of a chapter.
  std::vector<Lang> langs = {script.lang};
  for (const EpubChapter& ec : chapters) {
    const Lang& l = ec.chapter->lang;
    bool seen = l.empty();
    for (const Lang& s : langs) seen = seen || s == l;
    if (!seen) langs.push_back(l);
  }
  for (const Lang& l : langs) out += "<dc:language>" + XmlEscape(l) + "</dc:language>\n";
  out += Meta("dcterms:modified", info.modified);

  int64_t total_ms = 0;
  for (const EpubChapter& ec : chapters) {
    const int64_t ms = OverlayDurationMs(ec);
    total_ms += ms;
    out += Meta("media:duration", ClockValue(ms), " refines=\"#" + ec.name + "-overlay\"");
  }
  out += Meta("media:duration", ClockValue(total_ms));
  out += Meta("media:narrator", kNarrator);
  out += Meta("media:active-class", kActiveClass);

  out += Meta("schema:accessMode", "textual") + Meta("schema:accessMode", "auditory");
  out += Meta("schema:accessModeSufficient", "textual") +
         Meta("schema:accessModeSufficient", "auditory") +
         Meta("schema:accessModeSufficient", "textual,auditory");
  for (const char* feature :
       {"synchronizedAudioText", "structuralNavigation", "tableOfContents", "readingOrder"}) {
    out += Meta("schema:accessibilityFeature", feature);
  }
  out += Meta("schema:accessibilityHazard", "none");
  out += Meta("schema:accessibilitySummary", kSummary, " xml:lang=\"en\"");
  out +=
      "</metadata>\n<manifest>\n"
      "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" "
      "properties=\"nav\"/>\n"
      "<item id=\"css\" href=\"narrate.css\" media-type=\"text/css\"/>\n";
  for (const EpubChapter& ec : chapters) {
    out += "<item id=\"" + ec.name + "\" href=\"" + ec.name +
           ".xhtml\" media-type=\"application/xhtml+xml\" media-overlay=\"" + ec.name +
           "-overlay\"/>\n<item id=\"" + ec.name + "-overlay\" href=\"" + ec.name +
           ".smil\" media-type=\"application/smil+xml\"/>\n<item id=\"" + ec.name +
           "-audio\" href=\"" + XmlEscape(ec.audio) + "\" media-type=\"audio/mpeg\"/>\n";
  }
  out += "</manifest>\n<spine>\n";
  for (const EpubChapter& ec : chapters) out += "<itemref idref=\"" + ec.name + "\"/>\n";
  return out + "</spine>\n</package>\n";
}

std::string ContainerXml() {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<container version=\"1.0\" "
         "xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">\n"
         "<rootfiles>\n<rootfile full-path=\"OEBPS/package.opf\" "
         "media-type=\"application/oebps-package+xml\"/>\n</rootfiles>\n"
         "</container>\n";
}

std::string BookIdentifier(const std::string& title, const std::string& author) {
  const std::string key = "narrate-epub\n" + title + "\n" + author;
  const uint64_t hi = Fnv1a64(key);
  uint64_t lo = Fnv1a64(key, hi ^ 0x9e3779b97f4a7c15ULL);
  // RFC 9562 layout: version 8 (custom), variant 10.
  const uint64_t h = (hi & ~0xf000ULL) | 0x8000ULL;
  lo = (lo & ~(3ULL << 62)) | (2ULL << 62);
  char buf[64];
  std::snprintf(buf, sizeof buf, "urn:uuid:%08x-%04x-%04x-%04x-%012" PRIx64,
                static_cast<unsigned>(h >> 32), static_cast<unsigned>((h >> 16) & 0xffff),
                static_cast<unsigned>(h & 0xffff), static_cast<unsigned>(lo >> 48),
                static_cast<uint64_t>(lo & 0xffffffffffffULL));
  return buf;
}

std::string ModifiedTimestamp(int64_t* epoch) {
  int64_t seconds = kDefaultEpoch;
  if (const char* env = std::getenv("SOURCE_DATE_EPOCH"); env != nullptr && *env) {
    char* end = nullptr;
    const long long v = std::strtoll(env, &end, 10);
    if (*end == '\0' && v >= 0 && v <= kLastEpoch) seconds = v;
  }
  if (epoch != nullptr) *epoch = seconds;
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm = {};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace epub_internal
}  // namespace narrate
