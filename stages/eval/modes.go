package eval

import (
	"fmt"
	"path"
	"regexp"
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
	// Solution is nil when the attempt's solution is unknown; Added are
	// the files of Solution it creates.
	Solution []string
	Added    []string

	cat map[string]lang.Category
}

// Finding is the evidence of a mode: the steps that show it and, where
// steps cannot (a file never opened), a detail.
type Finding struct {
	Steps  []int  `json:"steps,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// RuleMode is a rule-based failure mode: its name in data/taxonomy, where
// its documentation lives, and its predicate. The predicate returns the
// confidence of what it found (High or Medium; the paper's evidence rules
// yield candidates, and the predicate knows how sure its evidence is), or
// "" when the attempt does not show the mode.
type RuleMode struct {
	Name  string
	Check func(*Trace) (Finding, string)
}

// RuleModes are the 18 rule-based modes of Table 10, in the taxonomy's
// order. A test checks that they are exactly the taxonomy's "rule" rows.
//
// The first four follow the paper's evidence examples and partition what
// happened to the reference solution's files: a file neither read nor
// changed is missed_relevant_file, a file read but not changed is
// relevant_change_omitted, a solution that changes some of the files but
// not all is cross_module_context_missing, and one that changes all of
// them, yet failed, is incorrect_patch.
var RuleModes = []*RuleMode{
	{"missed_relevant_file", missedRelevantFile},
	{"wrong_file_localization", wrongFileLocalization},
	{"cross_module_context_missing", crossModuleContextMissing},
	{"incorrect_patch", incorrectPatch},
	{"relevant_change_omitted", relevantChangeOmitted},
	{"no_patch_produced", noPatchProduced},
	{"gave_up_early", gaveUpEarly},
	{"no_validation_attempted", noValidationAttempted},
	{"no_test_after_final_edit", noTestAfterFinalEdit},
	{"authored_test_never_run", authoredTestNeverRun},
	{"test_result_misinterpreted", testResultMisinterpreted},
	{"repair_not_reverified", repairNotReverified},
	{"repeated_ineffective_attempt", repeatedIneffectiveAttempt},
	{"retry_without_change", retryWithoutChange},
	{"reverted_own_change", revertedOwnChange},
	{"tool_failure_not_retried", toolFailureNotRetried},
	{"repeated_patch_apply_failure", repeatedPatchApplyFailure},
	{"hallucinated_path_unrecovered", hallucinatedPathUnrecovered},
}

// SignalCheck is a diagnostic of data/taxonomy's signals.tsv: reported
// beside the attribution, never given a share of a failure's unit.
type SignalCheck struct {
	Name  string
	Check func(*Trace) (Finding, bool)
}

// SignalChecks are the signals, in the taxonomy's order.
var SignalChecks = []*SignalCheck{
	{"edit_before_exploration", editBeforeExploration},
	{"tests_modified", testsModified},
	{"budget_exhausted", budgetExhausted},
	{"invalid_tool_call", invalidToolCall},
	{"build_broken_at_end", buildBrokenAtEnd},
	{"repeated_error_loop", repeatedErrorLoop},
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

// seen are the files the agent read or tried to edit, with the step of
// the first time.
func (t *Trace) seen() map[string]int {
	m := map[string]int{}
	note := func(p string, step int) {
		if _, ok := m[p]; !ok {
			m[p] = step
		}
	}
	for i := range t.Events {
		e := &t.Events[i]
		for _, p := range e.FilesRead {
			note(p, e.Step)
		}
		for _, p := range e.FilesWritten {
			note(p, e.Step)
		}
		if e.Type == trajectory.Edit {
			note(e.Path, e.Step)
		}
	}
	return m
}

// changed are the source files the solution changes: its diff when known,
// else the successful edits.
func (t *Trace) changed() map[string]bool {
	m := map[string]bool{}
	if t.Solution != nil {
		for _, p := range t.Solution {
			if t.isSource(p) {
				m[p] = true
			}
		}
		return m
	}
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && t.isSource(e.Path) {
			m[e.Path] = true
		}
	}
	return m
}

// created are the files the solution adds: its diff's, else the files
// the agent created.
func (t *Trace) created() map[string]bool {
	m := map[string]bool{}
	if t.Solution != nil {
		for _, p := range t.Added {
			m[p] = true
		}
		return m
	}
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && e.Op == trajectory.OpCreate {
			m[e.Path] = true
		}
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

// lastMessage is the index of the agent's last message with text, or -1.
func (t *Trace) lastMessage() int {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if e := &t.Events[i]; e.Type == trajectory.Message && e.Source == trajectory.Agent && strings.TrimSpace(e.Text) != "" {
			return i
		}
	}
	return -1
}

// endedOnItsOwn reports whether the agent ended the run itself: no end
// event says it hit a limit or crashed.
func (t *Trace) endedOnItsOwn() bool {
	for i := range t.Events {
		if t.Events[i].Type == trajectory.End {
			return false
		}
	}
	return true
}

func failed(e *trajectory.Event) bool { return e.Passed != nil && !*e.Passed }

// list shows at most five items.
func list(items []string) string {
	if len(items) > 5 {
		return strings.Join(items[:5], ", ") + fmt.Sprintf(" and %d more", len(items)-5)
	}
	return strings.Join(items, ", ")
}

func addStep(steps []int, s int) []int {
	if slices.Contains(steps, s) {
		return steps
	}
	return append(steps, s)
}

// unchangedReference splits the reference files the solution left
// unchanged into those the agent saw (read or tried to edit) and those it
// did not, with the steps where it saw them.
func (t *Trace) unchangedReference() (seenFiles, unseen []string, steps []int) {
	changed, seen := t.changed(), t.seen()
	for _, f := range t.Reference {
		if changed[f] {
			continue
		}
		if s, ok := seen[f]; ok {
			seenFiles = append(seenFiles, f)
			steps = addStep(steps, s)
		} else {
			unseen = append(unseen, f)
		}
	}
	slices.Sort(steps)
	return seenFiles, unseen, steps
}

// missed_relevant_file: a reference file neither read nor edited.
func missedRelevantFile(t *Trace) (Finding, string) {
	_, unseen, _ := t.unchangedReference()
	if len(unseen) == 0 {
		return Finding{}, ""
	}
	return Finding{Detail: "neither read nor edited: " + list(unseen)}, High
}

// relevant_change_omitted: a reference file read (or an edit tried) but
// left unchanged.
func relevantChangeOmitted(t *Trace) (Finding, string) {
	seen, _, steps := t.unchangedReference()
	if len(seen) == 0 {
		return Finding{}, ""
	}
	return Finding{Steps: steps, Detail: "read, left unchanged: " + list(seen)}, High
}

// cross_module_context_missing: the solution changes some of the
// reference files but not all.
func crossModuleContextMissing(t *Trace) (Finding, string) {
	changed := t.changed()
	var hit, missed []string
	for _, f := range t.Reference {
		if changed[f] {
			hit = append(hit, f)
		} else {
			missed = append(missed, f)
		}
	}
	if len(hit) == 0 || len(missed) == 0 {
		return Finding{}, ""
	}
	// A missed file in a folder the agent changed nothing in is another
	// module; one beside its changes may be a near miss.
	dirs := map[string]bool{}
	for f := range changed {
		dirs[path.Dir(f)] = true
	}
	conf := Medium
	for _, f := range missed {
		if !dirs[path.Dir(f)] {
			conf = High
		}
	}
	return Finding{Detail: fmt.Sprintf("changed %s; not %s", list(hit), list(missed))}, conf
}

// incorrect_patch: every reference file changed, and the attempt failed.
func incorrectPatch(t *Trace) (Finding, string) {
	if len(t.Reference) == 0 {
		return Finding{}, ""
	}
	changed := t.changed()
	for _, f := range t.Reference {
		if !changed[f] {
			return Finding{}, ""
		}
	}
	return Finding{Detail: fmt.Sprintf("changed all %d reference files", len(t.Reference))}, High
}

// wrong_file_localization: existing source files outside the reference
// changed, and no reference file.
func wrongFileLocalization(t *Trace) (Finding, string) {
	if len(t.Reference) == 0 {
		return Finding{}, ""
	}
	ref := map[string]bool{}
	for _, f := range t.Reference {
		ref[f] = true
	}
	created := t.created()
	var outside []string
	for f := range t.changed() {
		if ref[f] {
			return Finding{}, ""
		}
		if !created[f] {
			outside = append(outside, f)
		}
	}
	if len(outside) == 0 {
		return Finding{}, ""
	}
	slices.Sort(outside)
	var steps []int
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && slices.Contains(outside, e.Path) {
			steps = addStep(steps, e.Step)
		}
	}
	return Finding{Steps: steps, Detail: "changed only files the reference leaves alone: " + list(outside)}, High
}

// no_patch_produced: no source file changed.
func noPatchProduced(t *Trace) (Finding, string) {
	if len(t.changed()) > 0 {
		return Finding{}, ""
	}
	if t.Solution != nil {
		return Finding{Detail: "the solution's diff changes no source file"}, High
	}
	return Finding{Detail: "no edit of a source file succeeded"}, High
}

// bareDoneRe is a last message that is only a word of completion
// ("Finished.", "Done!"): a claim too short for trajectory.ClaimsDone.
var bareDoneRe = regexp.MustCompile(`(?i)^\s*(?:all )?(?:done|finished|complete|completed)\s*[.!]*\s*$`)

// gave_up_early: the agent stopped on its own, without claiming success,
// before an adequate fix existed. It is judged by what the attempt left
// undone, not by how the last message is worded ("Stopping here; the
// command-line part is left." and "I reverted my changes" say it in ways
// no phrase list foresees): a failing last test run after the last edit
// (high), or reference files its solution leaves unchanged (medium).
func gaveUpEarly(t *Trace) (Finding, string) {
	if !t.endedOnItsOwn() {
		return Finding{}, ""
	}
	lm := t.lastMessage()
	if lm >= 0 && (trajectory.ClaimsDone(t.Events[lm].Text) || bareDoneRe.MatchString(t.Events[lm].Text)) {
		return Finding{}, "" // it believed it was done: not giving up
	}
	if le, lt := t.lastEdit(), t.lastTestRun(); lt >= 0 && lt > le && failed(&t.Events[lt]) {
		return Finding{Steps: []int{t.Events[lt].Step}, Detail: "stopped after a failing test run"}, High
	}
	changed := t.changed()
	var undone []string
	for _, p := range t.Reference {
		if !changed[p] {
			undone = append(undone, p)
		}
	}
	if len(undone) == 0 {
		return Finding{}, ""
	}
	slices.Sort(undone)
	var steps []int
	if lm >= 0 {
		steps = []int{t.Events[lm].Step}
	}
	return Finding{Steps: steps, Detail: "stopped without claiming success, leaving unchanged: " + list(undone)}, Medium
}

// no_validation_attempted: no test run at all.
func noValidationAttempted(t *Trace) (Finding, string) {
	if t.lastTestRun() >= 0 {
		return Finding{}, ""
	}
	return Finding{}, High
}

// no_test_after_final_edit: the last test run passed (or its outcome is
// unknown) and code was edited after it.
func noTestAfterFinalEdit(t *Trace) (Finding, string) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < 0 || lt > le || failed(&t.Events[lt]) {
		return Finding{}, ""
	}
	return Finding{Steps: []int{t.Events[le].Step}, Detail: "last edit: " + t.Events[le].Path}, High
}

// repair_not_reverified: the last test run failed and code was edited
// after it, with no test since.
func repairNotReverified(t *Trace) (Finding, string) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < 0 || lt > le || !failed(&t.Events[lt]) {
		return Finding{}, ""
	}
	return Finding{Steps: []int{t.Events[lt].Step, t.Events[le].Step}, Detail: "repaired " + t.Events[le].Path + " after a failing run, never tested again"}, High
}

// authored_test_never_run: a test file the agent wrote or changed that
// no later test run covered.
func authoredTestNeverRun(t *Trace) (Finding, string) {
	if t.lastTestRun() < 0 {
		return Finding{}, ""
	}
	lastEdit := map[string]int{}
	for i := range t.Events {
		if e := &t.Events[i]; e.Type == trajectory.Edit && !e.Error && e.Op != trajectory.OpDelete && t.isTest(e.Path) {
			lastEdit[e.Path] = i
		}
	}
	conf := ""
	var files []string
	var steps []int
	for _, f := range sortedKeys(lastEdit) {
		runs, covered := 0, false
		for j := lastEdit[f] + 1; j < len(t.Events) && !covered; j++ {
			if e := &t.Events[j]; e.Type == trajectory.TestRun {
				runs++
				covered = covers(e.Command, f)
			}
		}
		if covered {
			continue
		}
		files = append(files, f)
		steps = addStep(steps, t.Events[lastEdit[f]].Step)
		if runs == 0 {
			conf = High
		} else if conf == "" {
			conf = Medium
		}
	}
	if conf == "" {
		return Finding{}, ""
	}
	slices.Sort(steps)
	return Finding{Steps: steps, Detail: "never run: " + list(files)}, conf
}

// covers reports whether a test command runs the test file f: it names
// no path (a whole suite), names f, its folder or a folder above it, or
// names the file's stem (a module or test class).
func covers(cmd, f string) bool {
	stem := strings.TrimSuffix(path.Base(f), path.Ext(f))
	named := false
	for _, w := range strings.Fields(cmd) {
		w = strings.Trim(w, `"'`)
		if strings.HasPrefix(w, "-") || !strings.ContainsAny(w, "/.:") {
			continue
		}
		w, _, _ = strings.Cut(w, "::")
		w = strings.TrimSuffix(strings.TrimPrefix(path.Clean(trajectory.NormPath(w)), "./"), "/...")
		if w == "..." || w == "" || w == "." {
			return true
		}
		named = true
		if w == f || strings.HasPrefix(f, w+"/") || strings.Contains(w, stem) {
			return true
		}
	}
	return !named || strings.Contains(cmd, stem)
}

// passWords are words every claim claimsTestsPassRe matches holds one of.
var passWords = []string{"pass", "succeed", "green", "fixed"}

var claimsTestsPassRe = regexp.MustCompile(`(?i)\b(?:all (?:the )?|the )?tests? (?:now |all )?(?:pass|passed|passes|passing|succeed|succeeded|are green)\b|\bpass(?:es|ed)? all (?:the )?tests\b|\btests? (?:are|is) (?:now )?(?:passing|green|fixed)\b`)

// test_result_misinterpreted: after a failing test run, the next message
// says the tests pass (high) or the work is done (medium).
func testResultMisinterpreted(t *Trace) (Finding, string) {
	conf := ""
	var steps []int
	for i := range t.Events {
		if e := &t.Events[i]; e.Type != trajectory.TestRun || !failed(e) {
			continue
		}
		j := t.nextWords(i)
		if j < 0 {
			continue
		}
		c := ""
		switch text := t.Events[j].Text; {
		case trajectory.HasAnyWord(text, passWords) && claimsTestsPassRe.MatchString(text):
			c = High
		case trajectory.ClaimsDone(text):
			c = Medium
		default:
			continue
		}
		steps = addStep(addStep(steps, t.Events[i].Step), t.Events[j].Step)
		if c == High || conf == "" {
			conf = c
		}
	}
	if conf == "" {
		return Finding{}, ""
	}
	return Finding{Steps: steps}, conf
}

// nextWords is the index of the agent's next message with text after
// event i, in a later step and before the next test run, or -1.
func (t *Trace) nextWords(i int) int {
	for j := i + 1; j < len(t.Events); j++ {
		e := &t.Events[j]
		if e.Type == trajectory.TestRun {
			return -1
		}
		if e.Type == trajectory.Message && e.Source == trajectory.Agent && e.Step != t.Events[i].Step && strings.TrimSpace(e.Text) != "" {
			return j
		}
	}
	return -1
}

// repeated_ineffective_attempt: three or more failing test runs in a row,
// each after a new edit, and no later passing run.
func repeatedIneffectiveAttempt(t *Trace) (Finding, string) {
	var streak, best []int
	edited := false
	for i := range t.Events {
		e := &t.Events[i]
		switch {
		case e.Type == trajectory.Edit && !e.Error:
			edited = true
		case e.Type == trajectory.TestRun && e.Passed != nil && *e.Passed:
			streak, best, edited = nil, nil, false
		case e.Type == trajectory.TestRun && failed(e):
			if len(streak) > 0 && !edited {
				// A rerun without a change is retry_without_change's.
				continue
			}
			streak = append(streak, e.Step)
			edited = false
			if len(streak) >= 3 {
				best = slices.Clone(streak)
			}
		}
	}
	if len(best) < 3 {
		return Finding{}, ""
	}
	return Finding{Steps: best, Detail: fmt.Sprintf("%d failing test runs in a row, each after a repair", len(best))}, High
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
func retryWithoutChange(t *Trace) (Finding, string) {
	failedAt := map[string]int{} // command -> index of its last failed result
	var steps []int
	var cmds []string
	t.calls(func(ci, ri int) {
		c := &t.Events[ci]
		if c.Command == "" || ri < 0 {
			return
		}
		cmd := strings.TrimSpace(c.Command)
		if !t.Events[ri].Error {
			delete(failedAt, cmd)
			return
		}
		if prev, ok := failedAt[cmd]; ok && !t.editBetween(prev, ci) {
			steps = addStep(addStep(steps, t.Events[prev].Step), c.Step)
			if !slices.Contains(cmds, cmd) {
				cmds = append(cmds, cmd)
			}
		}
		failedAt[cmd] = ri
	})
	if len(steps) == 0 {
		return Finding{}, ""
	}
	slices.Sort(steps)
	return Finding{Steps: slices.Compact(steps), Detail: "repeated: " + list(cmds)}, High
}

// reverted_own_change: an undo of the agent's own earlier edit; high
// after a failing test run (while repairing), medium otherwise.
func revertedOwnChange(t *Trace) (Finding, string) {
	edited := map[string]bool{}
	anyEdit, failedRun := false, false
	conf := ""
	var steps []int
	var files []string
	for i := range t.Events {
		e := &t.Events[i]
		switch {
		case e.Type == trajectory.TestRun && failed(e):
			failedRun = true
		case e.Type == trajectory.ToolCall && e.Revert && len(e.FilesWritten) == 0 && anyEdit,
			e.Type == trajectory.Edit && e.Revert && !e.Error && edited[e.Path]:
			steps = addStep(steps, e.Step)
			if e.Path != "" && !slices.Contains(files, e.Path) {
				files = append(files, e.Path)
			}
			if failedRun {
				conf = High
			} else if conf == "" {
				conf = Medium
			}
		case e.Type == trajectory.Edit && !e.Error && !e.Revert:
			edited[e.Path], anyEdit = true, true
		}
	}
	if conf == "" {
		return Finding{}, ""
	}
	detail := "undid its own edits"
	if len(files) > 0 {
		detail += " of " + list(files)
	}
	return Finding{Steps: steps, Detail: detail}, conf
}

// tool_failure_not_retried: a failed edit with no later edit of the
// file, or a rejected call with no later call of the tool.
func toolFailureNotRetried(t *Trace) (Finding, string) {
	var steps []int
	var what []string
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type != trajectory.Edit || !e.Error {
			continue
		}
		retried := slices.ContainsFunc(t.Events[i+1:], func(f trajectory.Event) bool { return f.Type == trajectory.Edit && f.Path == e.Path })
		if !retried {
			steps = addStep(steps, e.Step)
			what = append(what, "edit of "+e.Path)
		}
	}
	t.calls(func(ci, ri int) {
		if ri < 0 || !t.Events[ri].Invalid {
			return
		}
		tool := t.Events[ci].Tool
		if !slices.ContainsFunc(t.Events[ri+1:], func(f trajectory.Event) bool { return f.Type == trajectory.ToolCall && f.Tool == tool }) {
			steps = addStep(steps, t.Events[ci].Step)
			what = append(what, "call of "+tool)
		}
	})
	if len(steps) == 0 {
		return Finding{}, ""
	}
	slices.Sort(steps)
	return Finding{Steps: steps, Detail: "failed and never tried again: " + list(what)}, High
}

// patchCommands are the keys of failed edits whose files are unknown.
const patchCommands = "(patch commands)"

// repeated_patch_apply_failure: two failed edits of one file in a row
// (medium), three or more (high), no successful edit between.
func repeatedPatchApplyFailure(t *Trace) (Finding, string) {
	run := map[string][]int{}
	best, key := []int(nil), ""
	note := func(k string, s int) {
		run[k] = append(run[k], s)
		if len(run[k]) > len(best) {
			best, key = slices.Clone(run[k]), k
		}
	}
	t.calls(func(ci, ri int) {
		c := &t.Events[ci]
		if c.Action != trajectory.ActWrite || len(c.FilesWritten) > 0 || ri < 0 || c.Revert {
			return
		}
		if t.Events[ri].Error {
			note(patchCommands, c.Step)
		} else {
			delete(run, patchCommands)
		}
	})
	for i := range t.Events {
		e := &t.Events[i]
		if e.Type != trajectory.Edit {
			continue
		}
		if e.Error {
			note(e.Path, e.Step)
		} else {
			delete(run, e.Path)
		}
	}
	steps := slices.Compact(best)
	switch {
	case len(best) >= 3:
		return Finding{Steps: steps, Detail: fmt.Sprintf("%d failed edits in a row: %s", len(best), key)}, High
	case len(best) == 2:
		return Finding{Steps: steps, Detail: "2 failed edits in a row: " + key}, Medium
	}
	return Finding{}, ""
}

// hallucinated_path_unrecovered: a missing path never followed by an
// existing path with the same file name, nor by its creation.
func hallucinatedPathUnrecovered(t *Trace) (Finding, string) {
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
		return Finding{}, ""
	}
	paths := sortedKeys(pending)
	var steps []int
	for _, p := range paths {
		steps = append(steps, pending[p])
	}
	slices.Sort(steps)
	return Finding{Steps: slices.Compact(steps), Detail: "missing: " + list(paths)}, High
}

// Signals.

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

// budget_exhausted: the run ended on a limit.
func budgetExhausted(t *Trace) (Finding, bool) {
	for i := len(t.Events) - 1; i >= 0; i-- {
		if e := &t.Events[i]; e.Type == trajectory.End && trajectory.IsLimit(e.Reason) {
			return Finding{Steps: []int{e.Step}, Detail: "ended on " + strings.ReplaceAll(e.Reason, "_", " ")}, true
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

// build_broken_at_end: the last test run after the last edit shows a
// build error.
func buildBrokenAtEnd(t *Trace) (Finding, bool) {
	le, lt := t.lastEdit(), t.lastTestRun()
	if le < 0 || lt < le || !t.Events[lt].BuildError {
		return Finding{}, false
	}
	return Finding{Steps: []int{t.Events[lt].Step}}, true
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

// unverified_success_claim: the final message claims success and no
// test run after the last edit passed.
func unverifiedSuccessClaim(t *Trace) (Finding, bool) {
	last := t.lastMessage()
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
