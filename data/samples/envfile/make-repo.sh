#!/usr/bin/env bash
# make-repo.sh DIR: build the envfile sample repository at DIR, with tags
# base and head and deterministic commit ids (../sample-repo.sh).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/../sample-repo.sh" "$here" "$1" "Grace Hopper" grace@example.com \
	2026-03-25T09:00:00Z "envfile 0.1.0: KEY=VALUE files" \
	2026-04-08T16:00:00Z "Quoted values and variable expansion (EFEP-1)"
