#!/usr/bin/env bash
# make-repo.sh DIR: build the inikit sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Dennis Ritchie" dennis@example.com \
	2026-04-06T09:30:00Z "inikit 1.0.0: parse INI text with a handler" \
	2026-05-04T15:10:00Z "Inline comments, documents and typed lookups (IKEP-2)"
