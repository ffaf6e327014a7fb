// Package recipe is the environment recipe of a project (issue 6, paper
// §3.3): how to build the image a task runs in, and how to run and read its
// tests. A project in data/projects.yaml carries one as its `recipe` field;
// the sample projects carry theirs in data/samples/<name>/recipe.yaml.
//
// A recipe describes three image layers, reused in the way SWE-bench reuses
// its images:
//
//  1. the base image (Image plus Packages): one per language and toolchain;
//  2. the environment image: the repository at a base commit, copied to
//     /testbed, with Install run in it (dependencies installed and built);
//  3. the thin task image, one per candidate.
//
// Recipe is a plain struct with YAML (and JSON) tags, so that other models
// embed it; Validate checks it and Defaults fills what it leaves out.
package recipe

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/gotoolchain"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/results"
)

// Placeholder is replaced in Test.Command by the test selection: the suite
// items and the items derived from the PR's test files, each shell-quoted.
const Placeholder = "{tests}"

// Workdir is where the repository lives in every image (SWE-bench's
// convention, which harnesses expect).
const Workdir = "/testbed"

// Defaults applied by Defaults for fields a recipe leaves out.
const (
	DefaultRuns            = 3
	DefaultUser            = "lolbench"
	DefaultCPUs            = 2
	DefaultMemoryMB        = 4096
	DefaultPIDs            = 1024
	DefaultStorageMB       = 10240
	DefaultTimeoutSec      = 1800
	DefaultAgentTimeoutSec = 7200
	DefaultSelect          = SelectFiles
)

// Selection modes: how a test file the PR adds or touches becomes an item
// of the test selection.
const (
	// SelectFiles passes the file's path, as pytest and jest take them.
	SelectFiles = "files"
	// SelectPackages passes "./" and the file's folder, as go test takes
	// packages.
	SelectPackages = "packages"
	// SelectNone passes nothing: the suite alone is the selection.
	SelectNone = "none"
)

// Recipe is how a project's tasks are built and tested.
type Recipe struct {
	// Image is the public base image for the language and toolchain,
	// "golang:1.22-bookworm" or "python:3.12-slim". Layer 1 starts here.
	Image string `yaml:"image" json:"image"`
	// Language is the project's language, a pipeline/lang name (any
	// case: "java"). With Image "lolbench/offline-base" it picks the
	// offline base image of that language (lolbench env base --lang).
	Language string `yaml:"language,omitempty" json:"language,omitempty"`
	// Packages are Debian packages installed into layer 1 with apt-get.
	// The image must be Debian-based when any are given.
	Packages []string `yaml:"packages,omitempty" json:"packages,omitempty"`
	// Install are shell commands run in /testbed at the base commit, in
	// order, as User, when layer 2 is built (dependencies, a first build
	// that warms the caches). Building may use the network; tests never do.
	Install []string `yaml:"install,omitempty" json:"install,omitempty"`
	// Env is set in every image and every test run.
	Env map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
	// Test is how the tests are run and read.
	Test Test `yaml:"test" json:"test"`
	// Runs is how many times each side (before and after the reference
	// solution) is run; a test that flips within one side is flaky and is
	// excluded. Default 3.
	Runs int `yaml:"runs,omitempty" json:"runs,omitempty"`
	// User runs Install, the tests and the agent. Default "lolbench", a
	// non-root user the environment image creates; root is refused, since
	// the verifier, which is root, must stay out of the tests' reach.
	User string `yaml:"user,omitempty" json:"user,omitempty"`
	// Limits bound every container.
	Limits Limits `yaml:"limits,omitempty" json:"limits,omitempty"`
	// Build is a shell command run in /testbed that builds the project
	// without running its tests; the mutate stage drops a mutant on which
	// it fails (issue 7). Empty: the coverage adapter's default for the
	// language (Go: go build ./...; Python: py_compile of the changed
	// files; Java: none).
	Build string `yaml:"build,omitempty" json:"build,omitempty"`
	// Coverage says how line coverage is measured (issue 7); the zero
	// value means the adapter of the candidate's language.
	Coverage Coverage `yaml:"coverage,omitempty" json:"coverage,omitzero"`

	// Dependencies from the host (issue 13 §2): containers have no network,
	// so what a project needs beyond the image's packages comes from the
	// host into layer 2, under FilesDir. Paths are relative to Dir.

	// Files are host files copied into layer 2, each at FilesDir/<path>,
	// readable by User and owned by root.
	Files []string `yaml:"files,omitempty" json:"files,omitempty"`
	// Wheels is a host folder of wheels and sdists, copied to
	// FilesDir/<wheels>; pip installs Requirements from it with
	// --no-index. The host fills it with pip download when a requirement
	// is missing and pip can reach an index.
	Wheels string `yaml:"wheels,omitempty" json:"wheels,omitempty"`
	// Requirements are pip requirement files on the host, copied to
	// FilesDir/<path> and installed as User from Wheels before Install.
	Requirements []string `yaml:"requirements,omitempty" json:"requirements,omitempty"`
	// MavenRepo is a host folder laid out as a Maven repository (what
	// `mvn dependency:go-offline` fills on a machine that reaches Maven
	// Central), copied to FilesDir/<maven_repo>; layer 2 makes it the
	// recipe's user's local repository, offline (~/.m2/settings.xml), so
	// that Maven resolves the project's dependencies and plugins from it
	// alone.
	MavenRepo string `yaml:"maven_repo,omitempty" json:"maven_repo,omitempty"`
	// GoModules says whether the modules a go.mod at the repository's root
	// requires are downloaded on the host (go mod download, through the
	// host's GOPROXY) into layer 2's module cache: auto (the default: when
	// it requires any and there is no vendor/modules.txt) or off.
	GoModules string `yaml:"go_modules,omitempty" json:"go_modules,omitempty"`
	// Go is the task's Go toolchain (issue 31 §1): a release ("1.22.4";
	// "1.22", as a go.mod's go line, means 1.22.0, and a minor version
	// before 1.21, "1.17", its newest patch release the Go module proxy
	// lists), or GoSystem for the image's own Go. Empty: for a recipe whose
	// language is Go, the base commit's go.mod says (its toolchain line,
	// else its go line); for any other, the image's. The toolchain is
	// downloaded on the host through the Go module proxy and copied into
	// layer 1 (pipeline/gotoolchain); the build records the release it
	// resolved.
	Go GoVersion `yaml:"go,omitempty" json:"go,omitempty"`
	// Imports are the Python modules of the project under test. After
	// Install, layer 2 checks that each imports from Workdir and not from
	// a package that shadows it; empty: the top-level packages of Workdir
	// and Workdir/src, which are checked for shadowing only.
	Imports []string `yaml:"imports,omitempty" json:"imports,omitempty"`

	// Omit are paths of the base tree left out of the environment
	// (/testbed and a Harbor task's environment/repo/): files the clone
	// lacks and neither the install commands nor the tests read, such as
	// a blob a repository snapshot leaves out (python/cpython's
	// Misc/svnmap.txt). Exact slash paths relative to the repository.
	Omit []string `yaml:"omit,omitempty" json:"omit,omitempty"`

	// Dir is the folder the recipe's host paths are relative to: a recipe
	// file's folder, or the projects registry's. Load and the registry's
	// reader set it; it is recorded so that later stages find the files.
	Dir string `yaml:"-" json:"dir,omitempty"`
}

// HostPaths reports whether the recipe brings files from the host (Files,
// Wheels, Requirements, MavenRepo), which Dir locates.
func (r *Recipe) HostPaths() bool {
	return len(r.Files) > 0 || r.Wheels != "" || len(r.Requirements) > 0 || r.MavenRepo != ""
}

// SameAs reports whether two recipes declare the same thing, Dir aside:
// collect copies a project's recipe into a candidate's recipe.yaml, and the
// copy's host paths stay relative to the registry's folder.
func (r *Recipe) SameAs(o *Recipe) bool {
	a, errA := yaml.Marshal(r)
	b, errB := yaml.Marshal(o)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

// FilesDir is where layer 2 keeps what the recipe brings from the host
// (Files, Requirements, Wheels), each at its path relative to Dir. It is
// root's: the tests can read it, not change it.
const FilesDir = "/opt/lolbench-deps/recipe"

// GoModules values.
const (
	GoModulesAuto = "auto"
	GoModulesOff  = "off"
)

// GoSystem is the go: value that keeps the image's own Go (Debian's 1.19
// in the offline base image).
const GoSystem = gotoolchain.System

// GoVersion is the go: field. In YAML it is read as written, so that an
// unquoted 1.20 stays "1.20" instead of becoming the number 1.2.
type GoVersion string

// UnmarshalYAML implements yaml.BytesUnmarshaler: the scalar as written,
// unquoted when quoted. Anything else reads as text that Validate refuses.
func (g *GoVersion) UnmarshalYAML(b []byte) error {
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, `"`) || strings.HasPrefix(s, "'") {
		var q string
		if err := yaml.Unmarshal(b, &q); err != nil {
			return err
		}
		s = q
	}
	*g = GoVersion(s)
	return nil
}

// Coverage adapters a recipe may name (pipeline/coverage).
const (
	CoverageGo     = "go"
	CoveragePython = "python"
	CoverageJaCoCo = "jacoco"
	CoverageLLVM   = "llvm-cov"
	// CoverageGcov is gcc's gcov through gcovr, one CTest test at a time.
	CoverageGcov = "gcov"
	// CoverageV8 is node's V8 coverage (NODE_V8_COVERAGE), per test,
	// mapped back through source maps for TypeScript (issue 23).
	CoverageV8 = "v8"
	// CoverageRegrtest is CPython's standard library under its own
	// runner, regrtest, traced by lolbench's sys.settrace tracer per
	// test with the interpreter built from the tree.
	CoverageRegrtest = "regrtest"
)

// Coverage configures the coverage adapter (pipeline/coverage). Go and
// Python need nothing: their adapters run go test -cover and coverage.py
// themselves. JaCoCo needs the command that runs tests with the JaCoCo
// agent and writes an XML report, and the report's path.
type Coverage struct {
	// Adapter is go, python, jacoco, llvm-cov (Rust), gcov (C, C++), v8
	// (JavaScript, TypeScript) or regrtest (CPython's standard library);
	// empty: by the candidate's language.
	Adapter string `yaml:"adapter,omitempty" json:"adapter,omitempty"`
	// Command runs the selected tests with coverage (jacoco), in /testbed;
	// Placeholder ({tests}) is replaced by one shell word holding the
	// tests as Class#method items joined by commas (Maven Surefire's
	// -Dtest syntax): "mvn -q test jacoco:report -Dtest={tests}". It is
	// run once per suite. Empty: the jacoco adapter measures per test, on
	// the offline Java image, through the test command.
	Command string `yaml:"command,omitempty" json:"command,omitempty"`
	// Report is the XML report the command writes, relative to /testbed:
	// "target/site/jacoco/jacoco.xml".
	Report string `yaml:"report,omitempty" json:"report,omitempty"`
}

// Test is the test command and how its results are read.
type Test struct {
	// Command is a shell command run in /testbed; Placeholder ({tests})
	// marks where the test selection goes:
	// "go test -json -count=1 {tests}".
	Command string `yaml:"command" json:"command"`
	// Suite is the project's wider suite as the recipe selects it, items
	// passed as they are ("./...", "tests"). The tests the PR's test files
	// add or touch are selected as well (Select).
	Suite []string `yaml:"suite,omitempty" json:"suite,omitempty"`
	// Select is how a PR test file becomes a selection item: files,
	// packages or none. Default files.
	Select string `yaml:"select,omitempty" json:"select,omitempty"`
	// Format is the test-result format, a name from results.Formats():
	// junit, go-json, cargo, pytest-ra.
	Format string `yaml:"format" json:"format"`
	// Results is where the results are written: empty for the command's
	// output (stdout and stderr together), else a glob relative to /testbed
	// such as "target/surefire-reports/*.xml", ending in a report extension.
	// Matching files are removed before every run.
	Results string `yaml:"results,omitempty" json:"results,omitempty"`
	// Reset names further files the test command reads (a Makefile, a
	// tox.ini), in lang.TestConfig's syntax: the verifier resets them to
	// the base commit before every graded run, as it does the language
	// table's test configuration (issue 11).
	Reset []string `yaml:"reset,omitempty" json:"reset,omitempty"`
	// KnownFailures are test ids of the PR's own tests that cannot pass in
	// the sandbox whatever the solution (a test that needs the network or
	// a device), each written exactly as the results give it. The build
	// fails, naming them, when any other test of the PR's test files does
	// not pass after the reference solution (issue 36 §2); these are only
	// excluded, and the build says so.
	KnownFailures []string `yaml:"known_failures,omitempty" json:"known_failures,omitempty"`
}

// Limits bound a container. Zero means the default.
type Limits struct {
	CPUs     float64 `yaml:"cpus,omitempty" json:"cpus,omitempty"`
	MemoryMB int     `yaml:"memory_mb,omitempty" json:"memory_mb,omitempty"`
	PIDs     int     `yaml:"pids,omitempty" json:"pids,omitempty"`
	// StorageMB is declared to Harbor; the local Docker engine cannot
	// enforce it on every storage driver, so it is not applied there.
	StorageMB int `yaml:"storage_mb,omitempty" json:"storage_mb,omitempty"`
	// TimeoutSec is the wall-clock limit of one test run.
	TimeoutSec int `yaml:"timeout_sec,omitempty" json:"timeout_sec,omitempty"`
	// AgentTimeoutSec is the agent's time budget, written to task.toml.
	AgentTimeoutSec int `yaml:"agent_timeout_sec,omitempty" json:"agent_timeout_sec,omitempty"`
}

var (
	moduleRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	debPackageRE = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+(=[A-Za-z0-9.+~:-]+)?$`)
	envKeyRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	userRE       = regexp.MustCompile(`^[a-z_][a-z0-9_-]{0,31}$`)
	// imageRE is a Docker reference: [host[:port]/]path[:tag][@digest].
	imageRE   = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(/[a-z0-9]+([._-]+[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$`)
	resultsRE = regexp.MustCompile(`^[A-Za-z0-9._/*?\[\]-]+$`)
	// reportRE is the last element of a results glob: it must end in a
	// report extension, so that removing stale reports before a run can
	// never remove sources ("*" or "*.py").
	reportRE = regexp.MustCompile(`\.(xml|json|jsonl|log|txt|out|trx)$`)
)

// Validate reports every problem of the recipe, one per line, each naming
// the field. Zero values that Defaults fills are valid.
func (r *Recipe) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}
	switch {
	case r.Image == "":
		bad("image", "missing: name the base image, e.g. golang:1.22-bookworm")
	case len(r.Image) > 255 || !imageRE.MatchString(r.Image):
		bad("image", "%q is not a Docker image reference", r.Image)
	}
	if r.Language != "" {
		switch l := lang.ByName(r.Language); {
		case l == nil:
			bad("language", "%q is not a language of lolbench's table (lolbench lang list)", r.Language)
		case r.Image == baseimage.Name && baseimage.ForLanguage(l.Name) == nil:
			bad("language", "%s has no offline base image yet (lolbench lang list): name a public image for it", l.Name)
		}
	}
	for i, p := range r.Packages {
		if !debPackageRE.MatchString(p) {
			bad(fmt.Sprintf("packages[%d]", i), "%q is not a Debian package name", p)
		}
	}
	for i, c := range r.Install {
		if strings.TrimSpace(c) == "" {
			bad(fmt.Sprintf("install[%d]", i), "empty command")
		} else if strings.ContainsRune(c, 0) {
			bad(fmt.Sprintf("install[%d]", i), "contains a NUL byte")
		}
	}
	keys := make([]string, 0, len(r.Env))
	for k := range r.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !envKeyRE.MatchString(k) {
			bad("env", "%q is not a variable name", k)
		} else if strings.ContainsAny(r.Env[k], "\x00\n\r") {
			bad("env."+k, "value contains a NUL byte or a line break")
		}
	}
	t := r.Test
	switch {
	case strings.TrimSpace(t.Command) == "":
		bad("test.command", "missing: the command that runs the tests, with %s for the selection", Placeholder)
	case !strings.Contains(t.Command, Placeholder):
		bad("test.command", "%q has no %s placeholder for the test selection", t.Command, Placeholder)
	case strings.ContainsRune(t.Command, 0):
		bad("test.command", "contains a NUL byte")
	}
	for i, s := range t.Suite {
		if s == "" || strings.ContainsAny(s, "\x00\n\r") {
			bad(fmt.Sprintf("test.suite[%d]", i), "empty or contains a NUL byte or a line break")
		}
	}
	switch t.Select {
	case "", SelectFiles, SelectPackages, SelectNone:
	default:
		bad("test.select", "%q is not one of %s, %s, %s", t.Select, SelectFiles, SelectPackages, SelectNone)
	}
	for i, g := range t.Reset {
		if msg := resetGlobProblem(g); msg != "" {
			bad(fmt.Sprintf("test.reset[%d]", i), "%q %s", g, msg)
		}
	}
	for i, id := range t.KnownFailures {
		if strings.TrimSpace(id) == "" || strings.ContainsAny(id, "\x00\n\r") {
			bad(fmt.Sprintf("test.known_failures[%d]", i), "empty or contains a NUL byte or a line break")
		}
	}
	if t.Select == SelectNone && len(t.Suite) == 0 {
		bad("test.suite", "empty while test.select is none: nothing would be run")
	}
	if t.Format == "" {
		bad("test.format", "missing: one of %s", strings.Join(results.Formats(), ", "))
	} else if _, err := results.Lookup(t.Format); err != nil {
		bad("test.format", "%v", err)
	}
	if t.Results != "" {
		switch {
		case !resultsRE.MatchString(t.Results):
			bad("test.results", "%q may hold only letters, digits and . _ - / * ? [ ]", t.Results)
		case !reportRE.MatchString(t.Results):
			bad("test.results", "%q must end in a report extension (.xml, .json, .jsonl, .log, .txt, .out, .trx)", t.Results)
		case strings.HasPrefix(t.Results, "/"):
			bad("test.results", "%q must be relative to %s", t.Results, Workdir)
		default:
			for _, el := range strings.Split(t.Results, "/") {
				if el == ".." {
					bad("test.results", "%q leaves %s", t.Results, Workdir)
					break
				}
			}
		}
	}
	if r.Runs < 0 || r.Runs > 20 {
		bad("runs", "%d is outside 1..20 (0 means %d)", r.Runs, DefaultRuns)
	}
	switch {
	case r.User == "root":
		bad("user", "root is refused: the tests run unprivileged so that they cannot reach the verifier (docs/architecture.md, \"Grading and its threat model\"); install what needs root through packages")
	case r.User != "" && !userRE.MatchString(r.User):
		bad("user", "%q is not a user name", r.User)
	}
	l := r.Limits
	if l.CPUs < 0 || l.CPUs > 256 {
		bad("limits.cpus", "%g is outside 0..256", l.CPUs)
	}
	if l.MemoryMB != 0 && (l.MemoryMB < 64 || l.MemoryMB > 1<<20) {
		bad("limits.memory_mb", "%d is outside 64..1048576", l.MemoryMB)
	}
	if l.PIDs != 0 && (l.PIDs < 32 || l.PIDs > 1<<22) {
		bad("limits.pids", "%d is outside 32..4194304", l.PIDs)
	}
	if l.StorageMB < 0 {
		bad("limits.storage_mb", "%d is negative", l.StorageMB)
	}
	if l.TimeoutSec < 0 || l.TimeoutSec > 86400 {
		bad("limits.timeout_sec", "%d is outside 1..86400", l.TimeoutSec)
	}
	if l.AgentTimeoutSec < 0 || l.AgentTimeoutSec > 7*86400 {
		bad("limits.agent_timeout_sec", "%d is outside 1..604800", l.AgentTimeoutSec)
	}
	if strings.ContainsRune(r.Build, 0) {
		bad("build", "contains a NUL byte")
	}
	c := r.Coverage
	switch c.Adapter {
	case "", CoverageGo, CoveragePython, CoverageJaCoCo, CoverageLLVM, CoverageGcov, CoverageV8, CoverageRegrtest:
	default:
		bad("coverage.adapter", "%q is not one of %s, %s, %s, %s, %s, %s, %s", c.Adapter, CoverageGo, CoveragePython, CoverageJaCoCo, CoverageLLVM, CoverageGcov, CoverageV8, CoverageRegrtest)
	}
	if strings.ContainsRune(c.Command, 0) {
		bad("coverage.command", "contains a NUL byte")
	}
	if c.Report != "" {
		switch {
		case !resultsRE.MatchString(c.Report) || strings.ContainsAny(c.Report, "*?[]"):
			bad("coverage.report", "%q may hold only letters, digits and . _ - /", c.Report)
		case !strings.HasSuffix(c.Report, ".xml"):
			bad("coverage.report", "%q must be an .xml file", c.Report)
		case strings.HasPrefix(c.Report, "/"):
			bad("coverage.report", "%q must be relative to %s", c.Report, Workdir)
		case slicesContains(strings.Split(c.Report, "/"), ".."):
			bad("coverage.report", "%q leaves %s", c.Report, Workdir)
		}
	}
	for i, f := range r.Files {
		if msg := hostPathProblem(f); msg != "" {
			bad(fmt.Sprintf("files[%d]", i), "%q %s", f, msg)
		}
	}
	if r.Wheels != "" {
		if msg := hostPathProblem(r.Wheels); msg != "" {
			bad("wheels", "%q %s", r.Wheels, msg)
		}
	}
	for i, f := range r.Requirements {
		if msg := hostPathProblem(f); msg != "" {
			bad(fmt.Sprintf("requirements[%d]", i), "%q %s", f, msg)
		}
	}
	if r.MavenRepo != "" {
		if msg := hostPathProblem(r.MavenRepo); msg != "" {
			bad("maven_repo", "%q %s", r.MavenRepo, msg)
		}
	}
	if len(r.Requirements) > 0 && r.Wheels == "" {
		bad("requirements", "needs wheels: the folder pip installs them from, offline")
	}
	switch r.GoModules {
	case "", GoModulesAuto, GoModulesOff:
	default:
		bad("go_modules", "%q is not one of %s, %s", r.GoModules, GoModulesAuto, GoModulesOff)
	}
	if r.Go != "" && r.Go != GoSystem {
		if _, err := gotoolchain.ParseSpec(string(r.Go), ""); err != nil {
			bad("go", "%v, or %s for the image's Go", err, GoSystem)
		}
	}
	for i, p := range r.Omit {
		if msg := hostPathProblem(p); msg != "" {
			bad(fmt.Sprintf("omit[%d]", i), "%q %s", p, strings.Replace(msg, "the recipe's folder", "the repository", 1))
		}
	}
	for i, m := range r.Imports {
		if !moduleRE.MatchString(m) {
			bad(fmt.Sprintf("imports[%d]", i), "%q is not a Python module name", m)
		}
	}
	if c.Command != "" {
		if !strings.Contains(c.Command, Placeholder) {
			bad("coverage.command", "has no %s placeholder: the jacoco adapter runs it with the tests of each suite", Placeholder)
		}
		if c.Report == "" {
			bad("coverage.report", "missing: the jacoco adapter reads the coverage command's XML report there")
		}
	}
	return errors.Join(errs...)
}

// resetGlobProblem says what is wrong with a test.reset entry: a glob, or
// a slash path ending in one, relative to the repository, optionally with
// a "[section]".
func resetGlobProblem(g string) string {
	glob := g
	if i := strings.IndexByte(g, '['); i > 0 && strings.HasSuffix(g, "]") && !strings.ContainsAny(g[i+1:len(g)-1], "[]*?/") {
		glob = g[:i]
	}
	switch {
	case strings.TrimSpace(glob) == "" || strings.ContainsAny(g, "\x00\n\r"):
		return "is empty or holds a NUL byte or a line break"
	case strings.HasPrefix(glob, "/"):
		return "must be relative to the repository"
	case slicesContains(strings.Split(glob, "/"), ".."):
		return "leaves the repository"
	}
	if _, err := path.Match(glob, ""); err != nil {
		return "is not a glob: " + err.Error()
	}
	return ""
}

// hostPathProblem says what is wrong with a host path of the recipe: it
// must be a clean slash path relative to the recipe's folder, inside it.
// Links that lead out are found when the files are read (HostFiles).
func hostPathProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "" || strings.ContainsAny(p, "\x00\n\r\\"):
		return "is empty or holds a NUL byte, a line break or a backslash"
	case strings.HasPrefix(p, "/"):
		return "must be relative to the recipe's folder"
	case slicesContains(strings.Split(p, "/"), ".."):
		return "leaves the recipe's folder"
	case path.Clean(p) != p || p == ".":
		return "is not a clean path (no ., // or trailing /)"
	}
	return ""
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Defaults returns a copy of the recipe with every left-out field set to
// its default.
func (r Recipe) Defaults() Recipe {
	if r.Runs == 0 {
		r.Runs = DefaultRuns
	}
	if r.User == "" {
		r.User = DefaultUser
	}
	if r.Test.Select == "" {
		r.Test.Select = DefaultSelect
	}
	l := &r.Limits
	if l.CPUs == 0 {
		l.CPUs = DefaultCPUs
	}
	if l.MemoryMB == 0 {
		l.MemoryMB = DefaultMemoryMB
	}
	if l.PIDs == 0 {
		l.PIDs = DefaultPIDs
	}
	if l.StorageMB == 0 {
		l.StorageMB = DefaultStorageMB
	}
	if l.TimeoutSec == 0 {
		l.TimeoutSec = DefaultTimeoutSec
	}
	if l.AgentTimeoutSec == 0 {
		l.AgentTimeoutSec = DefaultAgentTimeoutSec
	}
	r.Packages = append([]string(nil), r.Packages...)
	r.Install = append([]string(nil), r.Install...)
	r.Test.Suite = append([]string(nil), r.Test.Suite...)
	r.Test.Reset = append([]string(nil), r.Test.Reset...)
	r.Files = append([]string(nil), r.Files...)
	r.Requirements = append([]string(nil), r.Requirements...)
	r.Imports = append([]string(nil), r.Imports...)
	r.Omit = append([]string(nil), r.Omit...)
	if r.Env != nil {
		env := make(map[string]string, len(r.Env))
		for k, v := range r.Env {
			env[k] = v
		}
		r.Env = env
	}
	return r
}

// maxRecipeBytes caps a recipe file; real ones are a few hundred bytes.
const maxRecipeBytes = 1 << 20

// Load reads and validates a recipe file.
func Load(path string) (*Recipe, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read recipe: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecipeBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read recipe %s: %w", path, err)
	}
	r, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if r.Dir, err = filepath.Abs(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("read recipe %s: %w", path, err)
	}
	return r, nil
}

// Parse decodes a recipe from YAML and validates it; name (a file name)
// prefixes every error, with the line where YAML knows it. Unknown fields
// are errors, so that a misspelt field is reported instead of ignored.
func Parse(name string, data []byte) (r *Recipe, err error) {
	if len(data) > maxRecipeBytes {
		return nil, fmt.Errorf("recipe %s: larger than %d bytes", name, maxRecipeBytes)
	}
	defer func() {
		// goccy/go-yaml is third-party code fed hostile input; a panic in
		// it is a bad recipe, not a crash.
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("recipe %s: malformed YAML (%v)", name, p)
		}
	}()
	var rec Recipe
	if err := yaml.UnmarshalWithOptions(data, &rec, yaml.Strict()); err != nil {
		var ye yaml.Error
		if errors.As(err, &ye) && ye.GetToken() != nil {
			return nil, fmt.Errorf("recipe %s:%d: %s", name, ye.GetToken().Position.Line, ye.GetMessage())
		}
		return nil, fmt.Errorf("recipe %s: %v", name, err)
	}
	if err := rec.Validate(); err != nil {
		return nil, fmt.Errorf("recipe %s: %w", name, err)
	}
	return &rec, nil
}
