// WAV tags and chapter marks, appended after libsndfile has closed the file:
// a LIST/INFO chunk, a "cue " chunk and a LIST/adtl chunk of "labl" names.
// libsndfile 1.2.0 ignores SFC_SET_CUE once samples have been written (and
// never writes names), but the book file's chapters are only known while it is
// being written; and it will not reopen a file for writing whose strings are
// ahead of the samples.
// Thread-safety: see tags_writer.h.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>

#include "assemble/tags_writer.h"

namespace narrate {
namespace assemble_internal {

namespace {

void Le32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void Chunk(std::string* out, const char* id, const std::string& body) {
  out->append(id, 4);
  Le32(out, static_cast<uint32_t>(body.size()));
  out->append(body);
  if (body.size() % 2 != 0) out->push_back('\0');  // RIFF chunks are word-aligned
}

// Reads the 12-byte head of a file open at its start: true if it says RIFF WAVE.
bool ReadRiffWaveHead(std::FILE* f) {
  char head[12];
  return std::fread(head, 1, sizeof head, f) == sizeof head &&
         std::string(head, 4) == "RIFF" && std::string(head + 8, 4) == "WAVE";
}

}  // namespace

Status AppendWavChunks(const std::string& path, const AudioTags& tags,
                       const std::vector<ChapterMark>& chapters) {
  std::string info = "INFO";
  for (const auto& [id, text] : {std::pair<const char*, const std::string&>{"INAM", tags.title},
                                 {"IPRD", tags.album},
                                 {"IART", tags.artist}}) {
    if (!text.empty()) Chunk(&info, id, text + '\0');
  }
  std::string cue, adtl = "adtl";
  Le32(&cue, static_cast<uint32_t>(chapters.size()));
  for (size_t i = 0; i < chapters.size(); ++i) {
    const uint32_t id = static_cast<uint32_t>(i + 1);
    const uint32_t frame = static_cast<uint32_t>(chapters[i].start_frame);
    Le32(&cue, id);
    Le32(&cue, frame);  // position
    cue.append("data", 4);
    Le32(&cue, 0);      // chunk start
    Le32(&cue, 0);      // block start
    Le32(&cue, frame);  // sample offset
    std::string label;
    Le32(&label, id);
    label += chapters[i].title;  // UTF-8
    label.push_back('\0');
    Chunk(&adtl, "labl", label);
  }
  std::string tail;
  Chunk(&tail, "LIST", info);
  if (!chapters.empty()) {
    Chunk(&tail, "cue ", cue);
    Chunk(&tail, "LIST", adtl);
  }

  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (f == nullptr) return Status::IoError(path + ": cannot open to add tags");
  Status status = Status::Ok();
  if (!ReadRiffWaveHead(f)) {
    status = Status::DataError(path + ": not a RIFF WAVE file");
  } else if (std::fseek(f, 0, SEEK_END) != 0) {
    status = Status::IoError(path + ": cannot seek");
  } else {
    const long size = std::ftell(f);
    const uint64_t riff = static_cast<uint64_t>(size) - 8 + tail.size();
    if (size % 2 != 0 || riff > 0xFFFFFFFFu) {
      status = Status::DataError(path + ": cannot add tags to this WAV file");
    } else if (std::fwrite(tail.data(), 1, tail.size(), f) != tail.size() ||
               std::fseek(f, 4, SEEK_SET) != 0) {
      status = Status::IoError(path + ": cannot add tags");
    } else {
      std::string riff_size;
      Le32(&riff_size, static_cast<uint32_t>(riff));
      if (std::fwrite(riff_size.data(), 1, 4, f) != 4) {
        status = Status::IoError(path + ": cannot add tags");
      }
    }
  }
  if (std::fclose(f) != 0 && status.ok()) status = Status::IoError(path + ": cannot close");
  return status;
}

Status CutWavAfter(const std::string& path, int64_t frames) {
  const Status bad = Status::DataError(path + ": not a WAV file this build wrote");
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (f == nullptr) return Status::IoError(path + ": cannot open");
  long at = 12;  // the first chunk
  long data = -1;
  if (ReadRiffWaveHead(f)) {
    unsigned char chunk[8];
    while (data < 0 && std::fseek(f, at, SEEK_SET) == 0 &&
           std::fread(chunk, 1, sizeof chunk, f) == sizeof chunk) {
      const uint32_t size = chunk[4] | chunk[5] << 8 | chunk[6] << 16 |
                            static_cast<uint32_t>(chunk[7]) << 24;
      if (std::string(reinterpret_cast<char*>(chunk), 4) == "data") {
        if (static_cast<uint64_t>(frames) * 2 <= size) data = at;
        break;
      }
      at += 8 + static_cast<long>(size) + (size & 1);
    }
  }
  Status status = bad;
  if (data >= 0) {
    const uint64_t bytes = static_cast<uint64_t>(frames) * 2;
    const uint64_t end = static_cast<uint64_t>(data) + 8 + bytes;
    std::string sizes;
    Le32(&sizes, static_cast<uint32_t>(bytes));
    std::string riff;
    Le32(&riff, static_cast<uint32_t>(end - 8));
    status = std::fflush(f) == 0 && ::ftruncate(::fileno(f), static_cast<off_t>(end)) == 0 &&
                     std::fseek(f, data + 4, SEEK_SET) == 0 &&
                     std::fwrite(sizes.data(), 1, 4, f) == 4 &&
                     std::fseek(f, 4, SEEK_SET) == 0 && std::fwrite(riff.data(), 1, 4, f) == 4
                 ? Status::Ok()
                 : Status::IoError(path + ": cannot cut");
  }
  if (std::fclose(f) != 0 && status.ok()) status = Status::IoError(path + ": cannot close");
  return status;
}

}  // namespace assemble_internal
}  // namespace narrate
