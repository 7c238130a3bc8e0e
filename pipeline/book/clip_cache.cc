// ClipCache: a set of the keys present, filled by one listing of the folder
// (a look-up per clip would be a system call per sentence of the book) and
// by Store.
#include "clip_cache.h"

#include "synth/synth.h"

namespace narrate {
namespace {

constexpr char kSuffix[] = ".clip";

}  // namespace

StatusOr<std::unique_ptr<ClipCache>> ClipCache::Open(const std::string& dir, bool create) {
  std::unique_ptr<ClipCache> cache(new ClipCache());
  if (dir.empty() || (!create && !IsDirectory(dir))) return cache;
  if (create) {
    Status made = MakeDirs(dir);
    if (!made.ok()) return made;
  }
  StatusOr<std::vector<std::string>> listed = ListFiles(dir, kSuffix);
  if (!listed.ok()) return listed.status();
  cache->dir_ = dir;
  for (const std::string& name : *listed) {
    cache->keys_.insert(name.substr(0, name.size() - (sizeof kSuffix - 1)));
  }
  return cache;
}

std::string ClipCache::Path(const std::string& key) const { return dir_ + "/" + key + kSuffix; }

bool ClipCache::Has(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return keys_.count(key) > 0;
}

StatusOr<Clip> ClipCache::Load(const std::string& key) const { return ReadClip(Path(key)); }

StatusOr<ClipSummary> ClipCache::LoadSummary(const std::string& key) const {
  return ReadClipSummary(Path(key));
}

Status ClipCache::Store(const std::string& key, const Clip& clip) {
  if (dir_.empty()) return Status::Ok();
  Status written = WriteClip(Path(key), clip);
  if (!written.ok()) return written;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    keys_.insert(key);
  }
  stored_.notify_all();
  return Status::Ok();
}

Status ClipCache::WaitFor(const std::string& key) {
  std::unique_lock<std::mutex> lock(mutex_);
  stored_.wait(lock, [&] { return closed_ || keys_.count(key) > 0; });
  if (keys_.count(key) > 0) return Status::Ok();
  if (!closed_why_.ok()) return closed_why_;
  return Status::Failure(Path(key) + ": the clip was never synthesized");
}

void ClipCache::Close(Status why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    closed_why_ = std::move(why);
  }
  stored_.notify_all();
}

}  // namespace narrate
