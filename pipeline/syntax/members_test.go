package syntax

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lolbench/lolbench/pipeline/diff"
)

// TestMembers asserts every member of each fixture in testdata/members:
// kind, class, name, lines, exported flag and declaration. The comments
// say why the less obvious rows are (or are not) there.
func TestMembers(t *testing.T) {
	tests := []struct {
		file, language string
		want           []Member
	}{
		{"metadata_head.py", "Python", []Member{
			// PEP 639 shape: RawMetadata is a TypedDict (annotation-only fields), Metadata holds _Validator descriptors; __all__ (dunder) is no member, and the assignments of __init__ and from_raw are inside functions.
			{"constant", "", "T", 6, 6, true, "T = TypeVar(\"T\")"},
			{"field", "RawMetadata", "metadata_version", 14, 14, true, "metadata_version: str"},
			{"field", "RawMetadata", "name", 15, 15, true, "name: str"},
			{"field", "RawMetadata", "version", 16, 16, true, "version: str"},
			{"field", "RawMetadata", "dynamic", 18, 18, true, "dynamic: list[str]"},
			{"field", "RawMetadata", "license_expression", 21, 21, true, "license_expression: str"},
			{"field", "RawMetadata", "license_files", 22, 22, true, "license_files: list[str]"},
			{"constant", "", "_STRING_FIELDS", 25, 25, false, "_STRING_FIELDS = {…}"},
			{"field", "_Validator", "name", 29, 29, false, "name: str"},
			{"field", "_Validator", "added", 30, 30, false, "added: str"},
			{"field", "_Validator", "raw_name", 31, 31, false, "raw_name: str"},
			{"field", "Metadata", "_raw", 39, 39, false, "_raw: RawMetadata"},
			{"field", "Metadata", "metadata_version", 47, 47, true, "metadata_version: _Validator[str] = _Validator()"},
			{"field", "Metadata", "name", 49, 49, true, "name: _Validator[str] = _Validator()"},
			{"field", "Metadata", "version", 50, 50, true, "version: _Validator[str] = _Validator()"},
			{"field", "Metadata", "license", 51, 51, true, "license: _Validator[str | None] = _Validator()"},
			// The formatter-wrapped call reads as one line.
			{"field", "Metadata", "license_expression", 52, 54, true, "license_expression: _Validator[NormalizedLicenseExpression | None] = _Validator(added=\"2.4\")"},
			{"field", "Metadata", "license_files", 56, 56, true, "license_files: _Validator[list[str] | None] = _Validator(added=\"2.4\")"},
		}},
		{"spdx.py", "Python", []Member{
			{"constant", "", "VERSION", 4, 4, true, "VERSION = \"3.25.0\""},
			// Long dict literals are cut to their brackets.
			{"constant", "", "LICENSES", 6, 11, true, "LICENSES: dict[str, dict[str, str | bool]] = {…}"},
			{"constant", "", "EXCEPTIONS", 13, 16, true, "EXCEPTIONS = {…}"},
			{"variable", "", "_x", 18, 18, false, "_x = 1"},
		}},
		{"edge.py", "Python", []Member{
			// Nested target patterns ((B, C)) are not read; augmented assignments (first += 1) and attribute targets (typing.extra) declare nothing.
			{"constant", "", "A", 5, 5, true, "A, (B, C) = 1, (2, 3)"},
			{"variable", "", "first", 6, 6, true, "first = second = 0"},
			{"variable", "", "second", 6, 6, true, "first = second = 0"},
			// if and try blocks at module level declare module members; a name declared twice is listed twice here (NewMembers keeps the first).
			{"constant", "", "CHECKED", 11, 11, true, "CHECKED: int = 0"},
			{"constant", "", "HAS_JSON", 14, 14, true, "HAS_JSON = True"},
			{"constant", "", "HAS_JSON", 16, 16, true, "HAS_JSON = False"},
			// A decorated class; __slots__ is a dunder, self.entries is set in a method, and Local is a class inside a function: none is listed.
			{"field", "Cache", "size", 31, 31, true, "size = limit = 10"},
			{"field", "Cache", "limit", 31, 31, true, "size = limit = 10"},
			{"field", "Cache.Entry", "key", 37, 37, true, "key: str"},
			{"field", "Cache.Entry", "_value", 38, 38, false, "_value: object"},
		}},
		{"store_head.go", "Go", []Member{
			// Constants inside sweep, the fields of a struct declared in a function and of a type alias, and the fields of the anonymous struct of Extra are not members.
			{"constant", "", "NoExpiry", 10, 10, true, "const NoExpiry time.Duration = -1"},
			{"constant", "", "Missing", 11, 11, true, "const Missing time.Duration = -2"},
			{"constant", "", "missing2", 12, 12, false, "const missing2 = -3"},
			{"variable", "", "ErrInvalidTTL", 16, 16, true, "var ErrInvalidTTL, errOther = errors.New(\"invalid ttl\"), errors.New(\"other\")"},
			{"variable", "", "errOther", 16, 16, false, "var ErrInvalidTTL, errOther = errors.New(\"invalid ttl\"), errors.New(\"other\")"},
			{"variable", "", "defaultClock", 18, 18, false, "var defaultClock = time.Now"},
			{"field", "Item", "Key", 22, 22, true, "Key string"},
			{"field", "Item", "Value", 23, 23, true, "Value string"},
			{"field", "Item", "ExpiresAt", 24, 24, true, "ExpiresAt time.Time `json:\"expires_at,omitempty\"`"},
			{"field", "Item", "expired", 25, 25, false, "expired bool"},
			// An embedded field is named by its type.
			{"field", "Item", "Meta", 26, 26, true, "*Meta"},
			{"field", "Item", "Extra", 27, 29, true, "Extra struct {Note string}"},
			{"field", "value", "data", 33, 33, false, "data string"},
			// An upper-case field of an unexported struct is not exported.
			{"field", "value", "ExpiresAt", 34, 34, false, "ExpiresAt time.Time"},
			{"variable", "", "Table", 38, 40, true, "var Table = map[string]int{…}"},
		}},
		{"Config_head.java", "Java", []Member{
			{"constant", "Config", "NAME", 4, 4, true, "public static final String NAME = \"config\""},
			{"constant", "Config", "MAX_SIZE", 5, 5, true, "public static final int MAX_SIZE = 10, MIN_SIZE = 1"},
			{"constant", "Config", "MIN_SIZE", 5, 5, true, "public static final int MAX_SIZE = 10, MIN_SIZE = 1"},
			// protected is not public API, as for methods (Entity.Exported).
			{"constant", "Config", "RETRIES", 6, 6, false, "protected static final int RETRIES = 3"},
			{"field", "Config", "count", 7, 7, false, "private int count"},
			{"field", "Config", "timeout", 8, 8, true, "public long timeout"},
			{"field", "Config", "legacy", 9, 10, true, "@Deprecated public String legacy"},
			// Interface fields are public constants; enum constants are as public as their enum, and the field inside SAFE's body is not a member; locals and the anonymous class in get are not either.
			{"constant", "Config.Keys", "HOST", 19, 19, true, "String HOST = \"host\""},
			{"enum constant", "Config.Mode", "FAST", 23, 23, true, "FAST"},
			{"enum constant", "Config.Mode", "SAFE", 23, 25, true, "SAFE(\"safe\")"},
			{"field", "Config.Mode", "label", 26, 26, true, "public final String label = \"m\""},
			// A public field of a package-private class is not exported.
			{"field", "Config.Hidden", "visible", 32, 32, false, "public int visible"},
			{"field", "PackagePrivate", "x", 37, 37, false, "public int x"},
		}},
		{"limits.rs", "Rust", []Member{
			// handler (an arrow function) and onChange are functions, not members; inside is local to run; the namespace is a block; describe is a method signature.
			{"constant", "", "MAX", 1, 1, true, "pub const MAX: usize = 10"},
			{"constant", "", "HIDDEN", 2, 2, false, "const HIDDEN: u8 = 1"},
			// pub(crate) is not public API.
			{"variable", "", "COUNT", 3, 3, false, "pub(crate) static COUNT: u32 = 0"},
			{"field", "Config", "name", 6, 6, true, "pub name: String"},
			{"field", "Config", "retries", 7, 7, false, "retries: u8"},
			{"variant", "Mode", "Fast", 11, 11, true, "Fast"},
			// A struct variant's fields belong to the variant.
			{"variant", "Mode", "Slow", 12, 12, true, "Slow { delay: u32 }"},
			// impl consts belong to the type; LOCAL, inside a function, does not.
			{"constant", "Config", "DEFAULT_RETRIES", 16, 16, true, "pub const DEFAULT_RETRIES: u8 = 3"},
			{"constant", "Config", "SECRET", 17, 17, false, "const SECRET: u8 = 4"},
			// Trait members are as public as the trait; mod blocks are no classes.
			{"constant", "Limits", "LIMIT", 26, 26, true, "const LIMIT: usize"},
			{"constant", "", "NESTED", 30, 30, true, "pub const NESTED: u8 = 6"},
		}},
		{"config.ts", "TypeScript", []Member{
			{"constant", "", "MAX", 1, 1, true, "const MAX = 10, handler = () => 1"},
			{"constant", "", "LOCAL", 2, 2, false, "const LOCAL = 2"},
			{"variable", "", "mode", 3, 3, true, "let mode: string"},
			{"field", "Config", "name", 6, 6, true, "public name: string = \"x\""},
			{"field", "Config", "secret", 7, 7, false, "private secret = 1"},
			{"field", "Config", "#hidden", 8, 8, false, "#hidden = 2"},
			// A long object literal is cut to its braces.
			{"field", "Config", "DEFAULT", 9, 9, true, "static readonly DEFAULT = {…}"},
			// A class without export is not exported, nor are its members.
			{"field", "Internal", "value", 17, 17, false, "value = 1"},
			{"field", "Options", "retries", 21, 21, true, "retries: number"},
			{"field", "Options", "timeout", 22, 22, true, "readonly timeout?: number"},
			{"enum constant", "Level", "Low", 27, 27, true, "Low"},
			{"enum constant", "Level", "High", 28, 28, true, "High = 2"},
		}},
		{"config.js", "JavaScript", []Member{
			{"constant", "", "VERSION", 1, 1, true, "const VERSION = \"1.0\""},
			{"variable", "", "counter", 2, 2, true, "var counter = 0"},
			{"variable", "", "local", 3, 3, false, "let local = 1"},
			{"field", "Store", "size", 6, 6, true, "size = 0"},
			// push, an arrow function, is a function.
			{"field", "Store", "#items", 7, 7, false, "#items = []"},
			{"field", "Store", "LIMIT", 8, 8, true, "static LIMIT = 100"},
		}},
		{"Config.cs", "C#", []Member{
			{"constant", "Config", "Max", 3, 3, true, "public const int Max = 10"},
			{"constant", "Config", "Name", 4, 4, true, "public static readonly string Name = \"n\", Alias = \"a\""},
			{"constant", "Config", "Alias", 4, 4, true, "public static readonly string Name = \"n\", Alias = \"a\""},
			{"field", "Config", "count", 5, 5, false, "private int count"},
			// internal is not public API; Retries, a property, is a function; local is inside Run.
			{"field", "Config", "shared", 6, 6, false, "internal int shared"},
			{"field", "Config", "Timeout", 7, 7, true, "public int Timeout"},
			{"field", "Config", "Changed", 8, 8, true, "public event EventHandler Changed"},
			{"enum constant", "Level", "Low", 16, 16, true, "Low"},
			{"enum constant", "Level", "High", 16, 16, true, "High = 2"},
			// Hidden has no modifier: internal.
			{"field", "Hidden", "Visible", 23, 23, false, "public int Visible"},
		}},
	}
	p := NewParser()
	defer p.Close()
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "members", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := p.Members(tc.language, src)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("members of %s:\n%s", tc.file, diffMembers(got, tc.want))
			}
			checkMembers(t, src, got)
		})
	}
}

// diffMembers lists the members one side has and the other lacks.
func diffMembers(got, want []Member) string {
	var b strings.Builder
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w Member
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			b.WriteString("  got  " + fmtMember(g) + "\n  want " + fmtMember(w) + "\n")
		}
	}
	return b.String()
}

func fmtMember(m Member) string {
	return strings.Join([]string{m.Kind, m.Qualified(), itoa(m.Start) + "-" + itoa(m.End), map[bool]string{true: "exported", false: "private"}[m.Exported], m.Declaration}, " | ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkMembers asserts the invariants every member list keeps.
func checkMembers(t *testing.T, src []byte, ms []Member) {
	t.Helper()
	lines := bytes.Count(src, []byte("\n")) + 1
	prev := 0
	for _, m := range ms {
		text := m.Class + m.Name + m.Declaration
		switch {
		case m.Start < 1 || m.Start > m.End || m.End > lines:
			t.Fatalf("member %+v: lines outside 1..%d", m, lines)
		case m.Start < prev:
			t.Fatalf("member %+v: out of line order", m)
		case m.Name == "" || m.Kind == "":
			t.Fatalf("member %+v: no name or kind", m)
		case !utf8.ValidString(text):
			t.Fatalf("member %+v: invalid UTF-8", m)
		case strings.ContainsAny(text, "\n\r\u2028\u2029\u0085"):
			t.Fatalf("member %+v: multi-line text", m)
		case len(m.Declaration) > maxSignature || len(m.Name) > maxName || len(m.Class) > maxPath:
			t.Fatalf("member %+v: text too long", m)
		}
		prev = m.Start
	}
}

// TestMemberGrammars: every member query compiles for its grammar (TSX
// shares TypeScript's), and a language without member rules says so.
func TestMemberGrammars(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for language := range memberGrammarNames {
		if !Supported(language) {
			t.Errorf("%s has member rules and no grammar", language)
		}
		if ms, err := p.Members(language, nil); err != nil || len(ms) != 0 {
			t.Errorf("%s: members %v, err %v", language, ms, err)
		}
	}
	for _, language := range []string{"C", "C++", "C/C++ Header", "Kotlin"} {
		if _, err := p.Members(language, []byte("int x;")); !errors.Is(err, ErrUnsupported) || HasMembers(language) {
			t.Errorf("%s: err %v, HasMembers %v; want ErrUnsupported", language, err, HasMembers(language))
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"_Validator(\n        added=\"2.4\"\n    )", `_Validator(added="2.4")`},
		{"a  =\t1", "a = 1"},
		{"{ \"a\": 1 }", `{ "a": 1 }`},
		{"[\n  1,\n  2,\n]", "[1, 2,]"},
		{"  x \n", "x"},
		{"a\u2028b\u00a0c", "a b c"},
		{"\xff\xfe", "\uFFFD"},
		{"f(\r\n)", "f()"},
	} {
		if got := oneLine(tc.in); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestDeclarationCuts: short values stay, long ones are cut to their
// brackets or to a prefix; a declaration is bounded whatever its value.
func TestDeclarationCuts(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, tc := range []struct{ src, want string }{
		{"X = {'a': 1}\n", "X = {'a': 1}"},
		{"X = {" + strings.Repeat("'k': 1, ", 20) + "}\n", "X = {…}"},
		{"X = frozenset({" + strings.Repeat("'k', ", 20) + "})\n", "X = frozenset(…)"},
		{"X = " + long + "\n", "X = " + long[:maxValue] + "…"},
		{"X = f(" + long + ")[0]\n", "X = f(" + long[:maxValue-2] + "…"},
		{"X: dict[str, int] = {\n" + strings.Repeat("    'k': 1,\n", 100000) + "}\n", "X: dict[str, int] = {…}"},
		{"X = '" + strings.Repeat("é", 100) + "'\n", "X = '" + strings.Repeat("é", 29) + "…"},
	} {
		p := NewParser()
		ms, err := p.Members("Python", []byte(tc.src))
		p.Close()
		if err != nil || len(ms) != 1 || ms[0].Declaration != tc.want {
			t.Errorf("%.40q: members %+v, err %v; want declaration %q", tc.src, ms, err, tc.want)
		}
	}
}

// TestMembersHostile: deep nesting, many members and huge literals in
// every language with member rules finish (the walks are iterative and
// the declarations bounded) and keep the invariants.
func TestMembersHostile(t *testing.T) {
	const depth = 5000
	var py bytes.Buffer
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&py, "%sclass C:\n%s    x = 1\n", strings.Repeat("    ", i), strings.Repeat("    ", i))
	}
	inputs := map[string][]byte{
		"Python":     py.Bytes(),
		"Go":         []byte("package p\ntype S struct {\n" + strings.Repeat("F struct {\n", depth) + strings.Repeat("}\n", depth) + "}\nvar X = " + strings.Repeat("[]any{", depth) + strings.Repeat("}", depth) + "\n"),
		"Java":       []byte(strings.Repeat("public class A { public int f; ", depth) + strings.Repeat("}", depth)),
		"Rust":       []byte(strings.Repeat("pub mod m { pub struct S { pub f: u8 } ", depth) + strings.Repeat("}", depth)),
		"TypeScript": []byte("export enum E { " + strings.Repeat("A = (class { m() { enum F { ", depth/10) + strings.Repeat("} } }),", depth/10) + " }\n"),
		"JavaScript": []byte("export const X = " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + ";\n"),
		"C#":         []byte(strings.Repeat("public class C { public int f; ", depth) + strings.Repeat("}", depth)),
	}
	many := "package p\ntype S struct {\n" + strings.Repeat("\tA, B, C int\n", 50000) + "}\n"
	p := NewParser()
	defer p.Close()
	for language, src := range inputs {
		ms, err := p.Members(language, src)
		if err != nil {
			t.Fatalf("%s: %v", language, err)
		}
		checkMembers(t, src, ms)
	}
	ms, err := p.Members("Go", []byte(many))
	if err != nil || len(ms) != 150000 {
		t.Fatalf("many fields: %d members, err %v", len(ms), err)
	}
	// A class nested 1,000 deep is named as Entities names it.
	ms, err = p.Members("Python", py.Bytes())
	ents, _ := p.Entities("Python", py.Bytes())
	if err != nil || len(ms) != 1000 || len(ents) == 0 || ms[999].Class != ents[len(ents)-1].Class || !strings.HasSuffix(ms[999].Class, ".C.C") {
		t.Fatalf("deep classes: %d members, err %v", len(ms), err)
	}
}

// fuzzMemberLanguages are the grammars FuzzMembers picks from by index.
var fuzzMemberLanguages = []string{"Python", "Go", "Java", "Rust", "TypeScript", "TSX", "JavaScript", "C#"}

// FuzzMembers feeds any bytes to any member grammar: no panic, no error,
// and every member is well-formed. Seeds: the member and scope fixtures
// in every language, and shapes of the hostile tests.
func FuzzMembers(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "members", "*"))
	scopes, _ := filepath.Glob(filepath.Join("testdata", "scopes", "*"))
	for _, file := range append(files, scopes...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for i := range fuzzMemberLanguages {
			f.Add(uint8(i), src)
		}
	}
	f.Add(uint8(0), []byte("X: \xff = (\n\u2028 {[}\nclass \xc3:\n  a = b = c = (\n"))
	f.Add(uint8(1), []byte("package p\ntype S struct { *(**T); A, , B int `x`\n"))
	f.Add(uint8(2), []byte("enum E { A { int x; }, B(new Object() { public int y; }) ; public int z = 1, w; }"))
	f.Add(uint8(4), []byte("export enum E { 'a-b' = 1, [x] = 2, }\nexport class { x = 1 }\n"))
	p := NewParser()
	defer p.Close()
	f.Fuzz(func(t *testing.T, li uint8, src []byte) {
		language := fuzzMemberLanguages[int(li)%len(fuzzMemberLanguages)]
		ms, err := p.Members(language, src)
		if err != nil {
			t.Fatalf("%s: %v", language, err)
		}
		checkMembers(t, src, ms)
	})
}

// fixture reads a file of testdata/members.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "members", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pick returns the members of a fixture with the given qualified names, in
// file order (TestMembers asserts each one's fields).
func pick(t *testing.T, name, language string, qualified ...string) []Member {
	t.Helper()
	p := NewParser()
	defer p.Close()
	all, err := p.Members(language, []byte(fixture(t, name)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, q := range qualified {
		want[q] = true
	}
	out := []Member{}
	for _, m := range all {
		if want[m.Qualified()] {
			out = append(out, m)
			delete(want, m.Qualified())
		}
	}
	if len(want) != 0 {
		t.Fatalf("%s has no member %v", name, want)
	}
	return out
}

// TestNewMembers runs NewMembers on a change shaped like PEP 639's
// packaging PR (pypa/packaging#828) beside Go and Java changes, a rename,
// a C file (no member rules), a Kotlin file (no grammar), a test and a
// deleted file.
func TestNewMembers(t *testing.T) {
	r := newTestRepo(t)
	base := r.commit(map[string]string{
		"packaging/metadata.py":                 fixture(t, "metadata_base.py"),
		"src/store/store.go":                    fixture(t, "store_base.go"),
		"src/main/java/org/example/Config.java": fixture(t, "Config_base.java"),
		"lib/old_name.py":                       "class Conf:\n    debug = False\n\n    def get(self):\n        return self.debug\n",
		"native/point.c":                        "struct point { int x; };\n",
		"src/Main.kt":                           "fun main() {\n}\n",
		"tests/test_metadata.py":                "X = 1\n",
		"packaging/gone.py":                     "GONE = 1\n",
	})
	head := r.commit(map[string]string{
		"packaging/metadata.py":                 fixture(t, "metadata_head.py"),
		"packaging/licenses/_spdx.py":           fixture(t, "spdx.py"),
		"src/store/store.go":                    fixture(t, "store_head.go"),
		"src/main/java/org/example/Config.java": fixture(t, "Config_head.java"),
		"lib/new_name.py":                       "class Conf:\n    debug = False\n    verbose = True\n\n    def get(self):\n        return self.debug\n",
		"native/point.c":                        "struct point { int x; int y; };\n",
		"src/Main.kt":                           "fun main() {\n    println()\n}\n",
		"tests/test_metadata.py":                "X = 1\nNEW = 2\n",
	}, base)
	repo, err := diff.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := repo.Diff(context.Background(), base.String(), head.String())
	if err != nil {
		t.Fatal(err)
	}
	want := &MemberResult{
		Files: []FileMembers{
			// Renamed: compared with the old path, so debug is not new.
			{"lib/new_name.py", []Member{{"field", "Conf", "verbose", 3, 3, true, "verbose = True"}}},
			{"native/point.c", []Member{}},
			// A new module: every public module member; _x is private.
			{"packaging/licenses/_spdx.py", pick(t, "spdx.py", "Python", "VERSION", "LICENSES", "EXCEPTIONS")},
			// The PEP 639 members; _Validator.raw_name is private
			// and _STRING_FIELDS, changed, is private and not new.
			{"packaging/metadata.py", pick(t, "metadata_head.py", "Python",
				"RawMetadata.license_expression", "RawMetadata.license_files", "Metadata.license_expression", "Metadata.license_files")},
			// Keys and Mode are new classes, so all their public members
			// are new; RETRIES is protected, count private, Hidden and
			// PackagePrivate not public.
			{"src/main/java/org/example/Config.java", pick(t, "Config_head.java", "Java",
				"Config.MAX_SIZE", "Config.MIN_SIZE", "Config.timeout", "Config.legacy", "Config.Keys.HOST",
				"Config.Mode.FAST", "Config.Mode.SAFE", "Config.Mode.label")},
			// Item.Key and Item.Value are realigned (added lines) but not
			// new; value.ExpiresAt is in an unexported struct.
			{"src/store/store.go", pick(t, "store_head.go", "Go",
				"Missing", "ErrInvalidTTL", "Item.ExpiresAt", "Item.Meta", "Item.Extra", "Table")},
		},
		Skipped: []Skip{{File: "src/Main.kt", Reason: SkipUnsupported, Detail: "src/Main.kt: no syntax scopes for Kotlin"}},
	}
	for _, workers := range []int{1, 3} {
		got, err := NewMembers(context.Background(), r.dir, ch, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("workers %d:\n got %+v\nwant %+v", workers, got, want)
		}
	}
	if _, err := NewMembers(context.Background(), r.dir, nil, Options{}); err == nil {
		t.Fatal("no error for a nil change")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewMembers(ctx, r.dir, ch, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: err %v", err)
	}
}

// TestAddedMembers: new by name and on an added line, exported, each name
// once.
func TestAddedMembers(t *testing.T) {
	m := func(class, name string, start, end int, exported bool) Member {
		return Member{Kind: "field", Class: class, Name: name, Start: start, End: end, Exported: exported}
	}
	pre := []Member{m("A", "old", 2, 2, true)}
	post := []Member{
		m("A", "old", 2, 2, true),       // realigned: not new
		m("A", "fresh", 3, 5, true),     // added line 5 is inside
		m("A", "_private", 6, 6, false), // not exported
		m("B", "moved", 7, 7, true),     // no added line: a renamed class
		m("", "TWICE", 8, 8, true),
		m("", "TWICE", 9, 9, true), // listed once, at its first declaration
	}
	got := addedMembers(pre, post, []int{2, 5, 6, 8, 9})
	want := []Member{post[1], post[4]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
