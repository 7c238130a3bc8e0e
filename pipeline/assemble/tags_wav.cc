// The WAV container as narrate writes it: a 44-byte head, the samples, then
// tags and chapter marks once the samples are all there (a LIST/INFO chunk, a
// "cue " chunk and a LIST/adtl chunk of "labl" names): the book file's
// chapters are only known while it is being written, and a file with nothing
// ahead of its samples but the head can be rewritten from any sample on.
// Thread-safety: see tags_writer.h.
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <utility>

#include "tags_writer.h"

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

std::string WavTail(const AudioTags& tags, const std::vector<ChapterMark>& chapters) {
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

  return tail;
}

std::string WavHead(int rate, uint64_t data_bytes, uint64_t tail_bytes) {
  std::string head = "RIFF";
  Le32(&head, static_cast<uint32_t>(kWavHeadBytes - 8 + data_bytes + tail_bytes));
  head += "WAVEfmt ";
  Le32(&head, 16);
  Le32(&head, 1 | 1 << 16);  // PCM, mono
  Le32(&head, static_cast<uint32_t>(rate));
  Le32(&head, static_cast<uint32_t>(rate) * 2);  // bytes a second
  Le32(&head, 2 | 16 << 16);                     // bytes a frame, bits a sample
  head += "data";
  Le32(&head, static_cast<uint32_t>(data_bytes));
  return head;
}

StatusOr<int64_t> WavFrames(int fd, int rate) {
  char head[kWavHeadBytes];
  struct stat st;
  if (::pread(fd, head, sizeof head, 0) != static_cast<ssize_t>(sizeof head) ||
      ::fstat(fd, &st) != 0) {
    return Status::DataError("not a WAV file narrate wrote");
  }
  // The same head as WavHead's but for the two sizes.
  const std::string expected = WavHead(rate, 0, 0);
  const std::string got(head, sizeof head);
  const uint32_t data = static_cast<uint8_t>(head[40]) | static_cast<uint8_t>(head[41]) << 8 |
                        static_cast<uint8_t>(head[42]) << 16 |
                        static_cast<uint32_t>(static_cast<uint8_t>(head[43])) << 24;
  if (got.compare(0, 4, expected, 0, 4) != 0 || got.compare(8, 32, expected, 8, 32) != 0 ||
      data % 2 != 0 || static_cast<uint64_t>(st.st_size) < kWavHeadBytes + data) {
    return Status::DataError("not a WAV file narrate wrote");
  }
  return static_cast<int64_t>(data / 2);
}

}  // namespace assemble_internal
}  // namespace narrate
