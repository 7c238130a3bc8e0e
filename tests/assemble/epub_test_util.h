// Test helpers for the EPUB writer: a small XML reader (enough for the
// well-formed documents the writer makes), MP3 files from WAV, epubcheck, and
// the check of every overlay clip against manifest.json.
#pragma once

#include <gtest/gtest.h>
#include <sndfile.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "process_util.h"

namespace narrate_test {

// An XML element: name, attributes, children, and all the text inside it.
struct XmlNode {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<XmlNode> children;
  std::string text;  // the text of the element and its descendants

  // Every descendant (and this) named `n`, in document order.
  void FindAll(const std::string& n, std::vector<const XmlNode*>* out) const {
    if (name == n) out->push_back(this);
    for (const XmlNode& c : children) c.FindAll(n, out);
  }
  std::vector<const XmlNode*> All(const std::string& n) const {
    std::vector<const XmlNode*> out;
    FindAll(n, &out);
    return out;
  }
};

class XmlReader {
 public:
  // The root element, or nullptr when the document is not well formed
  // (unbalanced tags, bad attributes, unknown entities).
  static std::unique_ptr<XmlNode> Parse(const std::string& xml) {
    XmlReader r(xml);
    r.SkipProlog();
    auto root = std::make_unique<XmlNode>();
    if (!r.Element(root.get())) return nullptr;
    r.SkipSpace();
    if (r.pos_ != xml.size()) return nullptr;
    return root;
  }

 private:
  explicit XmlReader(const std::string& s) : s_(s) {}

  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Skip(const std::string& open, const std::string& close) {
    if (s_.compare(pos_, open.size(), open) != 0) return false;
    const size_t end = s_.find(close, pos_);
    pos_ = end == std::string::npos ? s_.size() : end + close.size();
    return true;
  }
  void SkipProlog() {
    for (;;) {
      SkipSpace();
      if (!Skip("<?", "?>") && !Skip("<!--", "-->") && !Skip("<!DOCTYPE", ">")) return;
    }
  }
  std::string Name() {
    const size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == ':' ||
            s_[pos_] == '-' || s_[pos_] == '_' || s_[pos_] == '.')) {
      ++pos_;
    }
    return s_.substr(start, pos_ - start);
  }
  bool Unescape(const std::string& in, std::string* out) {
    for (size_t i = 0; i < in.size(); ++i) {
      if (in[i] == '<') return false;
      if (in[i] != '&') {
        *out += in[i];
        continue;
      }
      const size_t semi = in.find(';', i);
      if (semi == std::string::npos) return false;
      const std::string e = in.substr(i + 1, semi - i - 1);
      if (e == "amp")
        *out += '&';
      else if (e == "lt")
        *out += '<';
      else if (e == "gt")
        *out += '>';
      else if (e == "quot")
        *out += '"';
      else if (e == "apos" || e == "#39")
        *out += '\'';
      else
        return false;
      i = semi;
    }
    return true;
  }
  bool Element(XmlNode* node) {
    if (pos_ >= s_.size() || s_[pos_] != '<') return false;
    ++pos_;
    node->name = Name();
    if (node->name.empty()) return false;
    for (;;) {
      SkipSpace();
      if (s_.compare(pos_, 2, "/>") == 0) {
        pos_ += 2;
        return true;
      }
      if (pos_ < s_.size() && s_[pos_] == '>') {
        ++pos_;
        break;
      }
      const std::string key = Name();
      if (key.empty() || s_.compare(pos_, 2, "=\"") != 0) return false;
      pos_ += 2;
      const size_t end = s_.find('"', pos_);
      if (end == std::string::npos) return false;
      std::string value;
      if (!Unescape(s_.substr(pos_, end - pos_), &value)) return false;
      if (!node->attributes.emplace(key, value).second) return false;
      pos_ = end + 1;
    }
    for (;;) {
      const size_t lt = s_.find('<', pos_);
      if (lt == std::string::npos) return false;
      if (!Unescape(s_.substr(pos_, lt - pos_), &node->text)) return false;
      pos_ = lt;
      if (Skip("<!--", "-->")) continue;
      if (s_.compare(pos_, 2, "</") == 0) {
        pos_ += 2;
        if (Name() != node->name || pos_ >= s_.size() || s_[pos_] != '>') return false;
        ++pos_;
        return true;
      }
      node->children.emplace_back();
      if (!Element(&node->children.back())) return false;
      node->text += node->children.back().text;
    }
  }

  const std::string& s_;
  size_t pos_ = 0;
};

// "H:MM:SS.mmm" (or "SS.mmms") to milliseconds; -1 when it is neither.
inline long long ClockMs(const std::string& clock) {
  int h = 0, m = 0, s = 0, ms = 0;
  if (std::sscanf(clock.c_str(), "%d:%2d:%2d.%3d", &h, &m, &s, &ms) == 4) {
    return ((h * 60LL + m) * 60 + s) * 1000 + ms;
  }
  return -1;
}

// Copies a WAV file into an MP3 file (libsndfile's LAME encoder).
inline bool WavToMp3(const std::string& wav, const std::string& mp3) {
  SF_INFO in_info = {};
  SNDFILE* in = sf_open(wav.c_str(), SFM_READ, &in_info);
  if (in == nullptr) return false;
  SF_INFO out_info = {};
  out_info.samplerate = in_info.samplerate;
  out_info.channels = in_info.channels;
  out_info.format = SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III;
  SNDFILE* out = sf_open(mp3.c_str(), SFM_WRITE, &out_info);
  if (out == nullptr) {
    sf_close(in);
    return false;
  }
  std::vector<short> buf(4096 * in_info.channels);
  sf_count_t n;
  while ((n = sf_readf_short(in, buf.data(), 4096)) > 0) sf_writef_short(out, buf.data(), n);
  sf_close(in);
  return sf_close(out) == 0;
}

// Duration of an audio file as decoded, milliseconds; -1 when unreadable.
inline long long DecodedMs(const std::string& path) {
  SF_INFO info = {};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  if (f == nullptr) return -1;
  sf_count_t frames = 0, n;
  std::vector<short> buf(4096 * info.channels);
  while ((n = sf_readf_short(f, buf.data(), 4096)) > 0) frames += n;
  sf_close(f);
  return frames * 1000 / info.samplerate;
}

// The epubcheck command, or "" when it is not installed. Debian's
// /usr/bin/epubcheck is a jar that needs binfmt_misc; java -jar always works.
inline std::string EpubcheckCommand() {
  const char* jar = "/usr/share/java/epubcheck.jar";
  if (::access(jar, R_OK) != 0) return "";
  if (RunShell("java -version 2>&1").exit_code != 0) return "";
  return std::string("java -jar ") + jar;
}

}  // namespace narrate_test
