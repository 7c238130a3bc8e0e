// Private to book: the clip cache, one object for every user of clips (build,
// preview, say): look a clip up, store one, wait for one that synthesis is
// making. Clips are files <dir>/<ClipKey>.clip (synth's clip format),
// written atomically: a killed run leaves only whole clips. Thread-safe.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

#include "core/core.h"

namespace narrate {

class ClipCache {
 public:
  // What the folder holds is listed once, here. With `create` the folder is
  // made; without, a missing folder gives a cache that holds nothing and
  // keeps nothing (a preview of a book never built). IoError when the folder
  // cannot be made or read.
  static StatusOr<std::unique_ptr<ClipCache>> Open(const std::string& dir, bool create);

  const std::string& dir() const { return dir_; }
  // Whether the clip with `key` is there (listed at Open, or stored since).
  bool Has(const std::string& key) const;
  StatusOr<Clip> Load(const std::string& key) const;
  StatusOr<ClipSummary> LoadSummary(const std::string& key) const;
  // Writes the clip (atomically) and wakes those waiting for it. A cache
  // without a folder keeps nothing.
  Status Store(const std::string& key, const Clip& clip);

  // Waits until the clip with `key` is there, or until Close(): then the
  // failure given to Close, or a Failure if the clip never came.
  Status WaitFor(const std::string& key);
  // No more clips will be stored (`why`: the failure that stopped them, or
  // Ok): every wait ends.
  void Close(Status why);

 private:
  ClipCache() = default;
  std::string Path(const std::string& key) const;

  std::string dir_;  // empty: holds nothing, keeps nothing
  mutable std::mutex mutex_;
  std::condition_variable stored_;
  std::unordered_set<std::string> keys_;
  bool closed_ = false;
  Status closed_why_;
};

}  // namespace narrate
