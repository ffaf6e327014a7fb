#!/bin/sh
# Rebuilds the real task of data/real/cpython.yaml, PEP 706 x python/cpython
# #102953 (docs/real-projects.md, "PEP 706 and CPython"), offline, from
# clones of the two repositories that the caller names. Nothing of CPython
# or of the PEPs is in lolbench: the workspace links the clones.
#
#   data/real/build.sh CPYTHON_CLONE PEPS_CLONE WORKSPACE [RUNS]
#
# CPYTHON_CLONE holds commits 36860134a9ed and af530469954e of
# python/cpython; PEPS_CLONE python/peps (any clone with PEP 706's history).
# RUNS overrides the recipe's runs per side for the build (default: the
# recipe's, 3). Set LOLBENCH to the lolbench binary (default: lolbench on
# PATH). The steps: collect, the static gates, the Docker build, verify of
# the reference and of the empty patch, the section reverts (mutate) and
# status; each writes under WORKSPACE/work.
set -eu
if [ $# -lt 3 ]; then
	echo "usage: $0 CPYTHON_CLONE PEPS_CLONE WORKSPACE [RUNS]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
cpython=$(cd "$1" && pwd)
peps=$(cd "$2" && pwd)
ws=$3
runs=${4:-}
lb=${LOLBENCH:-lolbench}
id=cpython-pep-0706

for rev in 36860134a9eda8df5af5a38d6c7533437c594c2f af530469954e8ad49f1e071ef31c844b9bfda414; do
	git -C "$cpython" cat-file -e "$rev^{commit}" 2>/dev/null || { echo "$cpython lacks commit $rev of python/cpython" >&2; exit 2; }
done
mkdir -p "$ws/src" "$ws/curated"
ln -sfn "$cpython" "$ws/src/cpython"
ln -sfn "$peps" "$ws/src/peps"
cp "$here/cpython.yaml" "$ws/projects.yaml"
cp "$here/curated/$id.md" "$ws/curated/$id.md"
cd "$ws"

set -x
"$lb" env base
"$lb" collect --offline --projects projects.yaml --workspace work
"$lb" run --workspace work --projects projects.yaml --offline --to review --only "$id"
"$lb" build "$id" --workspace work --include-unreviewed --executor docker ${runs:+--runs "$runs"}
"$lb" verify "work/candidates/$id/task" --solution "work/candidates/$id/build/solution.patch"
: >empty.patch
"$lb" verify "work/candidates/$id/task" --solution empty.patch || true   # reward 0: exit 1
"$lb" mutate "$id" --workspace work --methods revert
"$lb" status --workspace work
