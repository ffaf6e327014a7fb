#include "semkit/version.h"

#include <algorithm>
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

bool numeric(const std::string& id) {
  return !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// compare_pre compares two pre-release tags identifier by identifier:
// numbers numerically and below words, words in ASCII order; when one tag
// is the other's prefix, the shorter is lower.
int compare_pre(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i <= a.size() && j <= b.size()) {
    std::size_t ei = a.find('.', i);
    std::size_t ej = b.find('.', j);
    if (ei == std::string::npos) {
      ei = a.size();
    }
    if (ej == std::string::npos) {
      ej = b.size();
    }
    std::string x = a.substr(i, ei - i);
    std::string y = b.substr(j, ej - j);
    bool nx = numeric(x);
    bool ny = numeric(y);
    if (nx && ny && x.size() != y.size()) {
      return x.size() < y.size() ? -1 : 1;
    }
    if (nx != ny) {
      return nx ? -1 : 1;
    }
    if (int c = x.compare(y); c != 0) {
      return c < 0 ? -1 : 1;
    }
    i = ei + 1;
    j = ej + 1;
    if (i > a.size() || j > b.size()) {
      break;
    }
  }
  if (i > a.size() && j > b.size()) {
    return 0;
  }
  return i > a.size() ? -1 : 1;
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
  if (a.pre.empty() || b.pre.empty()) {
    return a.pre.empty() == b.pre.empty() ? 0 : (a.pre.empty() ? 1 : -1);
  }
  return compare_pre(a.pre, b.pre);
}

Version bump(const Version& v, Part part) {
  Version next = v;
  next.pre.clear();
  switch (part) {
    case Part::Major:
      next.major++;
      next.minor = 0;
      next.patch = 0;
      break;
    case Part::Minor:
      next.minor++;
      next.patch = 0;
      break;
    case Part::Patch:
      if (v.pre.empty()) {
        next.patch++;
      }
      break;
  }
  return next;
}

const char* library_version() { return "1.1.0"; }

}  // namespace semkit
