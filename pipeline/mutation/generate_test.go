package mutation

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// Syntax operators mutate source files only: the same Python code as a
// build file (noxfile.py), under docs/ (a Sphinx conf.py) or as a test
// gives no mutant.
func TestOperatorCandidatesSourceOnly(t *testing.T) {
	code := []byte("def f(x):\n    if x > 1:\n        return 2\n    return 0\n")
	added := []int{1, 2, 3, 4}
	var sol Solution
	for _, p := range []string{"noxfile.py", "docs/conf.py", "tests/test_f.py", "pkg/f.py"} {
		sol.Files = append(sol.Files, File{Path: p, Language: "Python", Category: lang.Classify(p), After: code, Added: added})
	}
	if sol.Files[1].Category != lang.Source {
		t.Fatalf("docs/conf.py is %s; the test needs a source file under docs/", sol.Files[1].Category)
	}
	cands, notes, err := OperatorCandidates(context.Background(), &sol, NewOwners(nil, nil), Registry)
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	files := map[string]int{}
	for _, c := range cands {
		for p := range c.Edit {
			files[p]++
		}
		if c.File != "pkg/f.py" || c.Function != 1 {
			t.Errorf("%s is at %s, function line %d; want pkg/f.py, 1", c.Mutant.ID, c.File, c.Function)
		}
	}
	if want := map[string]int{"pkg/f.py": len(cands)}; len(cands) == 0 || !reflect.DeepEqual(files, want) {
		t.Errorf("mutated files %v", files)
	}
}

// The cap samples across files and functions rather than taking the
// first sites in path order: 3 of 9 sites of one operator, 6 of them in
// one function of a.go, give one site of each file, then a second
// function of a.go.
func TestSpreadPerOperator(t *testing.T) {
	var cands []Candidate
	add := func(op, file string, fn int) {
		id := fmt.Sprintf("%s-%d", op, len(cands)+1)
		cands = append(cands, Candidate{Mutant: &Mutant{ID: id, Operator: op}, File: file, Function: fn})
	}
	for i := 0; i < 6; i++ {
		add("neg", "a.go", 10)
	}
	add("neg", "a.go", 40)
	add("neg", "b.go", 5)
	add("neg", "c.go", 0)
	add("int", "a.go", 10)
	add("int", "a.go", 10)
	ids := func(cs []Candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Mutant.ID)
		}
		return out
	}
	if got, want := ids(SpreadPerOperator(cands, 3)), []string{"neg-1", "neg-8", "neg-9", "int-10", "int-11"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cap 3: %v, want %v", got, want)
	}
	// a.go's two functions alternate: 10, then 40, then 10 again.
	if got, want := ids(SpreadPerOperator(cands, 5)), []string{"neg-1", "neg-2", "neg-7", "neg-8", "neg-9", "int-10", "int-11"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cap 5: %v, want %v", got, want)
	}
	if got := SpreadPerOperator(cands, 0); len(got) != len(cands) {
		t.Errorf("no cap kept %d of %d", len(got), len(cands))
	}
}
