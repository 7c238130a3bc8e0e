// narrate-synth-worker: the process that owns eSpeak NG. Started by narrate's
// Synth with a socket on file descriptor 3 and the shared sample buffer
// (engine.h) on 4; not meant to be run by hand.
//
// eSpeak's output for a sentence depends on what it synthesized before (its
// state carries the speaking rate, the pitch flutter's phase, filter memories
// and more from call to call), yet a clip must depend on its request alone.
// So after selecting a voice the worker saves eSpeak's whole state, which is
// the library's static data plus everything it allocated (worker_heap.h), and
// puts it back after every request: each utterance starts exactly as in a
// freshly started process. A self-check after the first request proves the
// reset works with this build of eSpeak (that request, synthesized again after
// a reset, must come out byte-identical); if it does not, or
// NARRATE_SYNTH_FORK is set, every request runs in a forked child instead,
// which is just as exact and several times slower. NARRATE_SYNTH_TRACE=FILE
// appends a line per request to FILE saying which way it ran.
#include <dirent.h>
#include <dlfcn.h>
#include <espeak-ng/speak_lib.h>
#include <link.h>
#include <malloc.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine.h"
#include "worker_heap.h"

namespace narrate {
namespace synth_internal {
namespace {

// Where the eSpeak callback puts what one synchronous espeak_Synth call
// produces: the samples go to the buffer shared with narrate (an answer) or
// to a vector of the worker's own (the self-check's second run).
struct Target {
  SampleBuffer* shared = nullptr;
  std::vector<int16_t>* own = nullptr;
  Capture* capture = nullptr;  // the sample count and the marks
  bool full = false;           // the shared buffer could not grow
};
Target* g_target = nullptr;

int OnAudio(short* wav, int count, espeak_EVENT* events) {
  if (g_target == nullptr) return 0;
  SuspendEngineScope ours;  // the capture grows on the worker's own heap
  Capture* c = g_target->capture;
  for (espeak_EVENT* e = events; e->type != espeakEVENT_LIST_TERMINATED; ++e) {
    if (e->type == espeakEVENT_MARK && e->id.name && e->id.name[0] == 'w') {
      // Mark names are "w<index>"; `sample` counts from the start of the call.
      c->marks.emplace_back(std::atoi(e->id.name + 1), e->sample);
    }
  }
  if (wav != nullptr && count > 0) {
    const size_t n = static_cast<size_t>(count);
    if (g_target->own != nullptr) {
      g_target->own->insert(g_target->own->end(), wav, wav + n);
    } else if (g_target->shared->Reserve(c->count + n)) {
      std::memcpy(g_target->shared->data() + c->count, wav, n * sizeof(int16_t));
    } else {
      g_target->full = true;
      return 1;  // stops the synthesis
    }
    c->count += n;
  }
  return 0;
}

// eSpeak's static data: the writable part of libespeak-ng's image (what RELRO
// leaves writable: .got.plt tail, .data, .bss).
struct StaticData {
  char* begin = nullptr;
  size_t size = 0;
};

struct FindContext {
  const char* name;
  StaticData found;
};

int FindWritable(dl_phdr_info* info, size_t, void* data) {
  auto* context = static_cast<FindContext*>(data);
  if (info->dlpi_name == nullptr || std::strcmp(info->dlpi_name, context->name) != 0) return 0;
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  uintptr_t relro_end = 0;  // the loader makes [.., relro_end) read-only, page-wise
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relro_end = (info->dlpi_addr + ph.p_vaddr + ph.p_memsz) & ~(page - 1);
    }
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) == 0) continue;
    uintptr_t begin = info->dlpi_addr + ph.p_vaddr;
    const uintptr_t end = begin + ph.p_memsz;
    if (relro_end > begin && relro_end < end) begin = relro_end;
    if (relro_end >= end || context->found.begin != nullptr) return 1;  // unexpected layout
    context->found = {reinterpret_cast<char*>(begin), end - begin};
  }
  return 1;
}

StaticData LocateStaticData() {
  Dl_info info;
  if (::dladdr(reinterpret_cast<void*>(&espeak_Synth), &info) == 0 || info.dli_fname == nullptr) {
    return {};
  }
  FindContext context{info.dli_fname, {}};
  ::dl_iterate_phdr(FindWritable, &context);
  return context.found;
}

// Everything eSpeak's output depends on: its heap and its static data.
struct EngineState {
  PageStore::Copy heap;
  PageStore::Copy statics;
};

class Engine {
 public:
  // Initializes eSpeak NG; false (with *error set) when it cannot. Answers'
  // samples go to `shared`.
  bool Start(std::unique_ptr<SampleBuffer> shared, std::string* error) {
    shared_ = std::move(shared);
    statics_ = LocateStaticData();
    {
      EngineScope scope;
      if (espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nullptr, espeakINITIALIZE_DONT_EXIT) !=
          22050) {
        *error = "cannot initialize eSpeak NG (is espeak-ng-data installed?)";
        return false;
      }
      espeak_SetSynthCallback(OnAudio);
      const char* data = nullptr;
      espeak_Info(&data);
      if (data != nullptr) data_ = data;
    }
    fork_ = std::getenv("NARRATE_SYNTH_FORK") != nullptr || statics_.begin == nullptr;
    if (fork_) List();
    if (const char* trace = std::getenv("NARRATE_SYNTH_TRACE")) trace_ = std::fopen(trace, "a");
    return true;
  }

  // Saves the initial state, which every request starts from. Run after
  // the hello: the copy (megabytes of fresh memory) then overlaps narrate's
  // preparing the first request.
  void SaveInitial() { Save(&initial_); }

  // Synthesizes `r` into capture() (true) or says why not in error().
  bool Synthesize(const EngineRequest& r) {
    if (trace_ != nullptr) {
      std::fprintf(trace_, "%s %s\n", fork_ ? "forked" : "in-place", r.voice.c_str());
      std::fflush(trace_);
    }
    if (fork_) return SynthesizeInChild(r);
    if (!checked_) {
      // Until the first answer (the first request, or the next one after a
      // failure): from the initial state, the state every request starts
      // from, and answered at once; saving the voice's state and the
      // self-check wait until the answer is out (Settle), to keep the first
      // clip quick (a live preview waits for it).
      Restore(initial_);
      const bool ok = SetVoice(r.voice);
      current_.clear();  // the state is not the initial one, nor saved
      if (!ok) return Fail("eSpeak NG has no voice '" + r.voice + "'");
      Target answer = Answer();
      return SynthesizeHere(r, &answer, &error_);
    }
    const EngineState* voice = SelectVoice(r.voice);
    if (voice == nullptr) return Fail("eSpeak NG has no voice '" + r.voice + "'");
    Target answer = Answer();
    const bool ok = SynthesizeHere(r, &answer, &error_);
    Restore(*voice);
    return ok;
  }

  const Capture& capture() const { return capture_; }
  const std::string& error() const { return error_; }

  // After the first answer, capture(): the self-check. The same request,
  // synthesized again after that one and a reset, must give the same samples
  // and marks (without the reset it does not: eSpeak reads it at another
  // speed the second time). If it does not, every later request is
  // synthesized in a forked child. The second run goes to memory of the
  // worker's own: narrate may still be reading the answer's samples.
  void Settle(const EngineRequest& r) {
    if (fork_ || checked_) return;
    checked_ = true;
    if (!listed_) {
      // The initial state from here on includes eSpeak's list of voices (see
      // List); the check below tells whether the answer, made without it,
      // still holds.
      Restore(initial_);
      List();
      Save(&initial_);
    }
    const EngineState* voice = SelectVoice(r.voice);
    std::vector<int16_t> samples;
    Capture again;
    Target target{nullptr, &samples, &again};
    std::string error;
    const bool ok = voice != nullptr && SynthesizeHere(r, &target, &error);
    if (voice != nullptr) Restore(*voice);
    if (!ok || again.marks != capture_.marks || samples.size() != capture_.count ||
        !std::equal(samples.begin(), samples.end(), shared_->data())) {
      fork_ = true;
      Restore(initial_);  // what each forked child starts from
    }
  }

  // Nothing of the worker's outlives its answers: it ends without
  // espeak_Terminate, which can hang (a worker whose narrate had gone waited
  // on a lock there, holding its parent's output open).
  void Stop() {
    if (trace_ != nullptr) std::fclose(trace_);
    std::fflush(nullptr);
    std::_Exit(0);
  }

 private:
  static constexpr size_t kVoicesKept = 6;

  // Puts eSpeak into the state "just initialized, then `voice` selected",
  // whatever was selected before (a switch from another voice leaves traces in
  // eSpeak, so voices are always selected from the initial state). The states
  // of the last few voices are kept. Null when eSpeak has no such voice.
  const EngineState* SelectVoice(const std::string& voice) {
    auto found = std::find_if(voices_.begin(), voices_.end(),
                              [&](const auto& v) { return v.first == voice; });
    if (found != voices_.end()) {
      std::rotate(voices_.begin(), found, found + 1);  // most recent first
      if (current_ != voice) Restore(voices_.front().second);
    } else {
      Restore(initial_);
      if (!SetVoice(voice)) {
        Restore(initial_);
        current_.clear();
        return nullptr;
      }
      if (voices_.size() == kVoicesKept) voices_.pop_back();
      voices_.emplace(voices_.begin(), voice, EngineState());
      Save(&voices_.front().second);
    }
    current_ = voice;
    return &voices_.front().second;
  }

  void Save(EngineState* state) {
    SaveHeap(&pages_, &state->heap);
    state->statics = pages_.Take(statics_.begin, statics_.size);
  }

  void Restore(const EngineState& state) const {
    RestoreHeap(state.heap);
    PageStore::PutBack(state.statics, statics_.begin);
  }

  // eSpeak lists the installed voices (reading every voice file) when
  // a voice is first looked up by language or by a name that is not a file
  // name, and keeps the list. Listed once in the initial state, it is not read
  // again each time a voice is selected from that state, nor for each foreign
  // span (<voice xml:lang>). The first answer does not wait for it: the
  // voice is selected by its file (VoiceFile) and the list is made after.
  void List() {
    EngineScope scope;
    espeak_ListVoices(nullptr);
    listed_ = true;
  }

  // The voice `name` ("sk+m3") as eSpeak's file for it ("zlw/sk+m3"), which
  // eSpeak loads without looking through the list of voices; the same file
  // as it would pick by name. Unchanged when no single file has that name.
  // The voice files are found in one walk of eSpeak's lang/ folder, on the
  // first call (a walk is ~200 system calls).
  std::string VoiceFile(const std::string& name) {
    if (!walked_) {
      walked_ = true;
      const std::string lang = data_ + "/lang";
      if (DIR* top = ::opendir(lang.c_str())) {
        while (const dirent* family = ::readdir(top)) {
          if (family->d_name[0] == '.') continue;
          DIR* dir = ::opendir((lang + "/" + family->d_name).c_str());
          if (dir == nullptr) {
            voice_files_.emplace(Lower(family->d_name), family->d_name);  // a file at the top
            continue;
          }
          while (const dirent* file = ::readdir(dir)) {
            if (file->d_name[0] == '.') continue;
            voice_files_.emplace(Lower(file->d_name),
                                 std::string(family->d_name) + "/" + file->d_name);
          }
          ::closedir(dir);
        }
        ::closedir(top);
      }
    }
    const size_t plus = name.find('+');
    const std::string base = name.substr(0, plus);
    if (base.find('/') != std::string::npos) return name;
    const auto [first, last] = voice_files_.equal_range(Lower(base));
    if (first == last || std::next(first) != last) return name;
    return first->second + (plus == std::string::npos ? "" : name.substr(plus));
  }

  static std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }

  // Selects `voice` on top of eSpeak's present state; false when eSpeak has
  // no such voice (a failed switch keeps the old voice: never use it then).
  bool SetVoice(const std::string& voice) {
    const std::string file = VoiceFile(voice);  // outside the scope: ours
    EngineScope scope;
    return espeak_SetVoiceByName(file.c_str()) == EE_OK;
  }

  bool Fail(std::string why) {
    error_ = std::move(why);
    return false;
  }

  // The target of an answer: its samples to the shared buffer, counted and
  // marked in capture_.
  Target Answer() { return Target{shared_.get(), nullptr, &capture_}; }

  // Synthesizes in this process (advancing eSpeak's state) into `target`;
  // false with `error` set if eSpeak fails.
  static bool SynthesizeHere(const EngineRequest& r, Target* target, std::string* error) {
    target->capture->count = 0;
    target->capture->marks.clear();  // buffers keep their capacity from clip to clip
    espeak_ERROR err;
    {
      EngineScope scope;
      std::srand(1);  // the C library's random state, which eSpeak draws on
      if (espeak_SetParameter(espeakRATE, r.rate, 0) != EE_OK ||
          espeak_SetParameter(espeakPITCH, r.pitch, 0) != EE_OK ||
          espeak_SetParameter(espeakRANGE, r.range, 0) != EE_OK ||
          espeak_SetParameter(espeakVOLUME, r.volume, 0) != EE_OK) {
        *error = "eSpeak NG rejected the rate, pitch, range or volume";
        return false;
      }
      g_target = target;
      err = espeak_Synth(r.ssml.c_str(), r.ssml.size() + 1, 0, POS_CHARACTER, 0,
                         espeakCHARS_UTF8 | espeakSSML, nullptr, nullptr);
      if (err == EE_OK) err = espeak_Synchronize();
      g_target = nullptr;
    }
    if (target->full) {
      *error = "no memory for the samples of an utterance";
      return false;
    }
    if (err != EE_OK) {
      *error = "eSpeak NG failed to synthesize (error " + std::to_string(err) + ")";
      return false;
    }
    return true;
  }

  // Selects the voice and synthesizes in a forked child of this process, which
  // stays as eSpeak was right after initialization.
  bool SynthesizeInChild(const EngineRequest& r) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return Fail("cannot create a socket");
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      return Fail("cannot fork a synthesis process");
    }
    if (pid == 0) {
      ::close(fds[0]);
      bool ok = SetVoice(r.voice);
      if (!ok) error_ = "eSpeak NG has no voice '" + r.voice + "'";
      Target answer = Answer();
      ok = ok && SynthesizeHere(r, &answer, &error_);
      ::_exit((ok ? WriteCapture(fds[1], capture_) : WriteFrame(fds[1], "E" + error_)) ? 0 : 1);
    }
    ::close(fds[1]);
    std::string error;
    const bool got = ReadAnswer(fds[0], &capture_, &error);
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      return Fail("the eSpeak NG synthesis process died (voice '" + r.voice + "')");
    }
    if (!error.empty()) return Fail(error);
    return true;
  }

  StaticData statics_;
  PageStore pages_;  // of the saved states below
  EngineState initial_;
  std::vector<std::pair<std::string, EngineState>> voices_;  // most recent first
  std::string current_;  // the voice eSpeak's state is at; empty when unknown
  bool fork_ = false;
  bool checked_ = false;        // the self-check has run (see Settle)
  std::FILE* trace_ = nullptr;  // NARRATE_SYNTH_TRACE: a line per request, how it ran
  std::string data_;            // eSpeak's data folder
  bool listed_ = false;         // the initial state has eSpeak's list of voices
  bool walked_ = false;         // voice_files_ is filled
  std::multimap<std::string, std::string> voice_files_;  // lower-case name -> lang/ path
  std::unique_ptr<SampleBuffer> shared_;                 // answers' samples, seen by narrate
  Capture capture_;    // the last answer: its sample count and marks
  std::string error_;  // or why there is none
};

// `fd`: the socket to narrate; `samples`: the memfd of the shared buffer.
int RunEngine(int fd, int samples) {
  // Keep freed memory in the process: a fresh page costs a page fault to touch,
  // a page kept does not.
  ::mallopt(M_MMAP_THRESHOLD, 64 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 256 << 20);
  Engine engine;
  std::string error;
  std::unique_ptr<SampleBuffer> shared = SampleBuffer::Adopt(samples);
  if (shared == nullptr) {
    WriteFrame(fd, "Ethe synthesis worker got no sample buffer");
    return 1;
  }
  if (!engine.Start(std::move(shared), &error)) {
    WriteFrame(fd, "E" + error);
    return 1;
  }
  const char* version = espeak_Info(nullptr);
  if (!WriteFrame(fd, std::string("R") + (version != nullptr ? version : "?"))) return 1;
  engine.SaveInitial();
  std::string frame;
  while (ReadFrame(fd, &frame)) {
    EngineRequest r;
    if (!DecodeRequest(frame, &r)) {
      if (!WriteFrame(fd, "Ea garbled request reached the synthesis worker")) return 1;
      continue;
    }
    if (!engine.Synthesize(r)) {
      if (!WriteFrame(fd, "E" + engine.error())) return 1;
      continue;
    }
    if (!WriteCapture(fd, engine.capture())) return 1;
    engine.Settle(r);
  }
  engine.Stop();
  return 0;
}

}  // namespace
}  // namespace synth_internal
}  // namespace narrate

int main() { return narrate::synth_internal::RunEngine(3, 4); }
