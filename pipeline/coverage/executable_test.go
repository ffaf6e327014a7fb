package coverage

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestExecutable(t *testing.T) {
	cases := []struct {
		lang      string
		src       string
		lines     []int
		columns   []int
		wantError string
	}{
		{lang: "Go", src: `package p

import "fmt"

// X is a constant: no code.
const X = 1

var y = f() // package level: not instrumented

type T struct{ a int }

func f(a int) (int, error) {
	// a comment
	var z int
	const k = 2
	if a < 3 && !ok {
		g(a)
	} else if a > 9 {
		return 0, fmt.Errorf("x")
	}
	x := 5; x++
	switch {
	case a >= 2:
		x--
	}
	for i := 0; i <= 10; i++ { h() }
	return x - 1,
		nil
}
`, lines: []int{14, 16, 17, 18, 19, 21, 22, 24, 26, 27}, columns: []int{2, 2, 3, 9, 3, 2, 2, 3, 2, 2}},
		{lang: "Rust", src: `use std::fmt;

/// Doc.
const K: u32 = 1;

impl Op {
    fn upper(&self, v: u64) -> u64 {
        // a comment
        let x = v + 1;
        match self {
            Op::Tilde => x * 2,
            Op::Caret if v > 0 => {
                helper(v);
                x
            }
            _ => 0,
        }
    }
}

fn f(s: &str) -> Result<u64, E> {
    if s.is_empty() {
        return Err(E::Empty);
    }
    s.parse().map_err(|_| E::Bad)
}
`, lines: []int{9, 10, 11, 13, 14, 16, 22, 23, 25}, columns: []int{9, 9, 26, 17, 17, 18, 5, 9, 5}},
		{lang: "Python", src: `"""Doc."""
import os
from a import b
X = 1


class A:
    """Doc."""
    y = 2

    @staticmethod
    def f(a):
        """doc"""
        global Z
        if a < 3 and not ok:
            g(a)
        elif a:
            pass
        else:
            return 0
        try:
            x = [1,
                 2]
        except E as e:
            raise
        return a - 1
`, lines: []int{4, 9, 15, 16, 17, 18, 20, 22, 24, 25, 26}, columns: []int{1, 5, 9, 13, 9, 13, 13, 13, 9, 13, 9}},
		{lang: "Java", src: `package p;
import java.util.List;
public class X {
    private int n = 3;
    public X() { super(); }
    public boolean f(int a) {
        int y;
        int z = a + 1;
        if (a < 3 && !ok) {
            g(a);
        } else {
            return false;
        }
        Runnable r = () -> { h(); };
        for (int i = 0; i <= 10; i++) h();
        try {
            throw new E();
        } finally {
            y = 1;
        }
    }
}
`, lines: []int{5, 8, 9, 10, 12, 14, 15, 17, 19}, columns: []int{18, 9, 9, 13, 13, 9, 9, 13, 13}},
		{lang: "Zig", src: "pub fn main() void {}\n", wantError: "executable lines: no grammar for Zig"},
	}
	for _, c := range cases {
		lines, cols, err := Executable(context.Background(), c.lang, []byte(c.src))
		if c.wantError != "" {
			if err == nil || err.Error() != c.wantError {
				t.Errorf("%s: error %v, want %q", c.lang, err, c.wantError)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if !reflect.DeepEqual(lines, c.lines) || !reflect.DeepEqual(cols, c.columns) {
			t.Errorf("%s: lines %v columns %v\nwant lines %v columns %v", c.lang, lines, cols, c.lines, c.columns)
		}
	}
}

func TestExecutableHostile(t *testing.T) {
	// Deep nesting must not recurse; broken syntax must not panic.
	deep := "package p\nfunc f() {\n" + strings.Repeat("{", 20000) + strings.Repeat("}", 20000) + "\n}\n"
	for _, src := range []string{deep, "func (", "\x00\xff", ""} {
		if _, _, err := Executable(context.Background(), "Go", []byte(src)); err != nil {
			t.Errorf("Executable(%.20q): %v", src, err)
		}
	}
	if _, _, err := Executable(context.Background(), "Go", make([]byte, maxSource+1)); err == nil {
		t.Errorf("an oversized source gave no error")
	}
}

func TestNewTarget(t *testing.T) {
	src := "package p\n\nfunc f() int {\n\tx := 1\n\n\treturn x\n}\n"
	tg := NewTarget(context.Background(), []SourceFile{
		{Path: "b.go", Language: "Go", Content: []byte(src), Added: []int{6, 5, 3, 6}},
		{Path: "a.go", Language: "Go", Content: []byte(src), Added: []int{1, 2, 3, 4, 5, 6, 7}},
		{Path: "c.zig", Language: "Zig", Content: []byte("fn f() void {}\n"), Added: []int{1}},
	})
	want := []FileTarget{
		{Path: "a.go", Language: "Go", Added: []int{1, 2, 3, 4, 5, 6, 7}, Executable: []int{4, 6}, Columns: []int{2, 2}},
		{Path: "b.go", Language: "Go", Added: []int{3, 5, 6}, Executable: []int{6}, Columns: []int{2}},
	}
	if !reflect.DeepEqual(tg.Files, want) {
		t.Errorf("files %+v\nwant %+v", tg.Files, want)
	}
	if want := []string{"c.zig: no statement rules for Zig"}; !reflect.DeepEqual(tg.Skipped, want) {
		t.Errorf("skipped %v", tg.Skipped)
	}
	if got := tg.Lines(); !reflect.DeepEqual(got, Lines{"a.go": {4, 6}, "b.go": {6}}) {
		t.Errorf("Lines() = %v", got)
	}
	if tg.Executable() != 3 {
		t.Errorf("Executable() = %d", tg.Executable())
	}
}

func TestLinesAndSpans(t *testing.T) {
	a := Lines{"x": {3, 1, 2, 2}, "y": {}, "z": {0, -1}}.Normalize()
	if !reflect.DeepEqual(a, Lines{"x": {1, 2, 3}}) {
		t.Fatalf("Normalize = %v", a)
	}
	b := Lines{"x": {3, 4}, "w": {1}}
	if got := a.Union(b); !reflect.DeepEqual(got, Lines{"x": {1, 2, 3, 4}, "w": {1}}) {
		t.Errorf("Union = %v", got)
	}
	if got := a.Intersect(b); !reflect.DeepEqual(got, Lines{"x": {3}}) {
		t.Errorf("Intersect = %v", got)
	}
	if got := a.Minus(b); !reflect.DeepEqual(got, Lines{"x": {1, 2}}) {
		t.Errorf("Minus = %v", got)
	}
	if !a.Intersects(b) || a.Intersects(Lines{"w": {1}}) {
		t.Errorf("Intersects wrong")
	}
	tg := &Target{Files: []FileTarget{
		{Path: "a", Executable: []int{1, 2, 5, 9, 10}},
		{Path: "b", Executable: []int{4, 7}},
	}}
	spans := UncoveredSpans(tg, Lines{"a": {5}, "b": {5}})
	want := []Span{{"a", 1, 2, 2}, {"a", 9, 10, 2}, {"b", 4, 7, 2}}
	if !reflect.DeepEqual(spans, want) {
		t.Errorf("spans %v, want %v", spans, want)
	}
	s := NewSuite("F2P", []string{"t2", "t1"}, tg.Lines(), Lines{"a": {1, 2, 99}, "c": {1}})
	if s.Covered != 2 || s.Executable != 7 || s.Percent != 100*2.0/7 || !reflect.DeepEqual(s.Tests, []string{"t1", "t2"}) || !reflect.DeepEqual(s.Lines, Lines{"a": {1, 2}}) {
		t.Errorf("suite %+v", s)
	}
}

// A mutant's lines are unexecuted only when coverage can tell: all of them
// executable target lines, none run at setup, none covered by any test.
func TestUnexecuted(t *testing.T) {
	r := &Result{
		Target: Target{Files: []FileTarget{{Path: "a.go", Executable: []int{1, 2, 3, 4, 5}}}},
		Suites: []Suite{{Name: Union, Lines: Lines{"a.go": {1, 2}}}},
		Setup:  Lines{"a.go": {5}},
	}
	for _, c := range []struct {
		lines Lines
		want  bool
	}{
		{Lines{"a.go": {3, 4}}, true},
		{Lines{"a.go": {3}}, true},
		{Lines{"a.go": {2, 3}}, false}, // line 2 runs
		{Lines{"a.go": {4, 5}}, false}, // line 5 runs at setup
		{Lines{"a.go": {3, 6}}, false}, // line 6 is not an executable target line
		{Lines{"b.go": {3}}, false},    // neither is b.go's
		{Lines{}, false},               // no lines: nothing to tell
	} {
		if got := r.Unexecuted(c.lines); got != c.want {
			t.Errorf("Unexecuted(%v) = %v, want %v", c.lines, got, c.want)
		}
	}
	if (&Result{Target: r.Target}).Unexecuted(Lines{"a.go": {3}}) {
		t.Errorf("a result without the union suite cannot tell")
	}
}

// TestInnerLines: a multi-line statement's later lines and an else line
// are judged by the line their statement starts on (issue 32: a mutant
// there need not run every test); a line in no statement, or in one that
// starts on a line the solution did not add, has none.
func TestInnerLines(t *testing.T) {
	py := "def f(x):\n" + // 1
		"    if x:\n" + // 2
		"        return (\n" + // 3
		"            x + 1\n" + // 4
		"        )\n" + // 5
		"    else:\n" + // 6
		"        y = [\n" + // 7
		"            x,\n" + // 8
		"        ]\n" + // 9
		"    return y\n" // 10
	goSrc := "package p\n" + // 1
		"\n" + // 2
		"func f(x int) int {\n" + // 3
		"\tif x > 0 {\n" + // 4
		"\t\treturn g(x,\n" + // 5
		"\t\t\t1)\n" + // 6
		"\t} else {\n" + // 7
		"\t\treturn 0\n" + // 8
		"\t}\n" + // 9
		"}\n" // 10
	tg := NewTarget(context.Background(), []SourceFile{
		{Path: "m.py", Language: "Python", Content: []byte(py), Added: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		// The if on line 4 is not added: line 7 has no target statement.
		{Path: "p.go", Language: "Go", Content: []byte(goSrc), Added: []int{3, 5, 6, 7, 8}},
	})
	want := map[string][][2]int{
		"m.py": {{4, 3}, {5, 3}, {6, 2}, {8, 7}, {9, 7}},
		"p.go": {{6, 5}},
	}
	for _, f := range tg.Files {
		if !reflect.DeepEqual(f.Inner, want[f.Path]) {
			t.Errorf("%s: inner %v, want %v (executable %v)", f.Path, f.Inner, want[f.Path], f.Executable)
		}
	}

	res := &Result{Target: *tg, PerTest: true, Tests: map[string]Lines{
		"t1": {"m.py": {2, 3}},
		"t2": {"m.py": {2, 7, 10}},
		"t3": {"p.go": {8}},
	}}
	res.Suites = []Suite{NewSuite(Union, []string{"t1", "t2", "t3"}, tg.Lines(), Lines{"m.py": {2, 3, 7, 10}, "p.go": {8}})}
	for _, c := range []struct {
		lines      Lines
		tests      []string
		ok, unexec bool
	}{
		{Lines{"m.py": {3, 4, 5}}, []string{"t1"}, true, false},
		{Lines{"m.py": {8}}, []string{"t2"}, true, false},
		{Lines{"m.py": {6}}, []string{"t1", "t2"}, true, false},
		// The def line is a declaration: no coverage can tell.
		{Lines{"m.py": {1}}, nil, false, false},
		{Lines{"p.go": {5, 6}}, nil, true, true},
		{Lines{"p.go": {7}}, nil, false, false},
	} {
		got, ok := res.Reaching(c.lines)
		if ok != c.ok || !reflect.DeepEqual(got, c.tests) {
			t.Errorf("Reaching(%v) = %v %v, want %v %v", c.lines, got, ok, c.tests, c.ok)
		}
		if u := res.Unexecuted(c.lines); u != c.unexec {
			t.Errorf("Unexecuted(%v) = %v", c.lines, u)
		}
	}
}
