// BookSession::Build: book -> script -> clips -> chapter files, with synthesis
// in the background and each chapter assembled as soon as its clips are in
// the cache.
#include <unistd.h>

#include "assemble/assemble.h"
#include "book/book.h"
#include "clip_cache.h"
#include "synthesis.h"

namespace narrate {
namespace {

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

// Reports to the caller's reporter and keeps a copy for report.json.
class TeeReporter : public Reporter {
 public:
  explicit TeeReporter(Reporter* also) : also_(also) {}
  void Report(const Diagnostic& d) override {
    kept_.Report(d);
    if (also_ != nullptr) also_->Report(d);
  }
  const std::vector<Diagnostic>& diagnostics() const { return kept_.diagnostics(); }

 private:
  Reporter* also_;
  CollectingReporter kept_;
};

}  // namespace

StatusOr<BuildResult> BookSession::Build(const BuildOptions& options, Reporter* caller,
                                         Progress* progress) {
  const std::string out_abs = Absolute(options.out_dir);
  const std::string book_abs = Absolute(book_.dir);
  if (out_abs == book_abs || out_abs.compare(0, book_abs.size() + 1, book_abs + "/") == 0) {
    return Status::Usage(options.out_dir +
                         ": the output folder must not be inside the book folder " + book_.dir);
  }
  Status made = MakeDirs(options.out_dir);
  if (!made.ok()) return made;
  if (::access(options.out_dir.c_str(), W_OK) != 0) {
    return Status::IoError(options.out_dir + ": output folder is not writable");
  }
  auto stage = [progress](const std::string& what) {
    if (progress != nullptr) progress->Stage(what);
  };
  auto count = [progress](const char* what, int done, int total) {
    if (progress != nullptr) progress->Count(what, done, total);
  };

  // A synthesis worker starts while the script is prepared: after a small
  // edit, one sentence is all there is to synthesize.
  WarmUp();
  TeeReporter reporter(caller);
  stage("Reading " + std::to_string(book_.chapters.size()) + " chapter sources of \"" +
        book_.title + "\"");
  StatusOr<Script> script = Prepare(&reporter);
  if (!script.ok()) return script.status();

  std::vector<SynthRequest> requests;
  std::vector<std::string> keys;      // each request's clip key, once
  std::vector<size_t> first_request;  // per chapter, its first utterance's in `requests`
  for (const Chapter& c : script->chapters) {
    first_request.push_back(requests.size());
    for (const Utterance& u : c.utterances) {
      StatusOr<SynthRequest> request = RequestFor(u);
      if (!request.ok()) return request.status();
      requests.push_back(std::move(request).value());
      keys.push_back(ClipKey(requests.back()));
    }
  }
  const std::string cache_dir =
      options_.cache_dir.empty() ? options.out_dir + "/.cache" : options_.cache_dir;
  StatusOr<std::unique_ptr<ClipCache>> cache = ClipCache::Open(cache_dir, true);
  if (!cache.ok()) return cache.status();

  const int chapters = static_cast<int>(script->chapters.size());
  stage("Synthesizing " + std::to_string(requests.size()) + " utterances with " +
        std::to_string(options_.jobs) + " worker process" + (options_.jobs == 1 ? "" : "es") +
        ", assembling " + std::to_string(chapters) + " chapters into " + options.out_dir +
        " as their clips are ready");
  SynthesisRun synthesis(
      requests, keys, cache->get(), &pool_, options_.jobs, [this] { return TakeSynth(); },
      [&count](int done, int total) { count("utterances", done, total); });

  // The index in `requests` of utterance `i` of `chapter`.
  auto request_of = [&](const Chapter& chapter, size_t i) {
    return first_request[static_cast<size_t>(chapter.index - 1)] + i;
  };
  ClipCache& clips = **cache;
  ClipSource clip_source;
  clip_source.content_key = [&](const Chapter& chapter) {
    std::string key;
    for (size_t i = 0; i < chapter.utterances.size(); ++i)
      key += keys[request_of(chapter, i)] + ",";
    return key;
  };
  clip_source.summary = [&](const Chapter& chapter, size_t i) -> StatusOr<ClipSummary> {
    const std::string& key = keys[request_of(chapter, i)];
    Status ready = clips.WaitFor(key);
    if (!ready.ok()) return ready;
    return clips.LoadSummary(key);
  };
  clip_source.load = [&](const Chapter& chapter, size_t i) -> StatusOr<Clip> {
    const std::string& key = keys[request_of(chapter, i)];
    Status ready = clips.WaitFor(key);
    if (!ready.ok()) return ready;
    return clips.Load(key);
  };
  AssembleOptions assemble;
  assemble.out_dir = options.out_dir;
  assemble.cache_dir = cache_dir;
  assemble.formats = options.formats;
  assemble.pool = &pool_;
  auto assembled =
      AssembleBook(*script, clip_source, assemble, reporter.diagnostics(),
                   [&count, chapters](int done) { count("chapters", done, chapters); });
  // Even after a failed assembly, synthesis finishes: its clips stay in the
  // cache for the next run.
  Status synthesized = synthesis.Wait();
  if (!synthesized.ok()) return synthesized;
  if (!assembled.ok()) return assembled.status();

  BuildResult result;
  result.synthesized = synthesis.synthesized();
  result.reused = synthesis.reused();
  result.chapters_rendered = assembled->chapters_rendered;
  result.chapters_reused = assembled->chapters_reused;
  result.chapters = chapters;
  result.files = assembled->report.files;
  if (options.epub) {
    stage("Packaging the EPUB 3 with Media Overlays");
    Status epub = WriteEpub(*script, assembled->manifest, options.out_dir, book_.name, &reporter);
    if (!epub.ok()) return epub;
  }
  const std::string& first_format = options.formats.front();
  for (const FileQc& qc : result.files) {
    if (qc.file.rfind("chapters/", 0) == 0 && qc.file.size() > first_format.size() &&
        qc.file.compare(qc.file.size() - first_format.size(), std::string::npos, first_format) ==
            0) {
      result.audio_ms += qc.duration_ms;
    }
    if (!qc.failures.empty()) ++result.qc_failed;
  }
  return result;
}

}  // namespace narrate
