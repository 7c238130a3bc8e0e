// AssembleBook: chapter by chapter, render and master the audio into the stale
// chapter files and the book files (or read it back from a current lossless
// chapter file, or leave it where a reopened WAV book file already has it);
// write the captions; then the cue sheet, report.json and manifest.json.
#include "assemble/assemble.h"

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>

#include "audio_file.h"
#include "master.h"
#include "outputs.h"
#include "qc.h"
#include "records_internal.h"
#include "samples.h"

namespace narrate {
namespace {

using assemble_internal::AudioTags;
using assemble_internal::AudioWriter;
using assemble_internal::ChapterRecord;
using assemble_internal::RecordedUtterance;
using assemble_internal::Stamp;

constexpr const char* kNarrator = "eSpeak NG";

// Everything a chapter's files depend on besides its clips. "chapter 4": the
// limiter's blocks grew (its output moved by a few bits). Bump when the
// rendering of the same clips changes.
std::string ChapterKey(const Script& script, const Chapter& chapter, const std::string& clips_key,
                       const AssembleOptions& o) {
  std::string key = "chapter 4\n" + clips_key + "\n" + script.title + "\n" + script.author + "\n" +
                    chapter.title + "\n" + chapter.lang + "\n" + std::to_string(chapter.index) +
                    "/" + std::to_string(script.chapters.size()) + "\n" +
                    std::to_string(o.sample_rate);
  const PauseOptions& p = o.pauses;
  for (int v :
       {p.head_ms, p.tail_ms, p.sentence_ms, p.paragraph_ms, p.speaker_change_ms, p.heading_ms}) {
    key += "," + std::to_string(v);
  }
  for (const Utterance& u : chapter.utterances) {
    key += "\n" + u.id + " " + std::to_string(u.paragraph) + " " + ToString(u.kind) + " " + u.voice;
  }
  return HexHash(key) + HexHash(key + "#2");
}

using Sink = assemble_internal::StreamMaster::Sink;

// A sink that writes every block to each of `files`, in order.
Sink WriteToAll(const std::vector<AudioWriter*>& files) {
  return [files](const std::vector<int16_t>& block) {
    for (AudioWriter* file : files) {
      Status s = file->Write(block);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  };
}

// Renders a chapter from its clips, masters it (loudness once per file) and
// streams it to `sink` at the output rate. The clips' summaries first (the
// gain needs the whole file's energy), then their samples, one clip at a time.
StatusOr<ChapterRecord> Render(const Chapter& chapter, const ClipSource& clips,
                               const AssembleOptions& options, const Sink& sink) {
  std::vector<ClipSummary> summaries;
  double energy = 0;
  for (size_t i = 0; i < chapter.utterances.size(); ++i) {
    StatusOr<ClipSummary> summary = clips.summary(chapter, i);
    if (!summary.ok()) return summary.status();
    energy += static_cast<double>(summary->energy);
    summaries.push_back(std::move(summary).value());
  }
  StatusOr<ChapterLayout> layout = LayOutChapter(chapter, summaries, options.pauses);
  if (!layout.ok()) return layout.status();
  const double mean_square = energy / std::max<int64_t>(1, layout->length) / (32768.0 * 32768.0);
  int64_t written = 0;
  auto master = assemble_internal::StreamMaster::Create(
      layout->rate, options.sample_rate, mean_square, assemble_internal::MasterOptions(),
      [&](const std::vector<int16_t>& block) {
        written += static_cast<int64_t>(block.size());
        return sink(block);
      },
      options.pool);
  if (!master.ok()) return master.status();
  for (size_t i = 0; i < chapter.utterances.size(); ++i) {
    Status s = (*master)->AddSilence(static_cast<size_t>(layout->silence_before[i]));
    StatusOr<Clip> clip = s.ok() ? clips.load(chapter, i) : StatusOr<Clip>(s);
    if (!clip.ok()) return clip.status();
    if (static_cast<int64_t>(clip->samples.size()) != summaries[i].length) {
      return Status::DataError("the clip of " + chapter.utterances[i].id +
                               " changed while the chapter was assembled");
    }
    s = (*master)->Add(clip->samples.data(), clip->samples.size());
    if (!s.ok()) return s;
  }
  Status s = (*master)->AddSilence(static_cast<size_t>(layout->tail));
  if (!s.ok()) return s;
  StatusOr<FileQc> qc = (*master)->Finish();
  if (!qc.ok()) return qc.status();
  ChapterRecord record;
  record.sample_count = written;
  record.qc = *qc;
  for (size_t i = 0; i < summaries.size(); ++i) {
    const UtteranceTiming& timing = layout->timings[i];
    RecordedUtterance u;
    u.start_ms = timing.start_ms;
    u.end_ms = timing.end_ms;
    for (size_t w = 0; w < timing.word_ms.size(); ++w) {
      u.words.push_back(
          {summaries[i].words[w].text, timing.word_ms[w].first, timing.word_ms[w].second});
    }
    record.utterances.push_back(std::move(u));
  }
  return record;
}

// The manifest entry of a chapter written to `stem` (in out_dir) in `formats`.
ManifestChapter ChapterEntry(const Chapter& chapter, const std::string& stem,
                             const std::vector<std::string>& formats, int64_t duration_ms,
                             int64_t book_start_ms) {
  ManifestChapter entry;
  entry.index = chapter.index;
  entry.title = chapter.title;
  entry.language = chapter.lang;
  entry.source = chapter.source;
  for (const std::string& format : formats) entry.files.push_back(stem + "." + format);
  entry.file = entry.files.front();
  entry.captions = stem + ".vtt";
  entry.book_start_ms = book_start_ms;
  entry.duration_ms = duration_ms;
  return entry;
}

// The manifest entry of an utterance, from where it landed.
ManifestUtterance UtteranceEntry(const Utterance& u, const RecordedUtterance& recorded) {
  ManifestUtterance entry;
  entry.id = u.id;
  entry.chapter = u.chapter;
  entry.paragraph = u.paragraph;
  entry.kind = u.kind;
  entry.lang = u.lang;
  entry.speaker = u.speaker;
  entry.voice = u.voice;
  entry.text = u.text;
  entry.start_ms = recorded.start_ms;
  entry.end_ms = recorded.end_ms;
  entry.words = recorded.words;
  return entry;
}

}  // namespace

StatusOr<AssembleResult> AssembleBook(const Script& script, const ClipSource& clips,
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
  std::vector<std::string> keys;
  for (const Chapter& chapter : script.chapters) {
    keys.push_back(ChapterKey(script, chapter, clips.content_key(chapter), options));
  }
  // The whole-book files. A WAV book file keeps the leading chapters that did
  // not change since the build that wrote it (its stamp lists the chapter
  // keys and lengths it holds): only what follows is written again.
  std::vector<std::unique_ptr<AudioWriter>> book_files;
  std::vector<size_t> book_kept;  // leading chapters each book file keeps
  for (const std::string& format : options.formats) {
    const std::string path = out + "/" + book_stem + "." + format;
    const std::string stamp = cache + "/" + book_stem + "." + format + ".key";
    AudioTags tags{script.title, script.title, script.author, kNarrator, script.lang};
    size_t kept = 0;
    int64_t kept_frames = 0;
    StatusOr<Stamp> held = assemble_internal::ReadStamp(stamp);
    std::remove(stamp.c_str());  // the file is about to change
    if (held.ok() && format == "wav") {
      while (kept < keys.size() && kept < held->chapters.size() &&
             held->chapters[kept].key == keys[kept]) {
        kept_frames += held->chapters[kept].samples;
        ++kept;
      }
    }
    StatusOr<std::unique_ptr<AudioWriter>> w = Status::Failure("");
    if (kept > 0) w = AudioWriter::Resume(path, options.sample_rate, tags, kept_frames);
    if (!w.ok()) {
      kept = 0;
      w = AudioWriter::Open(path, format, options.sample_rate, tags, options.pool);
      if (!w.ok()) return w.status();
    }
    book_files.push_back(std::move(w).value());
    book_kept.push_back(kept);
  }
  Stamp book_stamp;                 // every chapter, for the stamps above
  std::vector<FileQc> chapter_qcs;  // the book's figures are joined from these

  AssembleResult result;
  Manifest& manifest = result.manifest;
  manifest.title = script.title;
  manifest.author = script.author;
  manifest.language = script.lang;
  manifest.sample_rate = options.sample_rate;
  manifest.cue_sheet = book_stem + ".cue";
  std::vector<FileQc>& qcs = result.report.files;
  std::string cue = "TITLE \"" + script.title + "\"\nPERFORMER \"" + script.author + "\"\nFILE \"" +
                    book_stem + "." + options.formats.front() + "\" WAVE\n";
  int64_t book_frames = 0;
  const int rate = options.sample_rate;

  std::vector<std::string> file_stems;  // "NN-<slug>"
  for (const Chapter& chapter : script.chapters) {
    file_stems.push_back(assemble_internal::ChapterFileStem(chapter));
  }
  auto stamp = [&](size_t c, const std::string& format) {
    return cache + "/" + file_stems[c] + "." + format + ".key";
  };
  auto record_path = [&](size_t c) { return cache + "/" + keys[c] + ".json"; };
  // A chapter's cached record (a damaged one, or one of another shape, is a
  // miss), the formats whose file is stale (a file is rewritten unless it
  // exists and was written from this key, which its stamp in the cache says),
  // and a current lossless file the book can read from.
  struct ChapterFiles {
    StatusOr<ChapterRecord> record = Status::Failure("");
    std::vector<std::string> stale;
    std::string lossless;
  };
  auto inspect = [&](size_t c) {
    ChapterFiles files;
    files.record = assemble_internal::ReadChapterRecord(record_path(c));
    if (files.record.ok() &&
        files.record->utterances.size() != script.chapters[c].utterances.size()) {
      files.record = Status::DataError(record_path(c) + ": not the chapter's record");
    }
    for (const std::string& format : options.formats) {
      StatusOr<Stamp> old = assemble_internal::ReadStamp(stamp(c, format));
      const bool current = files.record.ok() && old.ok() && old->chapters.size() == 1 &&
                           old->chapters[0].key == keys[c] &&
                           PathExists(out + "/chapters/" + file_stems[c] + "." + format);
      if (!current) {
        files.stale.push_back(format);
      } else if (files.lossless.empty() && assemble_internal::IsLossless(format)) {
        files.lossless = format;
      }
    }
    return files;
  };
  // Renders chapter c into its stale files and `also` (the book files, or
  // none), then commits and stamps them and keeps its record.
  auto render = [&](size_t c, ChapterFiles* files,
                    const std::vector<AudioWriter*>& also) -> Status {
    const Chapter& chapter = script.chapters[c];
    std::vector<std::unique_ptr<AudioWriter>> written;
    std::vector<AudioWriter*> sinks = also;
    for (const std::string& format : files->stale) {
      AudioTags tags{chapter.title,
                     script.title,
                     script.author,
                     kNarrator,
                     chapter.lang,
                     chapter.index,
                     static_cast<int>(script.chapters.size())};
      auto w = AudioWriter::Open(out + "/chapters/" + file_stems[c] + "." + format, format, rate,
                                 tags, options.pool);
      if (!w.ok()) return w.status();
      sinks.push_back(w->get());
      written.push_back(std::move(w).value());
    }
    StatusOr<ChapterRecord> rendered = Render(chapter, clips, options, WriteToAll(sinks));
    if (!rendered.ok()) return rendered.status();
    files->record = std::move(rendered);
    Status s =
        WriteFileAtomic(record_path(c), assemble_internal::ChapterRecordToJson(*files->record));
    const Stamp written_from{{{keys[c], files->record->sample_count}}};
    for (size_t f = 0; f < written.size() && s.ok(); ++f) {
      s = written[f]->Commit();
      if (s.ok()) {
        s = WriteFileAtomic(stamp(c, files->stale[f]),
                            assemble_internal::StampToJson(written_from));
      }
    }
    return s;
  };

  // While this thread renders a chapter, a task on the pool renders the next
  // ones into their own files (a build has a core to spare once synthesis
  // ends); the book files then read them back, so only with a lossless
  // format. It starts only once this thread has a chapter to render: after a
  // small edit, the one chapter to render is rendered here, straight into the
  // book files too. Chapter states: free, taken here, being rendered ahead,
  // rendered ahead.
  enum Claim { kFree, kHere, kAhead, kAheadDone };
  std::mutex claims_mutex;
  std::condition_variable claims_changed;
  std::vector<Claim> claims(script.chapters.size(), kFree);
  size_t after_busy = 0;  // the chapter after the one rendered here; 0: none yet
  bool main_done = false;
  bool ahead_started = false;
  const bool ahead =
      options.pool != nullptr && script.chapters.size() > 1 &&
      std::any_of(options.formats.begin(), options.formats.end(), assemble_internal::IsLossless);
  auto render_ahead = [&] {
    for (size_t next = 1;;) {
      size_t c;
      {
        std::unique_lock<std::mutex> lock(claims_mutex);
        next = std::max(next, after_busy);
        while (next < claims.size() && claims[next] != kFree) ++next;
        if (main_done || next >= claims.size()) return;
        c = next++;
        claims[c] = kAhead;
      }
      ChapterFiles files = inspect(c);
      // A failure here is left for the main loop, which renders again.
      const bool rendered = !files.stale.empty() && render(c, &files, {}).ok();
      std::lock_guard<std::mutex> lock(claims_mutex);
      claims[c] = rendered ? kAheadDone : kFree;
      claims_changed.notify_all();
    }
  };
  std::optional<TaskGroup> ahead_task;
  if (ahead) ahead_task.emplace(options.pool);
  // However this function returns, the task stops taking chapters (before it
  // is waited for: `ahead_task` is destroyed after this).
  struct StopAhead {
    std::mutex& mutex;
    bool& done;
    ~StopAhead() {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
  } stop_ahead{claims_mutex, main_done};

  for (size_t c = 0; c < script.chapters.size(); ++c) {
    const Chapter& chapter = script.chapters[c];
    const std::string& key = keys[c];
    const std::string stem = "chapters/" + file_stems[c];
    bool rendered_ahead;
    {
      std::unique_lock<std::mutex> lock(claims_mutex);
      claims_changed.wait(lock, [&] { return claims[c] != kAhead; });
      rendered_ahead = claims[c] == kAheadDone;
      if (claims[c] == kFree) claims[c] = kHere;
    }
    ChapterFiles files = inspect(c);
    // The chapter's samples go to its stale files and to the book files.
    std::vector<AudioWriter*> book_sinks;
    for (size_t f = 0; f < book_files.size(); ++f) {
      if (c >= book_kept[f]) book_sinks.push_back(book_files[f].get());
    }
    const bool was_stale = !files.stale.empty();
    if (!was_stale && book_sinks.empty()) {
      // Its files and its part of the book files are current.
    } else if (was_stale || files.lossless.empty()) {
      {
        std::lock_guard<std::mutex> lock(claims_mutex);
        after_busy = c + 1;
        if (ahead && !ahead_started) {
          ahead_started = true;
          ahead_task->Run(render_ahead);
        }
      }
      Status s = render(c, &files, book_sinks);
      if (!s.ok()) return s;
    } else {
      Status read =
          assemble_internal::ForEachBlock(out + "/" + stem + "." + files.lossless, rate,
                                          files.record->sample_count, WriteToAll(book_sinks));
      if (!read.ok()) return read;
    }
    const StatusOr<ChapterRecord>& record = files.record;
    chapter_qcs.push_back(record->qc);
    for (size_t f = 0; f < options.formats.size(); ++f) {
      qcs.push_back(record->qc);
      qcs.back().file = stem + "." + options.formats[f];
      book_files[f]->AddChapter({book_frames, book_frames + record->sample_count, chapter.title});
    }
    book_stamp.chapters.push_back({key, record->sample_count});
    Status s =
        WriteFileAtomic(out + "/" + stem + ".vtt", assemble_internal::ChapterVtt(chapter, *record));
    if (!s.ok()) return s;
    ++(was_stale || rendered_ahead ? result.chapters_rendered : result.chapters_reused);

    const int64_t duration_ms = SamplesToMs(record->sample_count, rate);
    const int64_t book_start_ms = SamplesToMs(book_frames, rate);
    cue += assemble_internal::CueTrack(chapter.index, chapter.title, book_start_ms);
    book_frames += record->sample_count;
    manifest.chapters.push_back(
        ChapterEntry(chapter, stem, options.formats, duration_ms, book_start_ms));
    for (size_t i = 0; i < chapter.utterances.size(); ++i) {
      manifest.utterances.push_back(UtteranceEntry(chapter.utterances[i], record->utterances[i]));
    }
    if (progress) progress(chapter.index);
  }

  for (size_t f = 0; f < options.formats.size(); ++f) {
    Status s = book_files[f]->Commit();
    if (s.ok()) {
      s = WriteFileAtomic(cache + "/" + book_stem + "." + options.formats[f] + ".key",
                          assemble_internal::StampToJson(book_stamp));
    }
    if (!s.ok()) return s;
    const std::string file = book_stem + "." + options.formats[f];
    qcs.push_back(assemble_internal::JoinQc(chapter_qcs, file));
    manifest.book_files.push_back(file);
  }
  Status s = WriteFileAtomic(out + "/" + book_stem + ".cue", cue);
  if (!s.ok()) return s;

  for (FileQc& qc : qcs) qc.failures = assemble_internal::QcFailures(qc);
  result.report.diagnostics = diagnostics;
  s = WriteFileAtomic(out + "/report.json", ReportToJson(result.report));
  if (!s.ok()) return s;
  s = WriteFileAtomic(out + "/manifest.json", ManifestToJson(manifest));
  if (!s.ok()) return s;
  return result;
}

}  // namespace narrate
