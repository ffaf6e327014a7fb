package spec

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testbuilt"
	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// builtTinykv is the tinykv sample as a built candidate, without Docker
// (internal/testbuilt).
func builtTinykv(t testing.TB, epFile string) (*workspace.Workspace, *pipeline.Candidate) {
	t.Helper()
	s := testcand.Tinykv(filepath.Join("..", ".."))
	s.EPFile = epFile
	ws, c, err := testbuilt.Build(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	return ws, c
}

// tinykvSection is the specification section of the tinykv sample: the
// PR's solution side (docs, Go and Python; no test file) and the public
// signatures it adds or changes. main.go changes only main, which is not
// public; store.go's new unexported value type and expired method are left
// out; Python's Client is context for its methods.
const tinykvSection = "## Specification from the reference solution\n\n" +
	"In this variant of the task the proposal comes with a narrower specification, taken from the implementation the project's maintainers merged: " +
	"the files it touches (its tests left out) and the public classes and functions it adds or changes. " +
	"The hidden tests were written against that implementation, so use these paths, names and signatures; the proposal above still says how the code must behave.\n\n" +
	"### Files to change\n\n" +
	"```text\n" +
	"CHANGELOG.md (changed)\n" +
	"README.md (changed)\n" +
	"clients/python/tinykv/\n" +
	"  client.py (changed)\n" +
	"cmd/tinykv/\n" +
	"  main.go (changed)\n" +
	"server/\n" +
	"  server.go (changed)\n" +
	"snapshot/\n" +
	"  snapshot.go (changed)\n" +
	"store/\n" +
	"  expiry.go (new)\n" +
	"  store.go (changed)\n" +
	"```\n\n" +
	"### Public classes and functions\n\n" +
	"Signatures as they read after the change, grouped by file. `new` marks what the implementation adds and `changed` what it modifies; unmarked lines are the classes around them, shown for context.\n\n" +
	"#### `clients/python/tinykv/client.py`\n\n" +
	"```python\n" +
	"class Client\n" +
	"    def set(self, key, value, ttl=None) # changed\n" +
	"    def ttl(self, key) # new\n" +
	"```\n\n" +
	"#### `server/server.go`\n\n" +
	"```go\n" +
	"func (srv *Server) Handle(line string) string // changed\n" +
	"```\n\n" +
	"#### `snapshot/snapshot.go`\n\n" +
	"```go\n" +
	"func Save(w io.Writer, s *store.Store) error // changed\n" +
	"func Load(r io.Reader, s *store.Store) error // changed\n" +
	"```\n\n" +
	"#### `store/expiry.go`\n\n" +
	"```go\n" +
	"func (s *Store) Sweep() int // new\n" +
	"func (s *Store) StartSweeper(interval time.Duration) (stop func()) // new\n" +
	"```\n\n" +
	"#### `store/store.go`\n\n" +
	"```go\n" +
	"func New() *Store // changed\n" +
	"func NewWithClock(now func() time.Time) *Store // new\n" +
	"func (s *Store) Set(key, v string) // changed\n" +
	"func (s *Store) SetWithTTL(key, v string, ttl time.Duration) error // new\n" +
	"func (s *Store) TTL(key string) time.Duration // new\n" +
	"func (s *Store) Get(key string) (string, bool) // changed\n" +
	"func (s *Store) Delete(key string) bool // changed\n" +
	"func (s *Store) Keys() []string // changed\n" +
	"func (s *Store) Items() []Item // changed\n" +
	"func (s *Store) Restore(items []Item) // changed\n" +
	"```\n"

// TestWriteTinykv checks the whole instruction.spec.md of the tinykv
// sample, for the Markdown and the RST proposal: the task's instruction.md
// byte for byte, a thematic break, then the section.
func TestWriteTinykv(t *testing.T) {
	for _, epFile := range []string{"ep.md", "ep.rst"} {
		t.Run(epFile, func(t *testing.T) {
			ws, c := builtTinykv(t, epFile)
			p, s, err := Write(context.Background(), ws, c)
			if err != nil {
				t.Fatal(err)
			}
			if p != filepath.Join(c.Dir, "task", "instruction.spec.md") {
				t.Fatalf("path %s", p)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := os.ReadFile(filepath.Join(c.Dir, "task", "instruction.md"))
			if err != nil {
				t.Fatal(err)
			}
			if want := string(inst) + "\n---\n\n" + tinykvSection; string(got) != want {
				t.Fatalf("instruction.spec.md:\n%s\nwant:\n%s", got, want)
			}
			if len(s.Files) != 8 || len(s.Skipped) != 0 {
				t.Fatalf("files %d, skipped %v", len(s.Files), s.Skipped)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	ws, c := builtTinykv(t, "ep.md")
	ctx := context.Background()
	rec, err := build.LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	rejected := *rec
	rejected.Rejected = "no fail-to-pass test"
	badHead := *rec
	badHead.HeadCommit = "0000000000000000000000000000000000000000"
	for _, tc := range []struct {
		name string
		prep func()
		want string
	}{
		{"no task", func() { os.RemoveAll(filepath.Join(c.Dir, "task")) },
			"candidate tinykv-tkep-0002 has no task (task/instruction.md); run lolbench build tinykv-tkep-0002"},
		{"not built", func() { os.Remove(filepath.Join(c.Dir, build.RecordFile)) },
			"candidate tinykv-tkep-0002 is not built; run lolbench build tinykv-tkep-0002"},
		{"rejected", func() { workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), rejected) },
			"candidate tinykv-tkep-0002 was rejected by build (no fail-to-pass test): there is no task to specify"},
		{"unknown head", func() { workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), badHead) },
			"candidate tinykv-tkep-0002: build/build.json: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), rec)
			tc.prep()
			var err error
			if tc.name == "no task" {
				_, _, err = Write(ctx, ws, c)
			} else {
				_, err = Load(ctx, ws, c)
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || (!strings.HasSuffix(tc.want, ": ") && err.Error() != tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func ent(kind, class, fn string, start, end int, exported bool, sig string) syntax.Entity {
	return syntax.Entity{Kind: kind, Class: class, Function: fn, Start: start, End: end, Exported: exported, Signature: sig}
}

func TestSignatures(t *testing.T) {
	// A Java-like file: an outer class holding a nested class, overloads
	// and a private method; a Rust-like impl block.
	java := []syntax.Entity{
		ent("class", "Outer", "", 1, 50, true, "public class Outer"),
		ent("method", "Outer", "run", 2, 5, true, "public void run()"),
		ent("method", "Outer", "run", 6, 9, true, "public void run(int n)"),
		ent("method", "Outer", "helper", 10, 12, false, "private void helper()"),
		ent("class", "Outer.Inner", "", 20, 40, true, "public static class Inner"),
		ent("method", "Outer.Inner", "go", 21, 25, true, "public void go()"),
		ent("method", "Outer.Inner", "stop", 26, 30, true, "public void stop()"),
	}
	rust := []syntax.Entity{
		ent("struct", "Foo", "", 1, 3, true, "pub struct Foo"),
		ent("impl", "Foo", "", 5, 20, false, "impl Foo"),
		ent("method", "Foo", "new", 6, 8, true, "pub fn new() -> Self"),
		ent("method", "Foo", "old", 9, 12, true, "pub fn old(&self)"),
	}
	type key = [2]string
	for _, tc := range []struct {
		name   string
		ents   []syntax.Entity
		new    map[[2]string]bool
		scopes []syntax.Scope
		want   []Signature
	}{
		{"overload by added line", java, nil,
			[]syntax.Scope{{Class: "Outer", Function: "run", PostLines: []int{7}}},
			[]Signature{{Name: "Outer", Text: "public class Outer"}, {Name: "Outer.run", Text: "public void run(int n)", Change: Changed, Depth: 1}}},
		{"deleted lines only: every overload", java, nil,
			[]syntax.Scope{{Class: "Outer", Function: "run", PreLines: []int{3}}},
			[]Signature{{Name: "Outer", Text: "public class Outer"}, {Name: "Outer.run", Text: "public void run()", Change: Changed, Depth: 1},
				{Name: "Outer.run", Text: "public void run(int n)", Change: Changed, Depth: 1}}},
		{"private changed: nothing", java, nil,
			[]syntax.Scope{{Class: "Outer", Function: "helper", PostLines: []int{11}}}, nil},
		{"new nested class with its members", java, map[key]bool{{"Outer.Inner", ""}: true, {"Outer.Inner", "go"}: true, {"Outer.Inner", "stop"}: true}, nil,
			[]Signature{{Name: "Outer", Text: "public class Outer"}, {Name: "Outer.Inner", Text: "public static class Inner", Change: New, Depth: 1},
				{Name: "Outer.Inner.go", Text: "public void go()", Change: New, Depth: 2}, {Name: "Outer.Inner.stop", Text: "public void stop()", Change: New, Depth: 2}}},
		{"new struct: impl block is context, not new", rust, map[key]bool{{"Foo", ""}: true, {"Foo", "new"}: true}, nil,
			[]Signature{{Name: "Foo", Text: "pub struct Foo", Change: New}, {Name: "Foo", Text: "impl Foo"}, {Name: "Foo.new", Text: "pub fn new() -> Self", Change: New, Depth: 1}}},
		{"scope of another class", rust, nil,
			[]syntax.Scope{{Class: "Bar", Function: "old", PostLines: []int{10}}}, nil},
		{"same lines: the first is the container; one-line class and method", []syntax.Entity{
			ent("class", "A", "", 1, 1, true, "class A"),
			ent("method", "A", "f", 1, 1, true, "def f(self)"),
			ent("class", "B", "", 3, 9, true, "class B"),
		}, nil, []syntax.Scope{{Class: "A", Function: "f", PostLines: []int{1}}},
			[]Signature{{Name: "A", Text: "class A"}, {Name: "A.f", Text: "def f(self)", Change: Changed, Depth: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := signatures(tc.ents, tc.new, tc.scopes)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestSignaturesDeep: a method inside 100,000 nested classes lists every
// class around it at its depth; the walk is linear in the nesting (a
// quadratic one would take minutes here).
func TestSignaturesDeep(t *testing.T) {
	const n = 100000
	ents := make([]syntax.Entity, 0, n+1)
	for i := 0; i < n; i++ {
		ents = append(ents, ent("class", "C", "", i+1, 2*n+2-i, true, "class C"))
	}
	ents = append(ents, ent("method", "C", "m", n+1, n+2, true, "def m(self)"))
	got := signatures(ents, nil, []syntax.Scope{{Class: "C", Function: "m", PostLines: []int{n + 1}}})
	if len(got) != n+1 {
		t.Fatalf("%d signatures", len(got))
	}
	for i, s := range got {
		if s.Depth != i || (i < n) != (s.Change == "") {
			t.Fatalf("signature %d: depth %d, change %q", i, s.Depth, s.Change)
		}
	}
}

func TestMarkdown(t *testing.T) {
	const head = "## Specification from the reference solution\n\n" +
		"In this variant of the task the proposal comes with a narrower specification, taken from the implementation the project's maintainers merged: " +
		"the files it touches (its tests left out) and the public classes and functions it adds or changes. " +
		"The hidden tests were written against that implementation, so use these paths, names and signatures; the proposal above still says how the code must behave.\n\n"
	const legend = "Signatures as they read after the change, grouped by file. `new` marks what the implementation adds and `changed` what it modifies; unmarked lines are the classes around them, shown for context.\n\n"
	for _, tc := range []struct {
		name string
		spec Spec
		want string
	}{
		{"nothing", Spec{}, head + "### Files to change\n\nNone: the reference solution changes no file outside its tests.\n\n" +
			"### Public classes and functions\n\nNone: the reference solution adds or changes no public class or function that could be read.\n"},
		{"renames, deletions, folder chains, hostile names, skipped files", Spec{
			Files: []ChangedFile{
				{Path: "a\nb.kt", Status: diff.Added},
				{Path: "docs/x.md", Status: diff.Deleted},
				{Path: "src/main/java/org/x/A.java", OldPath: "src/main/java/org/x/B.java", Status: diff.Renamed, Language: "Java",
					Signatures: []Signature{{Name: "A", Text: "public class A", Change: New}, {Name: "A.f", Text: "String f() { return \"```\"", Change: Changed, Depth: 1}}},
				{Path: "src/main/java/org/y.java", Status: diff.Modified},
				{Path: "weird`name.go", Status: diff.Modified, Language: "Go", Signatures: []Signature{{Name: "F", Text: "func F()", Change: New}}},
			},
			Skipped: []syntax.Skip{{File: "a\nb.kt", Reason: syntax.SkipUnsupported}},
		}, head + "### Files to change\n\n```text\n" +
			"\"a\\nb.kt\" (new)\n" +
			"docs/\n  x.md (deleted)\n" +
			"src/main/java/org/\n  x/\n    A.java (renamed from src/main/java/org/x/B.java)\n  y.java (changed)\n" +
			"weird`name.go (changed)\n```\n\n" +
			"### Public classes and functions\n\n" + legend +
			"#### `src/main/java/org/x/A.java`\n\n````java\npublic class A // new\n    String f() { return \"```\" // changed\n````\n\n" +
			"#### ``weird`name.go``\n\n```go\nfunc F() // new\n```\n\n" +
			"Signatures could not be read from:\n\n- `\"a\\nb.kt\"` (unsupported language)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(tc.spec.Markdown()); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestFenceTags: every language with a grammar has a code block tag.
func TestFenceTags(t *testing.T) {
	names := []string{"TSX"}
	for _, l := range lang.Table {
		names = append(names, l.Name)
	}
	for _, n := range names {
		if syntax.Supported(n) && FenceTag(n) == "" {
			t.Errorf("%s has a grammar and no fence tag in fenceTags", n)
		}
		if !syntax.Supported(n) && FenceTag(n) != "" {
			t.Errorf("%s has a fence tag and no grammar", n)
		}
	}
}
