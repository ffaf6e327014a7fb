#!/usr/bin/env bash
# make demo: the whole pipeline, offline, on the bundled samples.
#
# The demo workspace is $WORK (default work/demo). Running it again reruns
# only what changed, like make; `rm -rf work/demo` starts afresh.
# demo.sh --setup-only prepares the workspace (sample repositories, EPs,
# curated mappings, registry) without running the pipeline; the end-to-end
# test drives the run itself. $BIN overrides the lolbench binary.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BIN:-$root/bin/lolbench}
work=${WORK:-$root/work/demo}
mkdir -p "$work"
work=$(cd "$work" && pwd)

# The registry's paths are relative to it: build what they name. Each
# sample is NAME:EP:FILE, its EP copied as eps/NAME/FILE: tinykv's in
# Markdown, unitconv's in reStructuredText (read as pep-rst), so that the
# demo collects both formats.
for spec in tinykv:ep.md:tkep-0002.md unitconv:ep.rst:ucep-0004.rst; do
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
if [ "${1:-}" = "--setup-only" ]; then
	exit 0
fi

# Without an endpoint the LLM stages are skipped with a line naming the
# variables to set; with LOLBENCH_LLM_BASE_URL and LOLBENCH_LLM_MODEL set
# they run for real. The expert-review gate is left out: a demo has no
# expert.
status=0
"$bin" run --workspace "$work" --projects "$work/projects.yaml" --offline \
	--skip-review --jobs 2 --max-mutants-per-operator 2 || status=$?
"$bin" report --workspace "$work" >/dev/null

cat <<MSG

Demo finished; lolbench status --workspace $work shows every candidate.
  Harbor tasks:           $work/export/harbor
  SWE-bench JSONL:        $work/export/swebench.jsonl
  Specification variant:  $work/export/harbor-spec, $work/export/swebench-spec.jsonl
  HTML report:            $work/reports/index.html
MSG
exit $status
