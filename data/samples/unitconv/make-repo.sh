#!/usr/bin/env bash
# make-repo.sh DIR: build the unitconv sample repository at DIR.
# The history is deterministic (fixed authors, dates and config), so the
# commit ids are the same on every machine. Tags: base (the PR's base commit)
# and head (the PR's last commit).
set -euo pipefail
if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
	echo "make-repo.sh: $dir exists and is not empty" >&2
	exit 2
fi
mkdir -p "$dir"
cd "$dir"

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="Grace Hopper" GIT_AUTHOR_EMAIL="grace@example.com"
export GIT_COMMITTER_NAME="Grace Hopper" GIT_COMMITTER_EMAIL="grace@example.com"
git init -q -b main .
git config core.autocrlf false

commit() { # commit DATE MESSAGE
	git add -A
	GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}

cp -R "$here/base/." .
commit "2026-01-12T10:00:00Z" "unitconv 0.3.0: units, quantities, parsing, formatting, command line"
git tag base

# The PR: overlay the changed and added files.
cp -R "$here/pr/." .
commit "2026-03-09T16:45:00Z" "Unit expressions and temperature scales (UCEP-4)"
git tag head
