// Package harbor writes and verifies benchmark tasks in Harbor's format
// (harborframework.com), the format the LoLBench authors evaluated in
// (paper §3.3 and §4):
//
//	task.toml                 name, metadata, timeouts, resources, no network
//	instruction.md            a short preamble, then the EP text
//	environment/Dockerfile    the repository at the PR's base commit, built
//	environment/repo/         the base tree (the Dockerfile's build context)
//	environment/deps/         what the recipe brings from the host: files,
//	                          wheels, a Go module cache (when it does)
//	environment/toolchain/    the recipe's Go toolchain (when it names one;
//	                          layer 1 copies it, issue 31 §1)
//	solution/solve.sh         applies the reference solution
//	tests/test.sh             the verifier's entry point: runs lolbench-grade
//	tests/lolbench-grade      the verifier (static linux binary, pipeline/sandbox/guard)
//	tests/config.json         the F2P/P2P lists and how to run the tests
//	tests/test.patch          the PR's test files (and vendored files)
//	README.md                 for reviewers
//
// The agent sees instruction.md and the environment, and works as the
// recipe's unprivileged user; Harbor copies tests/ into the container (at
// /tests) only to verify, and runs tests/test.sh as root, which writes
// /logs/verifier/reward.txt, reward.json and grade.json.
package harbor

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// Org is the organisation part of every task name ("lolbench/<id>").
const Org = "lolbench"

// Task is everything a Harbor task is written from.
type Task struct {
	// ID is the candidate id; the task is named Org/ID.
	ID         string
	Project    string
	Repo       string // owner/name
	Language   string
	Domain     string
	EPID       string
	EPTitle    string
	PRNumber   int
	PRURL      string
	BaseCommit string
	// EP is the proposal's text and EPFormat its format ("md" or "rst").
	EP       []byte
	EPFormat string
	// Recipe, with defaults applied.
	Recipe recipe.Recipe
	// Tree is the repository at BaseCommit.
	Tree sandbox.Tree
	// Deps is what the recipe brings from the host for Tree
	// (sandbox.PrepareDeps); nil: Write makes it.
	Deps *sandbox.Deps
	// TestPatch and Solution split the PR; TestPaths are the paths the
	// test patch touches (restored from the base commit before it is
	// applied, whatever the agent left there).
	TestPatch, Solution []byte
	TestPaths           []string
	Selection           []string
	FailToPass          []string
	PassToPass          []string
	// Sections maps F2P tests to EP sections (pipeline/sectionmap);
	// Implementable are the task's sections (Completed's denominator) and
	// Untested those of them no F2P test asserts: the reference solution
	// cannot complete them, and task.toml says so.
	Sections      map[string][]string
	Implementable []string
	Untested      []string
	// Report is the validation that produced the lists (README).
	Report *sandbox.Report
	// Grader is the lolbench-grade binary to copy into tests/.
	Grader string
	// SkippedGates, when not empty, are the gates the candidate did not
	// pass (it was built with --include-unreviewed): task.toml marks the
	// task unreviewed and names them.
	SkippedGates []string
}

// Config is the verifier's configuration, tests/config.json.
type Config = guard.Config

// File names of a task folder.
const (
	TaskToml    = "task.toml"
	Instruction = "instruction.md"
	Dockerfile  = "environment/Dockerfile"
	RepoDir     = "environment/repo"
	DepsDir     = "environment/deps"
	// ToolchainDir is the recipe's Go toolchain, when it names one.
	ToolchainDir = "environment/toolchain"
	SolveSh      = "solution/solve.sh"
	TestsDir     = "tests"
	TestSh       = "tests/test.sh"
	GraderBin    = "tests/" + guard.GraderFile
	ConfigJSON   = "tests/" + guard.ConfigFile
	TestPatch    = "tests/" + guard.TestPatchFile
	Readme       = "README.md"
)

// Files lists the files every task folder has (RepoDir is a folder).
var Files = []string{TaskToml, Instruction, Dockerfile, SolveSh, TestSh, GraderBin, ConfigJSON, TestPatch, Readme}

// taskToml is task.toml's shape.
type taskToml struct {
	SchemaVersion string   `toml:"schema_version"`
	Task          tomlTask `toml:"task"`
	Metadata      tomlMeta `toml:"metadata"`
	Verifier      tomlRun  `toml:"verifier"`
	Agent         tomlRun  `toml:"agent"`
	Environment   tomlEnv  `toml:"environment"`
}

type tomlTask struct {
	Name string `toml:"name"`
}

type tomlMeta struct {
	Project    string   `toml:"project"`
	Repo       string   `toml:"repo"`
	Language   string   `toml:"language"`
	Domain     string   `toml:"domain"`
	EPID       string   `toml:"ep_id"`
	EPTitle    string   `toml:"ep_title"`
	PRNumber   int      `toml:"pr_number"`
	BaseCommit string   `toml:"base_commit"`
	F2PCount   int      `toml:"f2p_count"`
	P2PCount   int      `toml:"p2p_count"`
	Category   string   `toml:"category"`
	Tags       []string `toml:"tags"`
	// Unreviewed marks a task built without passing every gate.
	Unreviewed   bool     `toml:"unreviewed,omitempty"`
	SkippedGates []string `toml:"skipped_gates,omitempty"`
	// UntestedSections are the task's sections no F2P test asserts (issue
	// 25: a task defect, which the export refuses without
	// --include-unreviewed).
	UntestedSections []string `toml:"untested_sections,omitempty"`
}

// tomlRun is the [verifier] and [agent] tables: the time allowed and the
// OS user that runs it.
type tomlRun struct {
	TimeoutSec float64 `toml:"timeout_sec"`
	User       string  `toml:"user"`
}

type tomlEnv struct {
	BuildTimeoutSec float64 `toml:"build_timeout_sec"`
	CPUs            float64 `toml:"cpus"`
	MemoryMB        int     `toml:"memory_mb"`
	StorageMB       int     `toml:"storage_mb"`
	NetworkMode     string  `toml:"network_mode"`
}

// Name is the task's Harbor name.
func (t *Task) Name() string { return Org + "/" + t.ID }

// Write writes the task folder at dir, replacing what is there. It is
// written beside dir and renamed into place, so dir is never half-written.
func Write(dir string, t *Task) error {
	if err := check(t); err != nil {
		return fmt.Errorf("harbor task %s: %w", t.ID, err)
	}
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".harbor-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := write(tmp, t); err != nil {
		return fmt.Errorf("harbor task %s: %w", t.ID, err)
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

func check(t *Task) error {
	switch {
	case t.ID == "":
		return errors.New("no id")
	case len(t.FailToPass) == 0:
		return errors.New("no FAIL_TO_PASS test")
	case len(t.TestPatch) == 0 || len(t.Solution) == 0:
		return errors.New("empty test patch or solution")
	case t.Tree == nil:
		return errors.New("no repository tree")
	case t.Grader == "":
		return errors.New("no lolbench-grade binary")
	}
	return nil
}

func write(dir string, t *Task) error {
	r := t.Recipe
	put := func(name string, data []byte, mode os.FileMode) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, mode)
	}
	tt := taskToml{
		SchemaVersion: "1.1",
		Task:          tomlTask{Name: t.Name()},
		Metadata: tomlMeta{Project: t.Project, Repo: t.Repo, Language: t.Language, Domain: t.Domain,
			EPID: t.EPID, EPTitle: t.EPTitle, PRNumber: t.PRNumber, BaseCommit: t.BaseCommit,
			F2PCount: len(t.FailToPass), P2PCount: len(t.PassToPass), Category: "programming",
			Tags:       []string{"lolbench", "long-horizon", strings.ToLower(t.Language)},
			Unreviewed: len(t.SkippedGates) > 0, SkippedGates: t.SkippedGates, UntestedSections: t.Untested},
		// The verifier runs the tests once; the margin covers resetting,
		// applying the test patch and grading. It must be root, the agent
		// must not: the grading design rests on it (docs/architecture.md,
		// "Grading and its threat model").
		Verifier: tomlRun{TimeoutSec: float64(r.Limits.TimeoutSec + 120), User: "root"},
		Agent:    tomlRun{TimeoutSec: float64(r.Limits.AgentTimeoutSec), User: r.User},
		Environment: tomlEnv{BuildTimeoutSec: 3600, CPUs: r.Limits.CPUs, MemoryMB: r.Limits.MemoryMB,
			StorageMB: r.Limits.StorageMB, NetworkMode: "no-network"},
	}
	tomlData, err := toml.Marshal(tt)
	if err != nil {
		return err
	}
	tomlData = append([]byte(tomlHeader), tomlData...)
	if err := put(TaskToml, tomlData, 0o644); err != nil {
		return err
	}
	if err := put(Instruction, instruction(t), 0o644); err != nil {
		return err
	}
	tree := sandbox.WithOmit(t.Tree, r.Omit)
	deps := t.Deps
	if deps == nil {
		d, err := sandbox.PrepareDeps(context.Background(), r, tree, "", nil)
		if err != nil {
			return err
		}
		defer d.Close()
		deps = d
	}
	if err := put(Dockerfile, []byte(sandbox.HarborDockerfile(r, t.BaseCommit, t.ID, deps)), 0o644); err != nil {
		return err
	}
	if err := writeTree(filepath.Join(dir, filepath.FromSlash(RepoDir)), tree); err != nil {
		return err
	}
	// deps/ beside repo/: the Dockerfile copies it (environment/deps).
	if err := deps.WriteDir(filepath.Join(dir, "environment")); err != nil {
		return err
	}
	if err := put(SolveSh, solveScript(t), 0o755); err != nil {
		return err
	}
	cfg := Config{
		Config: grade.Config{Task: t.Name(), Format: r.Test.Format, FailToPass: t.FailToPass, PassToPass: t.PassToPass, Sections: t.Sections,
			Implementable: t.Implementable},
		Language: t.Language, BaseCommit: t.BaseCommit, Recipe: r, Selection: t.Selection, TestPaths: t.TestPaths,
	}
	// The recipe's folder is a path on the host that built the task: it
	// means nothing inside it (environment/deps holds the files).
	cfg.Recipe.Dir = ""
	cj, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := put(ConfigJSON, append(cj, '\n'), 0o644); err != nil {
		return err
	}
	if err := put(TestPatch, t.TestPatch, 0o644); err != nil {
		return err
	}
	if err := put(TestSh, testScript(t), 0o755); err != nil {
		return err
	}
	bin, err := os.ReadFile(t.Grader)
	if err != nil {
		return fmt.Errorf("grader: %w", err)
	}
	if err := put(GraderBin, bin, 0o755); err != nil {
		return err
	}
	return put(Readme, readme(t), 0o644)
}

// instruction is the preamble, in our own words, then the EP as written.
func instruction(t *Task) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Implement %s: %s\n\n", t.EPID, t.EPTitle)
	fmt.Fprintf(&b, "The repository of %s is checked out in `%s`, at the commit just before this proposal was implemented. ", t.Project, recipe.Workdir)
	b.WriteString("Your job is to implement the enhancement proposal below in that repository, the way its maintainers would: change the code in place; there is nothing to submit, the state of the repository when you stop is your solution.\n\n")
	b.WriteString("- The proposal below is your specification. Follow what it says about names, formats, errors and behaviour exactly; hidden tests check it.\n")
	b.WriteString("- Tests are optional and separate. You may write and run your own, but they do not count: after you stop, every test file and test configuration is put back as it was at this commit, the project's test files that check the proposal are added, and those run.\n")
	b.WriteString("- There is no network. Everything the project needs to build and run its tests is installed already; you cannot download packages.\n")
	b.WriteString("- Keep the existing behaviour working: tests that pass now must still pass.\n\n")
	b.WriteString("---\n\n")
	ep := t.EP
	if t.EPFormat == "rst" {
		fence := "```"
		for bytes.Contains(ep, []byte(fence)) {
			fence += "`"
		}
		fmt.Fprintf(&b, "%srst\n%s", fence, ep)
		if !bytes.HasSuffix(ep, []byte("\n")) {
			b.WriteByte('\n')
		}
		b.WriteString(fence + "\n")
	} else {
		b.Write(ep)
		if !bytes.HasSuffix(ep, []byte("\n")) {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// heredoc returns a delimiter that no line of data equals.
func heredoc(name string, data []byte) string {
	d := "LOLBENCH_" + name
	for i := 0; ; i++ {
		cand := d
		if i > 0 {
			h := sha256.Sum256(append(data, byte(i)))
			cand = d + "_" + hex.EncodeToString(h[:4])
		}
		if !bytes.Contains([]byte("\n"+string(data)+"\n"), []byte("\n"+cand+"\n")) {
			return cand
		}
	}
}

func embed(b *bytes.Buffer, target, name string, data []byte) {
	d := heredoc(name, data)
	fmt.Fprintf(b, "cat >%s <<'%s'\n", target, d)
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	b.WriteString(d + "\n")
}

func solveScript(t *Task) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#!/bin/sh\n# Reference solution of %s: the non-test part of PR #%d, applied to the\n# repository. Harbor's oracle agent runs it; lolbench build checked that it\n# makes every FAIL_TO_PASS test pass.\nset -eu\n", t.Name(), t.PRNumber)
	b.WriteString("cd \"${LOLBENCH_TESTBED:-" + recipe.Workdir + "}\"\n")
	b.WriteString("patch=$(mktemp)\n")
	embed(&b, `"$patch"`, "SOLUTION", t.Solution)
	b.WriteString("git apply --whitespace=nowarn \"$patch\"\nrm -f \"$patch\"\n")
	return b.Bytes()
}

// testScript is tests/test.sh: Harbor runs it, as root, once the agent has
// stopped. Everything is in lolbench-grade, so that the same program
// grades here, in lolbench verify and in the build.
func testScript(t *Task) []byte {
	return []byte(fmt.Sprintf(`#!/bin/sh
# Verifier of %s (written by lolbench). Harbor copies tests/ into the
# container and runs this script as root once the agent has stopped.
# lolbench-grade locks tests/ and /logs/verifier away from the tests, kills
# what the agent left running, resets the test infrastructure, applies the
# PR's test patch (test.patch), plants canary tests, runs the tests once as
# %s, kills every process they started, and grades the raw results
# against the FAIL_TO_PASS and PASS_TO_PASS lists (config.json) into
# reward.txt (1 only when every listed test passed), reward.json and
# grade.json. README.md says what it resets. (lolbench verify passes
# further flags: the agent's patch, and -local for its local executor.)
T=$(cd "$(dirname "$0")" && pwd)
chmod 0700 "$T/%s" 2>/dev/null
exec "$T/%s" verify -task "$T" -out /logs/verifier "$@"
`, t.Name(), t.Recipe.User, guard.GraderFile, guard.GraderFile))
}

// LoadConfig reads a task's tests/config.json.
func LoadConfig(dir string) (*Config, error) {
	p := filepath.Join(dir, filepath.FromSlash(ConfigJSON))
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("harbor task %s: no %s (not a task folder written by lolbench build?)", dir, ConfigJSON)
	}
	return guard.LoadConfig(p)
}

// ReadToml reads a task's task.toml (for checks and export).
func ReadToml(dir string) (map[string]any, error) {
	data, err := os.ReadFile(filepath.Join(dir, TaskToml))
	if err != nil {
		return nil, fmt.Errorf("harbor task: %w", err)
	}
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, TaskToml), err)
	}
	return m, nil
}

// writeTree writes the base tree into dir (environment/repo).
func writeTree(dir string, tree sandbox.Tree) error {
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := tree.WriteTar(tw, "")
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	if err := sandbox.Extract(pr, dir, 1<<40); err != nil {
		pr.CloseWithError(err)
		return err
	}
	return nil
}
