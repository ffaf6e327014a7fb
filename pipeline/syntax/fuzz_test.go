package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzLanguages are the grammars FuzzEntities picks from by index.
var fuzzLanguages = []string{"Python", "Go", "Java", "Rust", "C", "C++", "TypeScript", "TSX", "JavaScript", "C#"}

// FuzzEntities feeds any bytes to any grammar: no panic, and every entity
// is well-formed.
func FuzzEntities(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "scopes", "*"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range fuzzLanguages {
			f.Add(uint8(i), src)
		}
	}
	f.Add(uint8(0), []byte("def \xff\xfe(x):\n  class \xc3(:\n"))
	f.Add(uint8(5), []byte("void A::B::C::D::E::F::G::H::I::J::K::L::M::N::O::P::Q::R::S::T::U::V::W::X::Y::Z::a::b::c::d::e::f::g() {}"))
	f.Add(uint8(1), []byte("package p\nfunc (r ****[[[[T]]]]) M() {}\n"))
	f.Add(uint8(6), []byte("class { m() { class { n() {} } } }"))
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		language := fuzzLanguages[int(li)%len(fuzzLanguages)]
		ents, err := p.Entities(language, src)
		if err != nil {
			t.Fatalf("%s: %v", language, err)
		}
		checkEntities(t, src, ents)
	})
}

// checkEntities asserts the invariants every entity list keeps.
func checkEntities(t *testing.T, src []byte, ents []Entity) {
	t.Helper()
	lines := bytes.Count(src, []byte("\n")) + 1
	for _, e := range ents {
		switch {
		case e.Start < 1 || e.Start > e.End || e.End > lines:
			t.Fatalf("entity %+v: lines outside 1..%d", e, lines)
		case e.Class == "" && e.Function == "":
			t.Fatalf("entity %+v: no name", e)
		case e.Kind == "":
			t.Fatalf("entity %+v: no kind", e)
		case !utf8.ValidString(e.Class + e.Function + e.Signature):
			t.Fatalf("entity %+v: invalid UTF-8", e)
		case strings.ContainsAny(e.Class+e.Function+e.Signature, "\n\r"):
			t.Fatalf("entity %+v: multi-line text", e)
		case len(e.Signature) > maxSignature:
			t.Fatalf("entity %+v: signature longer than %d", e, maxSignature)
		}
	}
}

// TestDeepNesting parses pathological nesting in every grammar: it must
// finish without a stack overflow and keep the invariants.
func TestDeepNesting(t *testing.T) {
	const depth = 5000
	inputs := map[string][]byte{
		"Python":     pyNest(2000),
		"Go":         []byte("package p\nfunc f() {" + strings.Repeat("func() {", depth) + strings.Repeat("}()", depth) + "}\n"),
		"Java":       []byte(strings.Repeat("class A { void m() { new Object() { ", depth/4) + strings.Repeat("}; } }", depth/4)),
		"Rust":       []byte(strings.Repeat("fn f() { ", depth) + strings.Repeat("} ", depth)),
		"C":          []byte("int f() { " + strings.Repeat("{", depth) + strings.Repeat("}", depth) + " }"),
		"C++":        []byte(strings.Repeat("struct S { ", depth) + strings.Repeat("};", depth)),
		"TypeScript": []byte(strings.Repeat("function f() { ", depth) + strings.Repeat("}", depth)),
		"JavaScript": []byte("x = " + strings.Repeat("[", depth) + strings.Repeat("]", depth)),
		"C#":         []byte(strings.Repeat("class C { ", depth) + strings.Repeat("}", depth)),
	}
	p := NewParser()
	defer p.Close()
	for language, src := range inputs {
		ents, err := p.Entities(language, src)
		if err != nil {
			t.Fatalf("%s: %v", language, err)
		}
		checkEntities(t, src, ents)
	}
}

// pyNest nests n Python functions, one indentation level each.
func pyNest(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(" ", i) + "def f():\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "pass\n")
	return b.Bytes()
}
