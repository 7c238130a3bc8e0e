// WAV chapter marks: a "cue " chunk and a LIST/adtl chunk of "labl" names,
// appended after libsndfile has closed the file. libsndfile 1.2.0 ignores
// SFC_SET_CUE once samples have been written (and never writes names), but the
// book file's chapters are only known while it is being written.
// Thread-safety: see tags_writer.h.
#include <cstdio>
#include <string>

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

}  // namespace

Status AppendWavCues(const std::string& path, const std::vector<ChapterMark>& chapters) {
  if (chapters.empty()) return Status::Ok();
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
  Chunk(&tail, "cue ", cue);
  Chunk(&tail, "LIST", adtl);

  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (f == nullptr) return Status::IoError(path + ": cannot open to add cue points");
  unsigned char head[12];
  Status status = Status::Ok();
  if (std::fread(head, 1, sizeof head, f) != sizeof head ||
      std::string(reinterpret_cast<char*>(head), 4) != "RIFF" ||
      std::string(reinterpret_cast<char*>(head) + 8, 4) != "WAVE") {
    status = Status::DataError(path + ": not a RIFF WAVE file");
  } else if (std::fseek(f, 0, SEEK_END) != 0) {
    status = Status::IoError(path + ": cannot seek");
  } else {
    const long size = std::ftell(f);
    const uint64_t riff = static_cast<uint64_t>(size) - 8 + tail.size();
    if (size % 2 != 0 || riff > 0xFFFFFFFFu) {
      status = Status::DataError(path + ": cannot add cue points to this WAV file");
    } else if (std::fwrite(tail.data(), 1, tail.size(), f) != tail.size() ||
               std::fseek(f, 4, SEEK_SET) != 0) {
      status = Status::IoError(path + ": cannot add cue points");
    } else {
      std::string riff_size;
      Le32(&riff_size, static_cast<uint32_t>(riff));
      if (std::fwrite(riff_size.data(), 1, 4, f) != 4) {
        status = Status::IoError(path + ": cannot add cue points");
      }
    }
  }
  if (std::fclose(f) != 0 && status.ok()) status = Status::IoError(path + ": cannot close");
  return status;
}

}  // namespace assemble_internal
}  // namespace narrate
