package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// say is a turn with words and no tool call.
func (b *tb) say(text string) *tb { return b.final(text) }

func (b *tb) create(p string) *tb { return b.edit(p, trajectory.OpCreate, true) }

func (b *tb) testCmd(command string, passed bool) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "bash", Action: trajectory.ActTest, Command: command}, trajectory.Event{Error: !passed})
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.TestRun, Command: command, Passed: &passed})
	return b
}

// undo is str_replace_editor's undo_edit of p.
func (b *tb) undo(p string) *tb {
	b.turn("")
	b.call(trajectory.Event{Tool: "str_replace_editor", Action: trajectory.ActWrite, FilesWritten: []string{p}, Revert: true}, trajectory.Event{})
	b.evs = append(b.evs, trajectory.Event{Step: b.step, Type: trajectory.Edit, Path: p, Op: trajectory.OpModify, Revert: true})
	return b
}

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
// tests after the last edit (passing) and stops without a claim. With no
// reference known, no mode fires on it; with the reference, it changed
// every reference file and failed: incorrect_patch.
func baseline() *tb {
	return new(tb).user("task").read(store).read(server).edit(store, trajectory.OpModify, true).edit(server, trajectory.OpModify, true).test(true, false).final("Finished.")
}

// hit is an expected mode: its evidence and the confidence its predicate
// set.
type hit struct {
	f    Finding
	conf string
}

func TestRuleModes(t *testing.T) {
	tx := taxonomy.Default()
	type want = map[string]hit
	ttl := "store/ttl.go"
	withTTL := []string{server, store, ttl}
	for _, c := range []struct {
		name     string
		b        *tb
		ref, sol []string
		added    []string
		want     want
	}{
		{"baseline", baseline(), nil, refFiles, nil, want{}},
		// The paper's four evidence rules: missed_relevant_file (neither
		// read nor edited), relevant_change_omitted (read, not changed),
		// cross_module_context_missing (some changed, not all),
		// incorrect_patch (all changed, yet failed).
		{"missed_relevant_file+", baseline(), withTTL, refFiles, nil, want{
			"missed_relevant_file":         {Finding{Detail: "neither read nor edited: store/ttl.go"}, High},
			"cross_module_context_missing": {Finding{Detail: "changed server/server.go, store/store.go; not store/ttl.go"}, Medium}}},
		{"missed_relevant_file-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", true).create(ttl).test(true, false).final("Finished."),
			withTTL, withTTL, []string{ttl}, want{"incorrect_patch": {Finding{Detail: "changed all 3 reference files"}, High}}},
		{"relevant_change_omitted+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).test(true, false).final("Finished."), refFiles, []string{store}, nil, want{
			"relevant_change_omitted":      {Finding{Steps: []int{3}, Detail: "read, left unchanged: server/server.go"}, High},
			"cross_module_context_missing": {Finding{Detail: "changed store/store.go; not server/server.go"}, High}}},
		{"relevant_change_omitted-", baseline(), refFiles, refFiles, nil, want{"incorrect_patch": {Finding{Detail: "changed all 2 reference files"}, High}}},
		{"cross_module_context_missing+", new(tb).user("t").read(store).edit(store, "modify", true).test(true, false).final("Finished."), refFiles, []string{store}, nil, want{
			"missed_relevant_file":         {Finding{Detail: "neither read nor edited: server/server.go"}, High},
			"cross_module_context_missing": {Finding{Detail: "changed store/store.go; not server/server.go"}, High}}},
		{"cross_module_context_missing-", new(tb).user("t").read(store).read(server).test(true, false).final("Finished."), refFiles, []string{}, nil, want{
			"relevant_change_omitted": {Finding{Steps: []int{2, 3}, Detail: "read, left unchanged: server/server.go, store/store.go"}, High},
			"no_patch_produced":       {Finding{Detail: "the solution's diff changes no source file"}, High}}},
		{"incorrect_patch+", baseline(), refFiles, refFiles, nil, want{"incorrect_patch": {Finding{Detail: "changed all 2 reference files"}, High}}},
		// Without the diff, the successful edits are the change: the
		// failed edit of server/server.go left it unchanged.
		{"incorrect_patch-", new(tb).user("t").read(store).read(server).edit(store, "modify", true).edit(server, "modify", false).test(true, false).final("Finished."), refFiles, nil, nil, want{
			"relevant_change_omitted":      {Finding{Steps: []int{3}, Detail: "read, left unchanged: server/server.go"}, High},
			"cross_module_context_missing": {Finding{Detail: "changed store/store.go; not server/server.go"}, High},
			"tool_failure_not_retried":     {Finding{Steps: []int{5}, Detail: "failed and never tried again: edit of server/server.go"}, High}}},
		{"wrong_file_localization+", new(tb).user("t").read(store).read(server).edit("util/x.go", "modify", true).test(true, false).final("Finished."), refFiles, []string{"util/x.go"}, nil, want{
			"wrong_file_localization": {Finding{Steps: []int{4}, Detail: "changed only files the reference leaves alone: util/x.go"}, High},
			"relevant_change_omitted": {Finding{Steps: []int{2, 3}, Detail: "read, left unchanged: server/server.go, store/store.go"}, High}}},
		// A new file has no location to get wrong.
		{"wrong_file_localization-", new(tb).user("t").read(store).read(server).create("util/x.go").test(true, false).final("Finished."), refFiles, []string{"util/x.go"}, []string{"util/x.go"}, want{
			"relevant_change_omitted": {Finding{Steps: []int{2, 3}, Detail: "read, left unchanged: server/server.go, store/store.go"}, High}}},
		{"no_patch_produced+", new(tb).user("t").read(store).read(server).edit("README.md", "modify", true).test(true, false).final("Finished."), nil, []string{}, nil, want{
			"no_patch_produced": {Finding{Detail: "the solution's diff changes no source file"}, High}}},
		{"no_patch_produced-", baseline(), nil, refFiles, nil, want{}},
		{"gave_up_early+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).final("Stopping here."), nil, nil, nil, want{
			"gave_up_early": {Finding{Steps: []int{4}, Detail: "stopped after a failing test run"}, High}}},
		{"gave_up_early-", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).final("Stopping here.").end(trajectory.EndTimeout), nil, nil, nil, want{}},
		{"no_validation_attempted+", new(tb).user("t").read(store).edit(store, "modify", true).final("Finished."), nil, nil, nil, want{
			"no_validation_attempted": {Finding{}, High}}},
		{"no_validation_attempted-", baseline(), nil, nil, nil, want{}},
		{"no_test_after_final_edit+", new(tb).user("t").read(store).read(server).edit(store, "modify", true).test(true, false).edit(server, "modify", true).final("Finished."), nil, nil, nil, want{
			"no_test_after_final_edit": {Finding{Steps: []int{6}, Detail: "last edit: server/server.go"}, High}}},
		{"no_test_after_final_edit-", baseline(), nil, nil, nil, want{}},
		// go test ./server does not run store/ttl_test.go.
		{"authored_test_never_run+", new(tb).user("t").read(store).edit(store, "modify", true).create("store/ttl_test.go").testCmd("go test ./server", true).final("Finished."), nil, nil, nil, want{
			"authored_test_never_run": {Finding{Steps: []int{4}, Detail: "never run: store/ttl_test.go"}, Medium}}},
		{"authored_test_never_run+ high", new(tb).user("t").read(store).edit(store, "modify", true).test(true, false).create("store/ttl_test.go").final("Finished."), nil, nil, nil, want{
			"authored_test_never_run":  {Finding{Steps: []int{5}, Detail: "never run: store/ttl_test.go"}, High},
			"no_test_after_final_edit": {Finding{Steps: []int{5}, Detail: "last edit: store/ttl_test.go"}, High}}},
		{"authored_test_never_run-", new(tb).user("t").read(store).edit(store, "modify", true).create("store/ttl_test.go").testCmd("cd /testbed && go test ./...", true).final("Finished."), nil, nil, nil, want{}},
		{"test_result_misinterpreted+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).final("All tests pass now."), nil, nil, nil, want{
			"test_result_misinterpreted": {Finding{Steps: []int{4, 5}}, High}}},
		{"test_result_misinterpreted+ medium", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).final("I have implemented the TTL support."), nil, nil, nil, want{
			"test_result_misinterpreted": {Finding{Steps: []int{4, 5}}, Medium}}},
		{"test_result_misinterpreted-", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).say("The test fails; fixing the TTL check.").edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"repair_not_reverified+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).edit(store, "modify", true).final("Finished."), nil, nil, nil, want{
			"repair_not_reverified": {Finding{Steps: []int{4, 5}, Detail: "repaired store/store.go after a failing run, never tested again"}, High}}},
		{"repair_not_reverified-", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"repeated_ineffective_attempt+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).edit(store, "modify", true).test(false, false).edit(store, "modify", true).test(false, false).final("Stopping."), nil, nil, nil, want{
			"repeated_ineffective_attempt": {Finding{Steps: []int{4, 6, 8}, Detail: "3 failing test runs in a row, each after a repair"}, High},
			"gave_up_early":                {Finding{Steps: []int{8}, Detail: "stopped after a failing test run"}, High}}},
		{"repeated_ineffective_attempt-", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).edit(store, "modify", true).test(false, false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"retry_without_change+", new(tb).user("t").cmd("python3 gen.py", false, "Error: boom").cmd("python3 gen.py", false, "Error: boom").read(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"retry_without_change": {Finding{Steps: []int{2, 3}, Detail: "repeated: python3 gen.py"}, High}}},
		{"retry_without_change-", new(tb).user("t").cmd("python3 gen.py", false, "Error: boom").read(store).edit(store, "modify", true).cmd("python3 gen.py", false, "Error: boom").test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"reverted_own_change+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).undo(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"reverted_own_change": {Finding{Steps: []int{5}, Detail: "undid its own edits of store/store.go"}, High}}},
		{"reverted_own_change+ medium", new(tb).user("t").read(store).edit(store, "modify", true).undo(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"reverted_own_change": {Finding{Steps: []int{4}, Detail: "undid its own edits of store/store.go"}, Medium}}},
		{"reverted_own_change-", new(tb).user("t").read(store).undo(server).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"tool_failure_not_retried+", new(tb).user("t").read(store).edit(store, "modify", false).edit(server, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"tool_failure_not_retried": {Finding{Steps: []int{3}, Detail: "failed and never tried again: edit of store/store.go"}, High}}},
		{"tool_failure_not_retried+ rejected call", new(tb).user("t").invalid().read(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"tool_failure_not_retried": {Finding{Steps: []int{2}, Detail: "failed and never tried again: call of nope"}, High}}},
		{"tool_failure_not_retried-", new(tb).user("t").read(store).edit(store, "modify", false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"repeated_patch_apply_failure+", new(tb).user("t").read(store).edit(store, "modify", false).edit(store, "modify", false).edit(store, "modify", false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"repeated_patch_apply_failure": {Finding{Steps: []int{3, 4, 5}, Detail: "3 failed edits in a row: store/store.go"}, High}}},
		{"repeated_patch_apply_failure+ medium", new(tb).user("t").read(store).edit(store, "modify", false).edit(store, "modify", false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"repeated_patch_apply_failure": {Finding{Steps: []int{3, 4}, Detail: "2 failed edits in a row: store/store.go"}, Medium}}},
		{"repeated_patch_apply_failure-", new(tb).user("t").read(store).edit(store, "modify", false).edit(store, "modify", true).edit(store, "modify", false).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
		{"hallucinated_path_unrecovered+", new(tb).user("t").missing("store/cache.go").read(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{
			"hallucinated_path_unrecovered": {Finding{Steps: []int{2}, Detail: "missing: store/cache.go"}, High}}},
		{"hallucinated_path_unrecovered-", new(tb).user("t").missing("store/cache.go").read("store/internal/cache.go").read(store).edit(store, "modify", true).test(true, false).final("Finished."), nil, nil, nil, want{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &Trace{Events: c.b.evs, Reference: c.ref, Solution: c.sol, Added: c.added}
			got := RuleDetections(tx, tr)
			var names []string
			for _, d := range got {
				names = append(names, d.Mode)
				w, ok := c.want[d.Mode]
				if !ok {
					t.Errorf("unexpected %s (%s): %+v", d.Mode, d.Confidence, d.Finding)
					continue
				}
				if !reflect.DeepEqual(d.Finding, w.f) || d.Confidence != w.conf {
					t.Errorf("%s: %s %+v, want %s %+v", d.Mode, d.Confidence, d.Finding, w.conf, w.f)
				}
			}
			for m := range c.want {
				if !slices.Contains(names, m) {
					t.Errorf("missing %s", m)
				}
			}
		})
	}
}

func TestSignals(t *testing.T) {
	for _, c := range []struct {
		name string
		b    *tb
		want map[string]Finding
	}{
		{"edit_before_exploration+", new(tb).user("t").edit(store, "modify", true).read(server).test(true, false).final("Finished."),
			map[string]Finding{"edit_before_exploration": {Steps: []int{2}, Detail: "first edit: store/store.go"}}},
		{"edit_before_exploration-", new(tb).user("t").search().edit(store, "modify", true).test(true, false).final("Finished."), nil},
		{"tests_modified+", new(tb).user("t").read(store).edit("store/store_test.go", "modify", true).test(true, false).final("Finished."),
			map[string]Finding{"tests_modified": {Steps: []int{3}, Detail: "edited store/store_test.go"}}},
		{"tests_modified-", new(tb).user("t").read(store).create("store/ttl_test.go").edit("store/ttl_test.go", "modify", true).test(true, false).final("Finished."), nil},
		{"budget_exhausted+", baseline().end(trajectory.EndTimeout), map[string]Finding{"budget_exhausted": {Steps: []int{7}, Detail: "ended on timeout"}}},
		{"budget_exhausted-", baseline().end(trajectory.EndError), nil},
		{"invalid_tool_call+", new(tb).user("t").invalid().invalid().read(store).test(true, false).final("Finished."), map[string]Finding{"invalid_tool_call": {Steps: []int{2, 3}, Detail: "2 rejected calls"}}},
		{"invalid_tool_call-", new(tb).user("t").invalid().read(store).test(true, false).final("Finished."), nil},
		{"build_broken_at_end+", new(tb).user("t").read(store).edit(store, "modify", true).test(false, true).final("Stopping."), map[string]Finding{"build_broken_at_end": {Steps: []int{4}}}},
		{"build_broken_at_end-", new(tb).user("t").read(store).edit(store, "modify", true).test(false, true).edit(store, "modify", true).test(true, false).final("Finished."), nil},
		{"repeated_error_loop+", new(tb).user("t").cmd("python3 a.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 b.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 c.py", false, "ModuleNotFoundError: No module named 'yaml'").final("Finished."),
			map[string]Finding{"repeated_error_loop": {Steps: []int{2, 3, 4}, Detail: "3 times: ModuleNotFoundError: No module named 'yaml'"}}},
		{"repeated_error_loop-", new(tb).user("t").cmd("python3 a.py", false, "ModuleNotFoundError: No module named 'yaml'").cmd("python3 b.py", false, "ModuleNotFoundError: No module named 'yaml'").final("Finished."), nil},
		{"unverified_success_claim+", new(tb).user("t").read(store).edit(store, "modify", true).final("I have implemented the TTL support."), map[string]Finding{"unverified_success_claim": {Steps: []int{4}}}},
		{"unverified_success_claim-", new(tb).user("t").read(store).edit(store, "modify", true).test(true, false).final("I have implemented the TTL support."), nil},
	} {
		got := map[string]Finding{}
		for _, s := range Signals(&Trace{Events: c.b.evs}) {
			got[s.Signal] = s.Finding
		}
		if len(got) == 0 {
			got = nil
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// Every rule-based mode and every signal has a positive and a negative
// case above, and the code's lists are the taxonomy's.
func TestRuleModesCoveredAndRegistered(t *testing.T) {
	if err := CheckRuleModes(taxonomy.Default()); err != nil {
		t.Fatal(err)
	}
	src := testSource(t, "modes_test.go")
	names := []string{}
	for _, m := range RuleModes {
		names = append(names, m.Name)
	}
	for _, s := range SignalChecks {
		names = append(names, s.Name)
	}
	for _, n := range names {
		for _, sign := range []string{"+", "-"} {
			if !strings.Contains(src, `{"`+n+sign) {
				t.Errorf("no %s case for %s", sign, n)
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
		if !strings.Contains(string(doc), "| "+m.Phase+" | `"+m.Mode+"` | "+m.Detection+" |") {
			t.Errorf("docs/evaluation.md has no row for %s", m.Mode)
		}
	}
	for _, s := range taxonomy.Default().Signals {
		if !strings.Contains(string(doc), "| `"+s.Signal+"` |") {
			t.Errorf("docs/evaluation.md has no row for signal %s", s.Signal)
		}
	}
}

// TestGaveUpEarlyWordings: an attempt that stops on its own without
// claiming success is judged by what it left undone, however its last
// message is worded; a claim of success, a limit or nothing left undone
// is no giving up (issue 34).
func TestGaveUpEarlyWordings(t *testing.T) {
	refFiles := []string{server, store}
	partial := func(final string) *tb {
		return new(tb).user("t").read(store).read(server).edit(store, "modify", true).test(true, false).final(final)
	}
	undoneServer := Finding{Steps: []int{6}, Detail: "stopped without claiming success, leaving unchanged: server/server.go"}
	for _, c := range []struct {
		name string
		b    *tb
		sol  []string
		want Finding
		conf string
	}{
		{"left a part", partial("Stopping here; the command-line part is left."), []string{store}, undoneServer, Medium},
		{"could not finish", partial("I could not finish the TTL part."), []string{store}, undoneServer, Medium},
		{"no apology at all", partial("Here is where things stand."), []string{store}, undoneServer, Medium},
		{"reverted everything", new(tb).user("t").read(store).edit(store, "modify", true).test(true, false).undo(store).final("I reverted my changes; the design needs more thought."),
			[]string{}, Finding{Steps: []int{6}, Detail: "stopped without claiming success, leaving unchanged: server/server.go, store/store.go"}, Medium},
		{"failing last run", new(tb).user("t").read(store).edit(store, "modify", true).test(false, false).final("That is as far as this goes."), []string{store},
			Finding{Steps: []int{4}, Detail: "stopped after a failing test run"}, High},
		{"claims success", partial("All tests pass; the feature is implemented."), []string{store}, Finding{}, ""},
		{"a bare word of completion", partial("Finished."), []string{store}, Finding{}, ""},
		{"nothing left undone", partial("Stopping here."), refFiles, Finding{}, ""},
		{"stopped by a limit", partial("Stopping here.").end(trajectory.EndTimeout), []string{store}, Finding{}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, conf := gaveUpEarly(&Trace{Events: c.b.evs, Reference: refFiles, Solution: c.sol})
			if !reflect.DeepEqual(f, c.want) || conf != c.conf {
				t.Errorf("got %+v (%q), want %+v (%q)", f, conf, c.want, c.conf)
			}
		})
	}
}
