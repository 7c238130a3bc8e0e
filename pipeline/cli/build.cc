// The build orchestration: book -> script -> clips -> chapter files.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "assemble/assemble.h"
#include "cli/cli.h"
#include "ingest/ingest.h"
#include "markup/markup.h"
#include "normalize/normalize.h"
#include "synth/synth.h"

namespace narrate {
namespace {

std::string Seconds(double s);

// Progress on stderr: a line per stage, and on a terminal a bar rewritten in
// place, with every count of the stage (utterances synthesized, chapters
// assembled) and the time left estimated from the pace of the least advanced.
// Thread-safe: synthesis and assembly report from their own threads.
class Progress {
 public:
  Progress() : tty_(::isatty(STDERR_FILENO) == 1) {}
  void Stage(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    ClearLocked();
    std::fprintf(stderr, "%s\n", what.c_str());
    stage_start_ = std::chrono::steady_clock::now();
    counts_.clear();
  }
  void Count(const std::string& what, int done, int total) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!tty_) return;
    auto found = std::find_if(counts_.begin(), counts_.end(),
                              [&](const Counter& c) { return c.what == what; });
    if (found == counts_.end()) found = counts_.insert(counts_.end(), {what, 0, 0});
    found->done = done;
    found->total = total;
    // The bar and the estimate follow the least advanced count.
    const Counter* slowest = &counts_.front();
    for (const Counter& c : counts_) {
      if (c.done * int64_t{slowest->total} < slowest->done * int64_t{c.total}) slowest = &c;
    }
    const int width = 30;
    const int filled = slowest->total ? slowest->done * width / slowest->total : width;
    std::string line = "  [" + std::string(filled, '#') + std::string(width - filled, '.') + "]";
    for (const Counter& c : counts_) {
      line += " " + c.what + " " + std::to_string(c.done) + "/" + std::to_string(c.total);
    }
    const double elapsed = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - stage_start_).count();
    if (slowest->done > 0 && slowest->done < slowest->total && elapsed > 1.0) {
      line += ", about " + Seconds(elapsed / slowest->done * (slowest->total - slowest->done)) +
              " left";
    }
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    dirty_ = true;
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    ClearLocked();
  }

 private:
  struct Counter {
    std::string what;
    int done, total;
  };
  void ClearLocked() {
    if (dirty_) std::fprintf(stderr, "\r\033[K");
    dirty_ = false;
  }
  std::mutex mutex_;
  bool tty_;
  bool dirty_ = false;
  std::vector<Counter> counts_;
  std::chrono::steady_clock::time_point stage_start_ = std::chrono::steady_clock::now();
};

std::string Seconds(double s) {
  char buf[32];
  if (s >= 60) {
    std::snprintf(buf, sizeof buf, "%d min %02d s", static_cast<int>(s) / 60,
                  static_cast<int>(s) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f s", s);
  }
  return buf;
}

// The `..` and `.` free absolute form of a path (the path need not exist).
std::string Absolute(const std::string& path) {
  std::string full = path;
  if (full.empty() || full[0] != '/') {
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd) != nullptr) full = std::string(cwd) + "/" + path;
  }
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= full.size()) {
    size_t end = full.find('/', start);
    if (end == std::string::npos) end = full.size();
    std::string part = full.substr(start, end - start);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    start = end + 1;
  }
  std::string out;
  for (const auto& p : parts) out += "/" + p;
  return out.empty() ? "/" : out;
}

// The words of the opening and closing credits in the book's language.
struct CreditWords {
  const char* author;    // before the author's name
  const char* narrator;  // before the narrator's name
  const char* end;       // the closing words
  const char* stop;      // sentence end
};

CreditWords CreditsFor(const Lang& lang) {
  if (lang == "zh") return {"作者：", "朗读：", "全书完。", "。"};
  return {"Autor: ", "Číta ", "Koniec.", ". "};
}

// Opening credits (title, author, narrator) begin the first chapter, before
// its title; closing words end the last. Both are read by the narrator.
void AddCredits(const Book& book, const Normalizer& normalizer,
                const std::string& narrator_voice, Script* script) {
  const CreditWords words = CreditsFor(book.lang);
  std::string opening = book.title + words.stop;
  if (!book.author.empty()) opening += words.author + book.author + words.stop;
  opening += std::string(words.narrator) + "eSpeak NG" + words.stop;
  while (!opening.empty() && opening.back() == ' ') opening.pop_back();

  auto make = [&](const std::string& text, Chapter& chapter, const char* id,
                  int paragraph) {
    Utterance u;
    u.id = "c" + std::string(chapter.index < 10 ? "0" : "") +
           std::to_string(chapter.index) + "-" + id;
    u.chapter = chapter.index;
    u.paragraph = paragraph;
    u.kind = UtteranceKind::kNarration;
    u.voice = narrator_voice;
    u.lang = book.lang;
    u.tokens = normalizer.Normalize({text, 0}, book.dir + "/book.toml", nullptr).tokens;
    u.text = PrintedText(u.tokens);
    u.spoken = SpokenText(u.tokens);
    return u;
  };
  Chapter& first = script->chapters.front();
  first.utterances.insert(first.utterances.begin(),
                          make(opening, first, "credits-open", 0));
  Chapter& last = script->chapters.back();
  const int after = last.utterances.empty() ? 1 : last.utterances.back().paragraph + 1;
  last.utterances.push_back(make(words.end, last, "credits-close", after));
}

}  // namespace

StatusOr<SynthRequest> RequestFor(const Utterance& u,
                                  const std::map<std::string, Timbre>& voices) {
  auto v = voices.find(u.voice);
  if (v == voices.end()) {
    return Status::DataError("no voice '" + u.voice + "' in " + DefaultVoicesDir() +
                             " (used by " + u.id + ")");
  }
  return SynthRequest{u.lang, v->second, u.tokens};
}

StatusOr<Script> PrepareScript(const Book& book, Reporter* reporter) {
  std::vector<LexiconEntry> lexicon;
  if (!book.lexicon.empty()) {
    auto loaded = LoadLexicon(book.lexicon);
    if (!loaded.ok()) return loaded.status();
    lexicon = std::move(loaded).value();
  }
  // Each chapter source is read and normalized on its own, its diagnostics
  // kept apart, by a thread per core (each with its own normalizers: they are
  // not shared between threads); then all is taken in book order, exactly as
  // if one by one.
  struct Prepared {
    StatusOr<CleanText> clean = Status::Failure("not read");
    Status normalizer;  // the normalizer for its language could not be made
    ChapterSource source;
    CollectingReporter diagnostics;
  };
  std::vector<Prepared> prepared(book.chapters.size());
  std::atomic<size_t> next{0};
  using Normalizers = std::map<Lang, std::unique_ptr<Normalizer>>;
  auto prepare = [&](Normalizers* normalizers) {
    for (size_t c; (c = next++) < prepared.size();) {
      const BookChapter& bc = book.chapters[c];
      Prepared& p = prepared[c];
      p.clean = IngestFile(bc.file, IngestOptions{bc.encoding, bc.lang}, &p.diagnostics);
      if (!p.clean.ok()) continue;
      if (!normalizers->count(bc.lang)) {
        auto n = Normalizer::Create(NormalizerOptions{bc.lang, "", lexicon, book.skip_glosses});
        if (!n.ok()) {
          p.normalizer = n.status();
          continue;
        }
        (*normalizers)[bc.lang] = std::move(n).value();
      }
      const Normalizer& normalizer = *(*normalizers)[bc.lang];
      p.source.file = bc.file;
      p.source.lang = bc.lang;
      if (!bc.title.empty()) {
        p.source.title = normalizer.Normalize({bc.title, 0}, bc.file, &p.diagnostics).tokens;
      }
      for (const Paragraph& para : p.clean->paragraphs) {
        p.source.paragraphs.push_back(normalizer.Normalize(para, bc.file, &p.diagnostics));
      }
    }
  };
  Normalizers normalizers;  // this thread's, kept for the credits
  {
    const size_t threads =
        std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), prepared.size());
    std::vector<Normalizers> theirs(threads > 1 ? threads - 1 : 0);
    std::vector<std::unique_ptr<ScopedThread>> helpers;  // joined before `theirs` goes
    for (Normalizers& n : theirs) {
      helpers.push_back(std::make_unique<ScopedThread>([&prepare, &n] { prepare(&n); }));
    }
    prepare(&normalizers);
  }
  std::vector<ChapterSource> sources;
  Status first_error;
  for (Prepared& p : prepared) {
    for (const Diagnostic& d : p.diagnostics.diagnostics()) reporter->Report(d);
    if (!p.clean.ok()) {
      reporter->Report({Severity::kError, "", 0, p.clean.status().message()});
      if (first_error.ok()) first_error = p.clean.status();
      continue;
    }
    if (!p.normalizer.ok()) return p.normalizer;
    sources.push_back(std::move(p.source));
  }
  if (!first_error.ok()) return first_error;
  Cast cast;
  if (!book.cast.empty()) {
    StatusOr<Cast> loaded = LoadCast(book.cast);
    if (!loaded.ok()) return loaded.status();
    cast = std::move(loaded).value();
  }
  Overrides overrides;
  if (!book.overrides.empty()) {
    StatusOr<Overrides> loaded = LoadOverrides(book.overrides);
    if (!loaded.ok()) return loaded.status();
    overrides = std::move(loaded).value();
  }
  StatusOr<std::map<std::string, Timbre>> voices = LoadVoices(DefaultVoicesDir());
  if (!voices.ok()) return voices.status();
  Script script =
      Markup(book.title, book.author, sources, cast, overrides, *voices, reporter);
  if (!script.chapters.empty()) {
    if (!normalizers.count(book.lang)) {
      auto n = Normalizer::Create(NormalizerOptions{book.lang, "", lexicon, book.skip_glosses});
      if (!n.ok()) return n.status();
      normalizers[book.lang] = std::move(n).value();
    }
    AddCredits(book, *normalizers[book.lang], cast.options.narrator, &script);
  }
  return script;
}

Status BuildBook(const Book& book, const BuildOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const std::string out_abs = Absolute(options.out_dir);
  const std::string book_abs = Absolute(book.dir);
  if (out_abs == book_abs || out_abs.compare(0, book_abs.size() + 1, book_abs + "/") == 0) {
    return Status::Usage(options.out_dir +
                         ": the output folder must not be inside the book folder " +
                         book.dir);
  }
  Status made = MakeDirs(options.out_dir);
  if (!made.ok()) return made;
  if (::access(options.out_dir.c_str(), W_OK) != 0) {
    return Status::IoError(options.out_dir + ": output folder is not writable");
  }

  // A synthesis worker starts while the script is prepared: after a small
  // edit, one sentence is all there is to synthesize.
  SynthWarmer warm;
  Progress progress;
  CollectingReporter reporter;
  progress.Stage("Reading " + std::to_string(book.chapters.size()) +
                 " chapter sources of \"" + book.title + "\"");
  StatusOr<Script> script = PrepareScript(book, &reporter);
  for (const Diagnostic& d : reporter.diagnostics()) {
    if (d.severity != Severity::kInfo) {
      std::fprintf(stderr, "  %s\n", d.ToString().c_str());
    }
  }
  if (!script.ok()) return script.status();

  auto voices = LoadVoices(DefaultVoicesDir());
  if (!voices.ok()) return voices.status();
  std::vector<SynthRequest> requests;
  for (const Chapter& c : script->chapters) {
    for (const Utterance& u : c.utterances) {
      StatusOr<SynthRequest> request = RequestFor(u, *voices);
      if (!request.ok()) return request.status();
      requests.push_back(std::move(request).value());
    }
  }

  const std::string cache =
      options.cache_dir.empty() ? options.out_dir + "/.cache" : options.cache_dir;
  // Where each chapter's requests start in `requests` (same order as the script).
  std::map<int, size_t> first_request;
  size_t offset = 0;
  for (const Chapter& c : script->chapters) {
    first_request[c.index] = offset;
    offset += c.utterances.size();
  }

  // Synthesis runs in the background, in book order; each chapter is
  // assembled as soon as its clips are in the cache (a clip file appears
  // whole: clips are written atomically).
  progress.Stage("Synthesizing " + std::to_string(requests.size()) + " utterances with " +
                 std::to_string(options.jobs) + " worker process" +
                 (options.jobs == 1 ? "" : "es") + ", assembling " +
                 std::to_string(script->chapters.size()) + " chapters into " +
                 options.out_dir + " as their clips are ready");
  std::mutex clips_mutex;
  std::condition_variable clips_changed;
  bool synthesis_over = false;
  StatusOr<SynthAllStats> stats = Status::Failure("synthesis did not run");
  ScopedThread synthesis([&] {
    StatusOr<SynthAllStats> result =
        SynthesizeAll(
            requests, cache, options.jobs,
            [&](int done, int total) {
              progress.Count("utterances", done, total);
              std::lock_guard<std::mutex> lock(clips_mutex);
              clips_changed.notify_all();
            },
            &warm);
    std::lock_guard<std::mutex> lock(clips_mutex);
    stats = std::move(result);
    synthesis_over = true;
    clips_changed.notify_all();
  });

  ClipSource clip_source;
  // Each request's clip key, once (while synthesis starts).
  std::vector<std::string> clip_keys;
  clip_keys.reserve(requests.size());
  for (const SynthRequest& r : requests) clip_keys.push_back(ClipKey(r));
  clip_source.content_key = [&](const Chapter& chapter) {
    std::string key;
    for (size_t i = 0; i < chapter.utterances.size(); ++i) {
      key += clip_keys[first_request[chapter.index] + i] + ",";
    }
    return key;
  };
  // The path of a clip once it is in the cache; the synthesis failure if it
  // never will be.
  auto ready_clip = [&](const Chapter& chapter, size_t i) -> StatusOr<std::string> {
    std::string path = ClipPath(cache, clip_keys[first_request[chapter.index] + i]);
    std::unique_lock<std::mutex> lock(clips_mutex);
    clips_changed.wait(lock, [&] { return synthesis_over || ::access(path.c_str(), R_OK) == 0; });
    if (synthesis_over && !stats.ok()) return stats.status();
    return path;
  };
  clip_source.summary = [&](const Chapter& chapter, size_t i) -> StatusOr<ClipSummary> {
    StatusOr<std::string> path = ready_clip(chapter, i);
    if (!path.ok()) return path.status();
    return ReadClipSummary(*path);
  };
  clip_source.load = [&](const Chapter& chapter, size_t i) -> StatusOr<Clip> {
    StatusOr<std::string> path = ready_clip(chapter, i);
    if (!path.ok()) return path.status();
    return ReadClip(*path);
  };
  AssembleOptions assemble;
  assemble.out_dir = options.out_dir;
  assemble.cache_dir = cache;
  assemble.formats = options.formats;
  const int chapter_count = static_cast<int>(script->chapters.size());
  auto assembled =
      AssembleBook(*script, clip_source, assemble, reporter.diagnostics(),
                   [&](int done) { progress.Count("chapters", done, chapter_count); });
  {
    // Even after a failed assembly, synthesis finishes: its clips stay in the
    // cache for the next run.
    std::unique_lock<std::mutex> lock(clips_mutex);
    clips_changed.wait(lock, [&] { return synthesis_over; });
  }
  progress.Clear();
  if (!stats.ok()) return stats.status();
  if (!assembled.ok()) return assembled.status();
  std::fprintf(stderr, "  %d synthesized, %d reused from the cache\n", stats->synthesized,
               stats->reused);
  std::fprintf(stderr, "  %d chapters assembled, %d already up to date\n",
               assembled->chapters_rendered, assembled->chapters_reused);
  if (options.epub) {
    progress.Stage("Packaging the EPUB 3 with Media Overlays");
    Status epub =
        WriteEpub(*script, assembled->manifest, options.out_dir, book.name, &reporter);
    if (!epub.ok()) return epub;
  }

  // The QC summary: every file against ACX-style limits (report.json has all).
  int64_t total_ms = 0;
  int failed = 0;
  for (const FileQc& qc : assembled->report.files) {
    if (qc.file.rfind("chapters/", 0) == 0 &&
        qc.file.size() > options.formats.front().size() &&
        qc.file.compare(qc.file.size() - options.formats.front().size(),
                        std::string::npos, options.formats.front()) == 0) {
      total_ms += qc.duration_ms;
    }
    if (!qc.failures.empty()) {
      ++failed;
      std::fprintf(stderr, "  QC fail: %s: %s\n", qc.file.c_str(), qc.failures.front().c_str());
    }
  }
  std::fprintf(stderr, "  QC: %zu files, %d pass, %d fail (RMS, peak, noise floor, "
               "head and tail silence; see report.json)\n",
               assembled->report.files.size(),
               static_cast<int>(assembled->report.files.size()) - failed, failed);
  const double wall = std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - started).count();
  std::fprintf(stderr, "Done in %s: %d chapters, %s of audio in %s/ (manifest.json, report.json)\n",
               Seconds(wall).c_str(), chapter_count, Seconds(total_ms / 1000.0).c_str(),
               options.out_dir.c_str());
  if (options.strict && failed > 0) {
    return Status::Failure(std::to_string(failed) +
                           " files failed the QC checks (--strict); see " +
                           options.out_dir + "/report.json");
  }
  return Status::Ok();
}

}  // namespace narrate
