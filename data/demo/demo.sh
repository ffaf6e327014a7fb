#!/usr/bin/env bash
# The demo: run every stage that exists on the bundled tinykv sample.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/bin/lolbench"
work=${WORK:-$root/work/demo}
sample="$root/data/samples/tinykv"

rm -rf "$work/repos/tinykv"
mkdir -p "$work/repos"
"$sample/make-repo.sh" "$work/repos/tinykv"
repo="$work/repos/tinykv"

step() { printf '\n== %s\n' "$*" >&2; }

step "EP sections (Markdown)"
"$bin" ep headings "$sample/ep.md"
step "EP sections (reStructuredText)"
"$bin" ep headings "$sample/ep.rst"
step "PR statistics"
"$bin" pr stats --repo "$repo" --base base --head head
step "PR files"
"$bin" pr files --repo "$repo" --base base --head head
step "Changed scopes"
"$bin" pr scopes --repo "$repo" --base base --head head
step "Source LoC at the base commit"
"$bin" loc "$repo" --rev base
