package coverage

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// gcovAdapter measures C and C++ with gcc's gcov, read through gcovr
// (issue 23), for CMake projects whose tests CTest runs, one test per CTest
// test (GoogleTest's gtest_discover_tests names each TEST). The job builds
// the project once more in a folder of its own with --coverage, then for
// every test deletes the .gcda counters, runs that test alone (ctest -R
// '^name$') and has gcovr write the lines it ran as JSON. gcc, CTest and
// gcovr are in the offline C and C++ image (lolbench env base --lang cpp).
type gcovAdapter struct{}

func init() {
	Adapters = append(Adapters, gcovAdapter{})
	statementRulesByLang["C"] = cStatementRules(c.GetLanguage)
	statementRulesByLang["C++"] = cStatementRules(cpp.GetLanguage)
	// Headers parse as C++, as their scopes do (pipeline/syntax).
	statementRulesByLang["C/C++ Header"] = cStatementRules(cpp.GetLanguage)
}

// cStatementRules: statements of function bodies (C and C++ run no code
// at file level but C++'s static initializers, which are declarations),
// case bodies and labels; a declaration counts when it initializes
// something, or in C++ when its type is not a built-in one (a constructor
// runs: gcov counts "std::string s;"); a static one only in C++ and of a
// class type (gcov never counts a C static local).
func cStatementRules(lang func() *sitter.Language) *statementRules {
	return &statementRules{
		lang: lang,
		statements: set("expression_statement", "return_statement", "if_statement", "for_statement", "for_range_loop",
			"while_statement", "do_statement", "switch_statement", "break_statement", "continue_statement",
			"goto_statement", "throw_statement", "co_return_statement", "co_yield_statement", "declaration"),
		parents:     set("compound_statement", "case_statement", "labeled_statement"),
		bodyParents: set("if_statement", "else_clause", "while_statement", "for_statement", "for_range_loop", "do_statement"),
		code: func(n *sitter.Node, src []byte) bool {
			if n.Type() != "declaration" {
				return n.Type() != "expression_statement" || n.NamedChildCount() > 0 // ";" alone
			}
			cxx := lang().SymbolCount() > c.GetLanguage().SymbolCount()
			t := n.ChildByFieldName("type")
			builtIn := t == nil || t.Type() == "primitive_type" || t.Type() == "sized_type_specifier" || t.Type() == "struct_specifier"
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if k := n.NamedChild(i); k.Type() == "storage_class_specifier" && k.Content(src) == "static" {
					// A static local is initialized before the program
					// runs (C: its initializer is a constant), or in C++
					// once, by a constructor, when its type is a class.
					return cxx && !builtIn
				}
			}
			for i := 0; i < int(n.NamedChildCount()); i++ {
				if n.NamedChild(i).Type() == "init_declarator" {
					return true
				}
			}
			return cxx && !builtIn
		},
	}
}

// Name implements Adapter.
func (gcovAdapter) Name() string { return recipe.CoverageGcov }

// Languages implements Adapter.
func (gcovAdapter) Languages() []string { return []string{"C", "C++", "C/C++ Header"} }

// Tool implements Adapter.
func (gcovAdapter) Tool() string {
	return "gcc --coverage and gcovr, one CTest test at a time (.gcda counters deleted before each)"
}

// Support implements Adapter.
func (gcovAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "ctest -R '^name$' (lolbench-ctest NAME)"}
}

// gcovBuild is the coverage build's folder, beside the project's own.
const gcovBuild = "build-lolbench-cov"

// ctestRegex is a CTest name as an anchored CMake regular expression.
func ctestRegex(name string) string {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range name {
		if strings.ContainsRune(`[]\.^$*+?(){}|`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteString("$")
	return b.String()
}

// Script implements Adapter.
func (gcovAdapter) Script(p *Plan) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "B=%s\n", gcovBuild)
	b.WriteString("if ! command -v gcovr >/dev/null 2>&1 || ! command -v ctest >/dev/null 2>&1; then echo \"no gcovr or ctest: the gcov adapter measures on the offline C and C++ image (lolbench env base --lang cpp)\" >\"$cov/build.log\"; exit 0; fi\n")
	b.WriteString("F=--coverage\n")
	b.WriteString("cmake -S . -B \"$B\" -DCMAKE_BUILD_TYPE=Debug \"-DCMAKE_C_FLAGS=$F\" \"-DCMAKE_CXX_FLAGS=$F\" \"-DCMAKE_EXE_LINKER_FLAGS=$F\" \"-DCMAKE_SHARED_LINKER_FLAGS=$F\" >\"$cov/build.log\" 2>&1\n")
	b.WriteString("cmake --build \"$B\" -j2 -- -k >>\"$cov/build.log\" 2>&1\n")
	b.WriteString(": >\"$cov/index.tsv\"\n")
	for i, t := range p.Tests {
		if strings.ContainsAny(t, "\t\n") {
			continue
		}
		fmt.Fprintf(&b, "printf '%%s\\t%%s\\n' %d %s >>\"$cov/index.tsv\"\n", i, testcmd.Quote(t))
		b.WriteString("find \"$B\" -name '*.gcda' -delete\n")
		run := "ctest --test-dir \"$B\" -R " + testcmd.Quote(ctestRegex(t))
		fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then timeout -k 10 %d %s; else %s; fi >\"$cov/t%d.log\" 2>&1 </dev/null\n", p.Recipe.Limits.TimeoutSec, run, run, i)
		fmt.Fprintf(&b, "echo $? >\"$cov/t%d.exit\"\n", i)
		fmt.Fprintf(&b, "gcovr -r . --json -o \"$cov/t%d.json\" \"$B\" >\"$cov/t%d.gcovr.log\" 2>&1\n", i, i)
	}
	return b.String(), nil
}

// gcovrReport is the part of gcovr's JSON the adapter reads.
type gcovrReport struct {
	Files []struct {
		File  string `json:"file"`
		Lines []struct {
			Line  int   `json:"line_number"`
			Count int64 `json:"count"`
		} `json:"lines"`
	} `json:"files"`
}

// Read implements Adapter: the index names each test's number; a test
// whose gcovr report is missing did not run (a note), one whose run timed
// out stops the measurement.
func (gcovAdapter) Read(dir string, p *Plan) (*Raw, error) {
	data, err := readCapped(filepath.Join(dir, "index.tsv"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "build.log"))
		return nil, fmt.Errorf("the gcov job wrote no index: %s", lastLines(string(log), 3))
	}
	target := map[string]bool{}
	for _, f := range p.Target.Files {
		target[f.Path] = true
	}
	raw := &Raw{PerTest: map[string]Lines{}}
	var missing []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		num, name, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("index.tsv: bad line %.80q", line)
		}
		if code, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("t%d.exit", n))); strings.TrimSpace(string(code)) == "124" {
			return nil, fmt.Errorf("test %s timed out after %d s under coverage (the recipe's limits.timeout_sec)", name, p.Recipe.Limits.TimeoutSec)
		}
		rep, err := readCapped(filepath.Join(dir, fmt.Sprintf("t%d.json", n)))
		if err != nil {
			missing = append(missing, name)
			continue
		}
		var r gcovrReport
		if err := json.Unmarshal(rep, &r); err != nil {
			return nil, fmt.Errorf("t%d.json: %w", n, err)
		}
		lines := Lines{}
		for _, f := range r.Files {
			file := path.Clean(strings.TrimPrefix(f.File, "./"))
			if !target[file] {
				continue // a path outside the target (or outside the repository) is not read
			}
			for _, l := range f.Lines {
				if l.Count > 0 && l.Line > 0 {
					lines[file] = append(lines[file], l.Line)
				}
			}
		}
		raw.PerTest[name] = lines.Normalize()
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) left no gcovr report, e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

// readCapped reads a file of the job's output, refusing one over
// maxLinesBytes and anything but a regular file.
func readCapped(p string) ([]byte, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxLinesBytes {
		return nil, fmt.Errorf("%s: not a regular file under %d bytes", filepath.Base(p), maxLinesBytes)
	}
	return os.ReadFile(p)
}

// Select implements Adapter: CTest names, which lolbench-ctest runs each
// alone.
func (gcovAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if p.Recipe.Test.Select == recipe.SelectPackages {
		return nil, false
	}
	return append([]string{}, tests...), true
}

// BuildCheck implements Adapter: the project builds (the mutant jobs apply
// the test patch first, so its test programs too), in the install step's
// build folder.
func (gcovAdapter) BuildCheck([]string) string {
	return "B=${LOLBENCH_CMAKE_BUILD:-build}; { [ -f \"$B/CMakeCache.txt\" ] || cmake -S . -B \"$B\" -DCMAKE_BUILD_TYPE=Debug; } && cmake --build \"$B\" -j2"
}
