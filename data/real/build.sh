#!/bin/sh
# Rebuilds one real task of data/real (docs/real-projects.md), offline, from
# clones of its repositories that the caller names. Nothing of the projects
# or of their proposals is in lolbench: the workspace links the clones as
# src/NAME, the names the pair's registry (data/real/PAIR.yaml) reads.
#
#   data/real/build.sh PAIR WORKSPACE NAME=CLONE... [RUNS=n]
#
#   data/real/build.sh cpython  work/real-cpython cpython=../cpython peps=../peps
#   data/real/build.sh grpc-go  work/real-grpc    grpc-go=../grpc-go proposal=../proposal
#   data/real/build.sh opentofu work/real-tofu    opentofu=../opentofu
#   data/real/build.sh packaging work/real-packaging packaging=../packaging peps=../peps
#
# Each registry's first lines say which clones it needs and which commits
# they must hold; collect refuses a clone that lacks them, naming the
# revision. RUNS overrides the recipe's runs per side for the build. Set
# LOLBENCH to the lolbench binary (default: lolbench on PATH). The steps:
# collect, the static gates, the Docker build, verify of the reference and
# of the empty patch, the section reverts (mutate), the section dependency
# graph with its discriminativeness check (dag --check) and status; each writes
# under WORKSPACE/work.
set -eu
if [ $# -lt 3 ]; then
	echo "usage: $0 PAIR WORKSPACE NAME=CLONE... [RUNS=n]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
pair=$1
ws=$2
shift 2
reg="$here/$pair.yaml"
[ -f "$reg" ] || { echo "no pair $pair: $reg does not exist (pairs: $(cd "$here" && ls *.yaml | sed 's/\.yaml//' | tr '\n' ' '))" >&2; exit 2; }
lb=${LOLBENCH:-lolbench}
runs=
mkdir -p "$ws/src" "$ws/curated"
for arg in "$@"; do
	case $arg in
	RUNS=*) runs=${arg#RUNS=} ;;
	*=*)
		name=${arg%%=*}
		clone=$(cd "${arg#*=}" && pwd)
		grep -q "src/$name\$" "$reg" || { echo "$pair reads no clone named $name (its registry: $reg)" >&2; exit 2; }
		ln -sfn "$clone" "$ws/src/$name" ;;
	*) echo "$arg: want NAME=CLONE or RUNS=n" >&2; exit 2 ;;
	esac
done
for name in $(sed -n 's|^ *\(path\): src/\(.*\)$|\2|p' "$reg" | sort -u); do
	[ -e "$ws/src/$name" ] || { echo "$pair needs a clone named $name: give $name=/path/to/clone" >&2; exit 2; }
done
cp "$reg" "$ws/projects.yaml"
cp "$here"/curated/*.md "$ws/curated/"
cd "$ws"

set -x
"$lb" env base
"$lb" collect --offline --projects projects.yaml --workspace work
"$lb" run --workspace work --projects projects.yaml --offline --to review
for id in $(ls work/candidates); do
	"$lb" build "$id" --workspace work --include-unreviewed --executor docker ${runs:+--runs "$runs"}
	"$lb" verify "work/candidates/$id/task" --solution "work/candidates/$id/build/solution.patch"
	: >empty.patch
	"$lb" verify "work/candidates/$id/task" --solution empty.patch || true   # reward 0: exit 1
	"$lb" mutate "$id" --workspace work --methods revert
	"$lb" dag "$id" --workspace work --check
done
"$lb" status --workspace work
