package eval

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/trajectory"
)

// Trace is what a rule-based mode looks at: one failed attempt's
// normalized events, the reference solution's source files and, when the
// solution is known, its changed source files.
type Trace struct {
	Events    []trajectory.Event
	Reference []string
	// Solution is nil when the attempt's solution is unknown.
	Solution []string

	cat map[string]lang.Category
}

// Finding is the evidence of a mode: the steps that show it and, where
// steps cannot (a file never opened), a detail.
type Finding struct {
	Steps  []int  `json:"steps,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// RuleMode is a rule-based failure mode: its name in data/taxonomy, where
// its documentation lives, and its predicate.
type RuleMode struct {
	Name  string
	Check func(*Trace) (Finding, bool)
}

// RuleModes are the rule-based modes, in the taxonomy's order. A test
// checks that they are exactly the taxonomy's "rule" rows.
var RuleModes = []*RuleMode{
	{"missed_relevant_file", missedRelevantFile},
	{"cross_module_context_missing", crossModuleContextMissing},
	{"edits_outside_reference", editsOutsideReference},
	{"edit_before_exploration", editBeforeExploration},
	{"no_source_change", noSourceChange},
	{"relevant_file_not_edited", relevantFileNotEdited},
	{"failed_edit_unrecovered", failedEditUnrecovered},
	{"build_broken_at_end", buildBrokenAtEnd},
	{"no_test_run", noTestRun},
	{"no_test_after_final_edit", noTestAfterFinalEdit},
	{"final_test_failure_ignored", finalTestFailureIgnored},
	{"tests_modified", testsModified},
	{"retry_without_change", retryWithoutChange},
	{"hallucinated_path_unrecovered", hallucinatedPathUnrecovered},
	{"repeated_error_loop", repeatedErrorLoop},
	{"invalid_tool_call", invalidToolCall},
	{"budget_exhausted", budgetExhausted},
	{"unverified_success_claim", unverifiedSuccessClaim},
}

func (t *Trace) category(p string) lang.Category {
	if t.cat == nil {
		t.cat = map[string]lang.Category{}
	}
	c, ok := t.cat[p]
	if !ok {
		c = lang.Classify(p)
		t.cat[p] = c
	}
	return c
}

func (t *Trace) isSource(p string) bool { return t.category(p) == lang.Source }

func (t *Trace) isTest(p string) bool {
	c := t.category(p)
	return c == lang.Test || c == lang.TestData
}

// touched are the files the agent read or wrote, or tried to.
func (t *Trace) touched() map[string]bool {
	m := map[string]bool{}
	for i := range t.Events {
		e := &t.Events[i]
		for _, p := range e.FilesRead {
			m[p] = true
		}
		for _, p := range e.FilesWritten {
			m[p] = true
		}
		if e.Type == trajectory.Edit {
			m[e.Path] = true
		}
	}
	return m
}

// edited are the files with a successful edit, and the solution's files.
func (t *Trace) edited() map[string]bool {
	m := map[string]bool{}
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error {
			m[e.Path] = true
		}
	}
	for _, p := range t.Solution {
		m[p] = true
	}
	return m
}

// lastEdit is the index of the last successful edit, or -1.
func (t *Trace) lastEdit() int {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error {
			return i
		}
	}
	return -1
}

// lastTestRun is the index of the last test run, or -1.
func (t *Trace) lastTestRun() int {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if t.Events[i].Type == trajectory.TestRun {
			return i
		}
	}
	return -1
}

// list shows at most five items.
func list(items []string) string {
	if len(items) > 5 {
		return strings.Join(items[:5], ", ") + fmt.Sprintf(" and %d more", len(items)-5)
	}
	return strings.Join(items, ", ")
}

func addStep(steps []int, s int) []int {
	if len(steps) > 0 && steps[len(steps)-1] == s || slices.Contains(steps, s) {
		return steps
	}
	return append(steps, s)
}

// missed_relevant_file: a reference source file the agent never read nor
// wrote.
func missedRelevantFile(t *Trace) (Finding, bool) {
	touched := t.touched()
	var missed []string
	for _, f := range t.Reference {
		if !touched[f] {
			missed = append(missed, f)
		}
	}
	if len(missed) == 0 {
		return Finding{}, false
	}
	return Finding{Detail: "never read or written: " + list(missed)}, true
}

// cross_module_context_missing: the reference spans two or more folders;
// the agent's source files cover at most one of them.
func crossModuleContextMissing(t *Trace) (Finding, bool) {
	refDirs := map[string]bool{}
	for _, f := range t.Reference {
		refDirs[path.Dir(f)] = true
	}
	if len(refDirs) < 2 {
		return Finding{}, false
	}
	seen := map[string]bool{}
	for f := range t.touched() {
		if d := path.Dir(f); refDirs[d] && t.isSource(f) {
			seen[d] = true
		}
	}
	if len(seen) > 1 {
		return Finding{}, false
	}
	worked := sorted(seen)
	if len(worked) == 0 {
		worked = []string{"none of them"}
	}
	return Finding{Detail: fmt.Sprintf("the reference changes %s; the agent worked in %s", list(sorted(refDirs)), strings.Join(worked, ", "))}, true
}

// edits_outside_reference: every source file edited lies outside the
// reference.
func editsOutsideReference(t *Trace) (Finding, bool) {
	if len(t.Reference) == 0 {
		return Finding{}, false
	}
	ref := map[string]bool{}
	for _, f := range t.Reference {
		ref[f] = true
	}
	var files []string
	var steps []int
	for p := range t.edited() {
		if t.isSource(p) {
			if ref[p] {
				return Finding{}, false
			}
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return Finding{}, false
	}
	slices.Sort(files)
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && slices.Contains(files, e.Path) {
			steps = addStep(steps, e.Step)
		}
	}
	return Finding{Steps: steps, Detail: "edited only: " + list(files)}, true
}

// edit_before_exploration: an edit comes before any read, listing or
// search.
func editBeforeExploration(t *Trace) (Finding, bool) {
	for i := range t.Events {
		e := &t.Events[i]
		switch {
		case e.Type == trajectory.ToolCall && (e.Action == trajectory.ActRead || e.Action == trajectory.ActSearch):
			return Finding{}, false
		case e.Type == trajectory.Edit:
			return Finding{Steps: []int{e.Step}, Detail: "first edit: " + e.Path}, true
		}
	}
	return Finding{}, false
}

// no_source_change: the solution changes no source file (its diff when
// known, else the successful edits).
func noSourceChange(t *Trace) (Finding, bool) {
	if t.Solution != nil {
		for _, p := range t.Solution {
			if t.isSource(p) {
				return Finding{}, false
			}
		}
		return Finding{Detail: "the solution's diff changes no source file"}, true
	}
	for p := range t.edited() {
		if t.isSource(p) {
			return Finding{}, false
		}
	}
	return Finding{Detail: "no edit of a source file succeeded"}, true
}

// relevant_file_not_edited: a reference source file read but never
// edited.
func relevantFileNotEdited(t *Trace) (Finding, bool) {
	ref := map[string]bool{}
	for _, f := range t.Reference {
		ref[f] = true
	}
	edited := t.edited()
	var files []string
	var steps []int
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type != trajectory.ToolCall {
			continue
		}
		for _, p := range e.FilesRead {
			if ref[p] && !edited[p] && !slices.Contains(files, p) {
				files = append(files, p)
				steps = addStep(steps, e.Step)
			}
		}
	}
	if len(files) == 0 {
		return Finding{}, false
	}
	return Finding{Steps: steps, Detail: "read, never edited: " + list(files)}, true
}

// failed_edit_unrecovered: a failed edit with no later successful edit of
// the file.
func failedEditUnrecovered(t *Trace) (Finding, bool) {
	var steps []int
	var files []string
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type != trajectory.Edit || !e.Error {
			continue
		}
		recovered := false
		for j := i + 1; j < len(t.Events); j++ {
			if f := &t.Events[j]; f.Type == trajectory.Edit && !f.Error && f.Path == e.Path {
				recovered = true
				break
			}
		}
		if !recovered {
			steps = addStep(steps, e.Step)
			if !slices.Contains(files, e.Path) {
				files = append(files, e.Path)
			}
		}
	}
	if len(steps) == 0 {
		return Finding{}, false
	}
	return Finding{Steps: steps, Detail: "failed edits of " + list(files)}, true
}

// build_broken_at_end: the last verification run after the last edit
// shows a build error.
func buildBrokenAtEnd(t *Trace) (Finding, bool) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < le || !t.Events[lt].BuildError {
		return Finding{}, false
	}
	return Finding{Steps: []int{t.Events[lt].Step}}, true
}

// no_test_run: no verification run at all.
func noTestRun(t *Trace) (Finding, bool) {
	if t.lastTestRun() >= 0 {
		return Finding{}, false
	}
	return Finding{}, true
}

// no_test_after_final_edit: verification runs, but none after the last
// successful edit.
func noTestAfterFinalEdit(t *Trace) (Finding, bool) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < 0 || lt > le {
		return Finding{}, false
	}
	return Finding{Steps: []int{t.Events[le].Step}, Detail: "last edit: " + t.Events[le].Path}, true
}

// final_test_failure_ignored: the last verification run, after the last
// edit, failed.
func finalTestFailureIgnored(t *Trace) (Finding, bool) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < le {
		return Finding{}, false
	}
	if p := t.Events[lt].Passed; p == nil || *p {
		return Finding{}, false
	}
	return Finding{Steps: []int{t.Events[lt].Step}}, true
}

// tests_modified: a successful edit of a test file the agent did not
// create.
func testsModified(t *Trace) (Finding, bool) {
	created := map[string]bool{}
	var steps []int
	var files []string
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type != trajectory.Edit || e.Error {
			continue
		}
		if e.Op == trajectory.OpCreate {
			created[e.Path] = true
			continue
		}
		if t.isTest(e.Path) && !created[e.Path] {
			steps = addStep(steps, e.Step)
			if !slices.Contains(files, e.Path) {
				files = append(files, e.Path)
			}
		}
	}
	if len(steps) == 0 {
		return Finding{}, false
	}
	return Finding{Steps: steps, Detail: "edited " + list(files)}, true
}

// calls pairs each tool call with its result (by id, else the result
// that follows it) and passes their indices in order; ri is -1 when a
// call has no result.
func (t *Trace) calls(each func(ci, ri int)) {
	var open []int
	flush := func() {
		for _, c := range open {
			each(c, -1)
		}
		open = open[:0]
	}
	for i := range t.Events {
		e := &t.Events[i]
		switch e.Type {
		case trajectory.ToolCall:
			open = append(open, i)
		case trajectory.Result:
			k := -1
			for j, c := range open {
				if t.Events[c].ID == e.ID {
					k = j
					break
				}
			}
			if k < 0 {
				continue
			}
			// Calls before the matched one got no result.
			for _, c := range open[:k] {
				each(c, -1)
			}
			each(open[k], i)
			open = append(open[:0], open[k+1:]...)
		case trajectory.Message:
			flush()
		}
	}
	flush()
}

// editBetween reports a successful edit between two event indices.
func (t *Trace) editBetween(from, to int) bool {
	for i := from + 1; i < to; i++ {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error {
			return true
		}
	}
	return false
}

// retry_without_change: a failed command run again, with no successful
// edit in between, failing again.
func retryWithoutChange(t *Trace) (Finding, bool) {
	failed := map[string]int{} // command -> index of its last failed result
	var steps []int
	var cmds []string
	t.calls(func(ci, ri int) {
		c := &t.Events[ci]
		if c.Command == "" || ri < 0 {
			return
		}
		cmd := strings.TrimSpace(c.Command)
		if !t.Events[ri].Error {
			delete(failed, cmd)
			return
		}
		if prev, ok := failed[cmd]; ok && !t.editBetween(prev, ci) {
			steps = addStep(addStep(steps, t.Events[prev].Step), c.Step)
			if !slices.Contains(cmds, cmd) {
				cmds = append(cmds, cmd)
			}
		}
		failed[cmd] = ri
	})
	if len(steps) == 0 {
		return Finding{}, false
	}
	slices.Sort(steps)
	return Finding{Steps: slices.Compact(steps), Detail: "repeated: " + list(cmds)}, true
}

// hallucinated_path_unrecovered: a missing path never followed by an
// existing path with the same file name, nor by its creation.
func hallucinatedPathUnrecovered(t *Trace) (Finding, bool) {
	pending := map[string]int{} // path -> step where it was missing
	t.calls(func(ci, ri int) {
		c := &t.Events[ci]
		missing := map[string]bool{}
		if ri >= 0 {
			for _, p := range t.Events[ri].MissingPaths {
				missing[p] = true
			}
		}
		for _, q := range append(append([]string{}, c.FilesRead...), c.FilesWritten...) {
			if missing[q] {
				continue
			}
			for p := range pending {
				if q != p && path.Base(q) == path.Base(p) {
					delete(pending, p)
				}
			}
		}
		for p := range missing {
			if _, ok := pending[p]; !ok {
				pending[p] = c.Step
			}
		}
	})
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && e.Op == trajectory.OpCreate {
			if s, ok := pending[e.Path]; ok && e.Step >= s {
				delete(pending, e.Path)
			}
		}
	}
	if len(pending) == 0 {
		return Finding{}, false
	}
	var paths []string
	var steps []int
	for p := range pending {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		steps = append(steps, pending[p])
	}
	slices.Sort(steps)
	return Finding{Steps: slices.Compact(steps), Detail: "missing: " + list(paths)}, true
}

// repeated_error_loop: one error line in three or more results.
func repeatedErrorLoop(t *Trace) (Finding, bool) {
	count := map[string][]int{}
	var order []string
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type == trajectory.Result && e.ErrorLine != "" {
			if _, ok := count[e.ErrorLine]; !ok {
				order = append(order, e.ErrorLine)
			}
			count[e.ErrorLine] = append(count[e.ErrorLine], e.Step)
		}
	}
	for _, line := range order {
		if steps := count[line]; len(steps) >= 3 {
			return Finding{Steps: slices.Compact(steps), Detail: fmt.Sprintf("%d times: %s", len(steps), line)}, true
		}
	}
	return Finding{}, false
}

// invalid_tool_call: two or more calls rejected as malformed.
func invalidToolCall(t *Trace) (Finding, bool) {
	var steps []int
	n := 0
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Result && e.Invalid {
			n++
			steps = addStep(steps, e.Step)
		}
	}
	if n < 2 {
		return Finding{}, false
	}
	return Finding{Steps: steps, Detail: fmt.Sprintf("%d rejected calls", n)}, true
}

// budget_exhausted: the run ended on a limit.
func budgetExhausted(t *Trace) (Finding, bool) {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if e := &t.Events[i]; e.Type == trajectory.End && trajectory.IsLimit(e.Reason) {
			return Finding{Steps: []int{e.Step}, Detail: "ended on " + strings.ReplaceAll(e.Reason, "_", " ")}, true
		}
	}
	return Finding{}, false
}

// unverified_success_claim: the final message claims success and no
// verification run after the last edit passed.
func unverifiedSuccessClaim(t *Trace) (Finding, bool) {
	last := -1
	for i := len(t.Events) - 1; i >= 0; i-- {
		if e := &t.Events[i]; e.Type == trajectory.Message && e.Source == trajectory.Agent && strings.TrimSpace(e.Text) != "" {
			last = i
			break
		}
	}
	if last < 0 || !trajectory.ClaimsDone(t.Events[last].Text) {
		return Finding{}, false
	}
	for i := t.lastEdit() + 1; i < len(t.Events); i++ {
		if e := &t.Events[i]; e.Type == trajectory.TestRun && e.Passed != nil && *e.Passed {
			return Finding{}, false
		}
	}
	return Finding{Steps: []int{t.Events[last].Step}}, true
}
