#!/usr/bin/env bash
# make-repo.sh DIR: build the tinykv sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Ada Byron" ada@example.com \
	2026-01-10T09:00:00Z "tinykv 0.1.0: store, protocol server, snapshots, Python client" \
	2026-03-20T15:30:00Z "Add key expiry (TKEP-2)"
