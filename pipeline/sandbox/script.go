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

// GuardScript is the job script that runs the verifier as root in the
// sandbox (pipeline/sandbox/guard): program is lolbench-grade's "run" for
// the build's validation runs, or a Harbor task's tests/test.sh; args
// follow it (shell words, quoted by the caller). In the local executor,
// which sets LOLBENCH_LOCAL and LOLBENCH_PRISTINE, the verifier runs
// unisolated on the job's work tree.
func GuardScript(program string, args ...string) string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n# lolbench: the verifier runs the tests (pipeline/sandbox/guard).\nset -u\n")
	b.WriteString("set --")
	for _, a := range args {
		b.WriteString(" " + a)
	}
	b.WriteString("\nif [ -n \"${LOLBENCH_LOCAL:-}\" ]; then\n\tset -- \"$@\" -local -testbed \"$LOLBENCH_TESTBED\" -pristine \"$LOLBENCH_PRISTINE\"\nfi\n")
	fmt.Fprintf(&b, "exec %s \"$@\"\n", program)
	return b.String()
}
