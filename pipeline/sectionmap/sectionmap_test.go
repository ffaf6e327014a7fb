package sectionmap_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// TestComputeOrder: each section takes the strongest evidence that can see
// it. A has a whole revert and a stub revert (a kill of either decides; a
// survivor of the whole one is out, whatever the rows say); B owns lines
// coverage sees (reach decides for the file row's guess, never against a
// row that names the test); C owns only setup lines and has no revert (the
// rows decide); D's revert survives every test (untested); E has only a
// stub revert, whose survivors may still assert it. The file row is a
// fallback only: a test that kills a revert (t4) is not given its file's
// other sections.
func TestComputeOrder(t *testing.T) {
	in := sectionmap.Input{
		Tests: []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"},
		Sections: []mapping.TaskSection{{ID: "A", Title: "Alpha"}, {ID: "B", Title: "Beta"},
			{ID: "C", Title: "Gamma"}, {ID: "D", Title: "Delta"}, {ID: "E", Title: "Epsilon"}},
		Rows: map[string]sectionmap.Rows{
			// Named under A, but it survives A's whole revert: not A.
			"t2": {Named: map[string]int{"A": 1}, File: []string{"A", "C"}, FilePath: "x_test"},
			"t3": {Named: map[string]int{"C": 3}, File: []string{"A", "C"}, FilePath: "x_test"},
			// No row names either: t4 kills A's revert, which says what it
			// asserts; t7 kills none and gets its file's sections, less A,
			// whose whole revert it survives, and B, which coverage sees
			// and it does not reach.
			"t4": {File: []string{"A", "B", "C"}, FilePath: "x_test"},
			"t7": {File: []string{"A", "B", "C"}, FilePath: "x_test"},
			// Named under B and E: it reaches none of B's lines and
			// survives E's stub revert, and the rows still hold.
			"t6": {Named: map[string]int{"B": 2, "E": 5}, File: []string{"B", "E"}, FilePath: "y_test"},
		},
		Reverts: map[string]string{"revert-a": "A", "revert-a-stub": "A", "revert-d": "D", "revert-e-stub": "E"},
		Partial: map[string]bool{"revert-a-stub": true, "revert-e-stub": true},
		Judged:  map[string]bool{"t1": true, "t2": true, "t4": true, "t5": true, "t6": true, "t7": true},
		Kills:   map[string][]string{"t1": {"revert-a-stub", "op-1"}, "t4": {"revert-a"}, "t5": {"revert-e-stub"}},
		Covered: map[string]coverage.Lines{
			"t1": {"b.py": {3, 4}},
			"t2": {},
			"t4": {"b.py": {9}},
			"t5": {"b.py": {4}},
			"t6": {"b.py": {9}},
			"t7": {"b.py": {9}},
		},
		Owned: map[string]coverage.Lines{"B": {"b.py": {3, 4}}},
	}
	got := sectionmap.Compute("mutate", in)
	want := &sectionmap.Map{
		Stage:   "mutate",
		Sources: []string{sectionmap.SourceRows, sectionmap.SourceKills, sectionmap.SourceCoverage},
		Tests: []sectionmap.Test{
			{Test: "t1", Sections: []string{"A", "B"}, Evidence: []string{"killed revert-a-stub (stub revert)", "reached B's lines (2 lines)"}},
			{Test: "t2", Sections: []string{}, Evidence: []string{}},
			// Judged on no revert and without coverage: the rows decide
			// every section, and they name C alone.
			{Test: "t3", Sections: []string{"C"}, Evidence: []string{"row of block 3"}},
			{Test: "t4", Sections: []string{"A"}, Evidence: []string{"killed revert-a"}},
			{Test: "t5", Sections: []string{"B", "E"}, Evidence: []string{"reached B's lines (1 line)", "killed revert-e-stub (stub revert)"}},
			{Test: "t6", Sections: []string{"B", "E"}, Evidence: []string{"row of block 2", "row of block 5"}},
			{Test: "t7", Sections: []string{"C"}, Evidence: []string{"file row of x_test"}},
		},
		Sections: []sectionmap.Section{
			{ID: "A", Title: "Alpha", Tests: []string{"t1", "t4"}},
			{ID: "B", Title: "Beta", Tests: []string{"t1", "t5", "t6"}},
			{ID: "C", Title: "Gamma", Tests: []string{"t3", "t7"}},
			{ID: "D", Title: "Delta", Tests: []string{}, Untested: "no FAIL_TO_PASS test fails on its revert (revert-d) and no mapping row names a FAIL_TO_PASS test for it"},
			{ID: "E", Title: "Epsilon", Tests: []string{"t5", "t6"}},
		},
		Untested:  []string{"D"},
		Broad:     []string{"t2"},
		Reference: sectionmap.Figures{Completed: 4, Total: 5},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("map:\n got %+v\nwant %+v", got, want)
	}
	if got.Ready() || got.NotReady() != "the reference solution completes 4/5 sections: untested D" {
		t.Errorf("ready %v, %q", got.Ready(), got.NotReady())
	}
	wantF2P := map[string][]string{"t1": {"A", "B"}, "t3": {"C"}, "t4": {"A"}, "t5": {"B", "E"}, "t6": {"B", "E"}, "t7": {"C"}}
	if f := got.F2PSections(); !reflect.DeepEqual(f, wantF2P) {
		t.Errorf("F2PSections %v", f)
	}
	if s := got.Summary(); s != "5 task sections, the reference solution completes 4/5; untested: D (no FAIL_TO_PASS test fails on its revert (revert-d) and no mapping row names a FAIL_TO_PASS test for it)" {
		t.Errorf("summary %q", s)
	}
	if s := got.PerSection(); s != "tests per section: A 2, B 3, C 2, D 0, E 2" {
		t.Errorf("per section %q", s)
	}
}

// TestSameTests flags a section whose tests are exactly another's: no
// solution can complete one without the other (issue 31 §2).
func TestSameTests(t *testing.T) {
	secs := []mapping.TaskSection{{ID: "4.1"}, {ID: "4.2"}, {ID: "4.3"}, {ID: "4.5"}}
	named := func(ids ...string) sectionmap.Rows {
		n := map[string]int{}
		for i, id := range ids {
			n[id] = i + 1
		}
		return sectionmap.Rows{Named: n}
	}
	m := sectionmap.Compute("mutate", sectionmap.Input{Tests: []string{"a", "b", "c"}, Sections: secs,
		Rows: map[string]sectionmap.Rows{"a": named("4.1", "4.2", "4.5"), "b": named("4.1", "4.2", "4.5"), "c": named("4.3")}})
	var same []string
	for _, sec := range m.Sections {
		same = append(same, sec.ID+"="+sec.SameTestsAs)
	}
	if !reflect.DeepEqual(same, []string{"4.1=", "4.2=4.1", "4.3=", "4.5=4.1"}) {
		t.Fatalf("same tests: %q", same)
	}
	want := "tests per section: 4.1 2, 4.2 2, 4.3 1, 4.5 2; 4.2 has the same tests as 4.1, 4.5 has the same tests as 4.1, so no solution completes one without the other"
	if got := m.PerSection(); got != want {
		t.Fatalf("PerSection:\n%s\nwant\n%s", got, want)
	}
	if got := (&sectionmap.Map{}).PerSection(); got != "" {
		t.Fatalf("no sections: %q", got)
	}
}

// licensing is the testdata/licensing fixture: a Python module shaped
// like PEP 639's change to pypa/packaging. Section 1 owns the module's
// license table (file-level lines, one of them run at import) and
// canonicalize; section 2 owns RawMetadata's body, a TypedDict whose new
// fields run only at class-definition time and are no statements; 2.1 the
// parser's change, 2.2 license_files, 3 dump, which no test runs.
type licensing struct {
	repo       *diff.Repo
	base, head string
	mapping    *mapping.Mapping
	owners     *mutation.Owners
	cov        *coverage.Result
	set        *mutation.Set
}

const (
	tCanon = "tests/test_licenses.py::test_canonicalize"
	tExpr  = "tests/test_metadata.py::TestParse::test_expression"
	tField = "tests/test_metadata.py::TestParse::test_fields[license_files]"
	tSmoke = "tests/test_smoke.py::test_smoke"
)

var licensingTests = []string{tCanon, tExpr, tField, tSmoke}

func newLicensing(t *testing.T) *licensing {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if err := testrepo.Build(dir,
		testrepo.Step{Overlay: filepath.Join("testdata", "licensing", "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join("testdata", "licensing", "pr"), Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := &licensing{repo: repo}
	if l.base, err = repo.Resolve("base"); err != nil {
		t.Fatal(err)
	}
	if l.head, err = repo.Resolve("head"); err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(ctx, l.base, l.head)
	if err != nil {
		t.Fatal(err)
	}
	scopes, err := syntax.Resolve(ctx, dir, ch, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const src = "src/pkg/metadata.py"
	row := func(class, fn string) mapping.CodeRow { return mapping.CodeRow{Path: src, Class: class, Function: fn} }
	test := func(path, class, fn string) mapping.CodeRow {
		return mapping.CodeRow{Path: path, Class: class, Function: fn}
	}
	l.mapping = &mapping.Mapping{
		SCS: mapping.Table[mapping.SCSRow]{Rows: []mapping.SCSRow{
			{Section: "1", Title: "License expressions", Implementable: "yes", Category: "implementation", Mapped: "yes"},
			{Section: "2", Title: "Core metadata", Implementable: "yes", Category: "implementation", Mapped: "yes"},
			{Section: "2.1", Title: "License-Expression", Implementable: "yes", Category: "implementation", Mapped: "yes"},
			{Section: "2.2", Title: "License-File", Implementable: "yes", Category: "implementation", Mapped: "yes"},
			{Section: "3", Title: "Writing metadata", Implementable: "yes", Category: "implementation", Mapped: "yes"},
			{Section: "4", Title: "Test plan", Implementable: "yes", Category: "evaluation", Mapped: "yes"},
			{Section: "5", Title: "Build back-ends", Implementable: "yes", Category: "implementation", Mapped: "no"},
		}},
		PFS: mapping.Table[mapping.PFSRow]{Rows: []mapping.PFSRow{
			{Path: src, DirectSections: "1, 2, 2.1, 2.2, 3", AssociatedSections: "-"},
			{Path: "tests/test_licenses.py", DirectSections: "4", AssociatedSections: "1"},
			{Path: "tests/test_metadata.py", DirectSections: "4", AssociatedSections: "2, 2.1, 2.2"},
		}},
		Blocks: []mapping.Block{
			{Number: 1, Section: "1", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{row("-", "-"), row("-", "canonicalize")}},
				Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{test("tests/test_licenses.py", "-", "test_canonicalize")}}},
			{Number: 2, Section: "2", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{row("RawMetadata", "-")}}},
			// The curator names the parser test under 2.1 only (rule 28
			// gives a row one block), though it asserts 1 and 2 too.
			{Number: 3, Section: "2.1", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{row("-", "parse")}},
				Associated: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{test("tests/test_metadata.py", "TestParse", "test_expression")}}},
			{Number: 4, Section: "2.2", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{row("-", "license_files")}}},
			{Number: 5, Section: "3", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{row("-", "dump")}}},
		},
	}
	l.owners = mutation.NewOwners(l.mapping, scopes)
	sol, err := mutation.LoadSolution(ctx, repo, ch)
	if err != nil {
		t.Fatal(err)
	}
	target := coverage.NewTarget(ctx, sol.Sources())
	// What coverage.py records: the module's and the class body's
	// statements run at import, outside every test (setup); each test's
	// own lines as listed.
	l.cov = &coverage.Result{PerTest: true, Target: *target,
		Setup: coverage.Lines{src: {3, 7, 14, 15}},
		Tests: map[string]coverage.Lines{
			tCanon: {src: {19, 20, 22}},
			tExpr:  {src: {19, 20, 22, 30, 31}},
			tField: {src: {30, 36, 37}},
			tSmoke: {},
		}}
	// The kill matrix by hand: the class body's revert drops the new
	// fields, so parse filters them out; license_files' revert is killed
	// by the parametrized test only; dump's revert survives (no test).
	mu := func(id, section string) *mutation.Mutant {
		return &mutation.Mutant{ID: id, Method: mutation.MappedRevert, Section: section, Status: mutation.Killed}
	}
	muts := []*mutation.Mutant{mu("revert-1", "1"), mu("revert-2", "2"), mu("revert-2.1", "2.1"), mu("revert-2.2", "2.2"), mu("revert-3", "3"),
		{ID: "op-negate-001", Method: mutation.SyntaxOperator, Section: "2.1", Status: mutation.Killed}}
	muts[4].Status = mutation.Survived
	matrix := mutation.NewMatrix(licensingTests)
	kills := map[string][]string{
		"revert-1":      {tCanon, tExpr},
		"revert-2":      {tExpr, tField},
		"revert-2.1":    {tExpr},
		"revert-2.2":    {tField},
		"revert-3":      nil,
		"op-negate-001": {tExpr},
	}
	for _, m := range muts {
		out := map[string]mutation.Outcome{}
		for _, tt := range licensingTests {
			out[tt] = mutation.OutcomePassed
		}
		for _, tt := range kills[m.ID] {
			out[tt] = mutation.OutcomeKilled
		}
		matrix.Add(m, out)
	}
	l.set = &mutation.Set{Mutants: muts, Matrix: matrix}
	return l
}

func (l *licensing) input(t *testing.T) sectionmap.Input {
	t.Helper()
	files := []string{"tests/test_licenses.py", "tests/test_metadata.py", "tests/test_smoke.py"}
	return sectionmap.Input{Tests: licensingTests, Sections: l.mapping.TaskSections(),
		Rows: sectionmap.RowsOf(l.repo, l.head, l.mapping, "pytest-ra", files, licensingTests)}
}

// TestLicensingRows: the build's map, from the rows alone. The parser
// test gets the one block that names it; the parametrized test, which no
// row names, every section of its file's summary row; the smoke test,
// whose file no row gives, none.
func TestLicensingRows(t *testing.T) {
	l := newLicensing(t)
	got := sectionmap.Compute("build", l.input(t))
	wantTests := []sectionmap.Test{
		{Test: tCanon, Sections: []string{"1"}, Evidence: []string{"row of block 1"}},
		{Test: tExpr, Sections: []string{"2.1"}, Evidence: []string{"row of block 3"}},
		{Test: tField, Sections: []string{"2", "2.1", "2.2"}, Evidence: []string{"file row of tests/test_metadata.py", "file row of tests/test_metadata.py", "file row of tests/test_metadata.py"}},
		{Test: tSmoke, Sections: []string{}, Evidence: []string{}},
	}
	if !reflect.DeepEqual(got.Tests, wantTests) {
		t.Errorf("tests:\n got %+v\nwant %+v", got.Tests, wantTests)
	}
	// The test plan (evaluation) and the unmapped section 5 are not task
	// sections: the reference solution could complete neither.
	if ids := got.SectionIDs(); !reflect.DeepEqual(ids, []string{"1", "2", "2.1", "2.2", "3"}) {
		t.Errorf("sections %v", ids)
	}
	if !reflect.DeepEqual(got.Untested, []string{"3"}) || got.Reference != (sectionmap.Figures{Completed: 4, Total: 5}) ||
		!reflect.DeepEqual(got.Broad, []string{tSmoke}) || !reflect.DeepEqual(got.Sources, []string{sectionmap.SourceRows}) {
		t.Errorf("untested %v, reference %v, broad %v, sources %v", got.Untested, got.Reference, got.Broad, got.Sources)
	}
	if got.Sections[4].Untested != "no mapping row names a FAIL_TO_PASS test for it, nor its test file's PR File Summary row" {
		t.Errorf("why: %q", got.Sections[4].Untested)
	}
}

// TestLicensingKills: mutate's map. Killing a revert is enough, whatever
// coverage says: no test "reaches" RawMetadata's body or the license
// table, yet the parser tests kill their reverts. The parser test kills
// three sections' reverts and belongs to all three; the test no row names
// gets exactly the section whose revert it kills.
func TestLicensingKills(t *testing.T) {
	l := newLicensing(t)
	in := l.input(t)
	in.AddMutants(l.set, l.cov, l.owners)
	// Owned: canonicalize's statements for 1 (the table's lines 3 and 7
	// run at import); RawMetadata's new fields run at class definition, so
	// 2 owns no line a test can be seen to run.
	const src = "src/pkg/metadata.py"
	wantOwned := map[string]coverage.Lines{
		"1": {src: {19, 20, 21, 22}}, "2.1": {src: {30, 31}}, "2.2": {src: {36, 37}}, "3": {src: {41}},
	}
	if !reflect.DeepEqual(in.Owned, wantOwned) {
		t.Errorf("owned:\n got %v\nwant %v", in.Owned, wantOwned)
	}
	got := sectionmap.Compute("mutate", in)
	wantTests := []sectionmap.Test{
		{Test: tCanon, Sections: []string{"1"}, Evidence: []string{"killed revert-1"}},
		{Test: tExpr, Sections: []string{"1", "2", "2.1"}, Evidence: []string{"killed revert-1", "killed revert-2", "killed revert-2.1"}},
		{Test: tField, Sections: []string{"2", "2.2"}, Evidence: []string{"killed revert-2", "killed revert-2.2"}},
		{Test: tSmoke, Sections: []string{}, Evidence: []string{}},
	}
	if !reflect.DeepEqual(got.Tests, wantTests) {
		t.Errorf("tests:\n got %+v\nwant %+v", got.Tests, wantTests)
	}
	if !reflect.DeepEqual(got.Untested, []string{"3"}) || got.Sections[4].Untested != "no FAIL_TO_PASS test fails on its revert (revert-3), no FAIL_TO_PASS test runs the lines it owns and no mapping row names a FAIL_TO_PASS test for it" {
		t.Errorf("untested %v: %q", got.Untested, got.Sections[4].Untested)
	}

	// Without a revert of 3 (dropped), coverage decides: dump's line is
	// run by no test.
	set := &mutation.Set{Mutants: l.set.Mutants[:4], Matrix: l.set.Matrix}
	in = l.input(t)
	in.AddMutants(set, l.cov, l.owners)
	if got := sectionmap.Compute("mutate", in); got.Sections[4].Untested != "no FAIL_TO_PASS test runs the lines it owns and no mapping row names a FAIL_TO_PASS test for it" {
		t.Errorf("why without a revert: %q", got.Sections[4].Untested)
	}

	// An added test, run on every mutant, that kills 3's revert.
	in = l.input(t)
	in.Tests = append(in.Tests, "tests/test_dump.py::test_dump")
	in.AddMutants(l.set, l.cov, l.owners)
	in.AddTest("tests/test_dump.py::test_dump", []string{"revert-3"}, coverage.Lines{src: {41}})
	got = sectionmap.Compute("augment", in)
	if last := got.Tests[len(got.Tests)-1]; !reflect.DeepEqual(last.Sections, []string{"3"}) || !got.Ready() {
		t.Errorf("added test %+v, ready %v (%s)", last, got.Ready(), got.NotReady())
	}
}

// TestLicensingGrades: the map graded by the verifier: the reference
// (every F2P test passes), the empty patch (none does) and a partial
// solution (the license table and parser, not license_files).
func TestLicensingGrades(t *testing.T) {
	l := newLicensing(t)
	in := l.input(t)
	in.AddMutants(l.set, l.cov, l.owners)
	m := sectionmap.Compute("mutate", in)
	cfg := grade.Config{FailToPass: licensingTests, Sections: m.F2PSections(), Implementable: m.SectionIDs()}
	run := func(passing ...string) [2]int {
		var res []results.Result
		for _, tt := range licensingTests {
			st := results.Failed
			for _, p := range passing {
				if p == tt {
					st = results.Passed
				}
			}
			res = append(res, results.Result{Name: tt, Status: st})
		}
		exit := results.Exit{Code: 1}
		if len(passing) == len(licensingTests) {
			exit.Code = 0
		}
		g := grade.Score(cfg, res, exit, nil)
		return [2]int{g.SectionsCompleted, g.SectionsTotal}
	}
	for _, c := range []struct {
		name    string
		passing []string
		want    [2]int
	}{
		{"gold", licensingTests, [2]int{4, 5}},
		{"empty", nil, [2]int{0, 5}},
		// 1 and 2.1 have all their tests passing; 2 needs tField too.
		{"partial", []string{tCanon, tExpr, tSmoke}, [2]int{2, 5}},
	} {
		if got := run(c.passing...); got != c.want {
			t.Errorf("%s: sections %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSaveHistory: a map that grades otherwise than the one it replaces
// keeps that map's stage and reference figures; one that grades alike
// keeps the older history; a fresh one (a new build) starts anew.
func TestSaveHistory(t *testing.T) {
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.OpenCandidate(ws, "toy-tep-0001")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	secs := []mapping.TaskSection{{ID: "1"}, {ID: "2"}}
	rows := sectionmap.Compute("build", sectionmap.Input{Tests: []string{"a"}, Sections: secs,
		Rows: map[string]sectionmap.Rows{"a": {Named: map[string]int{"1": 1}}}})
	kills := sectionmap.Compute("mutate", sectionmap.Input{Tests: []string{"a"}, Sections: secs,
		Reverts: map[string]string{"r1": "1", "r2": "2"}, Judged: map[string]bool{"a": true}, Kills: map[string][]string{"a": {"r1", "r2"}}})
	for _, step := range []struct {
		m     *sectionmap.Map
		fresh bool
		want  *sectionmap.Previous
	}{
		{rows, true, nil},
		{kills, false, &sectionmap.Previous{Stage: "build", Reference: sectionmap.Figures{Completed: 1, Total: 2}}},
		{sectionmap.Compute("augment", sectionmap.Input{Tests: []string{"a"}, Sections: secs,
			Reverts: map[string]string{"r1": "1", "r2": "2"}, Judged: map[string]bool{"a": true}, Kills: map[string][]string{"a": {"r1", "r2"}}}),
			false, &sectionmap.Previous{Stage: "build", Reference: sectionmap.Figures{Completed: 1, Total: 2}}},
		{rows, true, nil},
	} {
		if err := sectionmap.Save(c, step.m, step.fresh); err != nil {
			t.Fatal(err)
		}
		got, err := sectionmap.Load(c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Previous, step.want) {
			t.Errorf("%s: previous %+v, want %+v", step.m.Stage, got.Previous, step.want)
		}
	}
	if s := kills.Summary(); s != "2 task sections, the reference solution completes 2/2 (1/2 under build's map)" {
		t.Errorf("summary %q", s)
	}
}

// TestComputeDiscriminates: a revert every judged test fails, and lines
// every covered test runs, tell no section apart (issue 31 §2: on grpc-go
// every section's revert failed the same tests); a row that names a test
// is the reviewer's reading and wins over coverage. Modelled on gRFC A58:
// 4.3 is the resolver handling every test runs through, 4.5 the weights,
// 4.6 per-call reports.
func TestComputeDiscriminates(t *testing.T) {
	in := sectionmap.Input{
		Tests:    []string{"blackout", "percall", "onekill", "unnamed", "alone"},
		Sections: []mapping.TaskSection{{ID: "4.3"}, {ID: "4.5"}, {ID: "4.6"}},
		Rows: map[string]sectionmap.Rows{
			"blackout": {Named: map[string]int{"4.5": 2}},
			"percall":  {Named: map[string]int{"4.6": 3}},
		},
		Reverts: map[string]string{"revert-4.3": "4.3", "revert-4.6": "4.6"},
		Judged:  map[string]bool{"blackout": true, "percall": true, "onekill": true, "unnamed": true},
		Kills: map[string][]string{"blackout": {"revert-4.3"}, "percall": {"revert-4.3", "revert-4.6"},
			"onekill": {"revert-4.3", "revert-4.6"}, "unnamed": {"revert-4.3"}},
		Covered: map[string]coverage.Lines{
			"blackout": {"b.go": {1, 7}}, "percall": {"b.go": {1}}, "onekill": {"b.go": {1}}, "unnamed": {"b.go": {1, 7}},
		},
		Owned: map[string]coverage.Lines{"4.3": {"b.go": {1}}, "4.5": {"b.go": {7}}},
	}
	got := sectionmap.Compute("mutate", in)
	want := []sectionmap.Test{
		{Test: "blackout", Sections: []string{"4.5"}, Evidence: []string{"row of block 2"}},
		{Test: "percall", Sections: []string{"4.6"}, Evidence: []string{"killed revert-4.6"}},
		{Test: "onekill", Sections: []string{"4.6"}, Evidence: []string{"killed revert-4.6"}},
		{Test: "unnamed", Sections: []string{"4.5"}, Evidence: []string{"reached 4.5's lines (1 line)"}},
		{Test: "alone", Sections: []string{}, Evidence: []string{}},
	}
	if !reflect.DeepEqual(got.Tests, want) {
		t.Fatalf("tests:\n got %+v\nwant %+v", got.Tests, want)
	}
	if !reflect.DeepEqual(got.Dependencies, []string{"revert-4.3"}) || !reflect.DeepEqual(got.Untested, []string{"4.3"}) {
		t.Fatalf("dependencies %v, untested %v", got.Dependencies, got.Untested)
	}
	// A test that nothing else maps keeps the kills every test shares: it
	// is all there is to say of it.
	in.Covered, in.Owned = nil, nil
	got = sectionmap.Compute("mutate", in)
	if u := got.Tests[3]; !reflect.DeepEqual(u.Sections, []string{"4.3"}) || u.Evidence[0] != "killed revert-4.3 (every test fails it)" {
		t.Fatalf("unnamed without coverage: %+v", u)
	}
}

// TestTestPlanRowsNameNothing: a test that only the test plan's block
// names (no task section) is as unnamed as one no row names: its file's
// PR File Summary row gives its sections. tinykv's TestSetClearsExpiry
// was mapped to nothing before this.
func TestTestPlanRowsNameNothing(t *testing.T) {
	secs := []mapping.TaskSection{{ID: "3.1"}, {ID: "3.2"}}
	rows := map[string]sectionmap.Rows{
		"plan-only": {Named: map[string]int{"5": 7}, File: []string{"3.1"}, FilePath: "store/store_test.go"},
		"named":     {Named: map[string]int{"3.2": 2, "5": 7}, File: []string{"3.1"}, FilePath: "store/store_test.go"},
	}
	m := sectionmap.Compute("build", sectionmap.Input{Tests: []string{"named", "plan-only"}, Sections: secs, Rows: rows})
	want := []sectionmap.Test{
		{Test: "named", Sections: []string{"3.2"}, Evidence: []string{"row of block 2"}},
		{Test: "plan-only", Sections: []string{"3.1"}, Evidence: []string{"file row of store/store_test.go"}},
	}
	if !reflect.DeepEqual(m.Tests, want) || len(m.Broad) != 0 {
		t.Fatalf("tests %+v broad %v", m.Tests, m.Broad)
	}
}
