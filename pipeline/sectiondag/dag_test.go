package sectiondag

import (
	"reflect"
	"testing"
)

// TestCompute: each kind of evidence admits its edge, with its detail; a
// name two sections define is no evidence; a test the map gives to the
// reverted section too is none; a cycle loses its weakest edge.
func TestCompute(t *testing.T) {
	file := Scope{File: "lic/expr.py"}
	expr := Scope{File: "lic/expr.py", Class: "Expr"}
	in := Input{
		Sections: []string{"1", "2", "3", "4", "5"},
		Owned: map[string][]Scope{
			"1": {file, expr},
			"2": {{File: "lic/expr.py", Class: "Expr", Function: "normalize"}},
			"3": {{File: "meta.py", Function: "load"}},
			"4": {{File: "meta.py", Class: "Strict"}},
			"5": {{File: "cli.py", Function: "main"}},
		},
		Named: map[string][]Scope{"5": {{File: "meta.py", Function: "load"}}},
		New:   map[Scope]bool{file: true, expr: true, {File: "meta.py", Class: "Strict"}: true},
		Defines: map[string][]Def{
			"1": {{Name: "Expr", Scope: expr, Class: true, Family: "Python"}, {Name: "helper", Scope: file, Family: "Python"}},
			"3": {{Name: "helper", Scope: Scope{File: "meta.py", Function: "helper"}, Family: "Python"}, {Name: "Loader", Scope: Scope{File: "meta.py", Class: "Loader"}, Class: true, Family: "Python"}},
			"4": {{Name: "Strict", Scope: Scope{File: "meta.py", Class: "Strict"}, Class: true, Family: "Python"},
				{Name: "check", Scope: Scope{File: "meta.py", Class: "Strict", Function: "check"}, Family: "Python"}},
		},
		Uses: map[string][]Use{
			"3": {{Name: "Expr", File: "meta.py", Line: 10, Family: "Python"}, {Name: "helper", File: "meta.py", Line: 11, Family: "Python"}},
			"5": {{Name: "Strict", File: "cli.py", Line: 4, Family: "Python"}, {Name: "Strict", File: "cli.py", Line: 9, Family: "Python"}, {Name: "Expr", File: "cli.go", Line: 2, Family: "Go"}},
			// check is a method of Strict: used in a file that does not
			// name Strict, it is some other check.
			"2": {{Name: "check", File: "lic/expr.py", Line: 3, Family: "Python"}},
		},
		Names:   map[string]map[string]bool{"cli.py": {"Strict": true, "check": true}, "lic/expr.py": {"check": true}},
		Extends: map[string][]Use{"4": {{Name: "Loader", File: "meta.py", Line: 30, Family: "Python"}}},
		Tests:   map[string][]string{"1": {"t1"}, "2": {"t2"}, "3": {"t3"}, "4": {"t4"}, "5": {"t5"}},
		Kills:   map[string][]string{"5": {"t5", "t4"}, "2": {"t1", "t2"}},
	}
	g := Compute(in)
	want := []Edge{
		{From: "1", To: "2", Evidence: []Evidence{{StructuralReuse, "2 changes lic/expr.py:Expr.normalize, in lic/expr.py:Expr, which 1 introduces"}}},
		{From: "1", To: "3", Evidence: []Evidence{{ProducerConsumer, "3 uses Expr (meta.py:10), which 1 defines in lic/expr.py:Expr"}}},
		{From: "3", To: "4", Evidence: []Evidence{{Composition, "4 declares a type that extends or implements Loader (meta.py:30), which 3 declares in meta.py:Loader"}}},
		{From: "4", To: "5", Evidence: []Evidence{{ProducerConsumer, "5 uses Strict (cli.py:4, 2 uses), which 4 defines in meta.py:Strict"}}},
	}
	if !reflect.DeepEqual(g.Edges, want) {
		t.Errorf("edges\n%+v\nwant\n%+v", g.Edges, want)
	}
	// 2's revert fails t1, 1's test: 2 → 1 closes the cycle 1 → 2 → 1
	// with test evidence only, weaker than structural reuse. 5's revert
	// fails t4 (4's): 5 → 4 closes 4 → 5 → 4 and loses to
	// producer–consumer evidence.
	wantDropped := []Dropped{
		{Edge{From: "2", To: "1", Evidence: []Evidence{{TestEvidence, "reverting 2 fails t1, a test of 1"}}}, "breaks the cycle 1 → 2 → 1: its evidence is the weakest of the cycle's edges"},
		{Edge{From: "5", To: "4", Evidence: []Evidence{{TestEvidence, "reverting 5 fails t4, a test of 4"}}}, "breaks the cycle 4 → 5 → 4: its evidence is the weakest of the cycle's edges"},
	}
	if !reflect.DeepEqual(g.Dropped, wantDropped) {
		t.Errorf("dropped\n%+v\nwant\n%+v", g.Dropped, wantDropped)
	}
	wantLayers := [][]string{{"1"}, {"2", "3"}, {"4"}, {"5"}}
	if !reflect.DeepEqual(g.Layers, wantLayers) || g.Depth != 4 || g.Width != 2 {
		t.Errorf("layers %v depth %d width %d", g.Layers, g.Depth, g.Width)
	}
	if got := g.Ancestors("5"); !reflect.DeepEqual(got, []string{"1", "3", "4"}) {
		t.Errorf("ancestors of 5: %v", got)
	}
}
