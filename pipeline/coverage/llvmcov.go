package coverage

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// llvmCovAdapter measures Rust per test with LLVM's source-based coverage
// (issue 23). lolbench-cargo-test (in the offline Rust image) builds the
// selected test targets with -C instrument-coverage (rustc 1.63 needs
// RUSTC_BOOTSTRAP, and Debian's rustc has no profiler runtime: clang's
// is linked in), runs every test alone in its binary with its own
// LLVM_PROFILE_FILE, and exports its lines with llvm-profdata-14 and
// llvm-cov-14 as an lcov file; index.tsv names each file's test.
type llvmCovAdapter struct{}

// Name implements Adapter.
func (llvmCovAdapter) Name() string { return recipe.CoverageLLVM }

// Languages implements Adapter.
func (llvmCovAdapter) Languages() []string { return []string{"Rust"} }

// Tool implements Adapter.
func (llvmCovAdapter) Tool() string {
	return "rustc -C instrument-coverage, one test binary run per test, llvm-profdata-14 merge and llvm-cov-14 export --format=lcov"
}

// Support implements Adapter.
func (llvmCovAdapter) Support() Support {
	return Support{PerTest: true, SingleTest: "lolbench-cargo-test TARGET::path::name (cargo test --test TARGET -- --exact path::name)"}
}

// rustCovDir is the wrapper's output folder inside the job's "$cov".
const rustCovDir = "pertest"

// Script implements Adapter: the recipe's test command, its selection
// replaced by --coverage and the plan's test ids, which
// lolbench-cargo-test takes as they are.
func (llvmCovAdapter) Script(p *Plan) (string, error) {
	if !strings.Contains(p.Recipe.Test.Command, "lolbench-cargo-test") {
		return "", fmt.Errorf("the llvm-cov adapter runs tests through lolbench-cargo-test (the offline Rust image): the recipe's test command %q does not", p.Recipe.Test.Command)
	}
	args := []string{`--coverage "$cov/` + rustCovDir + `"`}
	for _, t := range p.Tests {
		args = append(args, testcmd.Quote(t))
	}
	cmd := strings.ReplaceAll(p.Recipe.Test.Command, recipe.Placeholder, strings.Join(args, " "))
	var b strings.Builder
	// Each test's libtest lines go to the log as it runs: the verifier's
	// counter follows it for the progress line.
	b.WriteString(": >\"$cov/run.log\"\nlolbench_count \"$cov/run.log\"\n")
	fmt.Fprintf(&b, "if command -v timeout >/dev/null 2>&1; then\n\ttimeout -k 10 %d sh -c %s >\"$cov/run.log\" 2>&1 </dev/null\n", p.Recipe.Limits.TimeoutSec*2, testcmd.Quote(cmd))
	fmt.Fprintf(&b, "else\n\tsh -c %s >\"$cov/run.log\" 2>&1 </dev/null\nfi\n", testcmd.Quote(cmd))
	b.WriteString("echo $? >\"$cov/run.exit\"\nlolbench_count_end\n")
	return b.String(), nil
}

// maxLcovBytes caps one lcov file and the index.
const maxLcovBytes = 256 << 20

// Read implements Adapter.
func (llvmCovAdapter) Read(dir string, p *Plan) (*Raw, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "run.exit")); err == nil {
		if code := strings.TrimSpace(string(b)); code == "124" || code == "137" {
			return nil, fmt.Errorf("the coverage run timed out after %d s (twice the recipe's limits.timeout_sec): raise it (run.log shows how far it got)", p.Recipe.Limits.TimeoutSec*2)
		}
	}
	index, err := os.Open(filepath.Join(dir, rustCovDir, "index.tsv"))
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "run.log"))
		return nil, fmt.Errorf("lolbench-cargo-test wrote no coverage index (no test ran with coverage): %s", lastLines(string(log), 3))
	}
	defer index.Close()
	raw := &Raw{PerTest: map[string]Lines{}}
	ran := map[string]bool{}
	sc := bufio.NewScanner(io.LimitReader(index, maxLcovBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s/index.tsv: bad line %.80q", rustCovDir, sc.Text())
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s/index.tsv: bad number %q", rustCovDir, f[0])
		}
		ran[f[1]] = true
		lf, err := os.Open(filepath.Join(dir, rustCovDir, strconv.Itoa(n)+".lcov"))
		if err != nil {
			raw.Notes = append(raw.Notes, fmt.Sprintf("%s left no coverage data", f[1]))
			continue
		}
		l, err := readLcov(lf, p)
		lf.Close()
		if err != nil {
			return nil, fmt.Errorf("%s/%d.lcov: %w", rustCovDir, n, err)
		}
		raw.PerTest[f[1]] = raw.PerTest[f[1]].Union(l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s/index.tsv: %w", rustCovDir, err)
	}
	var missing []string
	for _, t := range p.Tests {
		if !ran[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		raw.Notes = append(raw.Notes, fmt.Sprintf("%d test(s) did not run with coverage, e.g. %s", len(missing), missing[0]))
	}
	return raw, nil
}

// readLcov returns the lines an lcov file counts as run (DA:line,count
// with count > 0) in the target's files. llvm-cov names sources by their
// absolute paths in the container: a target file is the one whose path
// ends the source's.
func readLcov(r io.Reader, p *Plan) (Lines, error) {
	out := Lines{}
	file := ""
	sc := bufio.NewScanner(io.LimitReader(r, maxLcovBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "SF:"):
			file = lcovTarget(p, strings.TrimPrefix(line, "SF:"))
		case line == "end_of_record":
			file = ""
		case strings.HasPrefix(line, "DA:") && file != "":
			f := strings.Split(strings.TrimPrefix(line, "DA:"), ",")
			if len(f) < 2 {
				return nil, fmt.Errorf("bad line %.80q", line)
			}
			// A count is digits of any size (llvm-cov's are 64-bit
			// unsigned): run when one of them is not 0.
			n, err := strconv.Atoi(f[0])
			if err != nil || n <= 0 || f[1] == "" || strings.Trim(f[1], "0123456789") != "" {
				return nil, fmt.Errorf("bad line %.80q", line)
			}
			if strings.Trim(f[1], "0") != "" {
				out[file] = append(out[file], n)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out.Normalize(), nil
}

// lcovTarget returns the target file an lcov source path is, or "".
func lcovTarget(p *Plan, src string) string {
	src = filepath.ToSlash(src)
	for _, t := range p.Target.Files {
		if src == t.Path || strings.HasSuffix(src, "/"+t.Path) {
			return t.Path
		}
	}
	return ""
}

// Select implements Adapter: lolbench-cargo-test takes test ids as they
// are (TARGET::path::name) and runs each with libtest's --exact.
func (llvmCovAdapter) Select(p *Plan, tests []string) ([]string, bool) {
	if !strings.Contains(p.Recipe.Test.Command, "lolbench-cargo-test") {
		return nil, false
	}
	if len(tests) == 0 {
		return []string{}, true
	}
	out := append([]string(nil), tests...)
	sort.Strings(out)
	return out, true
}

// BuildCheck implements Adapter: every test target compiles, offline.
func (llvmCovAdapter) BuildCheck([]string) string {
	return "cargo test --offline --no-run --quiet"
}
