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
		{"Survivors", m.Survivors(), []string{"m2"}},
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
		{ID: "f", Method: MappedRevert, Status: Killed},
	}
	rep := NewReport("t1", []Method{MappedRevert, SyntaxOperator, SemanticMutation}, ms)
	want := []Row{
		{Method: SemanticMutation},
		{Method: MappedRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		{Method: SyntaxOperator, Generated: 5, Valid: 3, SurvivedP2P: 2, Killed: 1, Score: 0.5, Scored: true},
	}
	if !reflect.DeepEqual(rep.Methods, want) {
		t.Fatalf("rows = %+v\nwant %+v", rep.Methods, want)
	}
	wantTotal := Row{Method: "total", Generated: 6, Valid: 4, SurvivedP2P: 3, Killed: 2, Score: 2.0 / 3, Scored: true}
	if rep.Total != wantTotal {
		t.Errorf("total = %+v, want %+v", rep.Total, wantTotal)
	}
	if want := map[Drop]int{DropCompile: 1, DropP2P: 1, DropDuplicate: 1}; !reflect.DeepEqual(rep.Drops, want) {
		t.Errorf("drops = %v", rep.Drops)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rep.Methods, rep.Total); err != nil {
		t.Fatal(err)
	}
	wantTable := `Method                 Generated  Compiled/valid  Survived P2P  Killed by F2P  Mutation score
Semantic Mutation              0               0             0              0               -
Mapped-section revert          1               1             1              1          100.0%
Syntax operators               5               3             2              1           50.0%
Total                          6               4             3              2           66.7%
`
	if b.String() != wantTable {
		t.Errorf("table:\n%s\nwant:\n%s", b.String(), wantTable)
	}

	rep2 := NewReport("t2", []Method{SyntaxOperator}, []*Mutant{{ID: "x", Method: SyntaxOperator, Status: Survived}})
	rep.Runs = Runs{Jobs: 5, Full: 50, Executed: 20, Saved: 30, Selective: true}
	s := Summarize([]*Report{rep, rep2})
	wantRows := []Row{
		{Method: SemanticMutation},
		{Method: MappedRevert, Generated: 1, Valid: 1, SurvivedP2P: 1, Killed: 1, Score: 1, Scored: true},
		{Method: SyntaxOperator, Generated: 6, Valid: 4, SurvivedP2P: 3, Killed: 1, Score: 1.0 / 3, Scored: true},
	}
	if !reflect.DeepEqual(s.Methods, wantRows) {
		t.Errorf("summary rows = %+v", s.Methods)
	}
	if s.Tasks != 2 || s.ScoredTasks != 2 || s.MeanTaskScore != (2.0/3+0)/2 || s.Runs.Saved != 30 || !s.Runs.Selective {
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
