#!/usr/bin/env bash
# make-repo.sh DIR: build the bumpkit sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Ada Lovelace" ada@example.com \
	2026-02-16T10:00:00Z "bumpkit 1.1.0: parse, compare and describe versions" \
	2026-03-09T16:45:00Z "Bumping, ranges and sorting (BKEP-2)"
