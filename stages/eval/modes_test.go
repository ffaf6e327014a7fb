package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline/trajectory"
)

// tb builds a hand-made trajectory one agent turn at a time: every helper
// but user and end is one step.
type tb struct {
	evs  []trajectory.Event
	step int
	id   int
}

func (b *tb) turn(text string) {
	b.step++
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.Message, Source: trajectory.Agent, Text: text})
}

func (b *tb) call(e trajectory.Event, res trajectory.Event) {
	b.id++
	e.Step, e.Type, e.ID = b.step, trajectory.ToolCall, fmt.Sprintf("c%d", b.id)
	res.Step, res.Type, res.ID = b.step, trajectory.Result, e.ID
	b.evs = append(b.evs, e, res)
}

func (b *tb) user(text string) *tb {
	b.step++
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.Message, Source: trajectory.User, Text: text})
	return b
}

func (b *tb) read(p string) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "view", Action: trajectory.ActRead, FilesRead: []string{p}}, trajectory.Event{Text: "..."})
	return b
}

func (b *tb) search() *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "grep", Action: trajectory.ActSearch}, trajectory.Event{Text: "..."})
	return b
}

func (b *tb) edit(p, op string, ok bool) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "edit", Action: trajectory.ActWrite, FilesWritten: []string{p}}, trajectory.Event{Error: !ok})
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.Edit, Path: p, Op: op, Error: !ok})
	return b
}

func (b *tb) test(passed, build bool) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "bash", Action: trajectory.ActTest, Command: "go test ./..."}, trajectory.Event{Error: !passed})
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.TestRun, Command: "go test ./...", Passed: &passed, BuildError: build})
	return b
}

func (b *tb) cmd(command string, ok bool, errLine string) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "bash", Action: trajectory.ActRun, Command: command}, trajectory.Event{Error: !ok, ErrorLine: errLine})
	return b
}

func (b *tb) missing(p string) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "view", Action: trajectory.ActRead, FilesRead: []string{p}}, trajectory.Event{Error: true, MissingPaths: []string{p}})
	return b
}

func (b *tb) invalid() *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "nope", Action: trajectory.ActOther}, trajectory.Event{Error: true, Invalid: true})
	return b
}

func (b *tb) final(text string) *tb { b.turn(text); return b }

func (b *tb) end(reason string) *tb {
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.End, Reason: reason})
	return b
}

const (
	store  = "store/store.go"
	server = "server/server.go"
)

var refFiles = []string{server, store}

// baseline is a clean attempt: it reads both reference files, edits them,
// tests after the last edit (passing) and stops without a claim. No mode
// fires on it.
func baseline() *tb {
	return new(tb).user("task").read(store).read(server).edit(store, trajectory.OpModify, true).edit(server, trajectory.OpModify, true).test(true, false).final("Finished.")
}

type found map[string]Finding

func TestRuleModes(t *testing.T) {
	tx := taxonomy.Default()
	type want = found
	for _, c := range []struct {
		name     string
		b        *tb
		ref, sol []string
		want     want
	}{
		{"baseline", baseline(), refFiles, refFiles, want{}},
		// missed_relevant_file
		{"missed_relevant_file+", baseline(), append(refFiles, "store/ttl.go"), refFiles,
			want{"missed_relevant_file": {Detail: "never read or written: store/ttl.go"}}},
		{"missed_relevant_file-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).edit("store/ttl.go", "create", true).test(true, false).final("Finished."),
			append(refFiles, "store/ttl.go"), append(refFiles, "store/ttl.go"), want{}},
		// cross_module_context_missing (the folder never touched holds a
		// missed file too)
		{"cross_module_context_missing+", new(tb).user("t").read(store).edit(store, "modify", true).test(true, false).final("Finished."), refFiles, []string{store},
			want{"missed_relevant_file": {Detail: "never read or written: server/server.go"}, "cross_module_context_missing": {Detail: "the reference changes server, store; the agent worked in store"}}},
		{"cross_module_context_missing-", baseline(), refFiles, refFiles, want{}},
		// edits_outside_reference (the reference files were read, not
		// edited)
		{"edits_outside_reference+", new(tb).user("t").read(store).read(server).edit("store/cache.go", "create", true).edit("util/x.go", "create", true).test(true, false).final("Finished."),
			refFiles, []string{"store/cache.go", "util/x.go"},
			want{"edits_outside_reference": {Steps: []int{4, 5}, Detail: "edited only: store/cache.go, util/x.go"}, "relevant_file_not_edited": {Steps: []int{2, 3}, Detail: "read, never edited: store/store.go, server/server.go"}}},
		{"edits_outside_reference-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).edit("util/x.go", "create", true).test(true, false).final("Finished."),
			refFiles, []string{server, store, "util/x.go"}, want{}},
		// edit_before_exploration
		{"edit_before_exploration+", new(tb).user("t").edit(store, "modify", true).read(server).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"edit_before_exploration": {Steps: []int{2}, Detail: "first edit: store/store.go"}}},
		{"edit_before_exploration-", new(tb).user("t").search().edit(store, "modify", true).read(server).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// no_source_change
		{"no_source_change+", new(tb).user("t").read(store).read(server).edit("README.md", "modify", true).test(true, false).final("Finished."), refFiles, []string{},
			want{"no_source_change": {Detail: "the solution's diff changes no source file"}, "relevant_file_not_edited": {Steps: []int{2, 3}, Detail: "read, never edited: store/store.go, server/server.go"}}},
		{"no_source_change+ without a diff", new(tb).user("t").read(store).read(server).edit(store, "modify", false).test(true, false).final("Finished."), []string{store}, nil,
			want{"no_source_change": {Detail: "no edit of a source file succeeded"}, "relevant_file_not_edited": {Steps: []int{2}, Detail: "read, never edited: store/store.go"}, "failed_edit_unrecovered": {Steps: []int{4}, Detail: "failed edits of store/store.go"}}},
		{"no_source_change-", baseline(), refFiles, nil, want{}},
		// relevant_file_not_edited
		{"relevant_file_not_edited+", new(tb).user("t").read(store).read(server).read("store/ttl.go").edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."),
			append(refFiles, "store/ttl.go"), refFiles, want{"relevant_file_not_edited": {Steps: []int{4}, Detail: "read, never edited: store/ttl.go"}}},
		{"relevant_file_not_edited-", new(tb).user("t").read(store).read(server).read("store/ttl.go").edit(store, "modify", true).edit(server, "modify", true).edit("store/ttl.go", "modify", true).test(true, false).final("Finished."),
			append(refFiles, "store/ttl.go"), append(refFiles, "store/ttl.go"), want{}},
		// failed_edit_unrecovered
		{"failed_edit_unrecovered+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).edit(store, "modify", false).test(true, false).final("Finished."), refFiles, refFiles,
			want{"failed_edit_unrecovered": {Steps: []int{6}, Detail: "failed edits of store/store.go"}}},
		{"failed_edit_unrecovered-", new(tb).user("t").read(store).read(server).edit(store, "modify", false).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// build_broken_at_end (a failed last run is also ignored)
		{"build_broken_at_end+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(false, true).final("Finished."), refFiles, refFiles,
			want{"build_broken_at_end": {Steps: []int{6}}, "final_test_failure_ignored": {Steps: []int{6}}}},
		{"build_broken_at_end-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(false, true).edit(store, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// no_test_run
		{"no_test_run+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).final("Finished."), refFiles, refFiles, want{"no_test_run": {}}},
		{"no_test_run-", baseline(), refFiles, refFiles, want{}},
		// no_test_after_final_edit
		{"no_test_after_final_edit+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).test(true, false).edit(server, "modify", true).final("Finished."), refFiles, refFiles,
			want{"no_test_after_final_edit": {Steps: []int{6}, Detail: "last edit: server/server.go"}}},
		{"no_test_after_final_edit-", baseline(), refFiles, refFiles, want{}},
		// final_test_failure_ignored
		{"final_test_failure_ignored+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(false, false).final("Finished."), refFiles, refFiles,
			want{"final_test_failure_ignored": {Steps: []int{6}}}},
		{"final_test_failure_ignored-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(false, false).edit(store, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// tests_modified
		{"tests_modified+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).edit("store/store_test.go", "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"tests_modified": {Steps: []int{6}, Detail: "edited store/store_test.go"}}},
		{"tests_modified-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).edit("store/ttl_test.go", "create", true).edit("store/ttl_test.go", "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// retry_without_change
		{"retry_without_change+", new(tb).user("t").cmd("python3 gen.py", false, "Error: boom").cmd("python3 gen.py", false, "Error: boom").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"retry_without_change": {Steps: []int{2, 3}, Detail: "repeated: python3 gen.py"}}},
		{"retry_without_change-", new(tb).user("t").cmd("python3 gen.py", false, "Error: boom").read(store).read(server).edit(store, "modify", true).cmd("python3 gen.py", false, "Error: boom").edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// hallucinated_path_unrecovered
		{"hallucinated_path_unrecovered+", new(tb).user("t").missing("store/cache.go").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"hallucinated_path_unrecovered": {Steps: []int{2}, Detail: "missing: store/cache.go"}}},
		{"hallucinated_path_unrecovered-", new(tb).user("t").missing("store/cache.go").read("store/internal/cache.go").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// repeated_error_loop
		{"repeated_error_loop+", new(tb).user("t").cmd("python3 a.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 b.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 c.py", false, "ModuleNotFoundError: No module named 'yaml'").
			read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"repeated_error_loop": {Steps: []int{2, 3, 4}, Detail: "3 times: ModuleNotFoundError: No module named 'yaml'"}}},
		{"repeated_error_loop-", new(tb).user("t").cmd("python3 a.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 b.py", false, "ModuleNotFoundError: No module named 'yaml'").
			read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// invalid_tool_call
		{"invalid_tool_call+", new(tb).user("t").invalid().invalid().read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles,
			want{"invalid_tool_call": {Steps: []int{2, 3}, Detail: "2 rejected calls"}}},
		{"invalid_tool_call-", new(tb).user("t").invalid().read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("Finished."), refFiles, refFiles, want{}},
		// budget_exhausted
		{"budget_exhausted+", baseline().end(trajectory.EndTimeout), refFiles, refFiles, want{"budget_exhausted": {Steps: []int{7}, Detail: "ended on timeout"}}},
		{"budget_exhausted-", baseline().end(trajectory.EndError), refFiles, refFiles, want{}},
		// unverified_success_claim (without any test run)
		{"unverified_success_claim+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).final("I have implemented the TTL support."), refFiles, refFiles,
			want{"no_test_run": {}, "unverified_success_claim": {Steps: []int{6}}}},
		{"unverified_success_claim-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).test(true, false).final("I have implemented the TTL support."), refFiles, refFiles, want{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &Trace{Events: c.b.evs, Reference: c.ref, Solution: c.sol}
			got := RuleDetections(tx, tr)
			var names []string
			for _, d := range got {
				names = append(names, d.Mode)
				w, ok := c.want[d.Mode]
				if !ok {
					t.Errorf("unexpected %s: %+v", d.Mode, d.Finding)
					continue
				}
				if !reflect.DeepEqual(d.Finding, w) {
					t.Errorf("%s: finding %+v, want %+v", d.Mode, d.Finding, w)
				}
			}
			for m := range c.want {
				if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+m+" ") {
					t.Errorf("missing %s", m)
				}
			}
			// Equation 1: one unit, split evenly over rule-based modes.
			tl := NewTally(tx)
			tl.Add(got)
			for _, d := range got {
				if d.Weight != 1 || d.Share != 1/float64(len(got)) {
					t.Errorf("%s: weight %v share %v, want 1 and 1/%d", d.Mode, d.Weight, d.Share, len(got))
				}
			}
		})
	}
}

// Every rule-based mode has a positive and a negative case above.
func TestRuleModesCoveredAndRegistered(t *testing.T) {
	if err := CheckRuleModes(taxonomy.Default()); err != nil {
		t.Fatal(err)
	}
	src := testSource(t, "modes_test.go")
	for _, m := range RuleModes {
		for _, sign := range []string{"+", "-"} {
			if !strings.Contains(src, `{"`+m.Name+sign) {
				t.Errorf("no %s case for %s", sign, m.Name)
			}
		}
	}
}

// docs/evaluation.md documents every mode of the taxonomy.
func TestModesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "evaluation.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range taxonomy.Default().Modes {
		if !strings.Contains(string(doc), "| "+m.Phase+" | `"+m.Mode+"` |") {
			t.Errorf("docs/evaluation.md has no row for %s", m.Mode)
		}
	}
}
