// Private to assemble: the pieces of the EPUB 3 writer (WriteEpub in epub.cc).
// The text documents are built as strings from a Script and the timings of
// the manifest, so that each piece can be tested on its own.
//
// Layout of the package (all under OEBPS/ except the container):
//   mimetype, META-INF/container.xml, OEBPS/package.opf, OEBPS/nav.xhtml,
//   OEBPS/narrate.css, OEBPS/cNN.xhtml, OEBPS/cNN.smil, OEBPS/audio/<file>.mp3
//
// Pure functions over value types: thread-compatible, no shared state.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "assemble/records.h"
#include "core/core.h"

namespace narrate {
namespace epub_internal {

// The class a reading system puts on the element being read aloud
// (media:active-class in the package, styled in narrate.css).
inline constexpr char kActiveClass[] = "-epub-media-overlay-active";

// One utterance's clip in its chapter audio file: its times in the manifest,
// clamped to the audio.
struct UtteranceClip {
  int64_t start_ms = 0;  // milliseconds within the chapter file
  int64_t end_ms = 0;
  std::vector<ManifestWord> words;  // as in the manifest
};

// A chapter as it goes into the package.
struct EpubChapter {
  const Chapter* chapter = nullptr;            // not owned; outlives this value
  std::string name;                            // "c01": stem of the XHTML and SMIL documents
  std::string audio;                           // path inside OEBPS/, e.g. "audio/01-chun-tian.mp3"
  std::string audio_path;                      // the MP3 on disk
  int64_t audio_ms = 0;                        // duration of the MP3, milliseconds
  std::map<std::string, UtteranceClip> clips;  // by utterance id
};

// Package-wide metadata.
struct PackageInfo {
  std::string identifier;  // "urn:uuid:..."
  std::string modified;    // "CCYY-MM-DDThh:mm:ssZ"
};

// --- epub_xhtml.cc ---------------------------------------------------------

// Escapes & < > " ' for XML text and attribute values.
std::string XmlEscape(std::string_view text);

// True when the utterance has printed text other than white space: only such
// utterances get an element in the XHTML and a clip in the overlay.
bool HasText(const Utterance& utterance);

// The printed sentence as XHTML: one element with the utterance id (the span
// of a sentence or the h1/h2 of a heading), foreign spans with xml:lang, and
// word spans with ids "<id>-wNN" when `clip` has word timings whose texts are
// found in the sentence in order with nothing but spaces and punctuation
// between them. `words_marked` (may be null) says whether words were marked.
std::string SentenceElement(const Utterance& utterance, const Lang& chapter_lang,
                            const UtteranceClip* clip, bool* words_marked);

// The XHTML content document of a chapter: the title heading as <h1>, other
// headings as <h2>, paragraphs as <p>, every utterance with text an element
// with its id. `words_marked` (may be null) counts utterances marked by word.
std::string ChapterXhtml(const EpubChapter& chapter, int* words_marked);

// The navigation document: chapters and their sections, and landmarks.
std::string NavXhtml(const Script& script, const std::vector<EpubChapter>& chapters);

// The style sheet, with the active-class highlight.
std::string StyleSheet();

// --- epub_package.cc -------------------------------------------------------

// A SMIL clock value "H:MM:SS.mmm" for a time in milliseconds.
std::string ClockValue(int64_t ms);

// The play time of a chapter's overlay: the sum of its clips, milliseconds.
int64_t OverlayDurationMs(const EpubChapter& chapter);

// The Media Overlay of a chapter: one <par> per utterance with text, in
// reading order.
std::string ChapterSmil(const EpubChapter& chapter);

// The package document: metadata (identifier, languages, overlay durations,
// accessibility), manifest and spine.
std::string PackageOpf(const Script& script, const std::vector<EpubChapter>& chapters,
                       const PackageInfo& info);

// META-INF/container.xml pointing to OEBPS/package.opf.
std::string ContainerXml();

// "urn:uuid:..." derived from the title and author: the same book gets the same
// identifier on every build.
std::string BookIdentifier(const std::string& title, const std::string& author);

// The modification date: SOURCE_DATE_EPOCH (seconds since 1970, UTC) when it is
// set to a number, else a fixed date, so that a rebuild gives the same bytes.
// `epoch` receives the same moment in seconds since 1970.
std::string ModifiedTimestamp(int64_t* epoch);

}  // namespace epub_internal
}  // namespace narrate
