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
	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
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

// sectionHead and legend open every specification section and its list
// of signatures.
const (
	sectionHead = "## Specification from the reference solution\n\n" +
		"In this variant of the task the proposal comes with a narrower specification, taken from the implementation the project's maintainers merged: " +
		"the files it touches (its tests left out), the public classes and functions it adds or changes, and the public fields and constants it adds. " +
		"The hidden tests were written against that implementation, so use these paths, names and signatures; the proposal above still says how the code must behave.\n\n"
	legend = "Signatures and declarations as they read after the change, grouped by file, fields under their class. " +
		"`new` marks what the implementation adds and `changed` what it modifies; unmarked lines are the classes around them, shown for context.\n\n"
)

// tinykvSection is the specification section of the tinykv sample: the
// PR's solution side (docs, Go and Python; no test file) and the public
// signatures it adds or changes. main.go changes only main, which is not
// public; store.go's new unexported value type and expired method are left
// out; Python's Client is context for its methods. store.go's new public
// members (issue 12 §1) are its error variable, its two constants and
// Item's ExpiresAt field, under Item for context.
const tinykvSection = sectionHead +
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
	"### Public classes, functions, fields and constants\n\n" + legend +
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
	"var ErrInvalidTTL = errors.New(\"invalid ttl\") // new\n" +
	"const NoExpiry time.Duration = -1 // new\n" +
	"const Missing time.Duration = -2 // new\n" +
	"func New() *Store // changed\n" +
	"func NewWithClock(now func() time.Time) *Store // new\n" +
	"func (s *Store) Set(key, v string) // changed\n" +
	"func (s *Store) SetWithTTL(key, v string, ttl time.Duration) error // new\n" +
	"func (s *Store) TTL(key string) time.Duration // new\n" +
	"func (s *Store) Get(key string) (string, bool) // changed\n" +
	"func (s *Store) Delete(key string) bool // changed\n" +
	"func (s *Store) Keys() []string // changed\n" +
	"type Item struct\n" +
	"    ExpiresAt time.Time // new\n" +
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

// TestLoadUnitconv checks the signatures of the unitconv sample (Python):
// the dataclass Unit's three new fields sit under it, before its new
// method, and the new module constant ONE between the functions around it
// (issue 12 §1).
func TestLoadUnitconv(t *testing.T) {
	s := testcand.Spec{Sample: filepath.Join("..", "..", "data", "samples", "unitconv"), ID: "unitconv-ucep-0004",
		EPFile: "ep.md", EPID: "UCEP 4", Title: "Offset units"}
	ws, c, err := testbuilt.Build(t.TempDir(), s)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := Load(context.Background(), ws, c)
	if err != nil {
		t.Fatal(err)
	}
	const want = sectionHead +
		"### Files to change\n\n" +
		"```text\n" +
		"CHANGELOG.md (changed)\n" +
		"README.md (changed)\n" +
		"pyproject.toml (changed)\n" +
		"unitconv/\n" +
		"  __init__.py (changed)\n" +
		"  cli.py (changed)\n" +
		"  errors.py (changed)\n" +
		"  format.py (changed)\n" +
		"  parse.py (changed)\n" +
		"  quantity.py (changed)\n" +
		"  units.py (changed)\n" +
		"```\n\n" +
		"### Public classes, functions, fields and constants\n\n" + legend +
		"#### `unitconv/cli.py`\n\n```python\ndef main(argv=None, out=None, err=None) # changed\n```\n\n" +
		"#### `unitconv/errors.py`\n\n```python\nclass OffsetUnitError(UnitError) # new\n    def __init__(self, symbol) # new\n```\n\n" +
		"#### `unitconv/format.py`\n\n```python\ndef format_quantity(quantity, precision=6, ascii=False) # changed\n```\n\n" +
		"#### `unitconv/parse.py`\n\n```python\ndef parse_unit(text) # changed\ndef parse_quantity(text) # changed\n```\n\n" +
		"#### `unitconv/quantity.py`\n\n```python\nclass Quantity\n    def si(self) # changed\n    def to(self, target) # changed\n```\n\n" +
		"#### `unitconv/units.py`\n\n" +
		"```python\n" +
		"class Unit\n" +
		"    offset: float = 0.0 # new\n" +
		"    display: str = \"\" # new\n" +
		"    terms: tuple = field(default=(), compare=False) # new\n" +
		"    def is_offset(self) # new\n" +
		"def mul(a, b) # new\n" +
		"def div(a, b) # new\n" +
		"def power(a, n) # new\n" +
		"ONE = Unit(\"1\", 1.0, dims()) # new\n" +
		"def register(symbol, factor, offset=0.0, display=\"\", aliases=(), **exponents) # changed\n" +
		"def symbols() # changed\n" +
		"```\n"
	if got := string(sp.Markdown()); got != want {
		t.Fatalf("section:\n%s\nwant:\n%s", got, want)
	}
}

// pep639Repo builds a repository whose change is shaped like PEP 639's
// packaging PR (pypa/packaging#828), from pipeline/syntax's member
// fixtures: metadata.py gains fields of RawMetadata and validators of
// Metadata, and a new licenses/_spdx.py holds the SPDX tables.
func pep639Repo(t *testing.T) (*diff.Repo, *diff.Change) {
	t.Helper()
	fixtures := filepath.Join("..", "..", "pipeline", "syntax", "testdata", "members")
	tmp := t.TempDir()
	for _, f := range []struct{ step, path, fixture string }{
		{"base", "packaging/metadata.py", "metadata_base.py"},
		{"head", "packaging/metadata.py", "metadata_head.py"},
		{"head", "packaging/licenses/_spdx.py", "spdx.py"},
	} {
		src, err := os.ReadFile(filepath.Join(fixtures, f.fixture))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, f.step, filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(tmp, "repo")
	if err := testrepo.Build(dir, testrepo.Step{Overlay: filepath.Join(tmp, "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join(tmp, "head"), Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(context.Background(), "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	return repo, ch
}

// TestFromChangePEP639: the public API of the PEP 639 change is its new
// members, Metadata.license_expression, Metadata.license_files, LICENSES
// and EXCEPTIONS among them (issue 12 §1), each under its class; the
// changed private _STRING_FIELDS and _Validator.raw_name are not listed.
func TestFromChangePEP639(t *testing.T) {
	repo, ch := pep639Repo(t)
	s, err := FromChange(context.Background(), repo, ch, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []ChangedFile{
		{Path: "packaging/licenses/_spdx.py", Status: diff.Added, Language: "Python", Signatures: []Signature{
			{Name: "VERSION", Text: `VERSION = "3.25.0"`, Change: New},
			{Name: "LICENSES", Text: "LICENSES: dict[str, dict[str, str | bool]] = {…}", Change: New},
			{Name: "EXCEPTIONS", Text: "EXCEPTIONS = {…}", Change: New},
		}},
		{Path: "packaging/metadata.py", Status: diff.Modified, Language: "Python", Signatures: []Signature{
			{Name: "RawMetadata", Text: "class RawMetadata(TypedDict, total=False)"},
			{Name: "RawMetadata.license_expression", Text: "license_expression: str", Change: New, Depth: 1},
			{Name: "RawMetadata.license_files", Text: "license_files: list[str]", Change: New, Depth: 1},
			{Name: "Metadata", Text: "class Metadata"},
			{Name: "Metadata.license_expression", Text: `license_expression: _Validator[NormalizedLicenseExpression | None] = _Validator(added="2.4")`, Change: New, Depth: 1},
			{Name: "Metadata.license_files", Text: `license_files: _Validator[list[str] | None] = _Validator(added="2.4")`, Change: New, Depth: 1},
		}},
	}
	if !reflect.DeepEqual(s.Files, want) || len(s.Skipped) != 0 {
		t.Fatalf("files\n got %+v\nwant %+v\nskipped %v", s.Files, want, s.Skipped)
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
			got := signatures(tc.ents, tc.new, tc.scopes, nil)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func mem(kind, class, name string, start, end int, decl string) syntax.Member {
	return syntax.Member{Kind: kind, Class: class, Name: name, Start: start, End: end, Exported: true, Declaration: decl}
}

// TestSignaturesMembers: new members (issue 12 §1) are listed in line
// order under the class that holds them, with the class for context.
func TestSignaturesMembers(t *testing.T) {
	py := []syntax.Entity{
		ent("class", "A", "", 1, 20, true, "class A"),
		ent("method", "A", "f", 3, 5, true, "def f(self)"),
		ent("method", "A", "g", 10, 12, true, "def g(self)"),
		ent("function", "", "h", 22, 25, true, "def h()"),
		ent("class", "B", "", 30, 35, true, "class B"),
	}
	for _, tc := range []struct {
		name    string
		ents    []syntax.Entity
		scopes  []syntax.Scope
		members []syntax.Member
		want    []Signature
	}{
		{"among the methods and between functions; one line per declaration", py,
			[]syntax.Scope{{Class: "A", Function: "g", PostLines: []int{11}}},
			[]syntax.Member{mem("field", "A", "x", 6, 8, "x: dict = {…}"), mem("constant", "", "Y", 21, 21, "Y = 1"),
				mem("variable", "", "first", 27, 27, "first = second = 0"), mem("variable", "", "second", 27, 27, "first = second = 0")},
			[]Signature{{Name: "A", Text: "class A"}, {Name: "A.x", Text: "x: dict = {…}", Change: New, Depth: 1},
				{Name: "A.g", Text: "def g(self)", Change: Changed, Depth: 1}, {Name: "Y", Text: "Y = 1", Change: New},
				{Name: "first", Text: "first = second = 0", Change: New}}},
		{"a one-line class holds its member", []syntax.Entity{ent("class", "C", "", 1, 1, true, "class C")}, nil,
			[]syntax.Member{mem("field", "C", "x", 1, 1, "x = 1")},
			[]Signature{{Name: "C", Text: "class C"}, {Name: "C.x", Text: "x = 1", Change: New, Depth: 1}}},
		{"a Go struct field under its struct, methods apart", []syntax.Entity{
			ent("struct", "Item", "", 1, 4, true, "type Item struct"),
			ent("method", "Item", "M", 6, 8, true, "func (i Item) M()"),
		}, nil, []syntax.Member{mem("field", "Item", "ExpiresAt", 3, 3, "ExpiresAt time.Time")},
			[]Signature{{Name: "Item", Text: "type Item struct"}, {Name: "Item.ExpiresAt", Text: "ExpiresAt time.Time", Change: New, Depth: 1}}},
		{"a Rust associated const under its impl block", []syntax.Entity{
			ent("struct", "Foo", "", 1, 3, true, "pub struct Foo"),
			ent("impl", "Foo", "", 5, 20, false, "impl Foo"),
			ent("method", "Foo", "new", 6, 8, true, "pub fn new() -> Self"),
		}, nil, []syntax.Member{mem("constant", "Foo", "MAX", 14, 14, "pub const MAX: usize = 1")},
			[]Signature{{Name: "Foo", Text: "impl Foo"}, {Name: "Foo.MAX", Text: "pub const MAX: usize = 1", Change: New, Depth: 1}}},
		{"a member whose value spans an entity holds nothing", []syntax.Entity{
			ent("class", "K", "", 1, 10, true, "class K"),
			ent("function", "", "handler", 3, 4, true, "function handler()"),
		}, []syntax.Scope{{Function: "handler", PostLines: []int{3}}},
			[]syntax.Member{mem("constant", "", "TABLE", 2, 5, "const TABLE = {…}")},
			[]Signature{{Name: "K", Text: "class K"}, {Name: "TABLE", Text: "const TABLE = {…}", Change: New, Depth: 1},
				{Name: "handler", Text: "function handler()", Change: Changed, Depth: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := signatures(tc.ents, nil, tc.scopes, tc.members)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestSignaturesDeep: a method and a member inside 100,000 nested classes
// list every class around them at their depth; the walk is linear in the
// nesting (a quadratic one would take minutes here).
func TestSignaturesDeep(t *testing.T) {
	const n = 100000
	ents := make([]syntax.Entity, 0, n+1)
	for i := 0; i < n; i++ {
		ents = append(ents, ent("class", "C", "", i+1, 2*n+2-i, true, "class C"))
	}
	ents = append(ents, ent("method", "C", "m", n+1, n+2, true, "def m(self)"))
	// The innermost class spans lines n to n+3; a member on its last line
	// comes after the method, at the method's depth.
	got := signatures(ents, nil, []syntax.Scope{{Class: "C", Function: "m", PostLines: []int{n + 1}}},
		[]syntax.Member{mem("field", "C", "x", n+3, n+3, "x = 1")})
	if len(got) != n+2 {
		t.Fatalf("%d signatures", len(got))
	}
	for i, s := range got {
		if s.Depth != min(i, n) || (i < n) != (s.Change == "") {
			t.Fatalf("signature %d: depth %d, change %q", i, s.Depth, s.Change)
		}
	}
	if m := got[n+1]; m.Name != "C.x" || m.Change != New {
		t.Fatalf("last signature %+v", m)
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec Spec
		want string
	}{
		{"nothing", Spec{}, sectionHead + "### Files to change\n\nNone: the reference solution changes no file outside its tests.\n\n" +
			"### Public classes, functions, fields and constants\n\nNone: the reference solution adds or changes no public class, function, field or constant that could be read.\n"},
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
		}, sectionHead + "### Files to change\n\n```text\n" +
			"\"a\\nb.kt\" (new)\n" +
			"docs/\n  x.md (deleted)\n" +
			"src/main/java/org/\n  x/\n    A.java (renamed from src/main/java/org/x/B.java)\n  y.java (changed)\n" +
			"weird`name.go (changed)\n```\n\n" +
			"### Public classes, functions, fields and constants\n\n" + legend +
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
