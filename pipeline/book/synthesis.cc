// SynthesisRun: one task that keeps several Synths busy, polling their
// workers' sockets for answers.
#include "synthesis.h"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <unordered_set>

namespace narrate {

SynthesisRun::SynthesisRun(const std::vector<SynthRequest>& requests,
                           const std::vector<std::string>& keys, ClipCache* cache, ThreadPool* pool,
                           int jobs, SynthSource first, std::function<void(int, int)> progress)
    : requests_(requests),
      keys_(keys),
      cache_(cache),
      first_(std::move(first)),
      progress_(std::move(progress)),
      task_(pool) {
  std::unordered_set<std::string> seen;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (cache->Has(keys[i]) || !seen.insert(keys[i]).second) {
      ++reused_;
    } else {
      missing_.push_back(i);
    }
  }
  if (missing_.empty()) {
    cache_->Close(Status::Ok());
    return;
  }
  const int synths = std::max(1, std::min<int>(jobs, static_cast<int>(missing_.size())));
  task_.Run([this, synths] {
    failure_ = Drive(synths);
    cache_->Close(failure_);
  });
}

SynthesisRun::~SynthesisRun() { task_.Wait(); }

Status SynthesisRun::Wait() {
  task_.Wait();
  return failure_;
}

Status SynthesisRun::Drive(int jobs) {
  struct Busy {
    std::unique_ptr<Synth> synth;
    size_t request;  // index into requests_
  };
  std::vector<Busy> busy;
  size_t next = 0;  // index into missing_ of the next request to send
  int done = 0;
  Status failure;
  // Sends the next request to `synth`; false when there is none (or it failed).
  auto send = [&](std::unique_ptr<Synth> synth) {
    if (!failure.ok() || next == missing_.size()) return;
    const size_t request = missing_[next++];
    Status sent = synth->Start(requests_[request]);
    if (!sent.ok()) {
      failure = sent;
      return;
    }
    busy.push_back({std::move(synth), request});
  };
  // The first worker is usually warm already; the others start while it works.
  StatusOr<std::unique_ptr<Synth>> synth = first_();
  if (!synth.ok()) return synth.status();
  send(std::move(synth).value());
  for (int k = 1; k < jobs && failure.ok(); ++k) {
    synth = Synth::Create();
    if (!synth.ok()) {
      failure = synth.status();
      break;
    }
    send(std::move(synth).value());
  }
  std::vector<pollfd> fds;
  while (!busy.empty()) {
    fds.clear();
    for (const Busy& b : busy) fds.push_back({b.synth->fd(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      for (pollfd& f : fds) f.revents = POLLIN;  // Finish says what is wrong
    }
    // Answers in the order the requests were sent.
    std::vector<Busy> still;
    std::vector<std::unique_ptr<Synth>> free;
    for (size_t i = 0; i < busy.size(); ++i) {
      if (fds[i].revents == 0) {
        still.push_back(std::move(busy[i]));
        continue;
      }
      StatusOr<Clip> clip = busy[i].synth->Finish();
      Status stored = clip.ok() ? cache_->Store(keys_[busy[i].request], *clip) : clip.status();
      if (!stored.ok() && failure.ok()) failure = stored;
      ++done;
      if (progress_) progress_(done, static_cast<int>(missing_.size()));
      free.push_back(std::move(busy[i].synth));
    }
    busy = std::move(still);
    for (std::unique_ptr<Synth>& s : free) send(std::move(s));
  }
  return failure;
}

}  // namespace narrate
