package sandbox

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// BaseTag is the tag of the single commit that holds the base tree in every
// environment. The verifier restores the PR's test files from it.
const BaseTag = "lolbench-base"

// runKillGrace is how long `timeout` waits after TERM before KILL.
const runKillGrace = 10

// SnapshotScript turns the folder it runs in, holding the base tree, into a
// git repository with one commit tagged BaseTag. Identity and dates are
// fixed, so the commit is the same everywhere; no configuration of the
// machine is read.
func SnapshotScript() string {
	return `export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null ` +
		`GIT_AUTHOR_NAME=lolbench GIT_AUTHOR_EMAIL=lolbench@localhost GIT_COMMITTER_NAME=lolbench GIT_COMMITTER_EMAIL=lolbench@localhost ` +
		`GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z && ` +
		`git init -q -b main . && git config core.autocrlf false && git config core.fileMode true && ` +
		`git add -A && git commit -q --allow-empty -m "base tree" && git tag ` + BaseTag
}

// RunOnceScript is the shell fragment that runs the tests once: it removes
// stale result files, runs the test command under `timeout` with stdin
// closed, writes its output to "$log" and its exit status to "$exitfile",
// and copies the result files (recipe.Test.Results) into the folder
// "$resdir". The caller sets log, exitfile and resdir and is in the
// repository. Exit status 124 means the run hit its wall-clock limit.
func RunOnceScript(r recipe.Recipe, selection []string) string {
	var b strings.Builder
	glob := r.Test.Results
	if glob != "" {
		// The glob is validated (recipe.Validate): letters, digits and
		// . _ - / * ? [ ], relative, ending in a report extension.
		fmt.Fprintf(&b, "for f in %s; do [ -f \"$f\" ] && rm -f -- \"$f\"; done\n", glob)
	}
	fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n")
	fmt.Fprintf(&b, "\ttimeout -k %d %d sh -c %s >\"$log\" 2>&1 </dev/null\n", runKillGrace, r.Limits.TimeoutSec, testcmd.Quote(testcmd.TestCommand(r, selection)))
	fmt.Fprintf(&b, "else\n\techo 'lolbench: no timeout command in this image; only the job deadline applies' >&2\n")
	fmt.Fprintf(&b, "\tsh -c %s >\"$log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(testcmd.TestCommand(r, selection)))
	b.WriteString("echo $? >\"$exitfile\"\nmkdir -p \"$resdir\"\n")
	if glob != "" {
		fmt.Fprintf(&b, "n=0\nfor f in %s; do\n\t[ -f \"$f\" ] || continue\n\tn=$((n+1))\n\tcp -- \"$f\" \"$resdir/$n-$(basename \"$f\")\"\ndone\n", glob)
	}
	return b.String()
}

// SideScript is the job script of one side of a test plan: it applies
// test.patch and, when present, solution.patch from $LOLBENCH_DIR, then
// runs the tests runs times, one after the other in the same sandbox,
// into out/run-N.log, out/run-N.exit and out/run-N.results/. A patch that
// does not apply leaves out/apply-failed (naming the patch) and its error
// in out/apply-<name>.err.
func SideScript(r recipe.Recipe, selection []string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# lolbench side job: apply the patches, run the tests several times.\nset -u\n")
	b.WriteString("out=\"$LOLBENCH_DIR/out\"\nmkdir -p \"$out\"\ncd \"$LOLBENCH_TESTBED\" || exit 90\n")
	for _, p := range []string{"test", "solution"} {
		fmt.Fprintf(&b, "if [ -s \"$LOLBENCH_DIR/%[1]s.patch\" ]; then\n", p)
		fmt.Fprintf(&b, "\tif ! git apply --whitespace=nowarn \"$LOLBENCH_DIR/%[1]s.patch\" 2>\"$out/apply-%[1]s.err\"; then\n", p)
		fmt.Fprintf(&b, "\t\techo %[1]s >\"$out/apply-failed\"\n\t\texit 0\n\tfi\nfi\n", p)
	}
	fmt.Fprintf(&b, "i=1\nwhile [ $i -le %d ]; do\n", r.Runs)
	b.WriteString("log=\"$out/run-$i.log\"\nexitfile=\"$out/run-$i.exit\"\nresdir=\"$out/run-$i.results\"\n")
	b.WriteString(RunOnceScript(r, selection))
	b.WriteString("i=$((i+1))\ndone\n")
	return b.String()
}
