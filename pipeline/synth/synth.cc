// The client side of synthesis: words and SSML (a <mark> before every word
// gives exact word timings; text_position is unreliable around numbers), the
// worker process that runs eSpeak NG (engine.cc), trimming and timings.
#include "synth/synth.h"

#include "core/language.h"
#include "engine.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

namespace narrate {
namespace {

void AppendXmlEscaped(const std::string& text, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '<':
        *out += "&lt;";
        break;
      case '>':
        *out += "&gt;";
        break;
      case '&':
        *out += "&amp;";
        break;
      case '"':
        *out += "&quot;";
        break;
      case '\'':
        *out += "&apos;";
        break;
      default:
        *out += c;
    }
  }
}

using IteratorCache = std::map<Lang, std::unique_ptr<icu::BreakIterator>>;

struct Word {
  std::string printed;
  std::string spoken;
  Lang lang;  // empty: the utterance's language
};

// Splits tokens into words: ordinary text by ICU word boundaries (dictionary
// segmentation for Chinese), every number, abbreviation or lexicon token whole.
// Spaces and punctuation are glue: spoken between the words without a mark,
// and printed as part of the word before them (text before the first word, such
// as an opening quote, goes with the first word), so that the printed words of
// an utterance concatenate back to its text.
std::vector<Word> SplitWords(const SynthRequest& request, IteratorCache* iterators,
                             std::vector<std::string>* glue) {
  std::vector<Word> words;
  std::string lead;  // printed text before the first word
  glue->assign(1, "");
  auto add_glue = [&](const std::string& printed, const std::string& spoken) {
    glue->back() += spoken;
    (words.empty() ? lead : words.back().printed) += printed;
  };
  auto add_word = [&](const std::string& printed, const std::string& spoken, const Lang& lang) {
    words.push_back({words.empty() ? lead + printed : printed, spoken, lang});
    glue->push_back("");
  };
  // Word iterators are costly to create (Chinese loads a dictionary): one per
  // language for the life of the Synth; null when ICU has none.
  auto found = iterators->find(request.lang);
  if (found == iterators->end()) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> created(
        icu::BreakIterator::createWordInstance(icu::Locale(request.lang.c_str()), status));
    if (U_FAILURE(status)) created.reset();
    found = iterators->emplace(request.lang, std::move(created)).first;
  }
  icu::BreakIterator* it = found->second.get();
  for (const Token& t : request.tokens) {
    if (t.kind == TokenKind::kSpace || t.kind == TokenKind::kPunctuation) {
      add_glue(t.text, t.spoken);
      continue;
    }
    if (t.kind != TokenKind::kWord || it == nullptr || t.text != t.spoken) {
      add_word(t.text, t.spoken, t.kind == TokenKind::kForeign ? t.lang : "");
      continue;
    }
    icu::UnicodeString u = icu::UnicodeString::fromUTF8(t.text);
    it->setText(u);
    int32_t start = it->first();
    for (int32_t end = it->next(); end != icu::BreakIterator::DONE; start = end, end = it->next()) {
      std::string piece;
      u.tempSubStringBetween(start, end).toUTF8String(piece);
      if (it->getRuleStatus() == UBRK_WORD_NONE) {
        add_glue(piece, piece);
      } else {
        add_word(piece, piece, "");
      }
    }
  }
  if (words.empty() && !lead.empty()) {
    // Nothing but glue: one silent "word" keeps the text in the timings.
    words.push_back({lead, "", ""});
    glue->push_back("");
  }
  return words;
}

}  // namespace

namespace synth_internal {

std::string LanguageVoice(const std::string& lang) {
  StatusOr<const LanguageProfile*> profile = FindLanguage(lang);
  return profile.ok() ? (*profile)->espeak_voice : lang;
}

std::string EngineVersion() {
  // A worker running another version is refused (Synth::Create), so that
  // cached clips stay true to their keys.
  return std::string("espeak-ng ") + NARRATE_ESPEAK_VERSION;
}

}  // namespace synth_internal

using synth_internal::EngineVersion;
using synth_internal::LanguageVoice;

std::string ClipKey(const SynthRequest& r) {
  // "clip 5": SSML without <speak> (a sentence with a foreign span sounds a
  // little different). Bump when clips change meaning, sound or file format.
  std::string key = "clip 5\n" + EngineVersion() + "\n" + LanguageVoice(r.lang) + "\n" +
                    r.timbre.variant + "\n" + std::to_string(r.timbre.pitch) + "," +
                    std::to_string(r.timbre.range) + "," + std::to_string(r.timbre.rate) + "," +
                    std::to_string(r.timbre.volume) + "\n";
  for (const Token& t : r.tokens) {
    key += std::to_string(static_cast<int>(t.kind)) + "\x1f" + t.text + "\x1f" + t.spoken + "\x1f" +
           t.lang + "\x1e";
  }
  return HexHash(key) + HexHash(key + "#2");
}

struct Synth::Impl {
  IteratorCache iterators;
  std::unique_ptr<synth_internal::SampleBuffer> samples;  // shared with the worker
  // The request under way (between Start and Finish).
  bool started = false;
  std::string voice;
  std::vector<Word> words;
};

std::string SynthWorkerPath() {
  if (const char* env = std::getenv("NARRATE_SYNTH_WORKER")) return env;
  // Installed beside the running program (build/narrate-synth-worker), else
  // where this build put it (for the test programs in build/tests/).
  const std::string beside = BesideProgram("narrate-synth-worker", true);
  if (!beside.empty()) return beside;
  return NARRATE_SYNTH_WORKER;
}

// This process's environment, with glibc's malloc told to back its heap with
// transparent huge pages: the worker copies megabytes of eSpeak state per
// voice, and every fresh 4 KB page is a page fault (one 2 MB page replaces
// 512 of them).
std::vector<std::string> WorkerEnvironment() {
  std::vector<std::string> env;
  std::string tunables = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1";
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "GLIBC_TUNABLES=", 15) == 0) {
      tunables = std::string(*e) + ":glibc.malloc.hugetlb=1";  // the user's own come first
    } else {
      env.emplace_back(*e);
    }
  }
  env.push_back(tunables);
  return env;
}

StatusOr<std::unique_ptr<Synth>> Synth::Create() {
  const std::string worker = SynthWorkerPath();
  std::unique_ptr<synth_internal::SampleBuffer> samples = synth_internal::SampleBuffer::Create();
  if (samples == nullptr) {
    return Status::Failure("cannot create the memory the synthesis worker shares with narrate");
  }
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return Status::Failure("cannot create a socket for the synthesis worker");
  }
  // The worker gets its end of the socket as descriptor 3 and the sample
  // buffer as 4, duplicated from descriptors above both so that the two dup2
  // cannot clobber each other. eSpeak prints notes of its own on stderr ("No
  // envelope") that mean nothing to a producer; the worker's real failures
  // come back over the socket. posix_spawn, not fork: fork would copy this
  // process's page tables, for a child that replaces them at once.
  const int socket_end = ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10);
  const int buffer_end = ::fcntl(samples->fd(), F_DUPFD_CLOEXEC, 10);
  ::close(fds[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, socket_end, 3);
  posix_spawn_file_actions_adddup2(&actions, buffer_end, 4);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  char* const argv[] = {const_cast<char*>(worker.c_str()), nullptr};
  const std::vector<std::string> env = WorkerEnvironment();
  std::vector<char*> envp;
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = -1;
  std::fflush(nullptr);
  const int spawned =
      socket_end < 0 || buffer_end < 0
          ? EMFILE
          : ::posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (socket_end >= 0) ::close(socket_end);
  if (buffer_end >= 0) ::close(buffer_end);
  if (spawned != 0) {
    ::close(fds[0]);
    return Status::Failure("cannot start the synthesis worker " + worker + ": " +
                           std::strerror(spawned));
  }
  std::unique_ptr<Synth> synth(new Synth());
  synth->fd_ = fds[0];
  synth->pid_ = pid;
  synth->impl_ = std::make_unique<Impl>();
  synth->impl_->samples = std::move(samples);
  std::string hello;
  if (!synth_internal::ReadFrame(synth->fd_, &hello)) {
    return Status::Failure("cannot start the synthesis worker " + worker);
  }
  if (hello.empty() || hello[0] != 'R') return Status::Failure(hello.substr(1));
  if (hello.substr(1) != NARRATE_ESPEAK_VERSION) {
    return Status::Failure("eSpeak NG " + hello.substr(1) +
                           " is installed, narrate was built with " + NARRATE_ESPEAK_VERSION +
                           ": build narrate again (scripts/narrate does)");
  }
  return synth;
}

Synth::~Synth() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    // Nothing of the worker's outlives its answers (clips are written here),
    // so it is stopped rather than waited for while it tidies up.
    ::kill(pid_, SIGKILL);
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

namespace {

std::string BuildSsml(const std::vector<Word>& words, const std::vector<std::string>& glue) {
  // No <speak> around it: eSpeak takes tags in SSML mode without one, and a
  // <speak> makes it load the voice and its dictionary again (1.6 MB for
  // Chinese) on every call, since the state it is reset to does not record
  // that voice as the current SSML voice.
  std::string ssml;
  AppendXmlEscaped(glue[0], &ssml);
  for (size_t i = 0; i < words.size(); ++i) {
    ssml += "<mark name=\"w" + std::to_string(i) + "\"/>";
    if (!words[i].lang.empty()) {
      // A foreign span (e.g. French inside Chinese): eSpeak picks that
      // language's voice for it and returns to the utterance's voice after.
      ssml += "<voice xml:lang=\"" + words[i].lang + "\">";
      AppendXmlEscaped(words[i].spoken, &ssml);
      ssml += "</voice>";
    } else {
      AppendXmlEscaped(words[i].spoken, &ssml);
    }
    AppendXmlEscaped(glue[i + 1], &ssml);
  }
  return ssml;
}

}  // namespace

StatusOr<Clip> Synth::Synthesize(const SynthRequest& request) {
  Status started = Start(request);
  if (!started.ok()) return started;
  return Finish();
}

Status Synth::Start(const SynthRequest& request) {
  synth_internal::EngineRequest engine;
  engine.voice = LanguageVoice(request.lang);
  if (!request.timbre.variant.empty()) engine.voice += "+" + request.timbre.variant;
  const Timbre& t = request.timbre;
  engine.rate = t.rate;
  engine.pitch = t.pitch;
  engine.range = t.range;
  engine.volume = t.volume;
  std::vector<std::string> glue;
  impl_->words = SplitWords(request, &impl_->iterators, &glue);
  engine.ssml = BuildSsml(impl_->words, glue);
  impl_->voice = engine.voice;
  if (!synth_internal::WriteFrame(fd_, synth_internal::EncodeRequest(engine))) {
    return Status::Failure("the synthesis worker stopped (voice '" + engine.voice + "')");
  }
  impl_->started = true;
  return Status::Ok();
}

StatusOr<Clip> Synth::Finish() {
  if (!impl_->started) return Status::Failure("Synth::Finish without a request");
  impl_->started = false;
  const std::vector<Word>& words = impl_->words;
  std::string error;
  synth_internal::Capture capture;
  if (!synth_internal::ReadAnswer(fd_, &capture, &error)) {
    return Status::Failure("the synthesis worker stopped (voice '" + impl_->voice + "')");
  }
  if (!error.empty()) return Status::Failure(error);
  if (!impl_->samples->Expose(capture.count)) {
    return Status::Failure("garbled audio from the synthesis worker");
  }

  // Trim silence: eSpeak adds ~350 ms after SSML; pauses are ours to place.
  constexpr int kThreshold = 64;  // about -54 dBFS
  constexpr int64_t kKeep = 220;  // 10 ms of margin each side
  const int16_t* s = impl_->samples->data();
  const int64_t count = static_cast<int64_t>(capture.count);
  int64_t first = 0, last = count;
  while (first < last && std::abs(s[first]) < kThreshold) ++first;
  while (last > first && std::abs(s[last - 1]) < kThreshold) --last;
  first = std::max<int64_t>(0, first - kKeep);
  last = std::min<int64_t>(count, last + kKeep);

  Clip clip;
  clip.samples.assign(s + first, s + last);
  const int64_t length = static_cast<int64_t>(clip.samples.size());
  std::vector<int64_t> starts(words.size() + 1, -1);
  for (const auto& [index, sample] : capture.marks) {
    if (index >= 0 && static_cast<size_t>(index) < words.size()) {
      starts[index] = sample;
    }
  }
  starts[words.size()] = last;
  for (size_t i = words.size(); i-- > 0;) {
    if (starts[i] < 0) starts[i] = starts[i + 1];  // a word eSpeak skipped
  }
  for (size_t i = 0; i < words.size(); ++i) {
    int64_t a = std::clamp<int64_t>(starts[i] - first, 0, length);
    int64_t b = std::clamp<int64_t>(starts[i + 1] - first, a, length);
    clip.words.push_back({words[i].printed, a, b});
  }
  return clip;
}

}  // namespace narrate
