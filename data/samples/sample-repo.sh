#!/usr/bin/env bash
# sample-repo.sh SAMPLE DIR AUTHOR EMAIL BASE_DATE BASE_MESSAGE HEAD_DATE HEAD_MESSAGE
#
# Builds the git repository of a sample at DIR: the files of SAMPLE/base/
# committed and tagged "base" (the PR's base commit), then the overlay
# SAMPLE/pr/ (the files the PR adds or changes) committed and tagged "head".
# Authors, dates and configuration are fixed, so the commit ids are the same
# on every machine. Each sample's make-repo.sh calls this with its own names.
set -euo pipefail
if [ $# -ne 8 ]; then
	echo "usage: $0 SAMPLE DIR AUTHOR EMAIL BASE_DATE BASE_MESSAGE HEAD_DATE HEAD_MESSAGE" >&2
	exit 2
fi
sample=$(cd "$1" && pwd)
dir=$2
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
	echo "make-repo.sh: $dir exists and is not empty" >&2
	exit 2
fi
mkdir -p "$dir"
cd "$dir"

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="$3" GIT_AUTHOR_EMAIL="$4"
export GIT_COMMITTER_NAME="$3" GIT_COMMITTER_EMAIL="$4"
git init -q -b main .
git config core.autocrlf false

commit() { # commit DATE MESSAGE
	git add -A
	GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}

cp -R "$sample/base/." .
commit "$5" "$6"
git tag base

cp -R "$sample/pr/." .
commit "$7" "$8"
git tag head
