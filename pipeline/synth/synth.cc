// eSpeak NG in-process synthesis: SSML with a <mark> before every word gives
// exact word timings (text_position is unreliable around numbers).
#include "synth/synth.h"

#include <espeak-ng/speak_lib.h>
#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

namespace narrate {
namespace {

bool g_synth_exists = false;

// State the eSpeak callback fills during one synchronous espeak_Synth call.
// eSpeak is process-global, so is this: it is only set inside Synthesize().
struct Capture {
  std::vector<int16_t> samples;
  std::vector<std::pair<int, int64_t>> marks;  // (word index, sample)
};
Capture* g_capture = nullptr;

int OnAudio(short* wav, int count, espeak_EVENT* events) {
  if (g_capture == nullptr) return 0;
  for (espeak_EVENT* e = events; e->type != espeakEVENT_LIST_TERMINATED; ++e) {
    if (e->type == espeakEVENT_MARK && e->id.name && e->id.name[0] == 'w') {
      // Mark names are "w<index>"; `sample` counts from the start of the call.
      g_capture->marks.emplace_back(std::atoi(e->id.name + 1), e->sample);
    }
  }
  if (wav != nullptr && count > 0) {
    g_capture->samples.insert(g_capture->samples.end(), wav, wav + count);
  }
  return 0;
}

void AppendXmlEscaped(const std::string& text, std::string* out) {
  for (char c : text) {
    switch (c) {
      case '<': *out += "&lt;"; break;
      case '>': *out += "&gt;"; break;
      case '&': *out += "&amp;"; break;
      case '"': *out += "&quot;"; break;
      case '\'': *out += "&apos;"; break;
      default: *out += c;
    }
  }
}

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
std::vector<Word> SplitWords(const SynthRequest& request,
                             std::vector<std::string>* glue) {
  std::vector<Word> words;
  std::string lead;  // printed text before the first word
  glue->assign(1, "");
  auto add_glue = [&](const std::string& printed, const std::string& spoken) {
    glue->back() += spoken;
    (words.empty() ? lead : words.back().printed) += printed;
  };
  auto add_word = [&](const std::string& printed, const std::string& spoken,
                      const Lang& lang) {
    words.push_back({words.empty() ? lead + printed : printed, spoken, lang});
    glue->push_back("");
  };
  // Word iterators are costly to create (Chinese loads a dictionary): one per
  // language for the life of the process; null when ICU has none.
  static std::map<Lang, std::unique_ptr<icu::BreakIterator>> iterators;
  auto found = iterators.find(request.lang);
  if (found == iterators.end()) {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> created(icu::BreakIterator::createWordInstance(
        icu::Locale(request.lang.c_str()), status));
    if (U_FAILURE(status)) created.reset();
    found = iterators.emplace(request.lang, std::move(created)).first;
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
    for (int32_t end = it->next(); end != icu::BreakIterator::DONE;
         start = end, end = it->next()) {
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

std::string LanguageVoice(const Lang& lang) {
  if (lang == "zh" || lang == "cmn") return "cmn-latn-pinyin";
  return lang;
}

std::string EngineVersion() {
  // Callable before espeak_Initialize (the parent of the workers never
  // initializes eSpeak), so only the library version: the data path is not
  // known yet there.
  const char* version = espeak_Info(nullptr);
  return std::string("espeak-ng ") + (version ? version : "?");
}

std::string ClipKey(const SynthRequest& r) {
  // "clip 2": words carry their trailing glue. Bump when clips change meaning.
  std::string key = "clip 2\n" + EngineVersion() + "\n" + LanguageVoice(r.lang) + "\n" +
                    r.timbre.variant + "\n" + std::to_string(r.timbre.pitch) +
                    "," + std::to_string(r.timbre.range) + "," +
                    std::to_string(r.timbre.rate) + "," +
                    std::to_string(r.timbre.volume) + "\n";
  for (const Token& t : r.tokens) {
    key += std::to_string(static_cast<int>(t.kind)) + "\x1f" + t.text + "\x1f" +
           t.spoken + "\x1f" + t.lang + "\x1e";
  }
  return HexHash(key) + HexHash(key + "#2");
}

std::string ClipPath(const std::string& cache_dir, const SynthRequest& request) {
  return cache_dir + "/" + ClipKey(request) + ".clip";
}

StatusOr<std::unique_ptr<Synth>> Synth::Create() {
  if (g_synth_exists) {
    return Status::Failure("eSpeak NG is already owned by another Synth");
  }
  int rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr,
                               espeakINITIALIZE_DONT_EXIT);
  if (rate != 22050) {
    return Status::Failure("cannot initialize eSpeak NG (is espeak-ng-data "
                           "installed?)");
  }
  espeak_SetSynthCallback(OnAudio);
  g_synth_exists = true;
  return std::unique_ptr<Synth>(new Synth());
}

Synth::~Synth() {
  espeak_Terminate();
  g_synth_exists = false;
}

namespace {

std::string BuildSsml(const std::vector<Word>& words,
                      const std::vector<std::string>& glue) {
  std::string ssml = "<speak>";
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
  return ssml + "<mark name=\"end\"/></speak>";
}

// The capture travels from the synthesis child to its parent as:
// 'K', u64 sample count, samples, u32 mark count, (i32 word, i64 sample)...
// or 'E' and an error message.
std::string EncodeCapture(const Capture& c) {
  std::string out = "K";
  const uint64_t n = c.samples.size();
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out.append(reinterpret_cast<const char*>(c.samples.data()), n * sizeof(int16_t));
  const uint32_t m = static_cast<uint32_t>(c.marks.size());
  out.append(reinterpret_cast<const char*>(&m), sizeof m);
  for (const auto& [word, sample] : c.marks) {
    const int32_t w = word;
    out.append(reinterpret_cast<const char*>(&w), sizeof w);
    out.append(reinterpret_cast<const char*>(&sample), sizeof sample);
  }
  return out;
}

bool DecodeCapture(const std::string& in, Capture* c) {
  size_t pos = 1;
  auto take = [&](void* dst, size_t size) {
    if (pos + size > in.size()) return false;
    std::memcpy(dst, in.data() + pos, size);
    pos += size;
    return true;
  };
  uint64_t n;
  if (!take(&n, sizeof n) || n > in.size() / sizeof(int16_t)) return false;
  c->samples.resize(n);
  uint32_t m;
  if (!take(c->samples.data(), n * sizeof(int16_t)) || !take(&m, sizeof m)) return false;
  for (uint32_t i = 0; i < m; ++i) {
    int32_t word;
    int64_t sample;
    if (!take(&word, sizeof word) || !take(&sample, sizeof sample)) return false;
    c->marks.emplace_back(word, sample);
  }
  return pos == in.size();
}

// Runs one espeak_Synth in this process; 'K'+capture or 'E'+message.
std::string SynthesizeSsml(const std::string& ssml, const Timbre& t) {
  if (espeak_SetParameter(espeakRATE, t.rate, 0) != EE_OK ||
      espeak_SetParameter(espeakPITCH, t.pitch, 0) != EE_OK ||
      espeak_SetParameter(espeakRANGE, t.range, 0) != EE_OK ||
      espeak_SetParameter(espeakVOLUME, t.volume, 0) != EE_OK) {
    return "EeSpeak NG rejected the parameters of timbre '" + t.name + "'";
  }
  Capture capture;
  g_capture = &capture;
  espeak_ERROR err =
      espeak_Synth(ssml.c_str(), ssml.size() + 1, 0, POS_CHARACTER, 0,
                   espeakCHARS_UTF8 | espeakSSML, nullptr, nullptr);
  if (err == EE_OK) err = espeak_Synchronize();
  g_capture = nullptr;
  if (err != EE_OK) {
    return "EeSpeak NG failed to synthesize (error " + std::to_string(err) + ")";
  }
  return EncodeCapture(capture);
}

}  // namespace

StatusOr<Clip> Synth::Synthesize(const SynthRequest& request) {
  // The voice is selected here, in the owning process, so that a run of
  // utterances in one voice loads it once; selecting a voice does not advance
  // the synthesis state. Synthesis itself runs in a forked child: eSpeak NG's
  // wave generator carries state from one call to the next (the same text
  // sounds slightly different the second time), and a child of a process that
  // never synthesized starts from the same state every time, so each clip
  // depends on its request alone, whatever ran before it. Only espeak_Synth
  // runs in the child; text preparation and trimming stay here.
  std::string voice = LanguageVoice(request.lang);
  if (!request.timbre.variant.empty()) voice += "+" + request.timbre.variant;
  if (voice != current_voice_) {
    if (espeak_SetVoiceByName(voice.c_str()) != EE_OK) {
      current_voice_.clear();
      return Status::Failure("eSpeak NG has no voice '" + voice + "'");
    }
    current_voice_ = voice;
  }
  std::vector<std::string> glue;
  const std::vector<Word> words = SplitWords(request, &glue);
  const std::string ssml = BuildSsml(words, glue);

  int fds[2];
  if (::pipe(fds) != 0) return Status::Failure("cannot create a pipe");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Failure("cannot fork a synthesis process");
  }
  if (pid == 0) {
    ::close(fds[0]);
    const std::string bytes = SynthesizeSsml(ssml, request.timbre);
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fds[1], bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(1);
      done += static_cast<size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string bytes;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    bytes.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0 || bytes.empty()) {
    return Status::Failure("the eSpeak NG synthesis process died (voice '" +
                           voice + "')");
  }
  if (bytes[0] == 'E') return Status::Failure(bytes.substr(1));
  Capture capture;
  if (!DecodeCapture(bytes, &capture)) {
    return Status::Failure("garbled audio from the synthesis process");
  }

  // Trim silence: eSpeak adds ~350 ms after SSML; pauses are ours to place.
  constexpr int kThreshold = 64;  // about -54 dBFS
  constexpr int64_t kKeep = 220;  // 10 ms of margin each side
  const auto& s = capture.samples;
  int64_t first = 0, last = static_cast<int64_t>(s.size());
  while (first < last && std::abs(s[first]) < kThreshold) ++first;
  while (last > first && std::abs(s[last - 1]) < kThreshold) --last;
  first = std::max<int64_t>(0, first - kKeep);
  last = std::min<int64_t>(static_cast<int64_t>(s.size()), last + kKeep);

  Clip clip;
  clip.samples.assign(s.begin() + first, s.begin() + last);
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
