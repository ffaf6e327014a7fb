package syntax

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestEntities asserts every entity of each fixture: kind, qualified name,
// lines, exported flag and signature.
func TestEntities(t *testing.T) {
	tests := []struct {
		file, language string
		want           []Entity
	}{
		{"outer.py", "Python", []Entity{
			{"function", "", "fetch", 3, 9, true, "async def fetch(url)"},
			{"function", "", "fetch.parse", 6, 7, false, "def parse(body)"},
			{"class", "Outer", "", 11, 21, true, "class Outer"},
			{"class", "Outer.Inner", "", 13, 16, true, "class Inner"},
			{"method", "Outer.Inner", "value", 14, 16, true, "def value(self)"},
			{"method", "Outer", "method", 17, 21, true, "def method(self)"},
			{"class", "Outer.Local", "", 18, 20, false, "class Local"},
			{"method", "Outer.Local", "run", 19, 20, false, "def run(self)"},
		}},
		{"server.go", "Go", []Entity{
			{"struct", "Server", "", 5, 7, true, "type Server struct"},
			{"method", "Server", "Start", 9, 14, true, "func (s *Server) Start() error"},
			{"method", "Server", "Addr", 16, 16, true, "func (s Server) Addr() string"},
			{"method", "List", "Push", 18, 20, true, "func (l *List[T]) Push(v T)"},
			{"method", "Map", "Len", 22, 24, true, "func (m Map[K, V]) Len() int"},
			{"interface", "Store", "", 26, 28, true, "type Store interface"},
			{"method", "Store", "Get", 27, 27, true, "Get(key string) string"},
			{"function", "", "helper", 30, 30, false, "func helper()"},
		}},
		{"Service.java", "Java", []Entity{
			{"class", "Service", "", 5, 37, true, "public class Service"},
			{"constructor", "Service", "Service", 8, 10, true, "public Service()"},
			{"method", "Service", "run", 12, 20, true, "public void run()"},
			{"record", "Service.Point", "", 22, 27, true, "public record Point(int x, int y)"},
			{"constructor", "Service.Point", "Point", 23, 25, true, "public Point"},
			{"method", "Service.Point", "sum", 26, 26, false, "int sum()"},
			{"enum", "Service.Color", "", 29, 29, false, "enum Color"},
			{"method", "Service.Color", "next", 29, 29, false, "Color next()"},
			{"interface", "Service.Shape", "", 31, 31, false, "interface Shape"},
			{"method", "Service.Shape", "area", 31, 31, false, "double area()"},
			{"class", "Service.Nested", "", 33, 36, false, "@Deprecated static class Nested"},
			{"method", "Service.Nested", "go", 35, 35, false, "void go()"},
		}},
		{"counter.rs", "Rust", []Entity{
			{"struct", "Counter", "", 3, 5, true, "pub struct Counter"},
			{"impl", "Counter", "", 7, 12, true, "impl Counter"},
			{"method", "Counter", "new", 8, 11, true, "pub fn new() -> Self"},
			{"impl", "Counter", "", 14, 18, true, "impl fmt::Display for Counter"},
			{"method", "Counter", "fmt", 15, 17, true, "fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result"},
			{"impl", "Stack", "", 20, 22, true, "impl<T> Stack<T>"},
			{"method", "Stack", "push", 21, 21, false, "fn push(&mut self, v: T)"},
			{"trait", "Greet", "", 24, 29, true, "pub trait Greet"},
			{"method", "Greet", "name", 25, 25, true, "fn name(&self) -> String"},
			{"method", "Greet", "greet", 26, 28, true, "fn greet(&self) -> String"},
			{"function", "", "util", 32, 32, true, "pub fn util() -> u8"},
			{"function", "", "it_works", 35, 39, false, "fn it_works()"},
			{"function", "", "it_works.helper", 37, 37, false, "fn helper() -> u32"},
		}},
		{"point.c", "C", []Entity{
			{"struct", "point", "", 3, 6, true, "struct point"},
			{"struct", "size", "", 8, 10, true, "typedef struct size"},
			{"function", "", "add", 12, 15, false, "static int add(int a, int b)"},
			{"function", "", "lookup", 17, 19, true, "int (*lookup(const char *name))(int)"},
			{"function", "", "main", 23, 26, true, "int main(void)"},
		}},
		{"conn.cpp", "C++", []Entity{
			{"class", "Conn", "", 5, 15, true, "class Conn"},
			{"constructor", "Conn", "Conn", 7, 7, true, "Conn()"},
			{"method", "Conn", "send", 8, 8, true, "void send(const std::string& s)"},
			{"method", "Conn", "fd", 9, 9, true, "int fd() const"},
			{"struct", "Conn.Stats", "", 10, 12, true, "struct Stats"},
			{"method", "Conn.Stats", "reset", 11, 11, true, "void reset()"},
			{"constructor", "Conn", "Conn", 17, 19, true, "Conn::Conn() : fd_(-1)"},
			{"method", "Conn", "send", 21, 24, true, "void Conn::send(const std::string& s)"},
			{"method", "Conn.Stats", "reset", 28, 30, true, "void net::Conn::Stats::reset()"},
			{"method", "A.B", "f", 32, 34, true, "void A::B::f()"},
			{"method", "Box", "get", 36, 39, true, "template <typename T> T Box<T>::get() const"},
			{"operator", "Conn", "operator==", 41, 43, true, "bool Conn::operator==(const Conn& o) const"},
			{"function", "", "main", 45, 45, true, "int main()"},
		}},
		{"widget.ts", "TypeScript", []Entity{
			{"class", "Widget", "", 3, 18, true, "export class Widget extends Base"},
			{"method", "Widget", "onClick", 5, 7, true, "onClick = () =>"},
			{"constructor", "Widget", "constructor", 8, 10, true, "constructor(n: number)"},
			{"method", "Widget", "area", 11, 13, true, "get area(): number"},
			{"method", "Widget", "render", 14, 17, true, "render()"},
			{"interface", "Shape", "", 20, 22, true, "export interface Shape"},
			{"method", "Shape", "area", 21, 21, true, "area(): number"},
			{"enum", "Color", "", 24, 26, true, "export enum Color"},
			{"function", "", "clamp", 29, 31, true, "export function clamp(v: number)"},
			{"function", "", "handler", 34, 37, true, "export const handler = async (req: Request) =>"},
			{"function", "", "handler.inner", 35, 35, false, "const inner = () =>"},
			{"function", "", "legacy", 39, 41, false, "let legacy = function ()"},
		}},
		{"app.js", "JavaScript", []Entity{
			{"class", "Router", "", 3, 11, false, "class Router"},
			{"method", "Router", "handle", 5, 7, false, "handle = (req) =>"},
			{"method", "Router", "add", 8, 10, false, "add(route)"},
			{"function", "", "ids", 13, 15, false, "function* ids()"},
			{"function", "", "start", 17, 19, true, "module.exports.start = function ()"},
			{"function", "", "get", 21, 23, false, "app.get = (url) =>"},
			{"function", "", "ping", 26, 28, false, "ping()"},
			{"function", "", "pong", 29, 29, false, "pong: () =>"},
		}},
		{"app.tsx", "TSX", []Entity{
			{"function", "", "App", 3, 5, true, "export function App(props: Props)"},
			{"function", "", "Button", 7, 9, false, "const Button = ({ label }: { label: string }) =>"},
		}},
		{"Cart.cs", "C#", []Entity{
			{"class", "Cart", "", 5, 40, true, "public class Cart"},
			{"constructor", "Cart", "Cart", 9, 12, true, "public Cart(int n)"},
			{"property", "Cart", "Count", 14, 18, true, "public int Count"},
			{"property", "Cart", "Double", 20, 20, true, "public int Double"},
			{"indexer", "Cart", "this", 22, 22, true, "public int this[int i]"},
			{"operator", "Cart", "operator+", 24, 24, true, "public static Cart operator +(Cart a, Cart b)"},
			{"method", "Cart", "Add", 26, 32, true, "[Obsolete] public void Add()"},
			{"function", "Cart", "Add.Local", 30, 30, false, "int Local()"},
			{"destructor", "Cart", "~Cart", 34, 34, false, "~Cart()"},
			{"class", "Cart.Item", "", 36, 39, false, "private class Item"},
			{"property", "Cart.Item", "Name", 38, 38, false, "internal string Name"},
			{"interface", "IStore", "", 42, 42, true, "public interface IStore"},
			{"method", "IStore", "Save", 42, 42, true, "void Save()"},
		}},
	}
	p := NewParser()
	defer p.Close()
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "scopes", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Entities(tt.language, src)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("entities differ:\n%s", diffEntities(got, tt.want))
			}
		})
	}
}

// diffEntities lists the entities only one side has, for failure messages.
func diffEntities(got, want []Entity) string {
	var b []byte
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w *Entity
		if i < len(got) {
			g = &got[i]
		}
		if i < len(want) {
			w = &want[i]
		}
		if g != nil && w != nil && *g == *w {
			continue
		}
		b = fmt.Appendf(b, "  #%d got  %+v\n      want %+v\n", i, g, w)
	}
	return string(b)
}

// TestNewEntities compares two versions of a file: the entities only the
// post version has, by qualified name.
func TestNewEntities(t *testing.T) {
	tests := []struct {
		name, language, pre, post string
		want                      []string // Kind Name
	}{
		{
			name:     "python method and nested class added, function removed",
			language: "Python",
			pre:      "class A:\n    def f(self):\n        pass\n\ndef gone():\n    pass\n",
			post:     "class A:\n    def f(self):\n        pass\n    def g(self):\n        pass\n    class B:\n        def h(self):\n            pass\n",
			want:     []string{"method A.g", "class A.B", "method A.B.h"},
		},
		{
			name:     "go method on existing type, new type",
			language: "Go",
			pre:      "package p\ntype S struct{}\nfunc (s *S) A() {}\n",
			post:     "package p\ntype S struct{}\nfunc (s *S) A() {}\nfunc (s S) B() {}\ntype T interface{ M() }\n",
			want:     []string{"method S.B", "interface T", "method T.M"},
		},
		{
			name:     "rust trait impl adds a method, not an impl symbol",
			language: "Rust",
			pre:      "struct Foo;\nimpl Foo { fn a(&self) {} }\n",
			post:     "struct Foo;\nimpl Foo { fn a(&self) {} }\nimpl Display for Foo { fn fmt(&self) {} }\n",
			want:     []string{"method Foo.fmt"},
		},
		{
			name:     "java overload is not new",
			language: "Java",
			pre:      "class A { void f(int x) {} }\n",
			post:     "class A { void f(int x) {} void f(String s) {} A() {} }\n",
			want:     []string{"constructor A.A"},
		},
		{
			name:     "typescript export and arrow function",
			language: "TypeScript",
			pre:      "export function a() {}\n",
			post:     "export function a() {}\nexport const b = () => 1;\nclass C { m() {} }\n",
			want:     []string{"function b", "class C", "method C.m"},
		},
		{
			name:     "unchanged file",
			language: "C",
			pre:      "int main(void) { return 0; }\n",
			post:     "int main(void) { return 1; }\n",
			want:     []string{},
		},
		{
			name:     "added file",
			language: "C#",
			pre:      "",
			post:     "class A { public int P { get; set; } }\n",
			want:     []string{"class A", "property A.P"},
		},
	}
	p := NewParser()
	defer p.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pre, err := p.Entities(tt.language, []byte(tt.pre))
			if err != nil {
				t.Fatal(err)
			}
			post, err := p.Entities(tt.language, []byte(tt.post))
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, e := range newEntities(pre, post) {
				got = append(got, e.Kind+" "+e.Name())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestEnclosingAllAgrees checks the sweep against the one-line lookup on
// random entity sets, overlapping and degenerate ones included.
func TestEnclosingAllAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 2000; round++ {
		n := rng.IntN(8)
		ents := make([]Entity, n)
		for i := range ents {
			s := 1 + rng.IntN(30)
			ents[i] = Entity{Kind: "function", Function: fmt.Sprintf("f%d", i), Start: s, End: s + rng.IntN(12)}
			if rng.IntN(4) == 0 {
				ents[i].Function = "" // a class: never a scope
			}
		}
		lines := []int{}
		for l := 0; l <= 45; l += 1 + rng.IntN(3) {
			lines = append(lines, l)
		}
		idx := enclosingAll(ents, lines)
		for i, l := range lines {
			wc, wf := Enclosing(ents, l)
			gc, gf := "", ""
			if idx[i] >= 0 {
				gc, gf = ents[idx[i]].Class, ents[idx[i]].Function
			}
			if gc != wc || gf != wf {
				t.Fatalf("round %d line %d: sweep (%q,%q), Enclosing (%q,%q); entities %+v", round, l, gc, gf, wc, wf, ents)
			}
		}
	}
}

func TestEnclosing(t *testing.T) {
	ents := []Entity{
		{Kind: "class", Class: "A", Start: 1, End: 20},
		{Kind: "method", Class: "A", Function: "f", Start: 2, End: 5},
		{Kind: "method", Class: "A", Function: "g", Start: 5, End: 9},
		{Kind: "function", Class: "A", Function: "g.h", Start: 6, End: 7},
	}
	tests := []struct {
		line            int
		class, function string
	}{
		{0, "", ""}, {1, "A", ""}, {2, "A", "f"}, {4, "A", "f"}, {5, "A", "g"},
		{6, "A", "g.h"}, {7, "A", "g.h"}, {8, "A", "g"}, {10, "A", ""}, {21, "", ""},
	}
	for _, tt := range tests {
		c, f := Enclosing(ents, tt.line)
		if c != tt.class || f != tt.function {
			t.Errorf("line %d: got (%q, %q), want (%q, %q)", tt.line, c, f, tt.class, tt.function)
		}
	}
}

func TestSupportedAndParseLanguage(t *testing.T) {
	for _, l := range []string{"Python", "Go", "Java", "Rust", "C", "C/C++ Header", "C++", "TypeScript", "TSX", "JavaScript", "C#"} {
		if !Supported(l) {
			t.Errorf("Supported(%q) = false", l)
		}
	}
	for _, l := range []string{"", "Kotlin", "Ruby", "python"} {
		if Supported(l) {
			t.Errorf("Supported(%q) = true", l)
		}
	}
	tests := []struct{ path, language, want string }{
		{"web/App.tsx", "TypeScript", "TSX"},
		{"web/App.TSX", "TypeScript", "TSX"},
		{"web/app.ts", "TypeScript", "TypeScript"},
		{"web/app.jsx", "JavaScript", "JavaScript"},
		{"include/a.h", "C/C++ Header", "C/C++ Header"},
	}
	for _, tt := range tests {
		if got := ParseLanguage(tt.path, tt.language); got != tt.want {
			t.Errorf("ParseLanguage(%q, %q) = %q, want %q", tt.path, tt.language, got, tt.want)
		}
	}
}

func TestParserErrors(t *testing.T) {
	p := NewParser()
	defer p.Close()
	if _, err := p.Entities("Kotlin", []byte("fun main() {}")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Kotlin: got %v, want ErrUnsupported", err)
	}
	// A parse over its time limit fails with ErrTimeout, and the parser
	// works again afterwards.
	big := []byte(strings.Repeat("int f(int x) { return x + 1; }\n", 20000))
	p.SetTimeout(time.Microsecond)
	if _, err := p.Entities("C", big); !errors.Is(err, ErrTimeout) {
		t.Fatalf("tiny timeout: got %v, want ErrTimeout", err)
	}
	p.SetTimeout(0)
	ents, err := p.Entities("C", []byte("int g(void) { return 0; }\n"))
	if err != nil || len(ents) != 1 || ents[0].Function != "g" {
		t.Fatalf("after a timeout: %+v, %v", ents, err)
	}
	p.Close()
	if _, err := p.Entities("C", []byte("int g;")); err == nil {
		t.Fatal("closed parser: no error")
	}
}
