package harbor

import (
	"bytes"
	"fmt"
	"strings"

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
	b.WriteString("- `tests/test.sh`: the verifier; it restores and patches the PR's test files, runs the tests once and calls `tests/lolbench-grade`, which writes `/logs/verifier/reward.txt` and `reward.json`. Hidden from the agent.\n\n")

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
	b.WriteString("## FAIL_TO_PASS\n\n")
	for _, n := range t.FailToPass {
		if secs := t.Sections[n]; len(secs) > 0 {
			fmt.Fprintf(&b, "- `%s` (sections %s)\n", n, strings.Join(secs, ", "))
		} else {
			fmt.Fprintf(&b, "- `%s`\n", n)
		}
	}
	b.WriteString("\n## Running it\n\n```sh\n")
	fmt.Fprintf(&b, "harbor run --path . --agent oracle      # the reference solution scores 1\n")
	fmt.Fprintf(&b, "lolbench verify . --solution agent.patch   # score any patch against the base commit\n```\n")
	return b.Bytes()
}
