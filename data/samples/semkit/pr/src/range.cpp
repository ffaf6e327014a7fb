#include "semkit/range.h"

#include <sstream>
#include <stdexcept>

namespace semkit {

namespace {

// meets checks v against one comparator such as ">=1.2.0".
bool meets(const Version& v, const std::string& comparator) {
  std::size_t n = 0;
  while (n < comparator.size() && n < 2 && (comparator[n] == '<' || comparator[n] == '>' || comparator[n] == '=')) {
    n++;
  }
  std::string op = comparator.substr(0, n);
  Version bound;
  try {
    bound = parse(comparator.substr(n));
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument("bad comparator '" + comparator + "'");
  }
  int c = compare(v, bound);
  if (op == ">=") {
    return c >= 0;
  }
  if (op == "<=") {
    return c <= 0;
  }
  if (op == ">") {
    return c > 0;
  }
  if (op == "<") {
    return c < 0;
  }
  if (op == "=" || op.empty()) {
    return c == 0;
  }
  throw std::invalid_argument("bad comparator '" + comparator + "'");
}

}  // namespace

bool satisfies(const Version& v, const std::string& range) {
  std::istringstream in(range);
  std::string comparator;
  bool any = false;
  bool ok = true;
  while (in >> comparator) {
    any = true;
    ok = meets(v, comparator) && ok;
  }
  if (!any) {
    throw std::invalid_argument("empty range");
  }
  return ok;
}

}  // namespace semkit
