// AssembleBook: chapter by chapter, render (or reuse) and master the audio,
// write the chapter files and captions, append to the whole-book files; then
// the cue sheet, report.json and manifest.json.
#include "assemble/assemble.h"

#include <sys/stat.h>

#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "assemble/audio_file.h"
#include "assemble/master.h"
#include "assemble/outputs.h"
#include "assemble/qc.h"

namespace narrate {
namespace {

using assemble_internal::AudioTags;
using assemble_internal::AudioWriter;
using assemble_internal::MasteredChapter;
using assemble_internal::QcMeter;
using nlohmann::json;

constexpr const char* kNarrator = "eSpeak NG";

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Everything a chapter's files depend on besides its clips.
std::string ChapterKey(const Script& script, const Chapter& chapter,
                       const std::string& clips_key, const AssembleOptions& o) {
  std::string key = "chapter 2\n" + clips_key + "\n" + script.title + "\n" +
                    script.author + "\n" + chapter.title + "\n" + chapter.lang + "\n" +
                    std::to_string(chapter.index) + "/" +
                    std::to_string(script.chapters.size()) + "\n" +
                    std::to_string(o.sample_rate);
  const PauseOptions& p = o.pauses;
  for (int v : {p.head_ms, p.tail_ms, p.sentence_ms, p.paragraph_ms, p.speaker_change_ms,
                p.heading_ms}) {
    key += "," + std::to_string(v);
  }
  for (const Utterance& u : chapter.utterances) {
    key += "\n" + u.id + " " + std::to_string(u.paragraph) + " " + ToString(u.kind) +
           " " + u.voice;
  }
  return HexHash(key) + HexHash(key + "#2");
}

// Renders and masters a chapter from its clips.
StatusOr<MasteredChapter> Render(const Chapter& chapter, const ClipSource& clips,
                                 const AssembleOptions& options) {
  StatusOr<std::vector<Clip>> loaded = clips.load(chapter);
  if (!loaded.ok()) return loaded.status();
  StatusOr<RenderedChapter> rendered = RenderChapter(chapter, *loaded, options);
  if (!rendered.ok()) return rendered.status();
  MasteredChapter out;
  out.samples = std::move(rendered->samples);
  out.timings = std::move(rendered->timings);
  for (const Clip& clip : *loaded) {
    std::vector<std::string> texts;
    for (const WordTiming& w : clip.words) texts.push_back(w.text);
    out.word_texts.push_back(std::move(texts));
  }
  // Loudness is set once per file, here, never per sentence.
  assemble_internal::Master(&out.samples, options.sample_rate,
                            assemble_internal::MasterOptions());
  return out;
}

Status WriteAudio(const std::string& path, const std::string& format, int rate,
                  const AudioTags& tags, const std::vector<int16_t>& samples) {
  auto w = AudioWriter::Open(path, format, rate, tags);
  if (!w.ok()) return w.status();
  Status s = (*w)->Write(samples);
  return s.ok() ? (*w)->Commit() : s;
}

}  // namespace

std::string ChapterFileStem(const Chapter& chapter) {
  char num[16];
  std::snprintf(num, sizeof num, "%02d-", chapter.index);
  return num + assemble_internal::Slug(chapter.title);
}

StatusOr<AssembleStats> AssembleBook(const Script& script, const ClipSource& clips,
                                     const AssembleOptions& options,
                                     const std::vector<Diagnostic>& diagnostics,
                                     const std::function<void(int)>& progress) {
  const std::string& out = options.out_dir;
  const std::string cache =
      (options.cache_dir.empty() ? out + "/.cache" : options.cache_dir) + "/chapters";
  for (const std::string& dir : {out + "/chapters", cache}) {
    Status made = MakeDirs(dir);
    if (!made.ok()) return made;
  }

  // The manifest says a build finished: none while this one is under way.
  std::remove((out + "/manifest.json").c_str());

  const std::string book_stem = assemble_internal::Slug(script.title);
  std::vector<std::unique_ptr<AudioWriter>> book_files;
  for (const std::string& format : options.formats) {
    AudioTags tags{script.title, script.title, script.author, kNarrator, script.lang};
    auto w = AudioWriter::Open(out + "/" + book_stem + "." + format, format,
                               options.sample_rate, tags);
    if (!w.ok()) return w.status();
    book_files.push_back(std::move(w).value());
  }
  std::vector<FileQc> chapter_qcs;  // the book's figures are joined from these

  json manifest = {{"title", script.title},
                   {"author", script.author},
                   {"language", script.lang},
                   {"sample_rate", options.sample_rate},
                   {"book_files", json::array()},
                   {"cue_sheet", book_stem + ".cue"},
                   {"chapters", json::array()},
                   {"utterances", json::array()}};
  AssembleStats stats;
  std::string cue = "TITLE \"" + script.title + "\"\nPERFORMER \"" + script.author +
                    "\"\nFILE \"" + book_stem + "." + options.formats.front() + "\" WAVE\n";
  int64_t book_frames = 0;
  const int rate = options.sample_rate;

  for (const Chapter& chapter : script.chapters) {
    const std::string key = ChapterKey(script, chapter, clips.content_key(chapter), options);
    StatusOr<MasteredChapter> audio = assemble_internal::LoadMastered(cache, key);
    const bool reused = audio.ok();
    if (!reused) {
      audio = Render(chapter, clips, options);
      if (!audio.ok()) return audio.status();
      audio->sample_count = static_cast<int64_t>(audio->samples.size());
      // Measured once: every format of the chapter holds the same samples.
      QcMeter meter(rate);
      meter.Add(audio->samples);
      audio->qc = meter.Finish("");
      Status saved = assemble_internal::SaveMastered(cache, key, *audio);
      if (!saved.ok()) return saved;
    }
    const std::string stem = "chapters/" + ChapterFileStem(chapter);
    chapter_qcs.push_back(audio->qc);
    bool wrote = false;
    for (size_t f = 0; f < options.formats.size(); ++f) {
      const std::string file = stem + "." + options.formats[f];
      // A file is rewritten unless it exists and was written from this key.
      const std::string stamp = cache + "/" + ChapterFileStem(chapter) + "." +
                                options.formats[f] + ".key";
      StatusOr<std::string> old_key = ReadFile(stamp);
      if (!reused || !old_key.ok() || *old_key != key || !Exists(out + "/" + file)) {
        if (audio->samples.empty()) {
          Status loaded = assemble_internal::LoadMasteredSamples(cache, key, &*audio);
          if (!loaded.ok()) return loaded;
        }
        AudioTags tags{chapter.title, script.title, script.author, kNarrator, chapter.lang,
                       chapter.index, static_cast<int>(script.chapters.size())};
        Status s = WriteAudio(out + "/" + file, options.formats[f], rate, tags, audio->samples);
        if (s.ok()) s = WriteFileAtomic(stamp, key);
        if (!s.ok()) return s;
        wrote = true;
      }
      stats.files.push_back(audio->qc);
      stats.files.back().file = file;
      book_files[f]->AddChapter({book_frames, book_frames + audio->sample_count, chapter.title});
    }
    // Into the whole-book files: from memory, or streamed from the cache.
    auto append = [&](const std::vector<int16_t>& block) {
      for (auto& book : book_files) {
        Status s = book->Write(block);
        if (!s.ok()) return s;
      }
      return Status::Ok();
    };
    Status appended = audio->samples.empty()
                          ? assemble_internal::ForEachMasteredBlock(cache, key, append)
                          : append(audio->samples);
    if (!appended.ok()) return appended;
    Status s = WriteFileAtomic(out + "/" + stem + ".vtt",
                               assemble_internal::ChapterVtt(chapter, *audio));
    if (!s.ok()) return s;
    ++(wrote || !reused ? stats.chapters_rendered : stats.chapters_reused);

    const int64_t duration_ms = SamplesToMs(audio->sample_count, rate);
    const int64_t book_start_ms = SamplesToMs(book_frames, rate);
    cue += assemble_internal::CueTrack(chapter.index, chapter.title, book_start_ms);
    book_frames += audio->sample_count;
    manifest["chapters"].push_back(assemble_internal::ChapterJson(
        chapter, stem, options.formats, duration_ms, book_start_ms));
    for (size_t i = 0; i < chapter.utterances.size(); ++i) {
      manifest["utterances"].push_back(assemble_internal::UtteranceJson(
          chapter.utterances[i], audio->timings[i], audio->word_texts[i]));
    }
    if (progress) progress(chapter.index);
  }

  for (size_t f = 0; f < options.formats.size(); ++f) {
    Status s = book_files[f]->Commit();
    if (!s.ok()) return s;
    const std::string file = book_stem + "." + options.formats[f];
    stats.files.push_back(assemble_internal::JoinQc(chapter_qcs, file));
    manifest["book_files"].push_back(file);
  }
  Status s = WriteFileAtomic(out + "/" + book_stem + ".cue", cue);
  if (!s.ok()) return s;

  json report = {{"files", json::array()}, {"diagnostics", json::array()}};
  for (FileQc& qc : stats.files) {
    qc.failures = assemble_internal::QcFailures(qc);
    report["files"].push_back(assemble_internal::QcJson(qc));
  }
  for (const Diagnostic& d : diagnostics) {
    report["diagnostics"].push_back(assemble_internal::DiagnosticJson(d));
  }
  s = WriteFileAtomic(out + "/report.json", report.dump(2) + "\n");
  if (!s.ok()) return s;
  s = WriteFileAtomic(out + "/manifest.json", manifest.dump(2) + "\n");
  if (!s.ok()) return s;
  return stats;
}

}  // namespace narrate
