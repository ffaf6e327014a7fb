package mutation

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// mutants applies one operator to src (every line added unless added is
// given) and returns the mutated sources in site order.
func mutants(t *testing.T, op *Operator, lang, src string, added []int) []string {
	t.Helper()
	if added == nil {
		for i := 1; i <= strings.Count(src, "\n")+1; i++ {
			added = append(added, i)
		}
	}
	sites, err := OperatorSites(context.Background(), []*Operator{op}, "f", lang, []byte(src), added)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, s := range sites[op.Name] {
		out = append(out, string(s.Apply([]byte(src))))
	}
	return out
}

func TestOperators(t *testing.T) {
	cases := []struct {
		name  string
		op    *Operator
		lang  string
		src   string
		added []int
		want  []string
	}{
		// negate-condition
		{"negate go", NegateCondition, "Go",
			"package p\nfunc f(a int) {\n\tif a < 3 {\n\t} else if !ok {\n\t}\n\tfor a > 0 {\n\t}\n\tfor i := 0; i < a; i++ {\n\t}\n\tif x := g(); x {\n\t}\n}\n", nil,
			[]string{
				"package p\nfunc f(a int) {\n\tif !(a < 3) {\n\t} else if !ok {\n\t}\n\tfor a > 0 {\n\t}\n\tfor i := 0; i < a; i++ {\n\t}\n\tif x := g(); x {\n\t}\n}\n",
				"package p\nfunc f(a int) {\n\tif a < 3 {\n\t} else if ok {\n\t}\n\tfor a > 0 {\n\t}\n\tfor i := 0; i < a; i++ {\n\t}\n\tif x := g(); x {\n\t}\n}\n",
				"package p\nfunc f(a int) {\n\tif a < 3 {\n\t} else if !ok {\n\t}\n\tfor !(a > 0) {\n\t}\n\tfor i := 0; i < a; i++ {\n\t}\n\tif x := g(); x {\n\t}\n}\n",
				"package p\nfunc f(a int) {\n\tif a < 3 {\n\t} else if !ok {\n\t}\n\tfor a > 0 {\n\t}\n\tfor i := 0; !(i < a); i++ {\n\t}\n\tif x := g(); x {\n\t}\n}\n",
				"package p\nfunc f(a int) {\n\tif a < 3 {\n\t} else if !ok {\n\t}\n\tfor a > 0 {\n\t}\n\tfor i := 0; i < a; i++ {\n\t}\n\tif x := g(); !x {\n\t}\n}\n",
			}},
		{"negate go only added lines", NegateCondition, "Go",
			"package p\nfunc f(a int) {\n\tif a < 3 {\n\t}\n\tif b {\n\t}\n}\n", []int{5, 6},
			[]string{"package p\nfunc f(a int) {\n\tif a < 3 {\n\t}\n\tif !b {\n\t}\n}\n"}},
		{"negate python", NegateCondition, "Python",
			"if a and b:\n    pass\nelif not c:\n    pass\nwhile x.ready():\n    pass\n", nil,
			[]string{
				"if not (a and b):\n    pass\nelif not c:\n    pass\nwhile x.ready():\n    pass\n",
				"if a and b:\n    pass\nelif c:\n    pass\nwhile x.ready():\n    pass\n",
				"if a and b:\n    pass\nelif not c:\n    pass\nwhile not x.ready():\n    pass\n",
			}},
		{"negate java", NegateCondition, "Java",
			"class A { void f() { if (a < b) g(); while (!done) h(); } }\n", nil,
			[]string{
				"class A { void f() { if (!(a < b)) g(); while (!done) h(); } }\n",
				"class A { void f() { if (a < b) g(); while (done) h(); } }\n",
			}},
		{"negate rust", NegateCondition, "Rust",
			"fn f(a: u32) {\n    if a < 3 {\n    } else if !v.ok {\n    }\n    while s.more() {\n    }\n    if let Some(x) = g() {\n    }\n}\n", nil,
			[]string{
				"fn f(a: u32) {\n    if !(a < 3) {\n    } else if !v.ok {\n    }\n    while s.more() {\n    }\n    if let Some(x) = g() {\n    }\n}\n",
				"fn f(a: u32) {\n    if a < 3 {\n    } else if !(!v.ok) {\n    }\n    while s.more() {\n    }\n    if let Some(x) = g() {\n    }\n}\n",
				"fn f(a: u32) {\n    if a < 3 {\n    } else if !v.ok {\n    }\n    while !s.more() {\n    }\n    if let Some(x) = g() {\n    }\n}\n",
			}},
		{"swap and delete rust", SwapIfElse, "Rust",
			"fn f(a: bool) -> u8 {\n    if a { 1 } else if b { 2 } else { 3 }\n}\n", nil,
			[]string{"fn f(a: bool) -> u8 {\n    if a { 1 } else if b { 3 } else { 2 }\n}\n"}},
		{"delete call rust", DeleteCall, "Rust",
			"fn f(v: &mut Vec<u8>) {\n    v.push(1);\n    g()?;\n    let x = h();\n    println!(\"x\");\n}\n", nil,
			[]string{"fn f(v: &mut Vec<u8>) {\n    g()?;\n    let x = h();\n    println!(\"x\");\n}\n"}},
		{"flip rust", FlipComparison, "Rust",
			"fn f(a: u64) -> bool {\n    a >= 2 && a != 7\n}\n", nil,
			[]string{"fn f(a: u64) -> bool {\n    a > 2 && a != 7\n}\n", "fn f(a: u64) -> bool {\n    a >= 2 && a == 7\n}\n"}},
		{"int rust", IntConstant, "Rust",
			"const OPS: [(&str, u8); 2] = [(\">\", 1), (\"<\", 0)];\n", nil,
			[]string{"const OPS: [(&str, u8); 2] = [(\">\", 2), (\"<\", 0)];\n", "const OPS: [(&str, u8); 2] = [(\">\", 0), (\"<\", 0)];\n", "const OPS: [(&str, u8); 2] = [(\">\", 1), (\"<\", 1)];\n"}},
		{"return zero rust", ReturnZero, "Rust",
			"fn f(a: u64) -> u64 {\n    if a > 1 {\n        return a;\n    }\n    0\n}\nfn g(v: &[u8]) -> Option<u8> {\n    return v.first().copied();\n}\n", nil,
			[]string{"fn f(a: u64) -> u64 {\n    if a > 1 {\n        return 0 as u64;\n    }\n    0\n}\nfn g(v: &[u8]) -> Option<u8> {\n    return v.first().copied();\n}\n",
				"fn f(a: u64) -> u64 {\n    if a > 1 {\n        return a;\n    }\n    0\n}\nfn g(v: &[u8]) -> Option<u8> {\n    return None;\n}\n"}},

		// flip-comparison
		{"flip go", FlipComparison, "Go",
			"package p\nfunc f(a, b int) bool {\n\treturn a <= b && a != 0 || b+1 > a\n}\n", nil,
			[]string{
				"package p\nfunc f(a, b int) bool {\n\treturn a < b && a != 0 || b+1 > a\n}\n",
				"package p\nfunc f(a, b int) bool {\n\treturn a <= b && a == 0 || b+1 > a\n}\n",
				"package p\nfunc f(a, b int) bool {\n\treturn a <= b && a != 0 || b+1 >= a\n}\n",
			}},
		{"flip python chain", FlipComparison, "Python",
			"ok = 0 < x <= 10 and y is not None\n", nil,
			[]string{"ok = 0 <= x <= 10 and y is not None\n", "ok = 0 < x < 10 and y is not None\n"}},
		{"flip java", FlipComparison, "Java",
			"class A { boolean f(int a) { return a >= 2 || a == 7; } }\n", nil,
			[]string{
				"class A { boolean f(int a) { return a > 2 || a == 7; } }\n",
				"class A { boolean f(int a) { return a >= 2 || a != 7; } }\n",
			}},

		// int-constant
		{"int go", IntConstant, "Go",
			"package p\nconst k = 0x10\nvar n = 0\nfunc f() int { return 1_000 + 07 }\n", nil,
			[]string{
				"package p\nconst k = 0x10\nvar n = 1\nfunc f() int { return 1_000 + 07 }\n",
				"package p\nconst k = 0x10\nvar n = 0\nfunc f() int { return 1001 + 07 }\n",
				"package p\nconst k = 0x10\nvar n = 0\nfunc f() int { return 999 + 07 }\n",
			}},
		{"int python", IntConstant, "Python",
			"x = [3, 2j, 0b1]\n", nil,
			[]string{"x = [4, 2j, 0b1]\n", "x = [2, 2j, 0b1]\n"}},
		{"int java", IntConstant, "Java",
			"class A { long n = 5L; int m = 0; }\n", nil,
			[]string{"class A { long n = 6L; int m = 0; }\n", "class A { long n = 4L; int m = 0; }\n", "class A { long n = 5L; int m = 1; }\n"}},

		// return-zero
		{"return go", ReturnZero, "Go",
			"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
				"func h() *T { return &T{} }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
				"func c() []int { return func() []int { return []int{1} }() }\n", nil,
			[]string{
				"package p\nfunc f() (int, error) { return 0, nil }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
					"func h() *T { return &T{} }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return func() []int { return []int{1} }() }\n",
				"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"\", false }\n" +
					"func h() *T { return &T{} }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return func() []int { return []int{1} }() }\n",
				"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
					"func h() *T { return nil }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return func() []int { return []int{1} }() }\n",
				"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
					"func h() *T { return &T{} }\nfunc k() time.Duration { return *new(time.Duration) }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return func() []int { return []int{1} }() }\n",
				"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
					"func h() *T { return &T{} }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return nil }\n",
				"package p\nfunc f() (int, error) { return n, err }\nfunc g() (s string, ok bool) { return \"x\", true }\n" +
					"func h() *T { return &T{} }\nfunc k() time.Duration { return d }\nfunc m() { return }\nfunc z() error { return nil }\n" +
					"func c() []int { return func() []int { return nil }() }\n",
			}},
		{"return python", ReturnZero, "Python",
			"def f():\n    return x + 1\ndef g():\n    return None\ndef h():\n    return\n", nil,
			[]string{"def f():\n    return None\ndef g():\n    return None\ndef h():\n    return\n"}},
		{"return java", ReturnZero, "Java",
			"class A { int f() { return n; } boolean g() { return ok; } String h() { return s; } void v() { return; }\n" +
				"  Runnable r() { return () -> { return; }; } double d() { return 1.5; } }\n", nil,
			[]string{
				"class A { int f() { return 0; } boolean g() { return ok; } String h() { return s; } void v() { return; }\n" +
					"  Runnable r() { return () -> { return; }; } double d() { return 1.5; } }\n",
				"class A { int f() { return n; } boolean g() { return false; } String h() { return s; } void v() { return; }\n" +
					"  Runnable r() { return () -> { return; }; } double d() { return 1.5; } }\n",
				"class A { int f() { return n; } boolean g() { return ok; } String h() { return null; } void v() { return; }\n" +
					"  Runnable r() { return () -> { return; }; } double d() { return 1.5; } }\n",
				"class A { int f() { return n; } boolean g() { return ok; } String h() { return s; } void v() { return; }\n" +
					"  Runnable r() { return null; } double d() { return 1.5; } }\n",
				"class A { int f() { return n; } boolean g() { return ok; } String h() { return s; } void v() { return; }\n" +
					"  Runnable r() { return () -> { return; }; } double d() { return 0; } }\n",
			}},

		// delete-call
		{"delete go", DeleteCall, "Go",
			"package p\nfunc f() {\n\tg(1)\n\tx := h()\n\tif ok { k() }\n\ts.mu.Lock()\n}\n", nil,
			[]string{
				"package p\nfunc f() {\n\tx := h()\n\tif ok { k() }\n\ts.mu.Lock()\n}\n",
				"package p\nfunc f() {\n\tg(1)\n\tx := h()\n\tif ok {  }\n\ts.mu.Lock()\n}\n",
				"package p\nfunc f() {\n\tg(1)\n\tx := h()\n\tif ok { k() }\n}\n",
			}},
		{"delete python", DeleteCall, "Python",
			"def f():\n    log.info('x')\n    y = g()\n    h()\n", nil,
			[]string{"def f():\n    pass\n    y = g()\n    h()\n", "def f():\n    log.info('x')\n    y = g()\n    pass\n"}},
		{"delete java", DeleteCall, "Java",
			"class A {\n  void f() {\n    list.add(x);\n    int n = size();\n  }\n}\n", nil,
			[]string{"class A {\n  void f() {\n    int n = size();\n  }\n}\n"}},

		// swap-if-else
		{"swap go", SwapIfElse, "Go",
			"package p\nfunc f() {\n\tif ok {\n\t\ta()\n\t} else {\n\t\tb()\n\t}\n\tif x {\n\t} else if y {\n\t}\n}\n", nil,
			[]string{"package p\nfunc f() {\n\tif ok {\n\t\tb()\n\t} else {\n\t\ta()\n\t}\n\tif x {\n\t} else if y {\n\t}\n}\n"}},
		{"swap python", SwapIfElse, "Python",
			"if ok:\n    a()\n    b()\nelse:\n    c()\nif x:\n    d()\nelif y:\n    e()\nelse:\n    f()\n", nil,
			[]string{"if ok:\n    c()\nelse:\n    a()\n    b()\nif x:\n    d()\nelif y:\n    e()\nelse:\n    f()\n"}},
		{"swap java", SwapIfElse, "Java",
			"class A { void f() { if (ok) { a(); } else { b(); } if (x) a(); else if (y) b(); } }\n", nil,
			[]string{"class A { void f() { if (ok) { b(); } else { a(); } if (x) a(); else if (y) b(); } }\n"}},
	}
	for _, c := range cases {
		got := mutants(t, c.op, c.lang, c.src, c.added)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %d mutants:\n%s\nwant %d:\n%s", c.name, len(got), strings.Join(got, "----\n"), len(c.want), strings.Join(c.want, "----\n"))
		}
	}
}

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, op := range Registry {
		if op.Name == "" || op.Doc == "" || op.Find == nil || seen[op.Name] || Slug(op.Name) != op.Name {
			t.Errorf("bad registry entry %+v", op)
		}
		seen[op.Name] = true
		if LookupOperator(op.Name) != op {
			t.Errorf("LookupOperator(%s)", op.Name)
		}
	}
	if len(Registry) != 6 {
		t.Errorf("%d operators, want the 6 of issue 7", len(Registry))
	}
	if got := OperatorLanguages(); !reflect.DeepEqual(got, []string{"C", "C++", "C/C++ Header", "Go", "Java", "JavaScript", "Python", "Rust", "TypeScript"}) {
		t.Errorf("languages %v", got)
	}
}

// Every site carries a complete record, and hostile sources do not panic.
func TestOperatorRecordsAndHostile(t *testing.T) {
	src := "package p\nfunc f(a int) (int, error) {\n\tif a < 3 {\n\t\tg(a)\n\t} else {\n\t\treturn 1, nil\n\t}\n\treturn 0, nil\n}\n"
	sites, err := OperatorSites(context.Background(), Registry, "x.go", "Go", []byte(src), []int{1, 2, 3, 4, 5, 6, 7, 8, 9})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range Registry {
		for _, s := range sites[op.Name] {
			n++
			if s.Reference == "" || s.Mutated == "" || s.Scenario == "" || s.Rationale == "" || !strings.Contains(s.Reference, "x.go:") {
				t.Errorf("%s: incomplete record %+v", op.Name, s)
			}
		}
	}
	if n != 10 {
		t.Errorf("%d sites, want 10", n)
	}
	for _, bad := range []string{"", "func (", "\x00\xff{{{", strings.Repeat("(", 50000), "if (((((a < b"} {
		for _, lang := range OperatorLanguages() {
			if _, err := OperatorSites(context.Background(), Registry, "x", lang, []byte(bad), []int{1}); err != nil {
				t.Errorf("%s %.10q: %v", lang, bad, err)
			}
		}
	}
	if _, err := OperatorSites(context.Background(), Registry, "x.zig", "Zig", []byte("fn f() void {}"), []int{1}); err == nil || err.Error() != "x.zig: no syntax operators for Zig" {
		t.Errorf("Zig: %v", err)
	}
}
