// Test helpers shared by the suites: run a shell command or the real `narrate`
// binary, make scratch folders, tell which files a run wrote, decode audio.
#pragma once

#include <dirent.h>
#include <sndfile.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace narrate_test {

struct RunResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command and collects what it prints on stdout (the command
// redirects stderr itself if it wants it: "... 2>&1").
inline RunResult RunShell(const std::string& cmd) {
  RunResult r;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.output.append(buf, n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs `narrate ARGS` and collects its stdout; ARGS must be shell-safe and may
// redirect ("2>/dev/null").
inline RunResult RunNarrateRedirected(const std::string& args) {
  return RunShell(std::string(NARRATE_BINARY) + " " + args);
}

// Runs `narrate ARGS` with stdout and stderr together.
inline RunResult RunNarrate(const std::string& args) {
  return RunNarrateRedirected(args + " 2>&1");
}

// A fresh empty folder under /tmp.
inline std::string ScratchDir() {
  char tmpl[] = "/tmp/narrate-test-XXXXXX";
  const char* dir = ::mkdtemp(tmpl);
  return dir ? dir : "";
}

// The files directly in `dir` (none when there is no `dir`), by name, with
// their inode numbers. A file that narrate writes through a temporary one and a
// rename (WriteFileAtomic: clips, cache keys) has a new inode each time it is
// written, so two snapshots tell which of them a run wrote. (Not so for files
// rewritten in place, such as a WAV file whose end is rewritten.)
using Inodes = std::map<std::string, ino_t>;
inline Inodes FileInodes(const std::string& dir) {
  Inodes files;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (const dirent* entry = ::readdir(d)) {
      struct stat st;
      const std::string name = entry->d_name;
      if (::stat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        files[name] = st.st_ino;
      }
    }
    ::closedir(d);
  }
  return files;
}

// The names in `after` that are not in `before` or have another inode there:
// the files written between the two snapshots.
inline std::vector<std::string> WrittenFiles(const Inodes& before, const Inodes& after) {
  std::vector<std::string> written;
  for (const auto& [name, inode] : after) {
    auto it = before.find(name);
    if (it == before.end() || it->second != inode) written.push_back(name);
  }
  return written;
}

struct Decoded {
  int sample_rate = 0;
  int channels = 0;
  std::vector<float> samples;  // interleaved, -1..1
};

// Decodes any file libsndfile reads; sample_rate 0 when it cannot.
inline Decoded Decode(const std::string& path) {
  Decoded d;
  SF_INFO info = {};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  if (f == nullptr) return d;
  d.sample_rate = info.samplerate;
  d.channels = info.channels;
  d.samples.resize(static_cast<size_t>(info.frames * info.channels));
  sf_readf_float(f, d.samples.data(), info.frames);
  sf_close(f);
  return d;
}

}  // namespace narrate_test
