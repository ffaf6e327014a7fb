// Package testid reads a test id, as the result parsers write it
// (pipeline/results), back to the test's file, class and function:
// the test-to-section map and the per-test coverage need the test's real
// file, whatever shape its id has (issue 12: a class-qualified pytest id
// was once read as a folder).
//
// The shapes, by format:
//
//   - pytest-ra: "tests/test_x.py::TestK::test_m[a b]": the file, then
//     classes, then the function with its parameters.
//   - junit from pytest: classname "tests.test_x.TestK", name "test_m[p]":
//     the longest dotted prefix of the classname that names a test file is
//     the file, the rest the class.
//   - junit from Maven or Gradle: classname "com.ex.FooTest" (or
//     "com.ex.Outer$Inner"), name "testBar" or "testBar()": the file whose
//     path ends in com/ex/FooTest.java (or .kt, .scala, .groovy).
//   - junit from jest (jest-junit): name "describe › it", classname the
//     suite or the file's path: the file is the classname when it is one,
//     else the test file that holds the test's title.
//   - junit from lolbench-node-test (node:test): classname the file,
//     name "describe › it" as jest's, or a top-level test's own title.
//   - "pkg.Class#method", the form JUnit tools print: as Maven's.
//   - go-json: "example.com/m/store.TestX/sub": the package, the function
//     and its subtests; the file is the _test.go file of the package's
//     folder that declares the function, and the subtest path is kept
//     exactly as go test reports it (spaces made "_", "#01" on a repeated
//     name) in Ref.Sub. A subtest that is a suite's method is located as
//     the method (issue 36 §3): grpc-go's grpctest runs each method
//     TestName of the value its runner passes (`func Test(t *testing.T) {
//     grpctest.RunSubTests(t, s{}) }`) as subtest "Name" of the runner,
//     testify's suite.Run as subtest "TestName"; when a _test.go file of
//     the package declares such a method on a type that the runner's body
//     names, the Ref is that method (Class its receiver type), with the
//     runner in Runner. Ref.Scopes lists the scopes a mapping row may name
//     the test by.
//   - junit from CTest: the test's name alone, "Suite.Name" as
//     gtest_discover_tests names a GoogleTest test ("Inst/Suite.Name/0"
//     when parameterized); the file is the C or C++ test file that
//     declares both the suite and the test.
//   - junit from CPython's regrtest: the unittest id alone, no classname,
//     "test.test_tarfile.TestExtractionFilters.test_data_filter": the
//     module, which names a .py file under any folder
//     (Lib/test/test_tarfile.py), then the class and the method
//     (unittest.go).
//   - cargo: "binary::module::tests::name": an integration test binary is
//     tests/<binary>.rs; otherwise the file under src/ that declares the
//     function, preferring the one the module path names.
//
// Ids of failures that are no test ("pkg [package]", "crate [build]") are
// not located.
package testid

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"sort"
	"strings"
)

// Ref is where a test lives.
type Ref struct {
	// File is the test file's repository path.
	File string `json:"file"`
	// Class is the test's class, dotted when nested; empty for none. For
	// a Go suite method, its receiver type.
	Class string `json:"class,omitempty"`
	// Func is the test function, without subtests or parameters.
	Func string `json:"func"`
	// Sub is the Go subtest path below Func, as go test reports it
	// ("case_name", "a/b"); empty for the whole test.
	Sub string `json:"sub,omitempty"`
	// Runner is, for a Go suite method, the top-level test that runs it;
	// the zero Runner for any other test.
	Runner Runner `json:"runner,omitzero"`
}

// Runner is a top-level Go test that runs a suite's methods as its
// subtests (grpctest.RunSubTests, testify's suite.Run).
type Runner struct {
	// File declares the runner, Func is its name.
	File string `json:"file"`
	Func string `json:"func"`
	// Sub is the test's subtest path under the runner, as go test
	// reports it ("Balancer_OneAddress", "Balancer_OneAddress/case").
	Sub string `json:"sub"`
}

// Scope is a (file, class, function) scope as a mapping row names it.
type Scope struct {
	File, Class, Func string
}

// Scopes are the scopes whose rows name the test, the whole test first:
// its function, then each subtest path below it ("TestX", "TestX/a",
// "TestX/a/b"), a row naming a test naming all its subtests; for a suite
// method, also its runner and the runner's subtest paths down to it
// ("Test", "Test/Balancer_OneAddress"), in the runner's file.
func (r Ref) Scopes() []Scope {
	out := []Scope{{r.File, r.Class, r.Func}}
	out = appendSubs(out, Scope{r.File, r.Class, r.Func}, r.Sub)
	if r.Runner.Func != "" {
		top := Scope{r.Runner.File, "", r.Runner.Func}
		out = appendSubs(append(out, top), top, r.Runner.Sub)
	}
	return out
}

// appendSubs appends, for each "/"-level of sub, the scope of s's
// function with the subtest path down to that level.
func appendSubs(out []Scope, s Scope, sub string) []Scope {
	for i := 0; sub != "" && i <= len(sub); i++ {
		if i == len(sub) || sub[i] == '/' {
			out = append(out, Scope{s.File, s.Class, s.Func + "/" + sub[:i]})
		}
	}
	return out
}

// Declares reports whether a repository file declares a test named name
// (a function, or for jest a test title); Locate asks it where an id does
// not say the file.
type Declares func(file, name string) bool

// Source is what Locate reads of a repository. One Source serves any
// number of ids and keeps what it parsed; it is not safe for concurrent
// use.
type Source struct {
	// Files are the repository's paths (its test files at least).
	Files []string
	// Declares tells which file declares a test; nil: any file of the
	// right kind may.
	Declares Declares
	// Read returns a file's content. Locate parses Go test files with it
	// to find the suite methods runners run as subtests, and which file
	// declares a top-level test; nil: neither is looked for.
	Read func(file string) []byte

	set     map[string]bool
	goDecls map[string]*goDecls
}

// Locate finds the test of id, in a result format, among the source's
// files. It reports false when the id is no test or no file fits.
func Locate(format, id string, src *Source) (Ref, bool) {
	if strings.HasSuffix(id, "]") && strings.Contains(id, " [") && !strings.Contains(id, "::") {
		return Ref{}, false // "pkg [package]", "crate [build]"
	}
	if src.set == nil {
		src.set = make(map[string]bool, len(src.Files))
		for _, f := range src.Files {
			src.set[f] = true
		}
	}
	files, declares, set := src.Files, src.Declares, src.set
	switch format {
	case "pytest-ra":
		return pytestNode(id, set)
	case "go-json":
		return goTest(id, src)
	case "cargo":
		return cargoTest(id, files, declares)
	}
	// junit and anything else: "classname::name", or "Class#method".
	cls, name, ok := strings.Cut(id, "::")
	if !ok {
		if cls, name, ok = strings.Cut(id, "#"); !ok {
			if r, ok := unittestID(id, files); ok {
				return r, true
			}
			return ctestTest(id, files, declares)
		}
	}
	if r, ok := pytestNode(id, set); ok {
		return r, true
	}
	if strings.Contains(name, " › ") || strings.Contains(name, " > ") {
		return jestTest(cls, name, files, set, declares)
	}
	if set[cls] && path.Ext(cls) != ".py" {
		// lolbench's node:test reporter: the classname is the file, the
		// name a test's title, outside any describe block.
		return Ref{File: cls, Func: name}, name != ""
	}
	if r, ok := dottedPython(cls, name, set); ok {
		return r, true
	}
	if r, ok := jvmTest(cls, name, files); ok {
		return r, true
	}
	if strings.Contains(cls, "/") && !strings.Contains(cls, " ") {
		// go-junit-report: the classname is the import path.
		return goTest(cls+"."+name, src)
	}
	return Ref{}, false
}

// Bare drops a test function's parameters and invocation: pytest's
// "test_m[a b]", JUnit's "testBar()", and Surefire's name of a JUnit 5
// parameterized invocation, "testBar{int, String}[1]" (issue 22: cut only
// at "[", it named a method "testBar{int, String}" that -Dtest runs none
// of).
func Bare(name string) string {
	if i := strings.IndexAny(name, "[({"); i > 0 {
		name = name[:i]
	}
	return strings.TrimSpace(name)
}

func pytestNode(id string, set map[string]bool) (Ref, bool) {
	parts := strings.Split(id, "::")
	if len(parts) < 2 || !strings.HasSuffix(parts[0], ".py") {
		return Ref{}, false
	}
	r := Ref{File: parts[0], Class: strings.Join(parts[1:len(parts)-1], "."), Func: Bare(parts[len(parts)-1])}
	if len(set) > 0 && !set[r.File] {
		return Ref{}, false
	}
	return r, r.Func != ""
}

// dottedPython reads pytest's JUnit classname: module path, then classes.
func dottedPython(cls, name string, set map[string]bool) (Ref, bool) {
	el := strings.Split(cls, ".")
	for i := len(el); i > 0; i-- {
		f := strings.Join(el[:i], "/") + ".py"
		if set[f] {
			return Ref{File: f, Class: strings.Join(el[i:], "."), Func: Bare(name)}, Bare(name) != ""
		}
	}
	return Ref{}, false
}

var jvmExts = []string{".java", ".kt", ".scala", ".groovy"}

// jvmTest reads a JVM classname: package, class, "$" for nested classes.
func jvmTest(cls, name string, files []string) (Ref, bool) {
	outer, nested, _ := strings.Cut(cls, "$")
	rel := strings.ReplaceAll(outer, ".", "/")
	var found []string
	for _, f := range files {
		for _, ext := range jvmExts {
			if strings.HasSuffix(f, "/"+rel+ext) || f == rel+ext {
				found = append(found, f)
			}
		}
	}
	if len(found) == 0 {
		return Ref{}, false
	}
	sort.Strings(found)
	class := path.Base(rel)
	if nested != "" {
		class += "." + strings.ReplaceAll(nested, "$", ".")
	}
	return Ref{File: found[0], Class: class, Func: Bare(name)}, Bare(name) != ""
}

// jestTest: "describe › it". The classname is the file when it is one.
func jestTest(cls, name string, files []string, set map[string]bool, declares Declares) (Ref, bool) {
	sep := " › "
	if !strings.Contains(name, sep) {
		sep = " > "
	}
	parts := strings.Split(name, sep)
	title := strings.TrimSpace(parts[len(parts)-1])
	class := strings.Join(parts[:len(parts)-1], " › ")
	if set[cls] {
		return Ref{File: cls, Class: class, Func: title}, true
	}
	if declares == nil {
		return Ref{}, false
	}
	for _, f := range files {
		if declares(f, title) {
			return Ref{File: f, Class: class, Func: title}, true
		}
	}
	return Ref{}, false
}

// goTestPrefixes are the names go test runs.
var goTestPrefixes = []string{"Test", "Example", "Fuzz", "Benchmark"}

// goTest reads "importpath.TestX/sub".
func goTest(id string, src *Source) (Ref, bool) {
	pkg, fn := "", ""
	for i := 0; i < len(id); i++ {
		if id[i] != '.' {
			continue
		}
		rest := id[i+1:]
		for _, p := range goTestPrefixes {
			if strings.HasPrefix(rest, p) && (len(rest) == len(p) || !isLower(rest[len(p)])) {
				pkg, fn = id[:i], rest
				break
			}
		}
		if fn != "" {
			break
		}
	}
	if fn == "" {
		return Ref{}, false
	}
	top, sub, _ := strings.Cut(fn, "/")
	var cands, parsed []string
	for _, f := range src.Files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		dir := path.Dir(f)
		if dir == "." || pkg == dir || strings.HasSuffix(pkg, "/"+dir) {
			if src.Declares == nil || src.Declares(f, top) {
				cands = append(cands, f)
			}
			if src.Read != nil && src.goFile(f).funcs[top] {
				parsed = append(parsed, f)
			}
		}
	}
	if len(parsed) > 0 {
		// The files that declare the function, not just the name.
		cands = parsed
	}
	if len(cands) == 0 {
		return Ref{}, false
	}
	// The deepest folder that the import path ends in wins ("m/x/store"
	// over the root folder).
	sort.SliceStable(cands, func(a, b int) bool { return len(path.Dir(cands[a])) > len(path.Dir(cands[b])) })
	if sub != "" && src.Read != nil {
		if r, ok := src.suiteMethod(cands[0], top, sub); ok {
			return r, true
		}
	}
	return Ref{File: cands[0], Func: top, Sub: sub}, true
}

// suiteMethod locates subtest sub of runner top, declared in runnerFile,
// as a suite method: a method of a _test.go file of the runner's folder,
// named as grpctest ("Test" + the subtest's name) or testify (the
// subtest's name) runs it, on a type the runner's body names.
func (src *Source) suiteMethod(runnerFile, top, sub string) (Ref, bool) {
	seg, rest, _ := strings.Cut(sub, "/")
	var names []string
	if strings.HasPrefix(seg, "Test") && (len(seg) == 4 || !isLower(seg[4])) {
		names = append(names, seg)
	}
	names = append(names, "Test"+seg)
	named := src.goFile(runnerFile).idents[top]
	if len(named) == 0 {
		return Ref{}, false
	}
	dir := path.Dir(runnerFile)
	var files []string
	for _, f := range src.Files {
		if strings.HasSuffix(f, "_test.go") && path.Dir(f) == dir {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	for _, name := range names {
		for _, f := range files {
			for _, recv := range src.goFile(f).methods[name] {
				if named[recv] {
					return Ref{File: f, Class: recv, Func: name, Sub: rest, Runner: Runner{File: runnerFile, Func: top, Sub: sub}}, true
				}
			}
		}
	}
	return Ref{}, false
}

// goDecls is what a Go test file declares: its top-level functions, its
// methods by name with their receiver types, and the identifiers each
// top-level test function's body uses.
type goDecls struct {
	funcs   map[string]bool
	methods map[string][]string
	idents  map[string]map[string]bool
}

// goFile parses a Go file once per Source. A file that does not parse
// declares what its parsed part declares.
func (src *Source) goFile(file string) *goDecls {
	if d, ok := src.goDecls[file]; ok {
		return d
	}
	d := &goDecls{funcs: map[string]bool{}, methods: map[string][]string{}, idents: map[string]map[string]bool{}}
	if src.goDecls == nil {
		src.goDecls = map[string]*goDecls{}
	}
	src.goDecls[file] = d
	data := src.Read(file)
	if len(data) == 0 {
		return d
	}
	f, _ := parser.ParseFile(token.NewFileSet(), file, data, parser.SkipObjectResolution)
	if f == nil {
		return d
	}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv == nil {
			d.funcs[name] = true
			if fd.Body != nil && strings.HasPrefix(name, "Test") {
				ids := map[string]bool{}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						ids[id.Name] = true
					}
					return true
				})
				d.idents[name] = ids
			}
			continue
		}
		if len(fd.Recv.List) == 1 {
			if recv := receiverType(fd.Recv.List[0].Type); recv != "" {
				d.methods[name] = append(d.methods[name], recv)
			}
		}
	}
	return d
}

// receiverType is a receiver's type name: T of T, *T, T[P] and *T[P].
func receiverType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// cargoTest reads "binary::module::tests::name".
func cargoTest(id string, files []string, declares Declares) (Ref, bool) {
	parts := strings.Split(id, "::")
	if len(parts) < 2 {
		return Ref{}, false
	}
	fn := parts[len(parts)-1]
	mods := parts[1 : len(parts)-1]
	integration := "tests/" + parts[0] + ".rs"
	var cands []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".rs") {
			continue
		}
		if f == integration || strings.HasSuffix(f, "/"+integration) {
			return Ref{File: f, Class: strings.Join(mods, "::"), Func: fn}, true
		}
		if declares == nil || declares(f, fn) {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return Ref{}, false
	}
	// Prefer the file the module path names: src/a/b.rs or src/a/b/mod.rs
	// for a::b (a trailing "tests" module is inline).
	want := mods
	if len(want) > 0 && want[len(want)-1] == "tests" {
		want = want[:len(want)-1]
	}
	score := func(f string) int {
		if len(want) == 0 {
			if path.Base(f) == "lib.rs" || path.Base(f) == "main.rs" {
				return 2
			}
			return 0
		}
		m := strings.Join(want, "/")
		switch {
		case strings.HasSuffix(f, "/"+m+".rs"), strings.HasSuffix(f, "/"+m+"/mod.rs"):
			return 2
		case strings.Contains(f, "/"+want[0]):
			return 1
		}
		return 0
	}
	sort.SliceStable(cands, func(a, b int) bool { return score(cands[a]) > score(cands[b]) })
	return Ref{File: cands[0], Class: strings.Join(mods, "::"), Func: fn}, true
}

var cExts = []string{".c", ".cc", ".cpp", ".cxx", ".c++"}

// ctestTest reads a CTest name: GoogleTest's "Suite.Name", with an
// instantiation prefix and a parameter index when parameterized, or a
// name of a project's own, "group.test", whose last part is the test
// function (cmocka).
func ctestTest(id string, files []string, declares Declares) (Ref, bool) {
	if declares == nil || strings.ContainsAny(id, " \t") {
		return Ref{}, false
	}
	s := id
	if i := strings.Index(s, "/"); i >= 0 && strings.Contains(s[i+1:], ".") {
		s = s[i+1:] // "Inst/Suite.Name/0"
	}
	s, _, _ = strings.Cut(s, "/")
	i := strings.LastIndex(s, ".")
	if i <= 0 || i == len(s)-1 {
		return Ref{}, false
	}
	suite, name := s[:i], s[i+1:]
	var found []string
	for _, f := range files {
		if !hasExt(f, cExts) || !declares(f, name) {
			continue
		}
		found = append(found, f)
	}
	if len(found) > 1 {
		// Several files declare the test function: the one that names the
		// suite too.
		var both []string
		for _, f := range found {
			if declares(f, suite) {
				both = append(both, f)
			}
		}
		if len(both) > 0 {
			found = both
		}
	}
	if len(found) == 0 {
		return Ref{}, false
	}
	sort.Strings(found)
	return Ref{File: found[0], Class: suite, Func: name}, true
}

func hasExt(f string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(f, e) {
			return true
		}
	}
	return false
}
