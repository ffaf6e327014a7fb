#!/usr/bin/env bash
# c-image.sh --tag TAG --parent PARENT --tools DIR [--force]
#
# Builds lolbench's offline C and C++ image as one layer on top of the
# offline base image PARENT (base-image.sh), as layer-image.sh builds every
# language's: gcc and g++ 12, make, CMake and CTest 3.25, cmocka,
# GoogleTest 1.12 (libraries, CMake package and the sources in
# /usr/src/googletest, the stand-in for a FetchContent cache), gcov and
# gcovr, and lolbench's lolbench-ctest (DIR holds it). `lolbench env base
# --lang c` (or cpp) runs it. See docs/projects.md, "C and C++".
set -euo pipefail
IMAGE=c-image
WHAT="C and C++"
# Compilers, make (CMake's default generator), CTest, the two test
# frameworks (googletest is GoogleTest's sources, for projects that build it
# themselves), gcovr for line coverage (gcov comes with gcc).
PACKAGES=(gcc g++ make libc6-dev cmake libcmocka-dev libgtest-dev googletest gcovr)
TOOLDIR=""
INSTALL='install -m 0755 /tools/lolbench-ctest /usr/local/bin/lolbench-ctest'
ENV_CHANGES=()
VERIFY='gcc --version | head -n1 && cmake --version | head -n1 && gcovr --version | head -n1 && command -v lolbench-ctest'
. "$(dirname "$0")/layer-image.sh"
