package syntax

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/diff"
)

// resolveFixture is a change touching every kind of file Resolve meets: a
// modified, a renamed, a deleted and an added source file, a test, a
// document, a binary source file, an unsupported language and a file over
// the size limit.
func resolveFixture(t *testing.T) (dir string, ch *diff.Change) {
	t.Helper()
	r := newTestRepo(t)
	big := "class Big {\n" + strings.Repeat("  int f;\n", 400) + "}\n"
	base := r.commit(map[string]string{
		"pkg/server.go":      "package pkg\n// Server serves.\ntype Server struct {\n\taddr string\n}\nfunc (s *Server) Start() error {\n\treturn s.run()\n}\nfunc old() int {\n\treturn 1\n}\n",
		"pkg/server_test.go": "package pkg\nfunc TestA(t *testing.T) {}\n",
		"lib/util.py":        "import os\nclass Cache:\n    def get(self, key):\n        return self.data[key]\n    def put(self, key, value):\n        self.data[key] = value\ndef helper():\n    return os.getcwd()\n",
		"src/old.rs":         "pub fn gone() -> u8 {\n    7\n}\n",
		"src/blob.c":         "int x;\x00\x01\x02\n",
		"src/Main.kt":        "fun main() {\n}\n",
		"core/Big.java":      big,
		"README.md":          "# Server\n",
	})
	head := r.commit(map[string]string{
		"pkg/server.go":      "package pkg\n// Server serves.\ntype Server struct {\n\taddr string\n\tport int\n}\nfunc (s *Server) Start() error {\n\treturn s.listen()\n}\nfunc (s *Server) listen() error {\n\treturn nil\n}\n",
		"pkg/server_test.go": "package pkg\nfunc TestA(t *testing.T) { t.Log() }\n",
		"lib/helpers.py":     "import os\nclass Cache:\n    def get(self, key):\n        return self.data.get(key)\n    def put(self, key, value):\n        self.data[key] = value\ndef helper():\n    return os.getcwd()\n",
		"web/app.ts":         "export class App {\n  run = () => {\n    start();\n  };\n}\nconst VERSION = 1;\n",
		"src/blob.c":         "int y;\x00\x01\x02\n",
		"src/Main.kt":        "fun main() {\n    println()\n}\n",
		"core/Big.java":      big + "// more\n",
		"README.md":          "# Server\n\nServes.\n",
	}, base)
	repo, err := diff.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err = repo.Diff(context.Background(), base.String(), head.String())
	if err != nil {
		t.Fatal(err)
	}
	return r.dir, ch
}

// TestResolve runs Resolve end to end on a repository built in the test
// and asserts the exact scopes, new entities and skips.
func TestResolve(t *testing.T) {
	dir, ch := resolveFixture(t)
	for _, workers := range []int{1, 3} {
		res, err := Resolve(context.Background(), dir, ch, Options{Workers: workers, MaxFileSize: 2000})
		if err != nil {
			t.Fatal(err)
		}
		wantScopes := []Scope{
			{File: "lib/helpers.py", Class: "Cache", Function: "get", PreLines: []int{4}, PostLines: []int{4}},
			{File: "pkg/server.go", Class: "", Function: "old", PreLines: []int{9, 10}, PostLines: []int{}},
			// A struct field: the struct's class-body scope.
			{File: "pkg/server.go", Class: "Server", Function: "", PreLines: []int{}, PostLines: []int{5}, Members: []MemberLines{{Name: "port", PreLines: []int{}, PostLines: []int{5}}}},
			{File: "pkg/server.go", Class: "Server", Function: "Start", PreLines: []int{7}, PostLines: []int{8}},
			{File: "pkg/server.go", Class: "Server", Function: "listen", PreLines: []int{}, PostLines: []int{10, 11}, New: true},
			{File: "src/old.rs", Class: "", Function: "gone", PreLines: []int{1, 2, 3}, PostLines: []int{}},
			{File: "web/app.ts", Class: "", Function: "", PreLines: []int{}, PostLines: []int{6}},
			// A new class: its own lines are its class-body scope, new too.
			{File: "web/app.ts", Class: "App", Function: "", PreLines: []int{}, PostLines: []int{1, 5}, New: true},
			{File: "web/app.ts", Class: "App", Function: "run", PreLines: []int{}, PostLines: []int{2, 3, 4}, New: true},
		}
		if !reflect.DeepEqual(res.Scopes, wantScopes) {
			t.Errorf("workers %d: scopes\n got %+v\nwant %+v", workers, res.Scopes, wantScopes)
		}
		wantFiles := []FileResult{
			{File: "lib/helpers.py", NewEntities: []Entity{}},
			{File: "pkg/server.go", NewEntities: []Entity{
				{Kind: "method", Class: "Server", Function: "listen", Start: 10, End: 12, Exported: false, Signature: "func (s *Server) listen() error"},
			}},
			{File: "web/app.ts", NewEntities: []Entity{
				{Kind: "class", Class: "App", Start: 1, End: 5, Exported: true, Signature: "export class App"},
				{Kind: "method", Class: "App", Function: "run", Start: 2, End: 4, Exported: true, Signature: "run = () =>"},
			}},
		}
		if !reflect.DeepEqual(res.Files, wantFiles) {
			t.Errorf("workers %d: files\n got %+v\nwant %+v", workers, res.Files, wantFiles)
		}
		wantSkipped := []Skip{
			{File: "core/Big.java", Reason: SkipTooLarge},
			{File: "src/Main.kt", Reason: SkipUnsupported},
			{File: "src/blob.c", Reason: SkipBinary},
		}
		got := make([]Skip, len(res.Skipped))
		for i, s := range res.Skipped {
			if s.Detail == "" {
				t.Errorf("skip %s: no detail", s.File)
			}
			got[i] = Skip{File: s.File, Reason: s.Reason}
		}
		if !reflect.DeepEqual(got, wantSkipped) {
			t.Errorf("workers %d: skipped\n got %+v\nwant %+v", workers, got, wantSkipped)
		}
	}
}

func TestResolveCancelled(t *testing.T) {
	dir, ch := resolveFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Resolve(ctx, dir, ch, Options{}); err != context.Canceled {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

func TestResolveBadRepo(t *testing.T) {
	_, ch := resolveFixture(t)
	_, err := Resolve(context.Background(), t.TempDir(), ch, Options{})
	if err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("got %v, want a not-a-repository error", err)
	}
}

// TestResolveTimeout: a parse over Options.ParseTimeout is a skip, not an
// error, and the other files still resolve.
func TestResolveTimeout(t *testing.T) {
	r := newTestRepo(t)
	huge := strings.Repeat("int f(int x) { return x + 1; }\n", 20000)
	base := r.commit(map[string]string{"a/huge.c": huge, "a/small.py": "def f():\n    pass\n"})
	head := r.commit(map[string]string{"a/huge.c": huge + "int g(void) { return 0; }\n", "a/small.py": "def f():\n    return 1\n"}, base)
	repo, err := diff.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(context.Background(), base.String(), head.String())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Resolve(context.Background(), r.dir, ch, Options{Workers: 1, ParseTimeout: time.Microsecond, MaxFileSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].File != "a/huge.c" || res.Skipped[0].Reason != SkipTimeout {
		t.Errorf("skipped %+v, want a/huge.c parse timeout", res.Skipped)
	}
	want := []Scope{{File: "a/small.py", Class: "", Function: "f", PreLines: []int{2}, PostLines: []int{2}}}
	if !reflect.DeepEqual(res.Scopes, want) {
		t.Errorf("scopes %+v, want %+v", res.Scopes, want)
	}
}

// TestClassBodyScopes: a field, a class attribute and an enum constant are
// changes of their class's body (issue 12); the blank line and the comment
// before an added method are not, nor is a class nested in a function.
func TestClassBodyScopes(t *testing.T) {
	res := resolveCommits(t, map[string]string{
		"m.py":   "class Meta:\n    name = 'x'\n\n    def get(self):\n        return self.name\n",
		"S.java": "class S {\n    int a;\n\n    void f() {}\n}\n",
		"k.go":   "package k\n\ntype K struct {\n\ta int\n}\n",
	}, map[string]string{
		"m.py":   "class Meta:\n    name = 'x'\n    license_files = None\n\n    def get(self):\n        return self.name\n\n    # A helper.\n    def put(self):\n        class Local:\n            z = 1\n        return Local\n",
		"S.java": "class S {\n    int a;\n    static final int B = 2;\n\n    void f() {}\n\n    /** Doc. */\n    void g() {}\n}\n",
		"k.go":   "package k\n\ntype K struct {\n\ta int\n\tb string\n}\n",
	})
	want := []Scope{
		{File: "S.java", Class: "", Function: "", PreLines: []int{}, PostLines: []int{6, 7}},
		{File: "S.java", Class: "S", Function: "", PreLines: []int{}, PostLines: []int{3}, Members: []MemberLines{{Name: "B", PreLines: []int{}, PostLines: []int{3}}}},
		{File: "S.java", Class: "S", Function: "g", PreLines: []int{}, PostLines: []int{8}, New: true},
		{File: "k.go", Class: "K", Function: "", PreLines: []int{}, PostLines: []int{5}, Members: []MemberLines{{Name: "b", PreLines: []int{}, PostLines: []int{5}}}},
		{File: "m.py", Class: "", Function: "", PreLines: []int{}, PostLines: []int{7, 8}},
		{File: "m.py", Class: "Meta", Function: "", PreLines: []int{}, PostLines: []int{3}, Members: []MemberLines{{Name: "license_files", PreLines: []int{}, PostLines: []int{3}}}},
		{File: "m.py", Class: "Meta", Function: "put", PreLines: []int{}, PostLines: []int{9, 10, 11, 12}, New: true},
	}
	if !reflect.DeepEqual(res.Scopes, want) {
		t.Fatalf("scopes\n got %+v\nwant %+v", res.Scopes, want)
	}
}

// TestClassBodyComments: a blank or comment line between the fields of a
// class body is a change of the body (issue 25 §3: "# Metadata 2.4 - PEP
// 639" between RawMetadata's fields), on both sides of the change, and so
// is one after the body's last field (Java: the closing brace follows);
// before a method or a nested class it stays file-level, as a doc comment
// does, and so does a run of them whose next code line starts one.
func TestClassBodyComments(t *testing.T) {
	res := resolveCommits(t, map[string]string{
		"meta.py": "class Raw(TypedDict, total=False):\n    name: str\n\n    # Metadata 2.3\n    # no fields\n    dynamic: list[str]\n\n    def keys(self):\n        return []\n",
		"k.go":    "package k\n\ntype K struct {\n\ta int\n}\n",
		"S.java":  "class S {\n    int a;\n}\n",
	}, map[string]string{
		"meta.py": "class Raw(TypedDict, total=False):\n    name: str\n\n    dynamic: list[str]\n\n    # Metadata 2.4 - PEP 639\n    license_expression: str\n    # trailing note\n\n    # A helper.\n    def keys(self):\n        return []\n\n    # Nested.\n    class Inner:\n        pass\n",
		"k.go":    "package k\n\ntype K struct {\n\ta int\n\t// b is new.\n\n\tb string\n}\n",
		"S.java":  "class S {\n    int a;\n    // b is new.\n    int b;\n    // end of the fields\n}\n",
	})
	want := []Scope{
		// The comment before b is b's; the one before the closing brace
		// is in no member.
		{File: "S.java", Class: "S", Function: "", PreLines: []int{}, PostLines: []int{3, 4, 5}, Members: []MemberLines{{Name: "b", PreLines: []int{}, PostLines: []int{3, 4}}}},
		{File: "k.go", Class: "K", Function: "", PreLines: []int{}, PostLines: []int{5, 6, 7}, Members: []MemberLines{{Name: "b", PreLines: []int{}, PostLines: []int{5, 6, 7}}}},
		// Lines 8 to 10 (a note, a blank line and the comment before the
		// method) and 13 and 14 (before the nested class) are file-level.
		{File: "meta.py", Class: "", Function: "", PreLines: []int{}, PostLines: []int{8, 9, 10, 13, 14}},
		// The deleted comments stood before dynamic; the new one stands
		// before license_expression.
		{File: "meta.py", Class: "Raw", Function: "", PreLines: []int{4, 5}, PostLines: []int{6, 7}, Members: []MemberLines{
			{Name: "dynamic", PreLines: []int{4, 5}, PostLines: []int{}}, {Name: "license_expression", PreLines: []int{}, PostLines: []int{6, 7}}}},
		{File: "meta.py", Class: "Raw.Inner", Function: "", PreLines: []int{}, PostLines: []int{15, 16}, New: true},
	}
	if !reflect.DeepEqual(res.Scopes, want) {
		t.Fatalf("scopes\n got %+v\nwant %+v", res.Scopes, want)
	}
}

// TestScopeMembers: a class-body scope names the members its lines
// change (issue 25 §3), as RawMetadata's body gains license_expression,
// with its comment, and license_files: a line inside a member's value is
// the member's, names declared together go to the first, an attribute
// docstring (PEP 257) is the member's before it, and a changed class
// docstring is in no member.
func TestScopeMembers(t *testing.T) {
	res := resolveCommits(t, map[string]string{
		"metadata.py": "class RawMetadata(TypedDict, total=False):\n    \"\"\"Raw.\"\"\"\n\n    name: str\n    dynamic: list[str]\n\n    TABLE = {\n        \"a\": 1,\n    }\n",
	}, map[string]string{
		"metadata.py": "class RawMetadata(TypedDict, total=False):\n    \"\"\"Raw metadata.\"\"\"\n\n    name: str\n    dynamic: list[str]\n\n    # Metadata 2.4 - PEP 639\n    license_expression: str\n    license_files: list[str]\n\n    TABLE = {\n        \"a\": 2,\n    }\n    A = B = 1\n    expression: str = \"\"\n    \"\"\"The SPDX\n    expression.\"\"\"\n",
	})
	// The diff adds lines 7 to 10: the blank line 10 stands before TABLE.
	want := []Scope{{File: "metadata.py", Class: "RawMetadata", Function: "", PreLines: []int{2, 8}, PostLines: []int{2, 7, 8, 9, 10, 12, 14, 15, 16, 17},
		Members: []MemberLines{
			{Name: "TABLE", PreLines: []int{8}, PostLines: []int{10, 12}},
			{Name: "license_expression", PreLines: []int{}, PostLines: []int{7, 8}},
			{Name: "license_files", PreLines: []int{}, PostLines: []int{9}},
			{Name: "A", PreLines: []int{}, PostLines: []int{14}},
			{Name: "expression", PreLines: []int{}, PostLines: []int{15, 16, 17}},
		}}}
	if !reflect.DeepEqual(res.Scopes, want) {
		t.Fatalf("scopes\n got %+v\nwant %+v", res.Scopes, want)
	}
}

// resolveCommits resolves the change from a commit of base's files to one
// of head's.
func resolveCommits(t *testing.T, base, head map[string]string) *Result {
	t.Helper()
	r := newTestRepo(t)
	b := r.commit(base)
	h := r.commit(head, b)
	repo, err := diff.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(context.Background(), b.String(), h.String())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Resolve(context.Background(), r.dir, ch, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
