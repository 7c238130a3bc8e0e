// BookSession: opening a book's files, preparing its script on the pool, its
// cast (found and added to cast.toml), and the clips of playback. The build
// itself is in build.cc.
#include <algorithm>
#include <atomic>

#include "book/book.h"
#include "clip_cache.h"
#include "core/language.h"
#include "core/toml_file.h"
#include "ingest/ingest.h"
#include "markup/markup.h"
#include "normalize/normalize.h"
#include "preview/preview.h"

namespace narrate {

struct BookSession::Loaded {
  Cast cast;
  Overrides overrides;
  std::vector<LexiconEntry> lexicon;
};

namespace {

// The opening credits (title, author, narrator) and closing words of `book`,
// normalized; they are diagnosed as book.toml.
Credits MakeCredits(const Book& book, const LanguageProfile& words, const Normalizer& normalizer) {
  std::string opening = book.title + words.stop;
  if (!book.author.empty()) opening += words.before_author + book.author + words.stop;
  opening += words.before_narrator + "eSpeak NG" + words.stop;
  while (!opening.empty() && opening.back() == ' ') opening.pop_back();
  const std::string file = book.dir + "/book.toml";
  Credits credits;
  credits.lang = book.lang;
  credits.opening = normalizer.Normalize({opening, 0}, file, nullptr).tokens;
  credits.closing = normalizer.Normalize({words.closing, 0}, file, nullptr).tokens;
  return credits;
}

}  // namespace

BookSession::BookSession(const Book& book, const SessionOptions& options)
    : book_(book), options_(options), loaded_(new Loaded()), pool_(options.jobs) {}

BookSession::~BookSession() = default;

StatusOr<std::unique_ptr<BookSession>> BookSession::Open(const Book& book,
                                                         const SessionOptions& options) {
  if (options.jobs < 1) return Status::Usage("--jobs must be at least 1");
  std::unique_ptr<BookSession> session(new BookSession(book, options));
  Loaded& loaded = *session->loaded_;
  if (!book.lexicon.empty()) {
    auto lexicon = LoadLexicon(book.lexicon);
    if (!lexicon.ok()) return lexicon.status();
    loaded.lexicon = std::move(lexicon).value();
  }
  if (!book.cast.empty()) {
    StatusOr<Cast> cast = LoadCast(book.cast);
    if (!cast.ok()) return cast.status();
    loaded.cast = std::move(cast).value();
  }
  if (!book.overrides.empty()) {
    StatusOr<Overrides> overrides = LoadOverrides(book.overrides);
    if (!overrides.ok()) return overrides.status();
    loaded.overrides = std::move(overrides).value();
  }
  StatusOr<std::map<std::string, Timbre>> voices =
      LoadVoices(options.voices_dir.empty() ? DefaultVoicesDir() : options.voices_dir);
  if (!voices.ok()) return voices.status();
  session->voices_ = std::move(voices).value();
  return session;
}

void BookSession::WarmUp() {
  if (warming_ != nullptr || synth_ != nullptr) return;
  warming_ = std::make_unique<TaskGroup>(&pool_);
  warming_->Run([this] { warm_ = Synth::Create(); });
}

StatusOr<std::unique_ptr<Synth>> BookSession::TakeSynth() {
  if (warming_ == nullptr) return Synth::Create();
  warming_->Wait();
  warming_.reset();
  return std::move(warm_);
}

std::map<Lang, Status> BookSession::MakeNormalizers(const std::vector<Lang>& langs) {
  std::map<Lang, Status> made;
  std::map<Lang, StatusOr<std::unique_ptr<Normalizer>>> making;
  for (const Lang& lang : langs) {
    if (normalizers_.count(lang)) {
      made[lang] = Status::Ok();
    } else {
      making.emplace(lang, Status::Failure("not made"));
    }
  }
  {
    TaskGroup group(&pool_);
    for (auto& [lang, normalizer] : making) {
      group.Run([this, &lang = lang, &normalizer = normalizer] {
        normalizer =
            Normalizer::Create(NormalizerOptions{lang, "", loaded_->lexicon, book_.skip_glosses});
      });
    }
  }
  for (auto& [lang, normalizer] : making) {
    made[lang] = normalizer.status();
    if (normalizer.ok()) normalizers_[lang] = std::move(normalizer).value();
  }
  return made;
}

StatusOr<std::vector<ChapterSource>> BookSession::Normalize(Reporter* reporter) {
  // Each chapter source is read and normalized on its own, its diagnostics
  // kept apart, by a few tasks on the pool sharing the normalizers; then all
  // is taken in book order, exactly as if one by one.
  struct Prepared {
    StatusOr<CleanText> clean = Status::Failure("not read");
    Status normalizer;                    // the normalizer for its language could not be made
    std::vector<ChapterSource> chapters;  // the source, cut at its headings
    CollectingReporter diagnostics;
  };
  std::vector<Prepared> prepared(book_.chapters.size());
  std::atomic<size_t> next{0};
  std::vector<Lang> langs;
  for (const BookSource& bc : book_.chapters) langs.push_back(bc.lang);
  const std::map<Lang, Status> normalizers = MakeNormalizers(langs);
  auto prepare = [&] {
    for (size_t c; (c = next++) < prepared.size();) {
      const BookSource& bc = book_.chapters[c];
      Prepared& p = prepared[c];
      const IngestOptions ingest{bc.encoding, bc.lang};
      p.clean = bc.bytes ? Ingest(*bc.bytes, bc.file, ingest, &p.diagnostics)
                         : IngestFile(bc.file, ingest, &p.diagnostics);
      if (!p.clean.ok()) continue;
      p.normalizer = normalizers.at(bc.lang);
      if (!p.normalizer.ok()) continue;
      const Normalizer& normalizer = *normalizers_.at(bc.lang);
      ChapterSource source;
      source.file = bc.file;
      source.lang = bc.lang;
      if (!bc.title.empty()) {
        source.title = normalizer.Normalize({bc.title, 0}, bc.file, &p.diagnostics).tokens;
      }
      for (const Paragraph& para : p.clean->paragraphs) {
        source.paragraphs.push_back(normalizer.Normalize(para, bc.file, &p.diagnostics));
      }
      p.chapters = SplitSource(std::move(source), bc.split, &p.diagnostics);
    }
  };
  {
    TaskGroup group(&pool_);
    // As many tasks as can run at once: the pool's threads and this one.
    const size_t tasks = std::min<size_t>(pool_.threads() + 1, prepared.size());
    for (size_t t = 0; t < tasks; ++t) group.Run(prepare);
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
    for (ChapterSource& c : p.chapters) sources.push_back(std::move(c));
  }
  if (!first_error.ok()) return first_error;
  return sources;
}

StatusOr<Script> BookSession::Prepare(Reporter* reporter) {
  StatusOr<std::vector<ChapterSource>> sources = Normalize(reporter);
  if (!sources.ok()) return sources.status();
  Credits credits;
  if (book_.whole_book && !sources->empty()) {
    StatusOr<const LanguageProfile*> language = FindLanguage(book_.lang);
    if (!language.ok()) return language.status();
    Status made = MakeNormalizers({book_.lang}).at(book_.lang);
    if (!made.ok()) return made;
    credits = MakeCredits(book_, **language, *normalizers_.at(book_.lang));
  }
  Script script = Markup(book_.title, book_.author, *sources, loaded_->cast, loaded_->overrides,
                         voices_, reporter, credits);
  if (!book_.whole_book) {
    // A text said alone: no generated chapter title.
    for (Chapter& c : script.chapters) {
      c.utterances.erase(
          std::remove_if(c.utterances.begin(), c.utterances.end(),
                         [](const Utterance& u) { return u.kind == UtteranceKind::kHeading; }),
          c.utterances.end());
    }
  }
  return script;
}

StatusOr<SynthRequest> BookSession::RequestFor(const Utterance& u) const {
  auto v = voices_.find(u.voice);
  if (v == voices_.end()) {
    return Status::DataError(
        "no voice '" + u.voice + "' in " +
        (options_.voices_dir.empty() ? DefaultVoicesDir() : options_.voices_dir) + " (used by " +
        u.id + ")");
  }
  return SynthRequest{u.lang, v->second, u.tokens};
}

StatusOr<Clip> BookSession::ClipFor(const Utterance& u, int rate_percent, bool* synthesized) {
  StatusOr<SynthRequest> request = RequestFor(u);
  if (!request.ok()) return request.status();
  if (rate_percent != 100) request->timbre = ScaledTimbre(request->timbre, rate_percent);
  if (!playback_cache_opened_) {
    // The build's cache when there is one; playback never creates it.
    playback_cache_opened_ = true;
    StatusOr<std::unique_ptr<ClipCache>> cache = ClipCache::Open(options_.cache_dir, false);
    if (!cache.ok()) return cache.status();
    playback_cache_ = std::move(cache).value();
  }
  const std::string key = ClipKey(*request);
  if (playback_cache_->Has(key)) {
    // A damaged clip is synthesized again below.
    StatusOr<Clip> clip = playback_cache_->Load(key);
    if (clip.ok()) return clip;
  }
  if (synth_ == nullptr) {
    StatusOr<std::unique_ptr<Synth>> synth = TakeSynth();
    if (!synth.ok()) return synth.status();
    synth_ = std::move(synth).value();
  }
  StatusOr<Clip> clip = synth_->Synthesize(*request);
  if (!clip.ok()) return clip.status();
  if (synthesized != nullptr) *synthesized = true;
  (void)playback_cache_->Store(key, *clip);  // a clip not kept is made again next time
  return clip;
}

StatusOr<std::vector<FoundSpeaker>> BookSession::FindCast(Reporter* reporter) {
  StatusOr<Script> script = Prepare(reporter);
  if (!script.ok()) return script.status();
  return FindSpeakers(*script, loaded_->cast);
}

StatusOr<int> BookSession::AddToCast(const std::vector<FoundSpeaker>& speakers) {
  std::vector<FoundSpeaker> added;
  for (const FoundSpeaker& p : speakers) {
    if (!p.in_cast) added.push_back(p);
  }
  const std::string path = book_.cast.empty() ? book_.dir + "/cast.toml" : book_.cast;
  std::string text;
  if (book_.cast.empty()) {
    text =
        "# The cast: who speaks, with which timbre (voices/*.toml). Check it: correct\n"
        "# names and genders, add aliases (other spellings, Slovak declined forms),\n"
        "# choose voices. `narrate cast --write` adds the people it finds.\n"
        "[narrator]\nvoice = " +
        TomlQuoted(loaded_->cast.options.narrator) +
        "\n\n[document]\nvoice = " + TomlQuoted(loaded_->cast.options.document) + "\n";
  } else {
    StatusOr<std::string> old = ReadFile(path);
    if (!old.ok()) return old.status();
    text = std::move(old).value();
    if (added.empty()) return 0;
    if (!text.empty() && text.back() != '\n') text += '\n';
    text += "\n# Added by `narrate cast --write`: check these.\n";
  }
  text += CastEntries(added);
  Status written = WriteFileAtomic(path, text);
  if (!written.ok()) return written;
  // What the next look-up sees.
  StatusOr<Cast> cast = LoadCast(path);
  if (!cast.ok()) return cast.status();
  loaded_->cast = std::move(cast).value();
  book_.cast = path;
  return static_cast<int>(added.size());
}

}  // namespace narrate
