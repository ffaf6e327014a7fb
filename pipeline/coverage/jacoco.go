package coverage

import (
	"bufio"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
	"github.com/lolbench/lolbench/pipeline/testid"
)

// jacocoAdapter measures Java with JaCoCo. Without a coverage command in
// the recipe it measures per test, in one run (issue 22): the recipe's
// test command runs the plan's tests (Surefire's -Dtest) under the JaCoCo
// agent with lolbench's JUnit Platform listener on the test class path,
// which takes the agent's execution data at the start and end of every
// test; lolbench's line reader turns each test's data into covered lines.
// Both tools are in the offline Java image ($LOLBENCH_JAVA_TOOLS; the
// sources are pipeline/baseimage/java). With a coverage command
// (a project's own JaCoCo Maven plugin) it reads the command's XML report,
// once per suite.
type jacocoAdapter struct{}

// Name implements Adapter.
func (jacocoAdapter) Name() string { return "jacoco" }

// Languages implements Adapter.
func (jacocoAdapter) Languages() []string { return []string{"Java", "Kotlin", "Scala"} }

// Tool implements Adapter.
func (jacocoAdapter) Tool() string {
	return "JaCoCo agent with lolbench's JUnit Platform listener, execution data per test (or the recipe's coverage command's XML report, one run per suite)"
}

// Support implements Adapter.
func (jacocoAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "Surefire -Dtest=Class#method,Class$Nested#method"}
}

// javaToolsVar names the folder of lolbench's Java tools in the offline
// Java image (baseimage.Java).
const javaToolsVar = "LOLBENCH_JAVA_TOOLS"

// surefireItems turns junit test ids ("com.x.FooTest::testBar{int}[1]",
// "com.x.Foo$Inner::t") into Surefire's -Dtest items ("com.x.FooTest#testBar"),
// sorted and without duplicates: Surefire runs every invocation of a
// parameterized method.
func surefireItems(tests []string) []string {
	var items []string
	for _, t := range tests {
		if cls, name, ok := strings.Cut(t, "::"); ok {
			items = append(items, cls+"#"+testid.Bare(name))
		} else {
			items = append(items, t)
		}
	}
	sort.Strings(items)
	out := items[:0]
	for i, it := range items {
		if i == 0 || it != items[i-1] {
			out = append(out, it)
		}
	}
	return out
}

// jacocoTests is surefireItems as one shell word, for a recipe's coverage
// command.
func jacocoTests(tests []string) string {
	return testcmd.Quote(strings.Join(surefireItems(tests), ","))
}

// Script implements Adapter.
func (a jacocoAdapter) Script(p *Plan) (string, error) {
	if p.Recipe.Coverage.Command == "" {
		return a.perTestScript(p), nil
	}
	c := p.Recipe.Coverage
	if c.Report == "" {
		return "", errors.New("jacoco coverage: the recipe's coverage command needs its report")
	}
	var b strings.Builder
	for i, s := range p.Suites {
		cmd := strings.ReplaceAll(c.Command, recipe.Placeholder, jacocoTests(s.Tests))
		fmt.Fprintf(&b, "rm -f %s\n", testcmd.Quote(c.Report))
		fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/s%d.log\" 2>&1 </dev/null\n", p.Recipe.Limits.TimeoutSec, testcmd.Quote(cmd), i)
		fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/s%d.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd), i)
		fmt.Fprintf(&b, "echo $? >\"$cov/s%d.exit\"\n", i)
		fmt.Fprintf(&b, "[ -f %s ] && cp %s \"$cov/s%d.xml\"\n", testcmd.Quote(c.Report), testcmd.Quote(c.Report), i)
	}
	return b.String(), nil
}

// perTestScript runs the recipe's test command once over the plan's tests
// with the agent and the listener, then the line reader over every
// compiled main class folder.
func (jacocoAdapter) perTestScript(p *Plan) string {
	items := []string{"-Dtest=" + strings.Join(surefireItems(p.Tests), ",")}
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = testcmd.Quote(it)
	}
	// The agent and listener arguments name $T, expanded by the shell that
	// runs the command: they are written double-quoted.
	args := strings.Join(q, " ") + ` "-DargLine=-javaagent:$T/jacocoagent.jar=output=none,dumponexit=false" "-Dmaven.test.additionalClasspath=$T/lolbench-pertest.jar"`
	cmd := strings.ReplaceAll(p.Recipe.Test.Command, recipe.Placeholder, args)
	var b strings.Builder
	fmt.Fprintf(&b, "T=\"${%s:-/usr/local/share/lolbench/java}\"\nexport T\n", javaToolsVar)
	b.WriteString("if [ ! -f \"$T/lolbench-pertest.jar\" ]; then echo \"no lolbench Java tools in $T: the jacoco adapter measures per test on the offline Java image (lolbench env base --lang java), or set coverage.command\" >\"$cov/run.log\"; exit 0; fi\n")
	b.WriteString("LOLBENCH_PER_TEST_DIR=\"$cov/pertest\"\nexport LOLBENCH_PER_TEST_DIR\nmkdir -p \"$LOLBENCH_PER_TEST_DIR\"\n")
	fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/run.log\" 2>&1 </dev/null\n", p.Recipe.Limits.TimeoutSec, testcmd.Quote(cmd))
	fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/run.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd))
	b.WriteString("echo $? >\"$cov/run.exit\"\n")
	b.WriteString("classes=$(find . -path '*/target/classes' -type d -not -path './.git/*' | tr '\\n' ':')\n")
	b.WriteString("cp=\"$T/lolbench-jacoco-lines.jar\"\nfor j in org.jacoco.core asm asm-commons asm-tree; do cp=\"$cp:/usr/share/java/$j.jar\"; done\n")
	b.WriteString("java -cp \"$cp\" lolbench.JacocoLines \"$cov/lines.tsv\" \"$classes\" \"$LOLBENCH_PER_TEST_DIR\"/*.exec >\"$cov/lines.log\" 2>&1\n")
	return b.String()
}

// jacocoReport is the part of a JaCoCo XML report the adapter reads.
type jacocoReport struct {
	Packages []struct {
		Name  string `xml:"name,attr"`
		Files []struct {
			Name  string `xml:"name,attr"`
			Lines []struct {
				Nr int `xml:"nr,attr"`
				CI int `xml:"ci,attr"`
			} `xml:"line"`
		} `xml:"sourcefile"`
	} `xml:"package"`
}

// maxJaCoCoBytes caps a report.
const maxJaCoCoBytes = 256 << 20

// targetFile returns the target file a JaCoCo source file name
// ("package/Name.java") is: the one whose path ends with it.
func targetFile(p *Plan, rel string) string {
	for _, t := range p.Target.Files {
		if t.Path == rel || strings.HasSuffix(t.Path, "/"+rel) {
			return t.Path
		}
	}
	return ""
}

// readJaCoCo returns the covered lines (ci > 0) of the target's files.
func readJaCoCo(r io.Reader, p *Plan) (Lines, error) {
	dec := xml.NewDecoder(io.LimitReader(r, maxJaCoCoBytes))
	// JaCoCo reports declare a DTD; the decoder must not fetch anything.
	dec.Strict = true
	dec.Entity = map[string]string{}
	var rep jacocoReport
	if err := dec.Decode(&rep); err != nil {
		return nil, err
	}
	out := Lines{}
	for _, pk := range rep.Packages {
		for _, f := range pk.Files {
			match := targetFile(p, path.Join(pk.Name, f.Name))
			if match == "" {
				continue
			}
			for _, l := range f.Lines {
				if l.CI > 0 && l.Nr > 0 {
					out[match] = append(out[match], l.Nr)
				}
			}
		}
	}
	return out.Normalize(), nil
}

// Read implements Adapter.
func (a jacocoAdapter) Read(dir string, p *Plan) (*Raw, error) {
	if p.Recipe.Coverage.Command == "" {
		return a.readPerTest(dir, p)
	}
	raw := &Raw{PerSuite: map[string]Lines{}}
	for i, s := range p.Suites {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("s%d.xml", i)))
		if err != nil {
			raw.Notes = append(raw.Notes, fmt.Sprintf("suite %s wrote no JaCoCo report (see s%d.log)", s.Name, i))
			raw.PerSuite[s.Name] = Lines{}
			continue
		}
		l, err := readJaCoCo(f, p)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("s%d.xml: %w", i, err)
		}
		raw.PerSuite[s.Name] = l
	}
	return raw, nil
}

// maxLinesBytes caps the line reader's output and the listener's index.
const maxLinesBytes = 256 << 20

// readPerTest reads the listener's index (pertest/index.tsv: N, class,
// method, unique id) and the line reader's output (lines.tsv: "tN.exec" or
// "setup.exec", source file, lines). A test's lines are those of every
// invocation of its method: Surefire's -Dtest selects methods.
func (jacocoAdapter) readPerTest(dir string, p *Plan) (*Raw, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "run.exit")); err == nil {
		if code := strings.TrimSpace(string(b)); code == "124" || code == "137" {
			return nil, fmt.Errorf("the coverage run timed out after %d s (the recipe's limits.timeout_sec): raise it (run.log shows how far it got)", p.Recipe.Limits.TimeoutSec)
		}
	}
	index, err := os.Open(filepath.Join(dir, "pertest", "index.tsv"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
		return nil, fmt.Errorf("the JaCoCo listener wrote no index (no test ran under it): %s", lastLines(string(log), 3))
	}
	defer index.Close()
	method := map[string]string{} // "tN.exec" -> "class#method"
	sc := bufio.NewScanner(io.LimitReader(index, maxLinesBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 || f[1] == "" || f[2] == "" {
			continue // a dynamic test without a method source
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			return nil, fmt.Errorf("pertest/index.tsv: bad line %q", sc.Text())
		}
		method["t"+f[0]+".exec"] = f[1] + "#" + f[2]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pertest/index.tsv: %w", err)
	}
	lf, err := os.Open(filepath.Join(dir, "lines.tsv"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "lines.log"))
		return nil, fmt.Errorf("the JaCoCo line reader wrote nothing: %s", lastLines(string(log), 3))
	}
	defer lf.Close()
	byMethod := map[string]Lines{}
	raw := &Raw{PerTest: map[string]Lines{}, Setup: Lines{}}
	sc = bufio.NewScanner(io.LimitReader(lf, maxLinesBytes))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("lines.tsv: bad line %.80q", sc.Text())
		}
		file := targetFile(p, f[1])
		if file == "" {
			continue
		}
		var dst Lines
		switch m, ok := method[f[0]]; {
		case f[0] == "setup.exec":
			dst = raw.Setup
		case ok:
			if byMethod[m] == nil {
				byMethod[m] = Lines{}
			}
			dst = byMethod[m]
		default:
			continue
		}
		for _, s := range strings.Split(f[2], ",") {
			n, err := strconv.Atoi(s)
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("lines.tsv: bad line number %q", s)
			}
			dst[file] = append(dst[file], n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("lines.tsv: %w", err)
	}
	ran := map[string]bool{}
	for _, m := range method {
		ran[m] = true
	}
	var missing []string
	for _, t := range p.Tests {
		m := surefireItems([]string{t})[0]
		if !ran[m] {
			missing = append(missing, t)
			continue
		}
		raw.PerTest[t] = byMethod[m].Union(nil)
	}
	raw.Setup.Normalize()
	staticSetup(p, raw)
	if len(missing) > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) did not run under the JaCoCo listener, e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

// lastLines returns the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	if len(out) == 0 {
		return "no output"
	}
	return strings.Join(out, " | ")
}

// Select implements Adapter: one -Dtest item, passed to the recipe's test
// command (lolbench-maven-test or mvn) among its other arguments.
func (jacocoAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if p.Recipe.Test.Select == recipe.SelectPackages {
		return nil, false
	}
	if len(tests) == 0 {
		return []string{}, true
	}
	return []string{"-Dtest=" + strings.Join(surefireItems(tests), ",")}, true
}

// BuildCheck implements Adapter: the main and test sources compile (the
// mutant jobs apply the test patch first), offline as the image's Maven is
// set up.
func (jacocoAdapter) BuildCheck([]string) string {
	return "mvn -B -o -q -Dstyle.color=never test-compile"
}

// javaStaticLines returns the lines of a Java source's static initializer
// blocks. A class initializes once per JVM, during the first test that
// uses it, so the listener sees those lines in that test alone: they are
// setup, which every test needs (as Python's module bodies).
func javaStaticLines(ctx context.Context, src []byte) []int {
	if len(src) > maxSource {
		return nil
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(java.GetLanguage())
	p.SetOperationLimit(int(parseTimeout.Microseconds()))
	tree, err := p.ParseCtx(ctx, nil, src)
	if err != nil || tree == nil {
		return nil
	}
	defer tree.Close()
	var out []int
	stack := []*sitter.Node{tree.RootNode()}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Type() == "static_initializer" {
			for l := int(n.StartPoint().Row) + 1; l <= int(n.EndPoint().Row)+1; l++ {
				out = append(out, l)
			}
			continue
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			stack = append(stack, n.NamedChild(i))
		}
	}
	return out
}

// staticSetup moves the covered lines of the sources' static initializers
// from the tests that ran them to setup.
func staticSetup(p *Plan, raw *Raw) {
	static := Lines{}
	for _, s := range p.Sources {
		if s.Language == "Java" {
			if ls := javaStaticLines(context.Background(), s.Content); len(ls) > 0 {
				static[s.Path] = ls
			}
		}
	}
	if len(static.Normalize()) == 0 {
		return
	}
	for t, l := range raw.PerTest {
		raw.Setup = raw.Setup.Union(l.Intersect(static))
		raw.PerTest[t] = l.Minus(static)
	}
}
