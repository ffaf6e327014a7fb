#!/usr/bin/env bash
# make-repo.sh DIR: build the coinage sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Barbara Liskov" barbara@example.com \
	2026-04-06T09:00:00Z "coinage 1.2.0: money in minor units, currencies, conversion, formatting" \
	2026-05-04T15:30:00Z "Allocation, rate providers and money parsing (CGEP-3)"
