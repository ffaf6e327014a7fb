// semkit: semantic versions (https://semver.org) for C++17.
#ifndef SEMKIT_VERSION_H
#define SEMKIT_VERSION_H

#include <string>

namespace semkit {

// Version is MAJOR.MINOR.PATCH with an optional pre-release tag.
struct Version {
  int major = 0;
  int minor = 0;
  int patch = 0;
  std::string pre;  // "rc.1" in 1.0.0-rc.1; empty for a release
};

// parse reads "1.2.3" or "1.2.3-rc.1"; it throws std::invalid_argument
// with the message "bad version 'TEXT'" for anything else.
Version parse(const std::string& text);

// to_string writes what parse reads.
std::string to_string(const Version& v);

// compare returns a negative number, 0 or a positive number when a is
// lower than, equal to or higher than b, in SemVer's precedence: a
// pre-release is lower than its release, and pre-release tags compare
// identifier by identifier.
int compare(const Version& a, const Version& b);

// Part names a number of a version.
enum class Part { Major, Minor, Patch };

// bump returns the next version: the part goes up by one, the parts after
// it become 0 and the pre-release tag goes. A pre-release's Patch bump
// only drops the tag (1.2.3-rc.1 becomes 1.2.3).
Version bump(const Version& v, Part part);

// library_version is semkit's own version.
const char* library_version();

}  // namespace semkit

#endif
