#!/usr/bin/env bash
# The mutate benchmark (issue 32): one built task's mutate run twice on
# copies of its workspace, first with every test on every mutant
# (--all-tests), then with test selection by per-test coverage (the
# default), one after the other on the same machine. It prints both runs'
# times and test counts side by side and checks that the selection changes
# nothing: the kill matrix (mutants/matrix.json) and the test-to-section map
# (sections.json) must be byte-identical, else it exits 1.
#
#   test/bench/mutate.sh WORKSPACE CANDIDATE [MUTATE FLAG...]
#   make bench-mutate WS=work/demo CAND=unitconv-ucep-0004
#   make bench-mutate WS=/work/real/pkg-ws/work CAND=packaging-pep-0639
#
# The flags default to --methods revert,ops --max-per-operator 1. The
# workspace must hold the candidate's built task (lolbench build); it is
# not changed. $LOLBENCH names the lolbench binary (default bin/lolbench),
# $KEEP=1 keeps the two copies. Needs jq. Run it on a quiet machine: both
# runs share its cores with anything else.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: $0 WORKSPACE CANDIDATE [MUTATE FLAG...]" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
lb=${LOLBENCH:-$root/bin/lolbench}
ws=$1
cand=$2
shift 2
flags=("$@")
[ ${#flags[@]} -gt 0 ] || flags=(--methods revert,ops --max-per-operator 1)
command -v jq >/dev/null || { echo "$0: needs jq (apt-get install jq)" >&2; exit 2; }
[ -x "$lb" ] || { echo "$0: no lolbench binary at $lb (make build, or set LOLBENCH)" >&2; exit 2; }
[ -d "$ws/candidates/$cand/task" ] || { echo "$0: $ws/candidates/$cand/task does not exist: build the task first (lolbench build $cand --workspace $ws)" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lolbench-bench-mutate.XXXXXX")
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$tmp"' EXIT
# cp -a keeps the fingerprints and times, so both copies start from the
# same state; --force reruns mutate whatever ran before.
for mode in full selected; do
	cp -a "$ws" "$tmp/$mode"
done

run() { # mode, extra flags...
	local mode=$1
	shift
	local start end
	start=$(date +%s)
	"$lb" mutate "$cand" --workspace "$tmp/$mode" --force "${flags[@]}" "$@" \
		>"$tmp/$mode.out" 2>"$tmp/$mode.log" || { echo "$0: the $mode run failed; its log:" >&2; tail -20 "$tmp/$mode.log" >&2; exit 1; }
	end=$(date +%s)
	echo $((end - start)) >"$tmp/$mode.seconds"
}
echo "bench-mutate: $cand, mutate ${flags[*]}: the full run (--all-tests)..." >&2
run full --all-tests
echo "bench-mutate: the selected run..." >&2
run selected

mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
# Tests per mutant job, from the "(N of M tests run)" of its status line
# ("(N of M tests run, then all M: ...)" after a rerun: two jobs), as jobs
# x tests: "6x61 5x26921".
per_mutant() {
	sed -n -e 's/.*(\([0-9]*\) of [0-9]* tests run)$/\1/p' \
		-e 's/.*(\([0-9]*\) of [0-9]* tests run, then all \([0-9]*\): .*)$/\1\n\2/p' "$1" | sort -n | uniq -c |
		awk '{printf "%s%dx%d", (NR > 1 ? " " : ""), $1, $2} END {if (NR == 0) printf "-"; print ""}'
}
printf '%-9s %9s %9s %5s %24s  %s\n' run wall coverage jobs "test runs" "jobs x tests run"
for mode in full selected; do
	dir="$tmp/$mode/candidates/$cand"
	cov=$(sed -n 's/.*: coverage measured in \(.*\)$/\1/p' "$tmp/$mode.log" | tail -1)
	printf '%-9s %9s %9s %5s %24s  %s\n' "$mode" "$(mmss "$(cat "$tmp/$mode.seconds")")" "${cov:--}" \
		"$(jq .runs.jobs "$dir/mutants/report.json")" \
		"$(jq -r '"\(.runs.executed) of \(.runs.full)"' "$dir/mutants/report.json")" \
		"$(per_mutant "$tmp/$mode.log")"
done
reach=$(jq -r 'if .reach then "the reach run found \(.reach.reached) of \(.reach.tests) tests running a changed file, \(.reach.unseen) unseen; \(.reach.measured) measured one by one" else "no reach run" end' "$tmp/selected/candidates/$cand/coverage/coverage.json")
echo "coverage: $reach"

status=0
for f in mutants/matrix.json sections.json; do
	a="$tmp/full/candidates/$cand/$f"
	b="$tmp/selected/candidates/$cand/$f"
	if [ ! -f "$a" ] || [ ! -f "$b" ]; then
		echo "$f: missing in the $([ -f "$a" ] && echo selected || echo full) run" >&2
		status=1
	elif cmp -s "$a" "$b"; then
		echo "$f: identical"
	else
		echo "$f: DIFFERS (diff $a $b)" >&2
		status=1
	fi
done
[ "$status" -eq 0 ] || { echo "bench-mutate: the selection changed the results; the copies are kept in $tmp" >&2; trap - EXIT; }
exit "$status"
