package coverage

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// goAdapter measures Go with the go command's own coverage: one test
// binary per package, built with -cover -covermode=set and -coverpkg over
// the packages the solution changes, run once per graded test with
// -test.coverprofile. Graded tests are leaves (results.Leaves): a subtest
// runs alone, `-test.run '^Test$/^Balancer_OneAddress$'`, so each subtest
// of a suite runner or a table has its own profile (with its parent's
// setup around it). The suites' coverage is the union of their tests'
// profiles, so a suite needs no run of its own.
type goAdapter struct{}

// Name implements Adapter.
func (goAdapter) Name() string { return "go" }

// Languages implements Adapter.
func (goAdapter) Languages() []string { return []string{"Go"} }

// Tool implements Adapter.
func (goAdapter) Tool() string {
	return "go test -c -cover -covermode=set -coverpkg=<changed packages>, one -test.coverprofile per test"
}

// goTest is a go-json test id split: "example.com/m/store.TestX/sub" is
// package example.com/m/store, test TestX/sub (the subtest path as go test
// reports it).
type goTest struct{ pkg, name string }

var goTestName = regexp.MustCompile(`^(Test|Example|Fuzz)[A-Za-z0-9_]*$`)

// parseGoTest splits a go-json test id. The package is everything before
// the first "." that starts a test function name; the name is the rest,
// subtests included.
func parseGoTest(id string) (goTest, bool) {
	for i := 0; i < len(id); i++ {
		if id[i] != '.' {
			continue
		}
		rest := id[i+1:]
		top := rest
		if j := strings.IndexByte(rest, '/'); j >= 0 {
			top = rest[:j]
		}
		if goTestName.MatchString(top) && i > 0 && !strings.ContainsAny(id[:i], " \t\n") {
			return goTest{pkg: id[:i], name: rest}, true
		}
	}
	return goTest{}, false
}

// goPackages groups the plan's tests by package, packages and tests sorted.
func goPackages(tests []string) (pkgs []string, byPkg map[string][]string, bad []string) {
	byPkg = map[string][]string{}
	seen := map[goTest]bool{}
	for _, id := range tests {
		t, ok := parseGoTest(id)
		if !ok {
			bad = append(bad, id)
			continue
		}
		if seen[t] {
			continue
		}
		seen[t] = true
		if byPkg[t.pkg] == nil {
			pkgs = append(pkgs, t.pkg)
		}
		byPkg[t.pkg] = append(byPkg[t.pkg], t.name)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		sort.Strings(byPkg[p])
	}
	return pkgs, byPkg, bad
}

// runPattern is the -run pattern that selects exactly one test, subtest
// or not: go test splits a pattern at "/" into one regular expression per
// level and matches each against the name go test reports at that level
// (already rewritten: spaces made "_", "#01" on repeats), so each level is
// its name quoted and anchored. A name never holds a "/": t.Run("a/b")
// makes two levels, and its id two path elements.
func runPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// goDirs are the folders of the changed Go source files, as ./relative
// package patterns.
func goDirs(p *Plan) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, f := range p.Target.Files {
		if f.Language != "Go" {
			continue
		}
		d := path.Dir(f.Path)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	sort.Strings(dirs)
	return dirs
}

func goPattern(dir string) string {
	if dir == "." {
		return "."
	}
	return "./" + dir
}

// Script implements Adapter.
func (goAdapter) Script(p *Plan) (string, error) {
	dirs := goDirs(p)
	if len(dirs) == 0 {
		return "", fmt.Errorf("go coverage: the solution changes no Go source file")
	}
	pats := make([]string, len(dirs))
	for i, d := range dirs {
		pats[i] = goPattern(d)
	}
	pkgs, byPkg, _ := goPackages(p.Tests)
	var b strings.Builder
	fmt.Fprintf(&b, "runt() { if command -v timeout >/dev/null 2>&1; then timeout -k 10 %d \"$@\"; else \"$@\"; fi; }\n", p.Recipe.Limits.TimeoutSec)
	// The import path of each changed folder, to read the profiles' file
	// names back as repository paths.
	b.WriteString(": >\"$cov/dirs.txt\"\n")
	for _, d := range dirs {
		fmt.Fprintf(&b, "printf '%%s %%s\\n' %s \"$(go list -f '{{.ImportPath}}' %s 2>>\"$cov/list.err\")\" >>\"$cov/dirs.txt\"\n", testcmd.Quote(d), testcmd.Quote(goPattern(d)))
	}
	cp := testcmd.Quote(strings.Join(pats, ","))
	done := 0 // tests run so far, for the host's progress
	for i, pkg := range pkgs {
		bin := fmt.Sprintf("\"$cov/p%d.test\"", i)
		fmt.Fprintf(&b, "dir=$(go list -f '{{.Dir}}' %s 2>>\"$cov/list.err\")\n", testcmd.Quote(pkg))
		fmt.Fprintf(&b, "if [ -n \"$dir\" ] && go test -c -cover -covermode=set -coverpkg=%s -o %s %s >\"$cov/p%d.build.log\" 2>&1 && [ -x %s ]; then\n", cp, bin, testcmd.Quote(pkg), i, bin)
		b.WriteString("\tcd \"$dir\" || exit 91\n")
		for j, name := range byPkg[pkg] {
			stem := fmt.Sprintf("$cov/p%d-t%d", i, j)
			fmt.Fprintf(&b, "\trunt %s -test.run %s -test.count=1 -test.coverprofile=\"%s.out\" >\"%s.log\" 2>&1 </dev/null\n", bin, testcmd.Quote(runPattern(name)), stem, stem)
			done++
			fmt.Fprintf(&b, "\techo $? >\"%s.exit\"\n\tlolbench_done %d\n", stem, done)
		}
		b.WriteString("\tcd \"$LOLBENCH_TESTBED\" || exit 90\n")
		// The binaries are large and not needed after their runs.
		fmt.Fprintf(&b, "\trm -f %s\nfi\n", bin)
	}
	return b.String(), nil
}

// ReachScript implements Reacher: per package of the plan's tests, nothing
// when its test binary does not depend on a changed package (go list -deps
// -test), else one run of its tests with one coverage profile, which says
// whether they run a changed file at all.
func (goAdapter) ReachScript(p *Plan) (string, error) {
	dirs := goDirs(p)
	if len(dirs) == 0 {
		return "", fmt.Errorf("go coverage: the solution changes no Go source file")
	}
	pats := make([]string, len(dirs))
	for i, d := range dirs {
		pats[i] = goPattern(d)
	}
	pkgs, byPkg, _ := goPackages(p.Tests)
	var b strings.Builder
	fmt.Fprintf(&b, "runt() { if command -v timeout >/dev/null 2>&1; then timeout -k 10 %d \"$@\"; else \"$@\"; fi; }\n", p.Recipe.Limits.TimeoutSec)
	b.WriteString(": >\"$cov/dirs.txt\"\n: >\"$cov/changed.txt\"\n")
	for _, d := range dirs {
		fmt.Fprintf(&b, "ip=$(go list -f '{{.ImportPath}}' %s 2>>\"$cov/list.err\")\nprintf '%%s %%s\\n' %s \"$ip\" >>\"$cov/dirs.txt\"\n", testcmd.Quote(goPattern(d)), testcmd.Quote(d))
		// Without every changed package's import path, no package is
		// known not to depend on one.
		b.WriteString("if [ -n \"$ip\" ]; then printf '%s\\n' \"$ip\" >>\"$cov/changed.txt\"; else : >\"$cov/changed.unknown\"; fi\n")
	}
	cp := testcmd.Quote(strings.Join(pats, ","))
	done := 0
	for i, pkg := range pkgs {
		q := testcmd.Quote(pkg)
		bin := fmt.Sprintf("\"$cov/r%d.test\"", i)
		// go list names a package rebuilt for a test "p [p.test]".
		fmt.Fprintf(&b, "if [ ! -e \"$cov/changed.unknown\" ] && go list -deps -test -f '{{.ImportPath}}' %s >\"$cov/r%d.deps\" 2>>\"$cov/list.err\" && ! sed 's/ \\[.*//' \"$cov/r%d.deps\" | grep -qxF -f \"$cov/changed.txt\"; then\n\t: >\"$cov/r%d.nodeps\"\n", q, i, i, i)
		fmt.Fprintf(&b, "else\n\tdir=$(go list -f '{{.Dir}}' %s 2>>\"$cov/list.err\")\n", q)
		fmt.Fprintf(&b, "\tif [ -n \"$dir\" ] && go test -c -cover -covermode=set -coverpkg=%s -o %s %s >\"$cov/r%d.build.log\" 2>&1 && [ -x %s ]; then\n", cp, bin, q, i, bin)
		fmt.Fprintf(&b, "\t\tcd \"$dir\" || exit 91\n\t\trunt %s -test.run %s -test.count=1 -test.coverprofile=\"$cov/r%d.out\" >\"$cov/r%d.log\" 2>&1 </dev/null\n", bin, testcmd.Quote(topPattern(byPkg[pkg])), i, i)
		fmt.Fprintf(&b, "\t\techo $? >\"$cov/r%d.exit\"\n\t\tcd \"$LOLBENCH_TESTBED\" || exit 90\n\t\trm -f %s\n\tfi\nfi\n", i, bin)
		done += len(byPkg[pkg])
		fmt.Fprintf(&b, "lolbench_done %d\n", done)
	}
	return b.String(), nil
}

// topPattern is the -run pattern of the top-level tests of names: their
// subtests run with them.
func topPattern(names []string) string {
	seen := map[string]bool{}
	var tops []string
	for _, n := range names {
		top, _, _ := strings.Cut(n, "/")
		if !seen[top] {
			seen[top] = true
			tops = append(tops, regexp.QuoteMeta(top))
		}
	}
	return "^(" + strings.Join(tops, "|") + ")$"
}

// ReadReach implements Reacher. A package's tests are seen when its binary
// does not depend on a changed package, or when its run left a profile
// (they passed on the reference solution, so the profile is whole);
// they are reached when that profile ran a block of a changed file.
func (goAdapter) ReadReach(dir string, p *Plan) (*ReachRaw, error) {
	files, err := goFileMap(dir, p)
	if err != nil {
		return nil, err
	}
	rr := &ReachRaw{Reached: map[string]bool{}, Seen: map[string]bool{}}
	pkgs, byPkg, _ := goPackages(p.Tests)
	var unseen []string
	for i, pkg := range pkgs {
		seen, reached := false, false
		if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf("r%d.nodeps", i))); err == nil {
			seen = true
		} else if data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("r%d.out", i))); err == nil && strings.TrimSpace(readText(filepath.Join(dir, fmt.Sprintf("r%d.exit", i)))) == "0" {
			blocks, err := readProfile(fmt.Sprintf("r%d.out", i), data)
			if err != nil {
				return nil, err
			}
			seen = true
			for _, b := range blocks {
				if _, ok := files[b.file]; ok && b.count > 0 {
					reached = true
					break
				}
			}
		} else {
			unseen = append(unseen, pkg)
		}
		for _, name := range byPkg[pkg] {
			rr.Seen[pkg+"."+name] = seen
			rr.Reached[pkg+"."+name] = reached
		}
	}
	if len(unseen) > 0 {
		rr.Notes = append(rr.Notes, fmt.Sprintf("the reach run of %d package(s) failed or left no profile, so their tests are measured one by one: %s (see r*.build.log and r*.log)", len(unseen), strings.Join(unseen, ", ")))
	}
	return rr, nil
}

// Narrow implements Reacher: the per-test run selects its tests itself.
func (goAdapter) Narrow(p *Plan, tests []string) []string { return p.Selection }

// readText is a file's text, "" when it cannot be read.
func readText(name string) string {
	b, _ := os.ReadFile(name)
	return string(b)
}

// profileBlock is one line of a coverage profile.
type profileBlock struct {
	file                                 string
	startLine, startCol, endLine, endCol int
	stmts, count                         int
}

// readProfile parses a "mode: set" coverage profile. Malformed lines are
// errors naming the line.
func readProfile(name string, data []byte) ([]profileBlock, error) {
	var out []profileBlock
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || n == 1 && strings.HasPrefix(line, "mode:") {
			continue
		}
		b, err := parseBlock(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

// parseBlock reads "file:sl.sc,el.ec stmts count".
func parseBlock(line string) (profileBlock, error) {
	var b profileBlock
	colon := strings.LastIndexByte(line, ':')
	if colon < 0 {
		return b, fmt.Errorf("bad profile line %q", line)
	}
	b.file = line[:colon]
	f := strings.Fields(line[colon+1:])
	if len(f) != 3 {
		return b, fmt.Errorf("bad profile line %q", line)
	}
	pos := strings.FieldsFunc(f[0], func(r rune) bool { return r == '.' || r == ',' })
	if len(pos) != 4 {
		return b, fmt.Errorf("bad profile position %q", f[0])
	}
	nums := make([]int, 6)
	for i, s := range append(pos, f[1], f[2]) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return b, fmt.Errorf("bad number %q in profile line", s)
		}
		nums[i] = v
	}
	b.startLine, b.startCol, b.endLine, b.endCol, b.stmts, b.count = nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]
	return b, nil
}

type blockKey struct {
	file                                 string
	startLine, startCol, endLine, endCol int
}

// mergeProfiles unions set-mode profiles: a block is covered when any
// profile covers it. The result is sorted as go tool cover sorts it.
func mergeProfiles(profiles ...[]profileBlock) []profileBlock {
	idx := map[blockKey]int{}
	var out []profileBlock
	for _, p := range profiles {
		for _, b := range p {
			k := blockKey{b.file, b.startLine, b.startCol, b.endLine, b.endCol}
			if i, ok := idx[k]; ok {
				if b.count > 0 {
					out[i].count = 1
				}
				continue
			}
			if b.count > 0 {
				b.count = 1
			}
			idx[k] = len(out)
			out = append(out, b)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.startLine != b.startLine {
			return a.startLine < b.startLine
		}
		return a.startCol < b.startCol
	})
	return out
}

func writeProfile(blocks []profileBlock) []byte {
	var b bytes.Buffer
	b.WriteString("mode: set\n")
	for _, x := range blocks {
		fmt.Fprintf(&b, "%s:%d.%d,%d.%d %d %d\n", x.file, x.startLine, x.startCol, x.endLine, x.endCol, x.stmts, x.count)
	}
	return b.Bytes()
}

// goLines returns the covered lines of the changed files by a profile:
// an executable target line is covered when the block holding its first
// statement's start ran; other lines when any block spanning them ran.
func goLines(p *Plan, blocks []profileBlock, files map[string]string) Lines {
	byFile := map[string][]profileBlock{}
	for _, b := range blocks {
		if f, ok := files[b.file]; ok {
			byFile[f] = append(byFile[f], b)
		}
	}
	out := Lines{}
	for _, ft := range p.Target.Files {
		bs := byFile[ft.Path]
		for i, line := range ft.Executable {
			col := 0
			if i < len(ft.Columns) {
				col = ft.Columns[i]
			}
			hit, found := false, false
			for _, b := range bs {
				if before(line, col, b.startLine, b.startCol) || !before(line, col, b.endLine, b.endCol) {
					continue
				}
				found = true
				hit = hit || b.count > 0
			}
			if !found {
				for _, b := range bs {
					if b.startLine <= line && line <= b.endLine && b.count > 0 {
						hit = true
					}
				}
			}
			if hit {
				out[ft.Path] = append(out[ft.Path], line)
			}
		}
	}
	return out.Normalize()
}

// before reports whether position (l1, c1) comes before (l2, c2).
func before(l1, c1, l2, c2 int) bool { return l1 < l2 || l1 == l2 && c1 < c2 }

// goFileMap maps the profile's file names (import path + "/" + base) to
// repository paths, from the dirs.txt the script wrote.
func goFileMap(dir string, p *Plan) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "dirs.txt"))
	if err != nil {
		return nil, fmt.Errorf("the job wrote no package list: %w", err)
	}
	imp := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		d, ip, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && ip != "" {
			imp[d] = ip
		}
	}
	out := map[string]string{}
	for _, f := range p.Target.Files {
		if ip := imp[path.Dir(f.Path)]; ip != "" {
			out[ip+"/"+path.Base(f.Path)] = f.Path
		}
	}
	return out, nil
}

// Read implements Adapter.
func (goAdapter) Read(dir string, p *Plan) (*Raw, error) {
	files, err := goFileMap(dir, p)
	if err != nil {
		return nil, err
	}
	raw := &Raw{PerTest: map[string]Lines{}}
	pkgs, byPkg, bad := goPackages(p.Tests)
	for _, id := range bad {
		raw.Notes = append(raw.Notes, fmt.Sprintf("%s is not a Go test id: no coverage", id))
	}
	profiles := map[goTest][]profileBlock{}
	var all [][]profileBlock
	for i, pkg := range pkgs {
		for j, name := range byPkg[pkg] {
			stem := filepath.Join(dir, fmt.Sprintf("p%d-t%d", i, j))
			data, err := os.ReadFile(stem + ".out")
			if err != nil {
				// Unknown, not empty: a mutant runs it whatever it changes.
				raw.Notes = append(raw.Notes, fmt.Sprintf("%s.%s wrote no coverage profile (see p%d.build.log and p%d-t%d.log)", pkg, name, i, i, j))
				raw.Unmeasured = append(raw.Unmeasured, pkg+"."+name)
				continue
			}
			blocks, err := readProfile(filepath.Base(stem)+".out", data)
			if err != nil {
				return nil, err
			}
			profiles[goTest{pkg, name}] = blocks
			all = append(all, blocks)
		}
	}
	for _, id := range p.Tests {
		if t, ok := parseGoTest(id); ok {
			raw.PerTest[id] = goLines(p, profiles[t], files)
		}
	}
	union := mergeProfiles(all...)
	raw.Keep = map[string][]byte{"union.out": writeProfile(union)}
	fns, err := goFunctions(p, union, files)
	if err != nil {
		return nil, err
	}
	raw.Functions = fns
	return raw, nil
}

// goFunctions is `go tool cover -func` over the changed files: for every
// function declaration with a body, the statements of the profile blocks
// inside its extent (cmd/cover's FuncExtent.coverage, the same go/parser
// positions).
func goFunctions(p *Plan, blocks []profileBlock, files map[string]string) ([]FuncCoverage, error) {
	byPath := map[string][]profileBlock{}
	for _, b := range blocks {
		if f, ok := files[b.file]; ok {
			byPath[f] = append(byPath[f], b)
		}
	}
	var out []FuncCoverage
	for _, ft := range p.Target.Files {
		src := p.source(ft.Path)
		// go tool cover -func lists the files of the profile only: a
		// changed file no tested package links has no blocks.
		if src == nil || ft.Language != "Go" || len(byPath[ft.Path]) == 0 {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, ft.Path, src.Content, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("go coverage: %w", err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			s, e := fset.Position(fd.Pos()), fset.Position(fd.End())
			c, t := 0, 0
			for _, b := range byPath[ft.Path] {
				if b.startLine > e.Line || b.startLine == e.Line && b.startCol >= e.Column {
					break
				}
				if b.endLine < s.Line || b.endLine == s.Line && b.endCol <= s.Column {
					continue
				}
				t += b.stmts
				if b.count > 0 {
					c += b.stmts
				}
			}
			fc := FuncCoverage{File: ft.Path, Line: s.Line, Function: fd.Name.Name, Covered: c, Total: t}
			if t > 0 {
				fc.Percent = 100 * float64(c) / float64(t)
			}
			out = append(out, fc)
		}
	}
	return out, nil
}

// Select implements Adapter.
func (goAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if !strings.Contains(p.Recipe.Test.Command, "go test") {
		return nil, false
	}
	pkgs, byPkg, bad := goPackages(tests)
	if len(bad) > 0 {
		return nil, false
	}
	if len(pkgs) == 0 {
		return []string{}, true
	}
	seen := map[string]bool{}
	var names []string
	for _, pkg := range pkgs {
		for _, n := range byPkg[pkg] {
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	// One alternative per test, whole paths joined by a top-level "|"
	// (go test splits the pattern there before it splits at "/"; Go 1.19
	// does): "^TestA$|^Test$/^Balancer_OneAddress$". A test listed whole
	// runs its subtests, so theirs are left out.
	var alts []string
	for _, n := range names {
		if !coveredBy(n, seen) {
			alts = append(alts, runPattern(n))
		}
	}
	return append([]string{"-run", strings.Join(alts, "|")}, pkgs...), true
}

// coveredBy reports whether a test path has an ancestor in names.
func coveredBy(name string, names map[string]bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '/' && names[name[:i]] {
			return true
		}
	}
	return false
}

// BuildCheck implements Adapter.
func (goAdapter) BuildCheck(files []string) string { return "go build ./..." }

// Support implements Adapter.
func (goAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "go test -run '^TestA$|^Test$/^Sub$' per package"}
}
