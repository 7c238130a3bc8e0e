// Worker processes that fill the clip cache, and the cache file format.
// eSpeak NG is global and not thread-safe, so each worker is a forked process
// with its own Synth; the parent never initializes eSpeak.
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "synth/synth.h"

namespace narrate {
namespace {

constexpr char kMagic[8] = {'N', 'R', 'C', 'L', 'I', 'P', '0', '1'};

template <typename T>
void Put(std::string* out, T value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

template <typename T>
bool Get(const std::string& in, size_t* pos, T* value) {
  if (*pos + sizeof(T) > in.size()) return false;
  std::memcpy(value, in.data() + *pos, sizeof(T));
  *pos += sizeof(T);
  return true;
}

// Synthesizes the requests at `indices` and writes their clips; reports each
// finished clip as one byte on `notify_fd`. Runs in a forked child.
int RunWorker(const std::vector<SynthRequest>& requests,
              const std::vector<size_t>& indices, const std::string& cache_dir,
              int notify_fd) {
  StatusOr<std::unique_ptr<Synth>> synth = Synth::Create();
  if (!synth.ok()) {
    std::fprintf(stderr, "narrate: %s\n", synth.status().message().c_str());
    return 1;
  }
  for (size_t i : indices) {
    StatusOr<Clip> clip = (*synth)->Synthesize(requests[i]);
    if (!clip.ok()) {
      std::fprintf(stderr, "narrate: %s\n", clip.status().message().c_str());
      return 1;
    }
    Status written =
        WriteFileAtomic(ClipPath(cache_dir, requests[i]), EncodeClip(*clip));
    if (!written.ok()) {
      std::fprintf(stderr, "narrate: %s\n", written.message().c_str());
      return 1;
    }
    char byte = 1;
    while (::write(notify_fd, &byte, 1) < 0 && errno == EINTR) {
    }
  }
  return 0;
}

}  // namespace

std::string EncodeClip(const Clip& clip) {
  std::string out(kMagic, sizeof kMagic);
  Put<int32_t>(&out, clip.sample_rate);
  Put<uint64_t>(&out, clip.samples.size());
  out.append(reinterpret_cast<const char*>(clip.samples.data()),
             clip.samples.size() * sizeof(int16_t));
  Put<uint32_t>(&out, static_cast<uint32_t>(clip.words.size()));
  for (const WordTiming& w : clip.words) {
    Put<uint32_t>(&out, static_cast<uint32_t>(w.text.size()));
    out += w.text;
    Put<int64_t>(&out, w.start);
    Put<int64_t>(&out, w.end);
  }
  return out;
}

StatusOr<Clip> DecodeClip(const std::string& in, const std::string& path) {
  const Status bad = Status::DataError(path + ": not a valid clip file");
  if (in.size() < sizeof kMagic || in.compare(0, sizeof kMagic, kMagic,
                                              sizeof kMagic) != 0) {
    return bad;
  }
  size_t pos = sizeof kMagic;
  Clip clip;
  int32_t rate;
  uint64_t count;
  if (!Get(in, &pos, &rate) || !Get(in, &pos, &count) ||
      count > (in.size() - pos) / sizeof(int16_t)) {
    return bad;
  }
  clip.sample_rate = rate;
  clip.samples.resize(count);
  std::memcpy(clip.samples.data(), in.data() + pos, count * sizeof(int16_t));
  pos += count * sizeof(int16_t);
  uint32_t words;
  if (!Get(in, &pos, &words)) return bad;
  for (uint32_t i = 0; i < words; ++i) {
    uint32_t length;
    WordTiming w;
    if (!Get(in, &pos, &length) || pos + length > in.size()) return bad;
    w.text = in.substr(pos, length);
    pos += length;
    if (!Get(in, &pos, &w.start) || !Get(in, &pos, &w.end)) return bad;
    clip.words.push_back(std::move(w));
  }
  if (pos != in.size()) return bad;
  return clip;
}

StatusOr<SynthAllStats> SynthesizeAll(
    const std::vector<SynthRequest>& requests, const std::string& cache_dir,
    int jobs, const std::function<void(int, int)>& progress) {
  Status dir = MakeDirs(cache_dir);
  if (!dir.ok()) return dir;

  // Which clips are missing; each distinct key is synthesized once.
  SynthAllStats stats;
  std::vector<size_t> missing;
  std::vector<std::string> seen;
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string path = ClipPath(cache_dir, requests[i]);
    if (::access(path.c_str(), R_OK) == 0 ||
        std::find(seen.begin(), seen.end(), path) != seen.end()) {
      ++stats.reused;
      continue;
    }
    seen.push_back(path);
    missing.push_back(i);
  }
  stats.synthesized = static_cast<int>(missing.size());
  const int total = static_cast<int>(missing.size());
  if (total == 0) return stats;

  jobs = std::max(1, std::min(jobs, total));
  int fds[2];
  if (::pipe(fds) != 0) return Status::Failure("cannot create a pipe");
  std::fflush(nullptr);
  std::vector<pid_t> workers;
  for (int k = 0; k < jobs; ++k) {
    std::vector<size_t> mine;
    for (size_t j = k; j < missing.size(); j += jobs) mine.push_back(missing[j]);
    pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      return Status::Failure("cannot start a synthesis worker");
    }
    if (pid == 0) {
      ::close(fds[0]);
      ::_exit(RunWorker(requests, mine, cache_dir, fds[1]));
    }
    workers.push_back(pid);
  }
  ::close(fds[1]);
  int done = 0;
  char buf[256];
  for (;;) {
    ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<int>(n);
    if (progress) progress(done, total);
  }
  ::close(fds[0]);
  bool failed = false;
  for (pid_t pid : workers) {
    int wstatus = 0;
    while (::waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) failed = true;
  }
  if (failed) return Status::Failure("a synthesis worker failed");
  return stats;
}

}  // namespace narrate
