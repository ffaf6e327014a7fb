#!/usr/bin/env bash
# Runs every fuzz target of the module for a short fixed budget each
# (issue 14: the fuzz targets run in CI). make test calls it after the
# tests. The budget is a number of generated inputs, not a time: go test
# fails a target whose -fuzztime ends while it still replays the seed
# corpus, which takes longer on a loaded machine. FUZZTIME overrides it
# (default 300x; 10s works too on a quiet machine). The seed corpora also
# run as ordinary tests in go test ./...
#
# A failing input is written under the package's testdata/fuzz/ by go
# test, and the script stops with exit status 1.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-300x}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0
start=$(date +%s)
# Every "func FuzzX(" of the module's _test.go files (not of the sample
# projects or a demo workspace), as "package-dir FuzzX".
while read -r file name; do
	dir=./$(dirname "$file")
	echo "fuzz: $dir $name ($fuzztime)"
	go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" "$dir" >"$log" 2>&1 || {
		cat "$log"
		echo "fuzz: $name in $dir failed; the failing input is under $dir/testdata/fuzz/$name" >&2
		exit 1
	}
	n=$((n + 1))
done < <(grep -rE --include='*_test.go' --exclude-dir=testdata '^func Fuzz[A-Za-z0-9_]*\(' cmd internal pipeline prompts rules stages test |
	sed -E 's/^([^:]*):func (Fuzz[A-Za-z0-9_]*)\(.*/\1 \2/' | sort)
echo "fuzz: $n targets, $fuzztime each, $(($(date +%s) - start))s in all"
