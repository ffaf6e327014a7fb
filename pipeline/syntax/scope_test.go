package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// at names a line by a substring that occurs on exactly one line of the
// file, and the scope the line must resolve to.
type at struct {
	line            string
	class, function string
}

// TestScopes resolves chosen lines of one file per language and asserts
// their exact (class, function).
func TestScopes(t *testing.T) {
	tests := []struct {
		file, language string
		want           []at
	}{
		{"outer.py", "Python", []at{
			{"import os", "", ""},
			{"@decorator", "", "fetch"},
			{"@other(arg=1)", "", "fetch"},
			{"async def fetch", "", "fetch"},
			{"def parse(body)", "", "fetch.parse"},
			{"return body", "", "fetch.parse"},
			{"cb = lambda", "", "fetch"},
			{"return parse(cb(url))", "", "fetch"},
			{"class Outer:", "Outer", ""},
			{"field = 1", "Outer", ""},
			{"class Inner:", "Outer.Inner", ""},
			{"@property", "Outer.Inner", "value"},
			{"return 1", "Outer.Inner", "value"},
			{"def method", "Outer", "method"},
			{"class Local:", "Outer", "method"},
			{"def run", "Outer.Local", "run"},
			{"pass", "Outer.Local", "run"},
			{"return Local", "Outer", "method"},
		}},
		{"server.go", "Go", []at{
			{`import "fmt"`, "", ""},
			{"addr string", "Server", ""},
			{"func (s *Server) Start", "Server", "Start"},
			{"fmt.Println", "Server", "Start"},
			{"}()", "Server", "Start"},
			{"return s.addr }", "Server", "Addr"},
			{"append(l.items", "List", "Push"},
			{"return len(m.m)", "Map", "Len"},
			{"Get(key string)", "Store", "Get"},
			{"func helper", "", "helper"},
		}},
		{"Service.java", "Java", []at{
			{"import java", "", ""},
			{"private int count", "Service", ""},
			{"public Service()", "Service", "Service"},
			{"count = 0", "Service", "Service"},
			{"public void run() {\n        Runnable", "Service", "run"},
			{"new Runnable()", "Service", "run"},
			{"@Override", "Service", "run"},
			{"count++", "Service", "run"},
			{"x -> x + 1", "Service", "run"},
			{"public record Point", "Service.Point", ""},
			{"IllegalArgumentException", "Service.Point", "Point"},
			{"return x + y", "Service.Point", "sum"},
			{"Color next()", "Service.Color", "next"},
			{"double area()", "Service.Shape", "area"},
			{"@Deprecated", "Service.Nested", ""},
			{"void go()", "Service.Nested", "go"},
		}},
		{"counter.rs", "Rust", []at{
			{"use std::fmt", "", ""},
			{"n: u32,", "Counter", ""},
			{"impl Counter {", "Counter", ""},
			{"pub fn new", "Counter", "new"},
			{"let inc", "Counter", "new"},
			{"write!", "Counter", "fmt"},
			{"fn push", "Stack", "push"},
			{"fn name", "Greet", "name"},
			{"format!", "Greet", "greet"},
			{"pub fn util", "", "util"},
			{"#[test]", "", "it_works"},
			{"fn helper", "", "it_works.helper"},
			{"assert_eq!", "", "it_works"},
		}},
		{"point.c", "C", []at{
			{"#include", "", ""},
			{"int x;", "point", ""},
			{"int w;", "size", ""},
			{"static int add", "", "add"},
			{"return a + b", "", "add"},
			{"return NULL", "", "lookup"},
			{"(*handler)(int)", "", ""},
			{"printf", "", "main"},
		}},
		{"conn.cpp", "C++", []at{
			{"namespace net {", "", ""},
			{"public:", "Conn", ""},
			{"    Conn();", "Conn", "Conn"},
			{"void send(const", "Conn", "send"},
			{"return fd_;", "Conn", "fd"},
			{"void reset();", "Conn.Stats", "reset"},
			{"int fd_;", "Conn", ""},
			{"Conn::Conn()", "Conn", "Conn"},
			{"open();", "Conn", "Conn"},
			{"auto log", "Conn", "send"},
			{"count = 0", "Conn.Stats", "reset"},
			{"touch()", "A.B", "f"},
			{"template <typename T>", "Box", "get"},
			{"return value", "Box", "get"},
			{"return same", "Conn", "operator=="},
			{"int main", "", "main"},
		}},
		{"widget.ts", "TypeScript", []at{
			{"import {", "", ""},
			{"private size", "Widget", ""},
			{"onClick = () =>", "Widget", "onClick"},
			{"this.size++", "Widget", "onClick"},
			{"super()", "Widget", "constructor"},
			{"return this.size * 2", "Widget", "area"},
			{"@log", "Widget", "render"},
			{"v * 2", "Widget", "render"},
			{"area(): number;", "Shape", "area"},
			{"Red,", "Color", ""},
			{"namespace Util", "", ""},
			{"return v;", "", "clamp"},
			{"const inner", "", "handler.inner"},
			{"return inner()", "", "handler"},
			{"return 1;", "", "legacy"},
			{"tick()", "", ""},
		}},
		{"app.js", "JavaScript", []at{
			{"require(", "", ""},
			{"routes = [];", "Router", ""},
			{"r.match(req)", "Router", "handle"},
			{"this.routes.push", "Router", "add"},
			{"yield 1", "", "ids"},
			{"listen()", "", "start"},
			{"fetch(url)", "", "get"},
			{`return "pong"`, "", "ping"},
			{`pong: () => "ping"`, "", "pong"},
			{"console.log", "", ""},
		}},
		{"app.tsx", "TSX", []at{
			{"go(props)", "", "App"},
			{"<button>", "", "Button"},
			{"export default", "", ""},
		}},
		{"Cart.cs", "C#", []at{
			{"using System", "", ""},
			{"namespace Shop.Core", "", ""},
			{"private int count", "Cart", ""},
			{"count = n", "Cart", "Cart"},
			{"get { return count; }", "Cart", "Count"},
			{"set { count = value; }", "Cart", "Count"},
			{"count * 2", "Cart", "Double"},
			{"this[int i]", "Cart", "this"},
			{"operator +", "Cart", "operator+"},
			{"[Obsolete]", "Cart", "Add"},
			{"x => x + 1", "Cart", "Add"},
			{"int Local()", "Cart", "Add.Local"},
			{"count = f(Local())", "Cart", "Add"},
			{"Dispose()", "Cart", "~Cart"},
			{"Name { get; set; }", "Cart.Item", "Name"},
			{"void Save()", "IStore", "Save"},
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
			ents, err := p.Entities(tt.language, src)
			if err != nil {
				t.Fatal(err)
			}
			lines := make([]int, len(tt.want))
			for i, w := range tt.want {
				lines[i] = lineOf(t, string(src), w.line)
			}
			for i, w := range tt.want {
				class, function := Enclosing(ents, lines[i])
				if class != w.class || function != w.function {
					t.Errorf("line %d %q: got (%q, %q), want (%q, %q)", lines[i], w.line, class, function, w.class, w.function)
				}
			}
		})
	}
}

// lineOf returns the 1-based line where sub starts; sub must occur once.
func lineOf(t *testing.T, src, sub string) int {
	t.Helper()
	i := strings.Index(src, sub)
	if i < 0 || strings.Count(src, sub) != 1 {
		t.Fatalf("%q occurs %d times, want once", sub, strings.Count(src, sub))
	}
	return strings.Count(src[:i], "\n") + 1
}
