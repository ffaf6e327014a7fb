#!/usr/bin/env bash
# make-repo.sh DIR: build the unitconv sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Grace Hopper" grace@example.com \
	2026-01-12T10:00:00Z "unitconv 0.3.0: units, quantities, parsing, formatting, command line" \
	2026-03-09T16:45:00Z "Unit expressions and temperature scales (UCEP-4)"
