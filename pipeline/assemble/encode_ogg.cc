// Ogg page rewriting (serial number and CRC) for deterministic Opus files.
// Thread-safety: see encode_ogg.h.
#include "encode_ogg.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

namespace narrate {
namespace assemble_internal {

namespace {

constexpr size_t kHeaderSize = 27;  // fixed part of a page header
constexpr size_t kSerialOffset = 14;
constexpr size_t kCrcOffset = 22;
constexpr size_t kSegmentsOffset = 26;

// The Ogg CRC-32: polynomial 0x04c11db7, MSB first, initial 0, no final xor.
uint32_t OggCrc(const unsigned char* data, size_t size) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t r = i << 24;
      for (int b = 0; b < 8; ++b) r = (r & 0x80000000u) ? (r << 1) ^ 0x04c11db7u : r << 1;
      t[i] = r;
    }
    return t;
  }();
  uint32_t crc = 0;
  for (size_t i = 0; i < size; ++i) crc = (crc << 8) ^ table[((crc >> 24) ^ data[i]) & 0xff];
  return crc;
}

void PutLe32(unsigned char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

uint32_t OggSerialFor(const std::string& text) {
  uint32_t h = 2166136261u;
  for (unsigned char c : text) h = (h ^ c) * 16777619u;
  return h;
}

Status SetOggSerial(const std::string& path, uint32_t serial) {
  std::FILE* f = std::fopen(path.c_str(), "r+b");
  if (f == nullptr) return Status::IoError(path + ": cannot open to finish the Ogg stream");
  std::vector<unsigned char> page;
  long pos = 0;
  Status status = Status::Ok();
  while (true) {
    page.resize(kHeaderSize);
    const size_t got = std::fread(page.data(), 1, kHeaderSize, f);
    if (got == 0 && std::feof(f)) break;
    if (got != kHeaderSize || std::memcmp(page.data(), "OggS", 4) != 0) {
      status = Status::DataError(path + ": not an Ogg page at byte " + std::to_string(pos));
      break;
    }
    const size_t segments = page[kSegmentsOffset];
    page.resize(kHeaderSize + segments);
    if (std::fread(page.data() + kHeaderSize, 1, segments, f) != segments) {
      status = Status::DataError(path + ": truncated Ogg page at byte " + std::to_string(pos));
      break;
    }
    size_t body = 0;
    for (size_t i = 0; i < segments; ++i) body += page[kHeaderSize + i];
    const size_t head = page.size();
    page.resize(head + body);
    if (std::fread(page.data() + head, 1, body, f) != body) {
      status = Status::DataError(path + ": truncated Ogg page at byte " + std::to_string(pos));
      break;
    }
    PutLe32(&page[kSerialOffset], serial);
    PutLe32(&page[kCrcOffset], 0);
    PutLe32(&page[kCrcOffset], OggCrc(page.data(), page.size()));
    if (std::fseek(f, pos, SEEK_SET) != 0 ||
        std::fwrite(page.data(), 1, page.size(), f) != page.size() || std::fflush(f) != 0) {
      status = Status::IoError(path + ": cannot rewrite Ogg page at byte " + std::to_string(pos));
      break;
    }
    pos += static_cast<long>(page.size());
    if (std::fseek(f, pos, SEEK_SET) != 0) {
      status = Status::IoError(path + ": cannot seek");
      break;
    }
  }
  if (std::fclose(f) != 0 && status.ok()) status = Status::IoError(path + ": cannot close");
  return status;
}

}  // namespace assemble_internal
}  // namespace narrate
