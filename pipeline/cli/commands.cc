// The subcommands of `narrate` and their help texts.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli.h"

namespace narrate {
namespace {

constexpr const char* kDescription =
    "narrate turns plain-text books in Chinese and Slovak into chaptered "
    "audiobooks with eSpeak NG.\n\n"
    "Examples:\n"
    "  narrate build books/napoleon                 # -> output/napoleon/\n"
    "  narrate build books/napoleon -o /tmp/n --format wav --format flac --jobs 2\n"
    "  narrate mark books/napoleon --format text    # the script: who says what\n"
    "  narrate normalize books/napoleon/text/000_b362695813637752.txt\n\n"
    "Exit codes: 0 success, 1 failure, 2 bad usage, 65 bad input data, "
    "74 I/O error.";

void PrintDiagnostics(const CollectingReporter& reporter) {
  for (const Diagnostic& d : reporter.diagnostics()) {
    std::fprintf(stderr, "%s\n", d.ToString().c_str());
  }
}

// The build's diagnostics as they are found: all but the informational ones,
// each on a line of its own below the progress.
class PrintingReporter : public Reporter {
 public:
  explicit PrintingReporter(TerminalProgress* progress) : progress_(progress) {}
  void Report(const Diagnostic& d) override {
    if (d.severity == Severity::kInfo) return;
    progress_->Clear();
    std::fprintf(stderr, "  %s\n", d.ToString().c_str());
  }

 private:
  TerminalProgress* progress_;
};

struct BuildArgs {
  BuildOptions build;
  int jobs = 1;
  std::string cache_dir;  // default: OUT_DIR/.cache
  bool strict = false;    // a failed QC check fails the build
};

int RunBuild(const std::string& book_dir, BuildArgs args) {
  const auto started = std::chrono::steady_clock::now();
  StatusOr<Book> book = LoadBook(book_dir);
  if (!book.ok()) return Fail(book.status());
  BuildOptions& options = args.build;
  if (options.out_dir.empty()) options.out_dir = "output/" + book->name;
  auto session = BookSession::Open(*book, SessionOptions{args.jobs, args.cache_dir, ""});
  if (!session.ok()) return Fail(session.status());
  TerminalProgress progress;
  PrintingReporter reporter(&progress);
  StatusOr<BuildResult> built = (*session)->Build(options, &reporter, &progress);
  progress.Clear();
  if (!built.ok()) return Fail(built.status());
  std::fprintf(stderr, "  %d synthesized, %d reused from the cache\n", built->synthesized,
               built->reused);
  std::fprintf(stderr, "  %d chapters assembled, %d already up to date\n", built->chapters_rendered,
               built->chapters_reused);
  // The QC summary: every file against ACX-style limits (report.json has all).
  for (const FileQc& qc : built->files) {
    if (!qc.failures.empty()) {
      std::fprintf(stderr, "  QC fail: %s: %s\n", qc.file.c_str(), qc.failures.front().c_str());
    }
  }
  std::fprintf(stderr,
               "  QC: %zu files, %d pass, %d fail (RMS, peak, noise floor, "
               "head and tail silence; see report.json)\n",
               built->files.size(), static_cast<int>(built->files.size()) - built->qc_failed,
               built->qc_failed);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::fprintf(stderr, "Done in %s: %d chapters, %s of audio in %s/ (manifest.json, report.json)\n",
               Seconds(wall).c_str(), built->chapters, Seconds(built->audio_ms / 1000.0).c_str(),
               options.out_dir.c_str());
  if (args.strict && built->qc_failed > 0) {
    return Fail(Status::Failure(std::to_string(built->qc_failed) +
                                " files failed the QC checks (--strict); see " + options.out_dir +
                                "/report.json"));
  }
  return 0;
}

// The session of a book folder, or of a single text file.
StatusOr<std::unique_ptr<BookSession>> OpenInput(const std::string& input, const Lang& lang) {
  StatusOr<Book> book = IsDirectory(input) ? LoadBook(input) : BookFromFile(input, lang);
  if (!book.ok()) return book.status();
  return BookSession::Open(*book, SessionOptions());
}

// At most `n` code points of UTF-8 `text` from its start (`from_end`: from
// its end), with "…" where it was cut.
std::string Cut(const std::string& text, int n, bool from_end) {
  std::vector<size_t> starts;  // byte offsets of the code points
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  if (static_cast<int>(starts.size()) <= n) return text;
  return from_end ? "…" + text.substr(starts[starts.size() - n]) : text.substr(0, starts[n]) + "…";
}

// The speeches from the least confident attribution to the most, each with
// a line of its paragraph around it, for a producer to check the doubtful
// first.
void PrintReview(const Script& script) {
  std::vector<std::pair<const Utterance*, const Chapter*>> speeches;
  for (const Chapter& c : script.chapters) {
    for (const Utterance& u : c.utterances) {
      if (u.kind == UtteranceKind::kSpeech) speeches.emplace_back(&u, &c);
    }
  }
  std::stable_sort(speeches.begin(), speeches.end(), [](const auto& a, const auto& b) {
    return a.first->confidence < b.first->confidence;
  });
  for (const auto& [u, c] : speeches) {
    std::string before, after;  // the paragraph's text around the speech
    bool past = false;
    for (const Utterance& other : c->utterances) {
      if (other.paragraph != u->paragraph) continue;
      if (&other == u) {
        past = true;
      } else {
        (past ? after : before) += other.text;
      }
    }
    const std::string context =
        Cut(before, 30, true) + "【" + Cut(u->text, 40, false) + "】" + Cut(after, 30, false);
    std::printf("%.2f %-12s %s [%s]\n    %s:%d: %s\n", u->confidence, ToString(u->evidence),
                u->id.c_str(), u->speaker ? u->speaker->c_str() : "", c->source.c_str(), u->line,
                context.c_str());
  }
}

int RunMark(const std::string& input, const std::string& lang, const std::string& format,
            bool review) {
  auto session = OpenInput(input, lang);
  if (!session.ok()) return Fail(session.status());
  CollectingReporter reporter;
  StatusOr<Script> script = (*session)->Prepare(&reporter);
  PrintDiagnostics(reporter);
  if (!script.ok()) return Fail(script.status());
  if (review) {
    PrintReview(*script);
    return 0;
  }
  for (const Chapter& c : script->chapters) {
    if (format == "text") std::cout << "\n## " << c.index << ". " << c.title << "\n\n";
    for (const Utterance& u : c.utterances) {
      if (format == "text") {
        std::cout << "[" << (u.speaker ? *u.speaker : ToString(u.kind)) << "] " << u.text << "\n";
        continue;
      }
      nlohmann::json line = {
          {"id", u.id},
          {"chapter", u.chapter},
          {"chapter_title", c.title},
          {"paragraph", u.paragraph},
          {"kind", ToString(u.kind)},
          {"speaker", u.speaker ? nlohmann::json(*u.speaker) : nlohmann::json(nullptr)},
          {"gender", u.gender.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.gender)},
          {"voice", u.voice},
          {"lang", u.lang},
          {"text", u.text},
          {"spoken", u.spoken}};
      if (u.kind == UtteranceKind::kSpeech) {
        line["confidence"] = u.confidence;
        line["evidence"] = ToString(u.evidence);
      }
      std::cout << line.dump() << "\n";
    }
  }
  return 0;
}

int RunNormalize(const std::string& file, const std::string& lang) {
  StatusOr<Book> book = BookFromFile(file, lang);
  if (!book.ok()) return Fail(book.status());
  // Every paragraph a line, headings and a table of contents too: not cut.
  for (BookSource& source : book->chapters) source.split = ChapterSplit();
  auto session = BookSession::Open(*book, SessionOptions());
  if (!session.ok()) return Fail(session.status());
  CollectingReporter reporter;
  StatusOr<std::vector<ChapterSource>> sources = (*session)->Normalize(&reporter);
  if (sources.ok()) {
    for (const ChapterSource& source : *sources) {
      for (const NormalizedParagraph& p : source.paragraphs) {
        std::cout << SpokenText(p.tokens) << "\n";
      }
    }
  }
  PrintDiagnostics(reporter);
  return sources.ok() ? 0 : Fail(sources.status());
}

int RunCast(const std::string& book_dir, bool write) {
  StatusOr<Book> book = LoadBook(book_dir);
  if (!book.ok()) return Fail(book.status());
  auto session = BookSession::Open(*book, SessionOptions());
  if (!session.ok()) return Fail(session.status());
  CollectingReporter reporter;
  StatusOr<std::vector<FoundSpeaker>> cast = (*session)->FindCast(&reporter);
  if (!cast.ok()) {
    PrintDiagnostics(reporter);
    return Fail(cast.status());
  }
  for (const FoundSpeaker& p : *cast) {
    std::string aliases;
    for (const std::string& a : p.aliases) aliases += (aliases.empty() ? "" : ", ") + a;
    std::printf("%s%s  %s%s  %d %s, %d %s  voice %s%s\n", p.name.c_str(), p.in_cast ? "" : " (new)",
                p.gender.empty() ? "?" : p.gender.c_str(),
                p.gender_evidence.empty() ? "" : (" (" + p.gender_evidence + ")").c_str(),
                p.speeches, p.speeches == 1 ? "speech" : "speeches", p.mentions,
                p.mentions == 1 ? "mention" : "mentions", p.voice.empty() ? "?" : p.voice.c_str(),
                aliases.empty() ? "" : ("  aliases: " + aliases).c_str());
  }
  if (!write) return 0;
  StatusOr<int> added = (*session)->AddToCast(*cast);
  if (!added.ok()) return Fail(added.status());
  std::printf("Added %d speakers to %s/cast.toml\n", *added, book->dir.c_str());
  return 0;
}

int RunInit(const InitOptions& options) {
  StatusOr<InitResult> made = InitBook(options);
  if (!made.ok()) return Fail(made.status());
  const Book& book = made->book;
  std::printf("Made %s: \"%s\"%s (%s)\n", book.dir.c_str(), book.title.c_str(),
              book.author.empty() ? "" : (" by " + book.author).c_str(), book.lang.c_str());
  for (size_t i = 0; i < book.chapters.size(); ++i) {
    std::printf("  %s (copied byte for byte; %s)\n", book.chapters[i].file.c_str(),
                made->encodings[i].c_str());
  }
  std::printf("Chapters:\n");
  std::map<std::string, int> speeches;
  for (const Chapter& c : made->script.chapters) {
    int characters = 0;
    for (const Utterance& u : c.utterances) {
      characters += CodePointCount(u.text);
      if (u.kind == UtteranceKind::kSpeech && u.speaker) ++speeches[*u.speaker];
    }
    std::printf("  %3d. %s  (%d characters)\n", c.index, c.title.c_str(), characters);
  }
  std::vector<std::pair<int, std::string>> main_speakers;
  for (const auto& [name, n] : speeches) {
    if (name != "unknown") main_speakers.emplace_back(-n, name);
  }
  std::sort(main_speakers.begin(), main_speakers.end());
  std::printf("Speakers in the draft cast.toml: %d", made->cast_speakers);
  for (size_t i = 0; i < main_speakers.size() && i < 8; ++i) {
    std::printf("%s%s (%d)", i == 0 ? ": " : ", ", main_speakers[i].second.c_str(),
                -main_speakers[i].first);
  }
  std::printf("\nNext: narrate build %s\n", book.dir.c_str());
  return 0;
}

}  // namespace

int RunNarrate(int argc, char** argv) {
  CLI::App app(kDescription, "narrate");
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", NARRATE_VERSION);

  std::string book_dir;
  BuildArgs args;
  BuildOptions& build = args.build;
  args.jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  CLI::App* build_cmd = app.add_subcommand(
      "build",
      "Build a book folder into an audiobook: one audio file per chapter, the\n"
      "whole book as one file with chapter marks and a cue sheet,\n"
      "manifest.json (chapters, utterances, word timings) and report.json\n"
      "(diagnostics and QC figures). Unchanged sentences are reused from the\n"
      "cache, so a rebuild after an edit is quick.\n\n"
      "Example:\n  narrate build books/napoleon -o /tmp/napoleon --format flac --jobs 2");
  build_cmd->add_option("BOOK_DIR", book_dir, "Book folder holding book.toml and the chapter texts")
      ->required();
  build_cmd->add_option("-o,--output", build.out_dir,
                        "Output folder (default: output/<book folder name>); "
                        "never inside the book folder");
  build.formats.clear();
  build_cmd
      ->add_option("--format", build.formats,
                   "Audio format of the files, repeatable (default: wav)")
      ->check(CLI::IsMember({"wav", "flac", "mp3", "opus"}));
  build_cmd
      ->add_option("-j,--jobs", args.jobs,
                   "Synthesis worker processes, and threads for the rest of the\n"
                   "build's parallel work (default: the number of cores)")
      ->check(CLI::Range(1, 64));
  build_cmd->add_option("--cache", args.cache_dir, "Clip cache folder (default: OUTPUT/.cache)");
  build_cmd->add_flag("--strict", args.strict,
                      "Fail the build (exit 1) when a file fails a QC check:\n"
                      "RMS -23..-18 dB, peak <= -3 dBFS, noise floor <= -60 dB,\n"
                      "0.5-1 s of silence at the head and 1-5 s at the tail");
  build_cmd->add_flag("--epub", build.epub,
                      "Also write OUTPUT/<book>.epub: EPUB 3 with the text and the\n"
                      "narration in sync (Media Overlays), for reading systems\n"
                      "used by blind and visually-impaired readers (adds mp3)");

  std::string mark_input, mark_lang, mark_format = "json";
  CLI::App* mark_cmd =
      app.add_subcommand("mark",
                         "Print the script: one JSON object a line per utterance (id, chapter,\n"
                         "chapter_title, paragraph, kind, speaker, gender, voice, lang, text,\n"
                         "spoken; speech also confidence, 0-1, and evidence: how its speaker\n"
                         "was found), or a readable script with --format text. --review lists\n"
                         "the speeches least confident first, each with its paragraph.\n\n"
                         "Example:\n  narrate mark books/napoleon --format text | less\n"
                         "  narrate mark books/story --review | head -40");
  mark_cmd->add_option("BOOK_DIR|FILE", mark_input, "A book folder or one text file")->required();
  mark_cmd->add_option("--lang", mark_lang, "Language of a single FILE (default: guessed)")
      ->check(CLI::IsMember(LanguageCodes()));
  mark_cmd->add_option("--format", mark_format, "json (default) or text")
      ->check(CLI::IsMember({"json", "text"}));
  bool mark_review = false;
  mark_cmd->add_flag("--review", mark_review,
                     "List the speeches from the least to the most confident attribution");

  std::string norm_file, norm_lang;
  CLI::App* norm_cmd =
      app.add_subcommand("normalize",
                         "Print the spoken form of a text file, one paragraph a line, with\n"
                         "numbers, dates and abbreviations written out; diagnostics (repairs,\n"
                         "omissions) go to stderr as file:line: message.\n\n"
                         "Example:\n  narrate normalize chapter.txt --lang sk");
  norm_cmd->add_option("FILE", norm_file, "A text file")->required();
  norm_cmd->add_option("--lang", norm_lang, LanguageNames() + " (default: guessed)")
      ->check(CLI::IsMember(LanguageCodes()));

  InitOptions init;
  CLI::App* init_cmd = app.add_subcommand(
      "init",
      "Make a book folder from text files, ready to build: the texts copied\n"
      "byte for byte into BOOK_DIR/text/, book.toml (title and author from\n"
      "the text where it names them, else the file name; each file split at\n"
      "its chapter headings) and a draft cast.toml of those who speak more\n"
      "than once. Prints the chapters and speakers it found. Never writes\n"
      "over a file without --force.\n\n"
      "Example:\n  narrate init story.txt -o books/story && narrate build books/story");
  init_cmd->add_option("TEXT_FILE", init.texts, "Text files, in reading order")->required();
  init_cmd->add_option("-o,--output", init.dir, "The book folder to make")->required();
  init_cmd->add_option("--lang", init.lang, LanguageNames() + " (default: guessed per file)")
      ->check(CLI::IsMember(LanguageCodes()));
  init_cmd->add_option("--title", init.title, "The book's title (default: from the text)");
  init_cmd->add_option("--author", init.author, "The book's author (default: from the text)");
  init_cmd->add_flag("--force", init.force, "Write over files already in the book folder");

  std::string cast_dir;
  bool cast_write = false;
  CLI::App* cast_cmd = app.add_subcommand(
      "cast",
      "Print the people of a book: name, gender and where it comes from, how\n"
      "often they speak and are mentioned, their voice, whether cast.toml lists\n"
      "them. --write adds those it does not list to cast.toml (what is there\n"
      "stays as it is): the one command besides init that writes into a book\n"
      "folder.\n\n"
      "Example:\n  narrate cast books/story --write");
  cast_cmd->add_option("BOOK_DIR", cast_dir, "Book folder")->required();
  cast_cmd->add_flag("--write", cast_write, "Add the people cast.toml lacks to it");

  int preview_exit = -1;
  AddPreviewCommands(&app, &preview_exit);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(StatusCode::kUsage);
  }
  if (preview_exit >= 0) return preview_exit;
  if (build_cmd->parsed()) {
    if (build.formats.empty()) build.formats = {"wav"};
    if (build.epub &&
        std::find(build.formats.begin(), build.formats.end(), "mp3") == build.formats.end()) {
      build.formats.push_back("mp3");
    }
    return RunBuild(book_dir, args);
  }
  if (init_cmd->parsed()) return RunInit(init);
  if (cast_cmd->parsed()) return RunCast(cast_dir, cast_write);
  if (mark_cmd->parsed()) return RunMark(mark_input, mark_lang, mark_format, mark_review);
  if (norm_cmd->parsed()) return RunNormalize(norm_file, norm_lang);
  std::cout << app.help();
  return 0;
}

}  // namespace narrate
