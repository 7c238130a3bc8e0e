// WriteEpub: the accessible edition, an EPUB 3 with Media Overlays (issue 7).
// Takes the manifest AssembleBook returned and reads the chapter MP3s it
// wrote, checks that they belong to the script, and packages text, overlays
// and audio.
// The documents themselves are built in epub_xhtml.cc and epub_package.cc.
// Thread-compatible: no shared state.
#include <algorithm>
#include <map>

#include "assemble/assemble.h"
#include "epub_internal.h"
#include "epub_zip.h"
#include "sndfile_library.h"

namespace narrate {
namespace {

using epub_internal::EpubChapter;
using epub_internal::UtteranceClip;
using epub_internal::ZipEntry;

constexpr char kRebuild[] = "run narrate build with --epub";

std::string ChapterLabel(const Chapter& chapter) {
  return "chapter " + std::to_string(chapter.index) + " \"" + chapter.title + "\"";
}

// The duration of an MP3 as decoded, milliseconds.
StatusOr<int64_t> AudioDurationMs(const std::string& path) {
  const assemble_internal::LibSndfile& sf = assemble_internal::Sndfile();
  if (!sf.error.empty()) return Status::Failure(path + ": " + sf.error);
  SF_INFO info = {};
  SNDFILE* f = sf.open(path.c_str(), SFM_READ, &info);
  if (f == nullptr) {
    return Status::DataError(path + ": not a readable MP3 (" + sf.strerror(nullptr) +
                             "): " + kRebuild);
  }
  sf_count_t frames = info.frames;
  if (frames <= 0 || frames == SF_COUNT_MAX) {  // length unknown: decode it
    frames = 0;
    std::vector<short> buf(4096 * std::max(1, info.channels));
    sf_count_t n;
    while ((n = sf.readf_short(f, buf.data(), 4096)) > 0) frames += n;
  }
  sf.close(f);
  if (info.samplerate <= 0 || frames <= 0) {
    return Status::DataError(path + ": MP3 has no audio: " + kRebuild);
  }
  return static_cast<int64_t>(frames * 1000 / info.samplerate);
}

// The manifest's timings of one chapter's utterances, checked against the
// script and clamped to the audio: in reading order, no overlap, within
// [0, limit_ms].
Status ReadClips(const Chapter& chapter,
                 const std::map<std::string, const ManifestUtterance*>& by_id, int64_t limit_ms,
                 const std::string& manifest_path, const std::string& audio_path,
                 Reporter* reporter, EpubChapter* ec) {
  int64_t previous_end = 0;
  for (const Utterance& u : chapter.utterances) {
    if (!epub_internal::HasText(u)) continue;
    auto it = by_id.find(u.id);
    if (it == by_id.end()) {
      return Status::DataError(manifest_path + ": no timing for utterance " + u.id + " of " +
                               ChapterLabel(chapter) + ": the manifest is from another build; " +
                               kRebuild);
    }
    const ManifestUtterance& m = *it->second;
    UtteranceClip clip;
    clip.start_ms = m.start_ms;
    clip.end_ms = m.end_ms;
    const int64_t start = std::max(clip.start_ms, previous_end);
    const int64_t end = std::min(clip.end_ms, limit_ms);
    if (end <= start) {
      return Status::DataError(manifest_path + ": utterance " + u.id + " (" +
                               std::to_string(clip.start_ms) + "-" + std::to_string(clip.end_ms) +
                               " ms) lies outside " + audio_path + " (" + std::to_string(limit_ms) +
                               " ms) or overlaps the one before: " + kRebuild);
    }
    if (end - start + 1 < clip.end_ms - clip.start_ms) {
      reporter->Report({Severity::kWarning, manifest_path, 0,
                        "utterance " + u.id + " clip shortened to " + std::to_string(start) + "-" +
                            std::to_string(end) + " ms to fit " + audio_path});
    }
    clip.start_ms = start;
    clip.end_ms = end;
    clip.words = m.words;
    previous_end = end;
    ec->clips[u.id] = std::move(clip);
  }
  return Status::Ok();
}

// Everything that goes into the package for one chapter, from the manifest.
StatusOr<EpubChapter> LoadChapter(const Chapter& chapter, const Manifest& manifest,
                                  const std::map<std::string, const ManifestUtterance*>& by_id,
                                  const std::string& out_dir, Reporter* reporter) {
  const std::string manifest_path = out_dir + "/manifest.json";
  const ManifestChapter* entry = nullptr;
  for (const ManifestChapter& c : manifest.chapters) {
    if (c.index == chapter.index) entry = &c;
  }
  if (entry == nullptr) {
    return Status::DataError(manifest_path + ": " + ChapterLabel(chapter) +
                             " is not in the manifest: " + kRebuild);
  }
  std::string mp3;
  for (const std::string& name : entry->files) {
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".mp3") == 0) mp3 = name;
  }
  if (mp3.empty()) {
    return Status::DataError(manifest_path + ": no MP3 audio built yet for " +
                             ChapterLabel(chapter) + ": " + kRebuild);
  }
  EpubChapter ec;
  ec.chapter = &chapter;
  char name[16];
  std::snprintf(name, sizeof name, "c%02d", chapter.index);
  ec.name = name;
  ec.audio = "audio/" + BaseName(mp3);
  ec.audio_path = out_dir + "/" + mp3;
  if (!IsRegularFile(ec.audio_path)) {
    return Status::DataError(ec.audio_path + ": no audio built yet for " + ChapterLabel(chapter) +
                             ": " + kRebuild);
  }
  StatusOr<int64_t> ms = AudioDurationMs(ec.audio_path);
  if (!ms.ok()) return ms.status();
  ec.audio_ms = *ms;
  const int64_t limit = std::min(ec.audio_ms, entry->duration_ms);
  Status s = ReadClips(chapter, by_id, limit, manifest_path, ec.audio_path, reporter, &ec);
  if (!s.ok()) return s;
  return ec;
}

StatusOr<std::vector<EpubChapter>> LoadChapters(const Script& script, const Manifest& manifest,
                                                const std::string& out_dir, Reporter* reporter) {
  std::map<std::string, const ManifestUtterance*> by_id;
  for (const ManifestUtterance& u : manifest.utterances) by_id[u.id] = &u;
  std::vector<EpubChapter> chapters;
  for (const Chapter& chapter : script.chapters) {
    StatusOr<EpubChapter> ec = LoadChapter(chapter, manifest, by_id, out_dir, reporter);
    if (!ec.ok()) return ec.status();
    chapters.push_back(std::move(ec).value());
  }
  return chapters;
}

}  // namespace

Status WriteEpub(const Script& script, const Manifest& manifest, const std::string& out_dir,
                 const std::string& stem, Reporter* reporter) {
  CollectingReporter ignored;
  if (reporter == nullptr) reporter = &ignored;
  if (script.chapters.empty()) {
    return Status::DataError(script.title + ": the book has no chapters");
  }
  // A chapter without text would make an empty, unplayable document.
  for (const Chapter& chapter : script.chapters) {
    bool has_text = false;
    for (const Utterance& u : chapter.utterances) {
      const bool title = u.kind == UtteranceKind::kHeading && u.paragraph == 0;
      has_text = has_text || (!title && epub_internal::HasText(u));
    }
    if (!has_text) {
      return Status::DataError(chapter.source + ": " + ChapterLabel(chapter) +
                               " has no text besides its title: nothing to put in the "
                               "EPUB");
    }
  }
  StatusOr<std::vector<EpubChapter>> chapters = LoadChapters(script, manifest, out_dir, reporter);
  if (!chapters.ok()) return chapters.status();

  epub_internal::PackageInfo info;
  int64_t epoch = 0;
  info.modified = epub_internal::ModifiedTimestamp(&epoch);
  info.identifier = epub_internal::BookIdentifier(script.title, script.author);

  std::vector<ZipEntry> entries = {
      {"mimetype", "application/epub+zip", "", true},
      {"META-INF/container.xml", epub_internal::ContainerXml(), "", false},
      {"OEBPS/package.opf", epub_internal::PackageOpf(script, *chapters, info), "", false},
      {"OEBPS/nav.xhtml", epub_internal::NavXhtml(script, *chapters), "", false},
      {"OEBPS/narrate.css", epub_internal::StyleSheet(), "", false},
  };
  int sentences = 0, by_word = 0;
  for (const EpubChapter& ec : *chapters) {
    int marked = 0;
    entries.push_back(
        {"OEBPS/" + ec.name + ".xhtml", epub_internal::ChapterXhtml(ec, &marked), "", false});
    entries.push_back({"OEBPS/" + ec.name + ".smil", epub_internal::ChapterSmil(ec), "", false});
    sentences += static_cast<int>(ec.clips.size());
    by_word += marked;
  }
  for (const EpubChapter& ec : *chapters) {
    entries.push_back({"OEBPS/" + ec.audio, "", ec.audio_path, true});
  }
  const std::string path = out_dir + "/" + stem + ".epub";
  Status s = epub_internal::WriteZip(path, entries, epoch);
  if (!s.ok()) return s;
  reporter->Report({Severity::kInfo, path, 0,
                    "EPUB 3 with Media Overlays: " + std::to_string(chapters->size()) +
                        " chapters, " + std::to_string(sentences) + " synchronized sentences, " +
                        std::to_string(by_word) + " of them marked word by word"});
  return Status::Ok();
}

}  // namespace narrate
