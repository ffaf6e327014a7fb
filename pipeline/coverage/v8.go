package coverage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// v8Adapter measures JavaScript and TypeScript with V8's block coverage
// (issue 23): node writes it for every script it ran when NODE_V8_COVERAGE
// names a folder. The recipe's test command (lolbench-node-test) runs one
// test at a time, selected by its file and --test-name-pattern, each in a
// node process of its own with a folder of its own, so that every folder
// is one test's coverage. A statement is covered when the innermost range
// V8 reports around its start ran. TypeScript runs as ts-node's output:
// its offsets are mapped back to the .ts lines through the source map
// node keeps beside the coverage (source-map-cache). Statements of a
// module's top level run whenever a test loads the module: they are setup,
// which every test needs.
type v8Adapter struct{}

// Name implements Adapter.
func (v8Adapter) Name() string { return recipe.CoverageV8 }

// Languages implements Adapter.
func (v8Adapter) Languages() []string { return []string{"JavaScript", "TypeScript"} }

// Tool implements Adapter.
func (v8Adapter) Tool() string {
	return "V8 block coverage (NODE_V8_COVERAGE), one node process per test; TypeScript through ts-node's source maps"
}

// Support implements Adapter.
func (v8Adapter) Support() Support {
	return Support{PerTest: true, SingleTest: "lolbench-node-test --test-name-pattern='^title$' FILE"}
}

// nodeTest splits a test id ("test/a.test.ts::describe › it") into its
// file and its own title, which --test-name-pattern matches.
func nodeTest(id string) (file, title string, ok bool) {
	file, name, ok := strings.Cut(id, "::")
	if !ok || file == "" || name == "" {
		return "", "", false
	}
	if i := strings.LastIndex(name, " › "); i >= 0 {
		name = name[i+len(" › "):]
	}
	return file, name, name != ""
}

// namePattern is the regular expression (JavaScript's syntax) that matches
// exactly a title.
func namePattern(title string) string {
	return "--test-name-pattern=^" + regexp.QuoteMeta(title) + "$"
}

// Select implements Adapter: a pattern per title and the tests' files. A
// title shared by another test of the same files runs that test too.
func (v8Adapter) Select(p *Plan, tests []string) ([]string, bool) {
	if len(tests) == 0 {
		return []string{}, true
	}
	var pats, files []string
	seenP, seenF := map[string]bool{}, map[string]bool{}
	for _, t := range tests {
		f, title, ok := nodeTest(t)
		if !ok {
			return nil, false
		}
		if pt := namePattern(title); !seenP[pt] {
			seenP[pt] = true
			pats = append(pats, pt)
		}
		if !seenF[f] {
			seenF[f] = true
			files = append(files, f)
		}
	}
	sort.Strings(pats)
	sort.Strings(files)
	return append(pats, files...), true
}

// Script implements Adapter: one run per test, t<N> being the plan's N-th
// test, as many at a time as the recipe's CPUs (at most 4): each is a
// node process of its own, with its own coverage folder and report.
func (v8Adapter) Script(p *Plan) (string, error) {
	par := min(max(int(p.Recipe.Limits.CPUs), 1), 4)
	var b strings.Builder
	started := 0
	for i, t := range p.Tests {
		f, title, ok := nodeTest(t)
		if !ok {
			fmt.Fprintf(&b, "echo %s >\"$cov/t%d.skip\"\n", testcmd.Quote("not a node:test id: "+t), i)
			continue
		}
		cmd := testcmd.TestCommand(p.Recipe, []string{namePattern(title), f})
		fmt.Fprintf(&b, "(\n\tmkdir -p \"$cov/t%[1]d\"\n", i)
		fmt.Fprintf(&b, "\tif command -v timeout >/dev/null 2>&1; then\n\t\tNODE_V8_COVERAGE=\"$cov/t%[1]d\" LOLBENCH_NODE_REPORT=\"$cov/t%[1]d.xml\" timeout -k 10 %[2]d sh -c %[3]s >\"$cov/t%[1]d.log\" 2>&1 </dev/null\n", i, p.Recipe.Limits.TimeoutSec, testcmd.Quote(cmd))
		fmt.Fprintf(&b, "\telse\n\t\tNODE_V8_COVERAGE=\"$cov/t%[1]d\" LOLBENCH_NODE_REPORT=\"$cov/t%[1]d.xml\" sh -c %[2]s >\"$cov/t%[1]d.log\" 2>&1 </dev/null\n\tfi\n", i, testcmd.Quote(cmd))
		fmt.Fprintf(&b, "\techo $? >\"$cov/t%d.exit\"\n) &\n", i)
		started++
		if started%par == 0 {
			fmt.Fprintf(&b, "wait\nlolbench_done %d\n", started)
		}
	}
	fmt.Fprintf(&b, "wait\nlolbench_done %d\n", started)
	return b.String(), nil
}

// BuildCheck implements Adapter: node parses the changed JavaScript files;
// tsc checks a TypeScript project that has a tsconfig.json.
func (v8Adapter) BuildCheck(files []string) string {
	var js []string
	ts := false
	for _, f := range files {
		switch path.Ext(f) {
		case ".js", ".mjs", ".cjs":
			js = append(js, "node --check "+testcmd.Quote(f))
		case ".ts", ".cts", ".mts", ".tsx":
			ts = true
		}
	}
	if ts {
		js = append(js, "{ [ ! -f tsconfig.json ] || tsc --noEmit -p .; }")
	}
	return strings.Join(js, " && ")
}

// Caps on what a run leaves: the coverage of one test of a large project
// is megabytes.
const (
	maxV8File     = 256 << 20
	maxV8Mappings = 64 << 20
)

type v8Range struct {
	Start int64 `json:"startOffset"`
	End   int64 `json:"endOffset"`
	Count int64 `json:"count"`
}

type v8Function struct {
	Name   string    `json:"functionName"`
	Ranges []v8Range `json:"ranges"`
}

type v8Script struct {
	URL       string       `json:"url"`
	Functions []v8Function `json:"functions"`
}

type v8SourceMap struct {
	LineLengths []int64 `json:"lineLengths"`
	Data        struct {
		Sources  []string `json:"sources"`
		Mappings string   `json:"mappings"`
	} `json:"data"`
}

type v8Report struct {
	Result []v8Script              `json:"result"`
	Maps   map[string]*v8SourceMap `json:"source-map-cache"`
}

// Read implements Adapter.
func (a v8Adapter) Read(dir string, p *Plan) (*Raw, error) {
	raw := &Raw{PerTest: map[string]Lines{}, Setup: Lines{}}
	var missing []string
	for i, t := range p.Tests {
		if b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("t%d.exit", i))); err == nil {
			if code := strings.TrimSpace(string(b)); code == "124" || code == "137" {
				return nil, fmt.Errorf("the coverage run of %s timed out after %d s (the recipe's limits.timeout_sec)", t, p.Recipe.Limits.TimeoutSec)
			}
		}
		ents, err := os.ReadDir(filepath.Join(dir, fmt.Sprintf("t%d", i)))
		if err != nil || len(ents) == 0 {
			missing = append(missing, t)
			continue
		}
		lines, setup := Lines{}, Lines{}
		for _, e := range ents {
			if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			rep, err := readV8(filepath.Join(dir, fmt.Sprintf("t%d", i), e.Name()))
			if err != nil {
				return nil, fmt.Errorf("t%d/%s: %w", i, e.Name(), err)
			}
			if err := v8Lines(rep, p, lines, setup); err != nil {
				return nil, fmt.Errorf("t%d/%s: %w", i, e.Name(), err)
			}
		}
		raw.PerTest[t] = lines.Normalize()
		raw.Setup = raw.Setup.Union(setup)
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) left no V8 coverage, e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

func readV8(name string) (*v8Report, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxV8File+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxV8File {
		return nil, fmt.Errorf("larger than %d bytes", maxV8File)
	}
	var rep v8Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}

// scriptPath turns a script's URL (file:///testbed/src/a.ts) into its
// repository path, or "" for a script outside the repository.
func scriptPath(u string) string {
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "file" {
		return ""
	}
	rel, ok := strings.CutPrefix(path.Clean(pu.Path), recipe.Workdir+"/")
	if !ok || rel == "" || strings.HasPrefix(rel, "../") {
		return ""
	}
	return rel
}

// v8Lines adds a report's covered executable lines of the target's files
// to lines (statements inside functions) and setup (a module's top level).
func v8Lines(rep *v8Report, p *Plan, lines, setup Lines) error {
	for _, s := range rep.Result {
		rel := scriptPath(s.URL)
		if rel == "" {
			continue
		}
		var ft *FileTarget
		for i := range p.Target.Files {
			if p.Target.Files[i].Path == rel {
				ft = &p.Target.Files[i]
			}
		}
		src := p.source(rel)
		if ft == nil || src == nil || len(ft.Executable) == 0 {
			continue
		}
		starts := lineStarts(src.Content)
		var sm *sourceMap
		if m := rep.Maps[s.URL]; m != nil {
			var err error
			if sm, err = newSourceMap(m, s.URL); err != nil {
				return fmt.Errorf("%s: source map: %w", rel, err)
			}
		}
		for k, l := range ft.Executable {
			col := 1
			if k < len(ft.Columns) {
				col = ft.Columns[k]
			}
			if l < 1 || l > len(starts) || col < 1 || starts[l-1]+col-1 > len(src.Content) {
				continue
			}
			// V8's offsets and source maps' columns count UTF-16 units,
			// tree-sitter's columns bytes.
			var off int64
			if sm != nil {
				o, ok := sm.offset(l, int(utf16Len(src.Content[starts[l-1]:starts[l-1]+col-1]))+1)
				if !ok {
					continue
				}
				off = o
			} else {
				off = utf16Len(src.Content[:starts[l-1]+col-1])
			}
			count, top := countAt(s.Functions, off)
			if count <= 0 {
				continue
			}
			if top {
				setup[rel] = append(setup[rel], l)
			} else {
				lines[rel] = append(lines[rel], l)
			}
		}
	}
	return nil
}

// countAt is the count of the innermost range around off, and whether the
// innermost function around it is the script's own top level.
func countAt(fns []v8Function, off int64) (count int64, top bool) {
	best, bestFn := int64(-1), int64(-1)
	count, top = 0, false
	for i, f := range fns {
		for j, r := range f.Ranges {
			if r.Start > off || off >= r.End {
				continue
			}
			if n := r.End - r.Start; best < 0 || n <= best {
				best, count = n, r.Count
			}
			if n := r.End - r.Start; j == 0 && (bestFn < 0 || n <= bestFn) {
				bestFn, top = n, i == 0 && r.Start == 0
			}
		}
	}
	return count, top
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func utf16Len(b []byte) int64 {
	var n int64
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// sourceMap maps a source position to an offset in the generated code.
type sourceMap struct {
	// byLine holds, per source line (0-based), the mapped source columns
	// and their generated offsets, sorted by column.
	byLine map[int][]segment
}

type segment struct {
	col int
	off int64
}

// newSourceMap decodes the mappings of a script's own source (the one
// whose URL is the script's, or the only one).
func newSourceMap(sm *v8SourceMap, scriptURL string) (*sourceMap, error) {
	if len(sm.Data.Mappings) > maxV8Mappings {
		return nil, fmt.Errorf("mappings larger than %d bytes", maxV8Mappings)
	}
	want := -1
	for i, s := range sm.Data.Sources {
		if s == scriptURL || len(sm.Data.Sources) == 1 {
			want = i
		}
	}
	if want < 0 {
		return nil, errors.New("no source is the script's own")
	}
	lineOff := make([]int64, len(sm.LineLengths)+1)
	for i, n := range sm.LineLengths {
		if n < 0 || n > maxV8File {
			return nil, fmt.Errorf("bad line length %d", n)
		}
		lineOff[i+1] = lineOff[i] + n + 1
	}
	m := &sourceMap{byLine: map[int][]segment{}}
	var genLine, genCol, src, srcLine, srcCol int
	for _, line := range strings.Split(sm.Data.Mappings, ";") {
		genCol = 0
		for _, seg := range strings.Split(line, ",") {
			if seg == "" {
				continue
			}
			v, err := vlq(seg)
			if err != nil {
				return nil, err
			}
			genCol += v[0]
			if len(v) < 4 {
				continue
			}
			src, srcLine, srcCol = src+v[1], srcLine+v[2], srcCol+v[3]
			if src != want || genLine >= len(sm.LineLengths) || genCol < 0 || srcLine < 0 || srcCol < 0 {
				continue
			}
			m.byLine[srcLine] = append(m.byLine[srcLine], segment{srcCol, lineOff[genLine] + int64(genCol)})
		}
		genLine++
	}
	for l, segs := range m.byLine {
		sort.SliceStable(segs, func(i, j int) bool { return segs[i].col < segs[j].col })
		m.byLine[l] = segs
	}
	return m, nil
}

// offset is the generated offset of the first mapping at or after a
// source position (1-based line and UTF-16 column) on its line.
func (m *sourceMap) offset(line, col int) (int64, bool) {
	segs := m.byLine[line-1]
	for _, s := range segs {
		if s.col >= col-1 {
			return s.off, true
		}
	}
	return 0, false
}

// vlq decodes one source map segment: base64 VLQ fields.
func vlq(seg string) ([]int, error) {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []int
	v, shift := 0, 0
	for i := 0; i < len(seg); i++ {
		d := strings.IndexByte(b64, seg[i])
		if d < 0 {
			return nil, fmt.Errorf("bad mapping character %q", seg[i])
		}
		if shift > 30 {
			return nil, errors.New("mapping value too large")
		}
		v += (d & 31) << shift
		if d&32 != 0 {
			shift += 5
			continue
		}
		n := v >> 1
		if v&1 != 0 {
			n = -n
		}
		out = append(out, n)
		v, shift = 0, 0
	}
	if shift != 0 {
		return nil, errors.New("truncated mapping")
	}
	if len(out) == 0 || len(out) > 5 {
		return nil, fmt.Errorf("segment of %d fields", len(out))
	}
	return out, nil
}

// Statement rules of JavaScript and TypeScript (issue 23): statements of
// the program, of blocks, of switch cases and the body of a loop or an if
// without braces; a declaration only with an initializer. Function and
// class declarations run nothing themselves.
func init() {
	jsStatements := set("expression_statement", "lexical_declaration", "variable_declaration", "return_statement",
		"if_statement", "for_statement", "for_in_statement", "while_statement", "do_statement", "throw_statement",
		"break_statement", "continue_statement", "switch_statement", "try_statement")
	code := func(n *sitter.Node, src []byte) bool {
		if n.Type() != "lexical_declaration" && n.Type() != "variable_declaration" {
			return true
		}
		for i := 0; i < int(n.NamedChildCount()); i++ {
			if c := n.NamedChild(i); c.Type() == "variable_declarator" && c.ChildByFieldName("value") != nil {
				return true
			}
		}
		return false
	}
	for name, l := range map[string]func() *sitter.Language{"JavaScript": javascript.GetLanguage, "TypeScript": typescript.GetLanguage} {
		statementRulesByLang[name] = &statementRules{
			lang:        l,
			statements:  jsStatements,
			parents:     set("program", "statement_block", "switch_case", "switch_default", "else_clause", "export_statement", "labeled_statement"),
			bodyParents: set("if_statement", "while_statement", "for_statement", "for_in_statement", "do_statement"),
			code:        code,
		}
	}
}
