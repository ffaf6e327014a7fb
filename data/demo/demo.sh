#!/usr/bin/env bash
# make demo: the whole pipeline, offline, on the bundled samples.
#
# The demo workspace is $WORK (default work/demo). Running it again reruns
# only what changed, like make; `rm -rf work/demo` starts afresh.
# demo.sh --setup-only prepares the workspace (sample repositories, EPs,
# curated mappings, registry) without running the pipeline; the end-to-end
# test drives the run itself. $BIN overrides the lolbench binary.
# LANGS=all (make demo LANGS=all) adds the samples of the other languages,
# whose images are larger and whose builds are slower: the Java sample,
# coinage (data/demo/projects-java.yaml), the Rust sample, verso
# (data/demo/projects-rust.yaml), the C++ and C samples, semkit and inikit
# (data/demo/projects-cfamily.yaml), and the TypeScript sample, bumpkit
# (data/demo/projects-node.yaml).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BIN:-$root/bin/lolbench}
work=${WORK:-$root/work/demo}
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The registry's paths are relative to it: build what they name. Each
# sample is NAME:EP:FILE, its EP copied as eps/NAME/FILE: tinykv's in
# Markdown, unitconv's in reStructuredText (read as pep-rst), so that the
# demo collects both formats; envfile's in Markdown (its tests need a module
# from the Go module proxy, downloaded on the host).
samples="tinykv:ep.md:tkep-0002.md unitconv:ep.rst:ucep-0004.rst envfile:ep.md:efep-0001.md"
only=tinykv-tkep-0002,unitconv-ucep-0004,envfile-efep-0001
case "${LANGS:-}" in
"") ;;
all)
	samples="$samples coinage:ep.md:cgep-0003.md"
	only="$only,coinage-cgep-0003"
	samples="$samples verso:ep.md:vrfc-0002.md"
	only="$only,verso-vrfc-0002"
	# C++ and C (data/demo/projects-cfamily.yaml).
	samples="$samples semkit:ep.md:skep-0002.md inikit:ep.md:ikep-0002.md"
	only="$only,semkit-skep-0002,inikit-ikep-0002"
	# bumpkit: TypeScript and JavaScript (data/demo/projects-node.yaml).
	samples="$samples bumpkit:ep.md:bkep-0002.md"
	only="$only,bumpkit-bkep-0002"
	;;
*)
	echo "demo: LANGS=$LANGS: only LANGS=all (every bundled sample) is known" >&2
	exit 2
	;;
esac
for spec in $samples; do
	IFS=: read -r name ep file <<<"$spec"
	sample="$root/data/samples/$name"
	if [ ! -d "$work/repos/$name/.git" ]; then
		rm -rf "$work/repos/$name"
		"$sample/make-repo.sh" "$work/repos/$name"
	fi
	mkdir -p "$work/eps/$name" "$work/curated/$name"
	cp "$sample/$ep" "$work/eps/$name/$file"
	cp "$sample"/mapping*.md "$work/curated/$name/"
done
cp "$root/data/demo/projects.yaml" "$work/projects.yaml"
if [ "${LANGS:-}" = all ]; then
	# The Java registry's projects go on projects.yaml's list.
	sed '1,/^projects:/d' "$root/data/demo/projects-java.yaml" >>"$work/projects.yaml"
	sed '1,/^projects:/d' "$root/data/demo/projects-rust.yaml" >>"$work/projects.yaml"
	sed '1,/^projects:/d' "$root/data/demo/projects-cfamily.yaml" >>"$work/projects.yaml"
	sed '1,/^projects:/d' "$root/data/demo/projects-node.yaml" >>"$work/projects.yaml"
fi
if [ "${1:-}" = "--setup-only" ]; then
	exit 0
fi

# Without an endpoint the LLM stages are skipped with a line naming the
# variables to set; with LOLBENCH_LLM_BASE_URL and LOLBENCH_LLM_MODEL set
# they run for real. A skipped gate is not a pass, and a demo has no expert
# to review: --include-unreviewed builds the three good candidates anyway,
# their tasks marked unreviewed. The fourth candidate's mapping is flawed on
# purpose, so that the report shows real rule violations: its run must end
# rejected at validate (exit 1), and the demo checks that it does.
echo "demo: no expert review here, and no LLM gates without an endpoint: building with --include-unreviewed (tasks marked unreviewed)" >&2
"$bin" run --workspace "$work" --projects "$work/projects.yaml" --offline \
	--include-unreviewed --jobs 2 --max-mutants-per-operator 2 \
	--only "$only"
status=0
"$bin" run --workspace "$work" --offline --to validate --only tinykv-flawed-tkep-0002 || status=$?
if [ "$status" -ne 1 ]; then
	echo "demo: the flawed mapping (tinykv-flawed-tkep-0002) should be rejected at validate, exit status 1; got $status" >&2
	exit 1
fi
echo "demo: tinykv-flawed-tkep-0002 rejected at validate, as intended (its violations are in the report)" >&2
"$bin" report --workspace "$work" >/dev/null

cat <<MSG

Demo finished; lolbench status --workspace $work shows every candidate.
  Harbor tasks:           $work/export/harbor
  SWE-bench JSONL:        $work/export/swebench.jsonl
  Specification variant:  $work/export/harbor-spec, $work/export/swebench-spec.jsonl
  HTML report:            $work/reports/index.html
MSG
