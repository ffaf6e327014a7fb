#!/usr/bin/env bash
# test/setup.sh demo|test: installs, from Debian's packages, what `make demo`
# or `make test` needs beyond Go, git, make and a Docker engine. make demo,
# make test and .ci/run all call it, so a fresh machine needs no other step.
# It is quick when everything is there, and installs only what is missing.
#
#   demo   debootstrap   builds the offline base image (lolbench env base)
#   test   the same, and:
#          chromium      the report's browser test (stages/report)
#          python3-pytest, python3-coverage
#                        the local executor runs the Python sample's tests on
#                        the host, and must agree with the Docker executor
#          python3-pip   the host fills a recipe's wheels folder with pip
#                        download (pipeline/sandbox, against a fake index)
set -euo pipefail
what=${1:-test}
case "$what" in
demo | test) ;;
*)
	echo "usage: test/setup.sh demo|test" >&2
	exit 2
	;;
esac

need=()
command -v git >/dev/null || need+=(git)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ "$what" = test ]; then
	command -v chromium >/dev/null || need+=(chromium)
	/usr/bin/python3 -c 'import pytest' 2>/dev/null || need+=(python3-pytest)
	/usr/bin/python3 -c 'import coverage' 2>/dev/null || need+=(python3-coverage)
	/usr/bin/python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "setup: missing Debian packages: ${need[*]}; install them (apt-get install ${need[*]}) and run again" >&2
	exit 1
fi
echo "setup: installing ${need[*]} (apt-get)" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
