#!/usr/bin/env bash
# make-repo.sh DIR: build the semkit sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Bjarne Stroustrup" bjarne@example.com \
	2026-03-02T10:00:00Z "semkit 1.0.0: parse, print and compare semantic versions" \
	2026-03-30T16:45:00Z "Pre-release precedence, ranges and bumping (SKEP-2)"
