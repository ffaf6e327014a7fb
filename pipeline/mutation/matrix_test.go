package mutation

import (
	"bytes"
	"reflect"
	"testing"
)

func TestMatrix(t *testing.T) {
	m := NewMatrix([]string{"b", "a", "c", "a"})
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(m.Tests, want) {
		t.Fatalf("Tests = %v, want %v", m.Tests, want)
	}
	m.Add(&Mutant{ID: "m1", Method: SyntaxOperator, Section: "3.1"}, map[string]Outcome{"a": OutcomeKilled, "b": OutcomePassed})
	m.Add(&Mutant{ID: "m2", Method: MappedRevert, Section: "3.2"}, map[string]Outcome{"a": OutcomePassed, "b": OutcomePassed, "c": OutcomePassed})
	m.Add(&Mutant{ID: "m3", Method: MappedRevert, Section: "3.2"}, map[string]Outcome{"b": OutcomeKilled, "c": OutcomeKilled})
	m.Add(&Mutant{ID: "m4", Method: RequirementMismatch, Section: "3.2"}, map[string]Outcome{"a": OutcomePassed})
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	if got := m.Rows[0].Outcomes; !reflect.DeepEqual(got, []Outcome{OutcomeKilled, OutcomePassed, OutcomeUnreached}) {
		t.Errorf("m1 outcomes = %v", got)
	}
	for _, c := range []struct {
		name string
		got  []string
		want []string
	}{
		{"KilledBy(m1)", m.KilledBy("m1"), []string{"a"}},
		{"KilledBy(m2)", m.KilledBy("m2"), nil},
		{"KilledBy(m3)", m.KilledBy("m3"), []string{"b", "c"}},
		{"KilledBy(none)", m.KilledBy("none"), nil},
		{"Kills(a)", m.Kills("a"), []string{"m1"}},
		{"Kills(c)", m.Kills("c"), []string{"m3"}},
		{"Kills(x)", m.Kills("x"), nil},
		// EP-level mutants first: augmentation targets them first.
		{"Survivors", m.Survivors(), []string{"m4", "m2"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if o, ok := m.Outcome("m1", "c"); !ok || o != OutcomeUnreached {
		t.Errorf("Outcome(m1, c) = %q, %v", o, ok)
	}
	if _, ok := m.Outcome("m1", "zz"); ok {
		t.Errorf("Outcome(m1, zz) found")
	}
}

func TestMatrixCheck(t *testing.T) {
	for _, c := range []struct {
		name string
		m    Matrix
		want string
	}{
		{"unsorted", Matrix{Tests: []string{"b", "a"}}, "kill matrix: tests are not sorted"},
		{"short row", Matrix{Tests: []string{"a"}, Rows: []MatrixRow{{Mutant: "m"}}}, "kill matrix: mutant m has 0 outcomes for 1 tests"},
		{"repeat", Matrix{Tests: []string{}, Rows: []MatrixRow{{Mutant: "m"}, {Mutant: "m"}}}, "kill matrix: mutant m has two rows"},
		{"outcome", Matrix{Tests: []string{"a"}, Rows: []MatrixRow{{Mutant: "m", Outcomes: []Outcome{"maybe"}}}}, `kill matrix: mutant m: unknown outcome "maybe"`},
	} {
		err := c.m.Check()
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: Check() = %v, want %q", c.name, err, c.want)
		}
	}
}

func TestReport(t *testing.T) {
	ms := []*Mutant{
		{ID: "a", Method: SyntaxOperator, Status: Killed},
		{ID: "b", Method: SyntaxOperator, Status: Survived},
		{ID: "c", Method: SyntaxOperator, Status: Dropped, Drop: DropCompile},
		{ID: "d", Method: SyntaxOperator, Status: Dropped, Drop: DropP2P},
		{ID: "e", Method: SyntaxOperator, Status: Dropped, Drop: DropDuplicate},
		{ID: "u", Method: SyntaxOperator, Status: Uncovered},
		{ID: "f", Method: MappedRevert, Status: Killed},
		{ID: "g", Method: SemanticMutation, Section: "3.3", Status: Survived, Judge: "drops the TTL"},
		{ID: "h", Method: SemanticMutation, Status: Dropped, Drop: DropJudge, Reason: "the judge rejected it: only a comment"},
		{ID: "i", Method: SectionRevert, Section: "3.1", Status: Killed, Judge: "removes SETEX"},
	}
	rep := NewReport("t1", []Method{MappedRevert, SyntaxOperator, SemanticMutation}, ms)
	want := []Row{
		{Method: SectionRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		{Method: SemanticMutation, Generated: 2, Valid: 1, SurvivedP2P: 1, Score: 0, Scored: true},
		{Method: MappedRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		// The uncovered mutant is valid but not a survivor: 1 of 2, not 1 of 3.
		{Method: SyntaxOperator, Generated: 6, Valid: 4, Uncovered: 1, SurvivedP2P: 2, Killed: 1, Score: 0.5, Scored: true},
	}
	if !reflect.DeepEqual(rep.Methods, want) {
		t.Fatalf("rows = %+v\nwant %+v", rep.Methods, want)
	}
	wantTotal := Row{Method: "total", Generated: 10, Valid: 7, Uncovered: 1, SurvivedP2P: 5, Killed: 3, Score: 3.0 / 5, Scored: true}
	if rep.Total != wantTotal {
		t.Errorf("total = %+v, want %+v", rep.Total, wantTotal)
	}
	wantEP := Row{Method: "ep-level", Generated: 3, Valid: 2, SurvivedP2P: 2, Killed: 1, Score: 0.5, Scored: true}
	if rep.EPLevel != wantEP {
		t.Errorf("EP level = %+v, want %+v", rep.EPLevel, wantEP)
	}
	if want := map[Drop]int{DropCompile: 1, DropP2P: 1, DropDuplicate: 1, DropJudge: 1}; !reflect.DeepEqual(rep.Drops, want) {
		t.Errorf("drops = %v", rep.Drops)
	}
	wantVetted := []Vetted{{Mutant: "g", Method: SemanticMutation, Section: "3.3", Judge: "drops the TTL"}, {Mutant: "i", Method: SectionRevert, Section: "3.1", Judge: "removes SETEX"}}
	if !reflect.DeepEqual(rep.Vetted, wantVetted) {
		t.Errorf("vetted = %+v", rep.Vetted)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rep.Methods, rep.EPLevel, rep.Total); err != nil {
		t.Fatal(err)
	}
	wantTable := `Method                 Generated  Compiled/valid  Uncovered  Survived P2P  Killed by F2P  Mutation score
Section Revert                 1               1          0             1              1          100.0%
Semantic Mutation              2               1          0             1              0            0.0%
Mapped-section revert          1               1          0             1              1          100.0%
Syntax operators               6               4          1             2              1           50.0%
EP-level methods               3               2          0             2              1           50.0%
Total                         10               7          1             5              3           60.0%
`
	if b.String() != wantTable {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), wantTable)
	}

	// Without an EP-level method the table has no EP-level row.
	rep2 := NewReport("t2", []Method{SyntaxOperator}, []*Mutant{{ID: "x", Method: SyntaxOperator, Status: Survived}})
	b.Reset()
	WriteTable(&b, rep2.Methods, rep2.EPLevel, rep2.Total)
	if want := `Method            Generated  Compiled/valid  Uncovered  Survived P2P  Killed by F2P  Mutation score
Syntax operators          1               1          0             1              0            0.0%
Total                     1               1          0             1              0            0.0%
`; b.String() != want {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), want)
	}
	if rep2.EPLevel.Scored || rep2.EPLevel.Generated != 0 {
		t.Errorf("EP level without EP methods = %+v", rep2.EPLevel)
	}
	rep.Runs = Runs{Jobs: 5, Full: 50, Executed: 20, Saved: 30, Selective: true}
	s := Summarize([]*Report{rep, rep2})
	wantRows := []Row{
		{Method: SectionRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		{Method: SemanticMutation, Generated: 2, Valid: 1, SurvivedP2P: 1, Score: 0, Scored: true},
		{Method: MappedRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		{Method: SyntaxOperator, Generated: 7, Valid: 5, Uncovered: 1, SurvivedP2P: 3, Killed: 1, Score: 1.0 / 3, Scored: true},
	}
	if !reflect.DeepEqual(s.Methods, wantRows) {
		t.Errorf("summary rows = %+v", s.Methods)
	}
	if s.EPLevel != wantEP {
		t.Errorf("summary EP level = %+v", s.EPLevel)
	}
	if s.Tasks != 2 || s.ScoredTasks != 2 || s.MeanTaskScore != (3.0/5+0)/2 || s.Runs.Saved != 30 || !s.Runs.Selective {
		t.Errorf("summary = %+v", s)
	}
}

func TestSlugAndID(t *testing.T) {
	for in, want := range map[string]string{"3.1": "3.1", "Negate Condition": "negate-condition", "  ..x/y": "x-y", "": ""} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	for id, ok := range map[string]bool{"revert-3.1": true, "op-negate-condition-004": true, "": false, ".x": false, "a/b": false, "A": false, "-x": false} {
		if err := CheckID(id); (err == nil) != ok {
			t.Errorf("CheckID(%q) = %v", id, err)
		}
	}
}
