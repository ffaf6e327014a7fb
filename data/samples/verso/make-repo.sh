#!/usr/bin/env bash
# make-repo.sh DIR: build the verso sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Grace Hopper" grace@example.com \
	2026-03-02T10:00:00Z "verso 0.3.0: versions parse, print and order" \
	2026-03-30T16:45:00Z "Pre-releases and version requirements (VRFC-2)"
