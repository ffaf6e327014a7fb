#include "semkit/version.h"

#include <cctype>
#include <stdexcept>

namespace semkit {

namespace {

// read_number reads a non-negative decimal number at pos, without leading
// zeros; it returns -1 when there is none.
int read_number(const std::string& s, std::size_t& pos) {
  std::size_t start = pos;
  long value = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
    value = value * 10 + (s[pos] - '0');
    if (value > 1000000000) {
      return -1;
    }
    pos++;
  }
  if (pos == start || (s[start] == '0' && pos - start > 1)) {
    return -1;
  }
  return static_cast<int>(value);
}

}  // namespace

Version parse(const std::string& text) {
  Version v;
  std::size_t pos = 0;
  int* parts[] = {&v.major, &v.minor, &v.patch};
  for (int i = 0; i < 3; i++) {
    if (i > 0) {
      if (pos >= text.size() || text[pos] != '.') {
        throw std::invalid_argument("bad version '" + text + "'");
      }
      pos++;
    }
    *parts[i] = read_number(text, pos);
    if (*parts[i] < 0) {
      throw std::invalid_argument("bad version '" + text + "'");
    }
  }
  if (pos < text.size()) {
    if (text[pos] != '-' || pos + 1 == text.size()) {
      throw std::invalid_argument("bad version '" + text + "'");
    }
    v.pre = text.substr(pos + 1);
  }
  return v;
}

std::string to_string(const Version& v) {
  std::string s = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
  if (!v.pre.empty()) {
    s += "-" + v.pre;
  }
  return s;
}

int compare(const Version& a, const Version& b) {
  if (a.major != b.major) {
    return a.major < b.major ? -1 : 1;
  }
  if (a.minor != b.minor) {
    return a.minor < b.minor ? -1 : 1;
  }
  if (a.patch != b.patch) {
    return a.patch < b.patch ? -1 : 1;
  }
  return a.pre.compare(b.pre);
}

const char* library_version() { return "1.0.0"; }

}  // namespace semkit
