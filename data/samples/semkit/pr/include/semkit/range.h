// semkit ranges: which versions a requirement such as ">=1.2.0 <2.0.0"
// accepts.
#ifndef SEMKIT_RANGE_H
#define SEMKIT_RANGE_H

#include <string>

#include "semkit/version.h"

namespace semkit {

// satisfies reports whether v meets every comparator of range, separated
// by blanks: an operator (>=, <=, >, <, =, or none for =) and a version.
// It throws std::invalid_argument with "empty range" for a range without
// comparators and "bad comparator 'TEXT'" for one it cannot read.
bool satisfies(const Version& v, const std::string& range);

}  // namespace semkit

#endif
