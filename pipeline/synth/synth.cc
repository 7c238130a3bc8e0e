// eSpeak NG in-process synthesis: SSML with a <mark> before every word gives
// exact word timings (text_position is unreliable around numbers).
#include "synth/synth.h"

#include <espeak-ng/speak_lib.h>
#include <unicode/brkiter.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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
};

// Splits tokens into words: ordinary text by ICU word boundaries (dictionary
// segmentation for Chinese), every number, abbreviation or lexicon token whole.
// Spaces and punctuation are attached to the word before them (spoken, no mark).
std::vector<Word> SplitWords(const SynthRequest& request,
                             std::vector<std::string>* glue) {
  std::vector<Word> words;
  glue->assign(1, "");
  auto add_glue = [&](const std::string& s) { glue->back() += s; };
  auto add_word = [&](const std::string& printed, const std::string& spoken) {
    words.push_back({printed, spoken});
    glue->push_back("");
  };
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> it(icu::BreakIterator::createWordInstance(
      icu::Locale(request.lang.c_str()), status));
  for (const Token& t : request.tokens) {
    if (t.kind == TokenKind::kSpace || t.kind == TokenKind::kPunctuation) {
      add_glue(t.spoken);
      continue;
    }
    if (t.kind != TokenKind::kWord || U_FAILURE(status) || t.text != t.spoken) {
      add_word(t.text, t.spoken);
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
        add_glue(piece);
      } else {
        add_word(piece, piece);
      }
    }
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
  std::string key = EngineVersion() + "\n" + LanguageVoice(r.lang) + "\n" +
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

StatusOr<Clip> Synth::Synthesize(const SynthRequest& request) {
  std::string voice = LanguageVoice(request.lang);
  if (!request.timbre.variant.empty()) voice += "+" + request.timbre.variant;
  if (voice != current_voice_) {
    if (espeak_SetVoiceByName(voice.c_str()) != EE_OK) {
      current_voice_.clear();
      return Status::Failure("eSpeak NG has no voice '" + voice + "'");
    }
    current_voice_ = voice;
  }
  const Timbre& t = request.timbre;
  if (espeak_SetParameter(espeakRATE, t.rate, 0) != EE_OK ||
      espeak_SetParameter(espeakPITCH, t.pitch, 0) != EE_OK ||
      espeak_SetParameter(espeakRANGE, t.range, 0) != EE_OK ||
      espeak_SetParameter(espeakVOLUME, t.volume, 0) != EE_OK) {
    return Status::Failure("eSpeak NG rejected the parameters of timbre '" +
                           t.name + "'");
  }

  std::vector<std::string> glue;
  std::vector<Word> words = SplitWords(request, &glue);
  std::string ssml = "<speak>";
  AppendXmlEscaped(glue[0], &ssml);
  for (size_t i = 0; i < words.size(); ++i) {
    ssml += "<mark name=\"w" + std::to_string(i) + "\"/>";
    AppendXmlEscaped(words[i].spoken, &ssml);
    AppendXmlEscaped(glue[i + 1], &ssml);
  }
  ssml += "<mark name=\"end\"/></speak>";

  Capture capture;
  g_capture = &capture;
  espeak_ERROR err =
      espeak_Synth(ssml.c_str(), ssml.size() + 1, 0, POS_CHARACTER, 0,
                   espeakCHARS_UTF8 | espeakSSML, nullptr, nullptr);
  if (err == EE_OK) err = espeak_Synchronize();
  g_capture = nullptr;
  if (err != EE_OK) {
    return Status::Failure("eSpeak NG failed to synthesize (error " +
                           std::to_string(err) + ")");
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
