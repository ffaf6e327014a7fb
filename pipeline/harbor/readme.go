package harbor

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// readme is the reviewers' page of a task: what it asks, how it was
// validated, and how to run it.
func readme(t *Task) []byte {
	var b bytes.Buffer
	r := t.Recipe
	fmt.Fprintf(&b, "# %s\n\n", t.Name())
	fmt.Fprintf(&b, "%s (%s): implement **%s, %s** in the repository at the base commit of PR #%d.\n\n", t.Project, t.Repo, t.EPID, t.EPTitle, t.PRNumber)
	b.WriteString("| | |\n|---|---|\n")
	fmt.Fprintf(&b, "| Project | %s (%s, %s) |\n", t.Project, t.Language, t.Domain)
	fmt.Fprintf(&b, "| Proposal | %s: %s |\n", t.EPID, t.EPTitle)
	pr := fmt.Sprintf("#%d", t.PRNumber)
	if t.PRURL != "" {
		pr = fmt.Sprintf("[#%d](%s)", t.PRNumber, t.PRURL)
	}
	fmt.Fprintf(&b, "| Pull request | %s |\n", pr)
	fmt.Fprintf(&b, "| Base commit | `%s` |\n", t.BaseCommit)
	fmt.Fprintf(&b, "| FAIL_TO_PASS | %d tests |\n", len(t.FailToPass))
	fmt.Fprintf(&b, "| PASS_TO_PASS | %d tests |\n", len(t.PassToPass))
	fmt.Fprintf(&b, "| Test command | `%s` |\n", strings.ReplaceAll(r.Test.Command, "|", `\|`))
	fmt.Fprintf(&b, "| Result format | %s |\n", r.Test.Format)
	fmt.Fprintf(&b, "| Limits | %g CPUs, %d MB memory, %d MB storage, %d s per test run, no network |\n\n", r.Limits.CPUs, r.Limits.MemoryMB, r.Limits.StorageMB, r.Limits.TimeoutSec)

	b.WriteString("## Files\n\n")
	b.WriteString("- `instruction.md`: what the agent reads, a short preamble and the proposal.\n")
	fmt.Fprintf(&b, "- `environment/`: the Dockerfile and the base tree (`repo/`); the image holds the repository in `%s` as a one-commit git repository tagged `lolbench-base`, with the recipe's install commands run.\n", recipe.Workdir)
	b.WriteString("- `solution/solve.sh`: applies the reference solution (the PR without its test files).\n")
	b.WriteString("- `tests/`: the verifier, hidden from the agent. `test.sh` runs `lolbench-grade` as root; `config.json` holds the FAIL_TO_PASS and PASS_TO_PASS lists and how to run the tests; `test.patch` the PR's test files. It writes `/logs/verifier/reward.txt`, `reward.json` (with the reason for a 0) and `grade.json`, and keeps the raw run in `/logs/verifier/run-1/`; `progress.json` counts the tests done while they run, for the progress display of `lolbench verify` (informational: nothing grades from it).\n\n")
	b.WriteString("## What the verifier does\n\n")
	fmt.Fprintf(&b, "The agent works as `%s`; the verifier runs as root (task.toml's `[verifier] user`) and grades only what it saw itself. Before the tests run it kills every process the agent left, puts the home folder of `%s`, the install step's outputs in the repository and `.git` back as the image built them, and resets the test infrastructure to the base commit, then applies the PR's test patch. ", r.User, r.User)
	b.WriteString("It then plants canary tests, which must fail, under random names beside the tests, runs the tests once as the unprivileged user, kills every process they started, and grades from the raw results. A run where a canary passed or went missing, or where processes survived, scores 0 with the reason `tampered: ...`.\n\n")
	b.WriteString("Reset to the base commit (new such files are removed), so tests an agent writes itself do not count, and cannot change how the PR's tests run:\n\n")
	for _, rule := range lang.TestInfraRules(r.Test.Reset) {
		fmt.Fprintf(&b, "- %s\n", rule)
	}
	b.WriteString("\n")

	if rep := t.Report; rep != nil {
		b.WriteString("## How the lists were made\n\n")
		fmt.Fprintf(&b, "`lolbench build` ran the tests %d times before the reference solution (test patch only) and %d times after it, each side in one %s sandbox, one run after the other. ", rep.Runs, rep.Runs, rep.Env.Executor)
		b.WriteString("FAIL_TO_PASS tests failed, errored or were absent in every run before and passed in every run after; PASS_TO_PASS tests passed in every run of both sides. A test whose status changed between runs of one side is flaky and left out.\n\n")
		if len(rep.Flaky) > 0 {
			b.WriteString("Flaky, excluded:\n\n")
			for _, f := range rep.Flaky {
				st := make([]string, len(f.Statuses))
				for i, s := range f.Statuses {
					st[i] = string(s)
				}
				fmt.Fprintf(&b, "- `%s` (%s: %s)\n", f.Name, f.Side, strings.Join(st, ", "))
			}
			b.WriteString("\n")
		}
		if len(rep.Broken) > 0 {
			b.WriteString("Passing before and failing after the reference solution, excluded:\n\n")
			for _, n := range rep.Broken {
				fmt.Fprintf(&b, "- `%s`\n", n)
			}
			b.WriteString("\n")
		}
		if len(rep.FailBoth) > 0 {
			fmt.Fprintf(&b, "%d tests fail on both sides and are not used.\n\n", len(rep.FailBoth))
		}
	}
	b.Write(f2pBlock(t.FailToPass, t.Sections, t.Untested))
	b.WriteString(runningHeading + "\n\n```sh\n")
	fmt.Fprintf(&b, "harbor run --path . --agent oracle      # the reference solution scores 1\n")
	fmt.Fprintf(&b, "lolbench verify . --solution agent.patch   # score any patch against the base commit\n```\n")
	return b.Bytes()
}

// The README's FAIL_TO_PASS block runs from its heading to the next one;
// SetSections rewrites it in place.
const (
	f2pHeading     = "## FAIL_TO_PASS"
	runningHeading = "## Running it"
)

// f2pBlock is the README's FAIL_TO_PASS list, each test with the sections
// it asserts, and the untested sections.
func f2pBlock(f2p []string, sections map[string][]string, untested []string) []byte {
	var b bytes.Buffer
	b.WriteString(f2pHeading + "\n\n")
	for _, n := range f2p {
		if secs := sections[n]; len(secs) > 0 {
			fmt.Fprintf(&b, "- `%s` (sections %s)\n", n, strings.Join(secs, ", "))
		} else {
			fmt.Fprintf(&b, "- `%s`\n", n)
		}
	}
	if len(untested) > 0 {
		fmt.Fprintf(&b, "\nUntested sections (no FAIL_TO_PASS test asserts them, so even the reference solution does not complete them): %s.\n", strings.Join(untested, ", "))
	}
	b.WriteString("\n")
	return b.Bytes()
}
