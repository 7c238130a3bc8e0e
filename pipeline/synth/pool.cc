// SynthesizeAll: the clip cache and the threads that fill it, each driving its
// own Synth (and so its own eSpeak NG worker process). Also the clip file format.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

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
  if (in.size() < sizeof kMagic || in.compare(0, sizeof kMagic, kMagic, sizeof kMagic) != 0) {
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

StatusOr<SynthAllStats> SynthesizeAll(const std::vector<SynthRequest>& requests,
                                      const std::string& cache_dir, int jobs,
                                      const std::function<void(int, int)>& progress) {
  Status dir = MakeDirs(cache_dir);
  if (!dir.ok()) return dir;

  // Which clips are missing; each distinct key is synthesized once.
  SynthAllStats stats;
  std::vector<size_t> missing;
  std::set<std::string> seen;
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string path = ClipPath(cache_dir, requests[i]);
    if (::access(path.c_str(), R_OK) == 0 || !seen.insert(path).second) {
      ++stats.reused;
      continue;
    }
    missing.push_back(i);
  }
  stats.synthesized = static_cast<int>(missing.size());
  const int total = static_cast<int>(missing.size());
  if (total == 0) return stats;

  std::mutex mutex;
  std::condition_variable changed;
  size_t next = 0;  // index into `missing` of the next request to take
  int done = 0;
  int running = 0;
  Status failure;
  auto work = [&] {
    StatusOr<std::unique_ptr<Synth>> synth = Synth::Create();
    for (;;) {
      size_t i;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!synth.ok() && failure.ok()) failure = synth.status();
        if (!failure.ok() || next == missing.size()) break;
        i = missing[next++];
      }
      StatusOr<Clip> clip = (*synth)->Synthesize(requests[i]);
      Status written = clip.ok() ? WriteFileAtomic(ClipPath(cache_dir, requests[i]),
                                                   EncodeClip(*clip))
                                 : clip.status();
      std::lock_guard<std::mutex> lock(mutex);
      if (!written.ok() && failure.ok()) failure = written;
      ++done;
      changed.notify_all();
    }
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    changed.notify_all();
  };
  jobs = std::max(1, std::min(jobs, total));
  std::vector<std::thread> threads;
  running = jobs;
  for (int k = 0; k < jobs; ++k) threads.emplace_back(work);
  {
    // Progress is reported from the calling thread only.
    std::unique_lock<std::mutex> lock(mutex);
    int reported = 0;
    while (running > 0) {
      changed.wait(lock, [&] { return done != reported || running == 0; });
      if (done != reported && progress) {
        reported = done;
        lock.unlock();
        progress(reported, total);
        lock.lock();
      }
    }
  }
  for (std::thread& t : threads) t.join();
  if (!failure.ok()) return failure;
  return stats;
}

}  // namespace narrate
