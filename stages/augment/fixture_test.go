package augment

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// The calc fixture (testdata/calc): a Go module whose PR adds Clamp (with
// an unexported helper and an ErrRange bound check), ClampAll (which the EP
// never names) and Describe (which no original test runs). Its original
// tests are TestAdd and TestClamp(15, 0, 10). Built once per test binary
// with the real build stage on the local executor, then copied per test.

const calcID = "calc-cep-0001"

var (
	calcOnce sync.Once
	calcDir  string
	calcErr  error
)

// calcMutants are the fixture's mutants, by hand: two survive the
// original tests, one (the stub revert of 1.2.1) is killed by TestClamp.
var calcMutants = []struct {
	mu       mutation.Mutant
	from, to string
	killedBy []string
}{
	{mutation.Mutant{ID: "op-boundary-hi", Method: mutation.SyntaxOperator, Operator: "change-constant", Section: "1.2.1", SectionTitle: "Clamping",
		Requirement: "hi when x is above hi", Reference: "Clamp(11, 0, 10) returns 10", Mutated: "Clamp(11, 0, 10) returns 11",
		Scenario: "Clamp(11, 0, 10): x is one above hi", Rationale: "every x equal to hi+1 passes through unclamped",
		Files: []string{"calc/calc.go"}, Lines: coverage.Lines{"calc/calc.go": {24}}},
		"+\tif x > hi {", "+\tif x > hi+1 {", nil},
	{mutation.Mutant{ID: "revert-1.2.2", Method: mutation.MappedRevert, Section: "1.2.2", SectionTitle: "Bounds",
		Requirement: "When lo is greater than hi, Clamp returns the error ErrRange", Reference: "Clamp(1, 5, 0) returns ErrRange",
		Mutated: "Clamp(1, 5, 0) returns a value and a nil error", Scenario: "Clamp(1, 5, 0): lo above hi",
		Rationale: "the bound check is gone", Files: []string{"calc/calc.go"}, Lines: coverage.Lines{"calc/calc.go": {14}}},
		"+\tif lo > hi {", "+\tif false && lo > hi {", nil},
	{mutation.Mutant{ID: "revert-1.2.1-stub", Method: mutation.MappedRevert, Variant: mutation.StubVariant, Section: "1.2.1", SectionTitle: "Clamping",
		Requirement: "Clamp returns x limited to the range", Reference: "Clamp(15, 0, 10) returns 10", Mutated: "Clamp(15, 0, 10) returns 15",
		Scenario: "Clamp(15, 0, 10)", Rationale: "nothing is clamped", Files: []string{"calc/calc.go"}, Lines: coverage.Lines{"calc/calc.go": {21, 24}}},
		"+\tif x > hi {\n+\t\treturn hi", "+\tif false {\n+\t\treturn hi", []string{"example.com/calc/calc.TestClamp"}},
}

// calcTemplate builds the fixture workspace once: the candidate, the build
// stage's task, the hand-made mutants with their kill matrix, and the
// original tests' coverage measured by pipeline/coverage.
func calcTemplate(t *testing.T) string {
	t.Helper()
	calcOnce.Do(func() {
		calcDir, calcErr = os.MkdirTemp("", "lolbench-augment-calc-")
		if calcErr != nil {
			return
		}
		calcErr = buildCalc(filepath.Join(calcDir, "ws"))
	})
	if calcErr != nil {
		t.Fatalf("calc fixture: %v", calcErr)
	}
	return filepath.Join(calcDir, "ws")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if calcDir != "" {
		os.RemoveAll(calcDir)
	}
	os.Exit(code)
}

func buildCalc(dir string) error {
	ctx := context.Background()
	spec := testcand.Spec{Sample: filepath.Join("testdata", "calc"), ID: calcID, EPFile: "ep.md", EPID: "CEP 1", Title: "Clamping and describing numbers"}
	ws, c, err := testcand.Build(dir, spec)
	if err != nil {
		return err
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		return err
	}
	rec, err := os.ReadFile(filepath.Join(spec.Sample, "recipe.yaml"))
	if err != nil {
		return err
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, build.RecipeFile), rec, 0o644); err != nil {
		return err
	}
	env := &pipeline.Env{Workspace: ws, Getenv: os.Getenv, Version: "test"}
	outs, err := pipeline.RunCandidate(ctx, env, c, []pipeline.CandidateStage{&build.Stage{IncludeUnreviewed: true, Executor: sandbox.NewLocal(io.Discard)}})
	if err != nil {
		return err
	}
	if o := outs[len(outs)-1]; o.Result != pipeline.Passed {
		return fmt.Errorf("build %s: %s", o.Result, o.Reason)
	}
	solution, err := os.ReadFile(filepath.Join(c.Dir, build.SolutionFile))
	if err != nil {
		return err
	}
	r, err := build.LoadRecord(c)
	if err != nil {
		return err
	}
	matrix := mutation.NewMatrix(r.Report.FailToPass)
	var records []*mutation.Mutant
	for _, m := range calcMutants {
		mu := m.mu
		mu.Patch = mutation.PatchFile
		mu.Status = mutation.Survived
		if len(m.killedBy) > 0 {
			mu.Status, mu.KilledBy = mutation.Killed, m.killedBy
		}
		if !strings.Contains(string(solution), m.from) {
			return fmt.Errorf("mutant %s: %q not in the solution", mu.ID, m.from)
		}
		patch := strings.Replace(string(solution), m.from, m.to, 1)
		mdir, err := mutation.MutantDir(c, mu.ID)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(mdir, 0o755); err != nil {
			return err
		}
		if err := workspace.WriteFile(filepath.Join(mdir, mutation.PatchFile), []byte(patch), 0o644); err != nil {
			return err
		}
		if err := workspace.WriteJSON(filepath.Join(mdir, mutation.RecordFile), &mu); err != nil {
			return err
		}
		out := map[string]mutation.Outcome{}
		for _, test := range r.Report.FailToPass {
			out[test] = mutation.OutcomePassed
		}
		for _, test := range m.killedBy {
			out[test] = mutation.OutcomeKilled
		}
		records = append(records, &mu)
		matrix.Add(&mu, out)
	}
	for name, v := range map[string]any{mutation.IndexFile: records, mutation.MatrixFile: matrix,
		mutation.ReportFile: mutation.NewReport(calcID, []mutation.Method{mutation.MappedRevert, mutation.SyntaxOperator}, records)} {
		if err := workspace.WriteJSON(filepath.Join(c.Dir, name), v); err != nil {
			return err
		}
	}
	// The original tests' coverage, measured for real.
	tk, err := loadTask(ctx, env, c)
	if err != nil {
		return err
	}
	ex := sandbox.NewLocal(io.Discard)
	senv, err := ex.Prepare(ctx, sandbox.Spec{Project: "calc", Task: calcID, Base: tk.base, Recipe: tk.recipe,
		Tree: sandbox.GitTree{Repo: tk.repo, Commit: tk.base}, LogDir: filepath.Join(dir, "prep-logs")})
	if err != nil {
		return err
	}
	defer senv.Close()
	res, err := coverage.Measure(ctx, senv, coverage.Spec{Recipe: tk.recipe, Language: "Go", Selection: r.Report.Selection,
		Patches: []coverage.Patch{{Name: "test.patch", Data: tk.testPatch}, {Name: "solution.patch", Data: tk.solution}},
		Sources: tk.sources(), Suites: []coverage.SuiteSpec{{Name: coverage.F2P, Tests: r.Report.FailToPass}, {Name: coverage.P2P, Tests: r.Report.PassToPass}}},
		filepath.Join(dir, "cov-logs"))
	if err != nil {
		return err
	}
	return workspace.WriteJSON(filepath.Join(c.Dir, coverage.ResultFile), res)
}

// calcCopy copies the fixture workspace for one test.
func calcCopy(t *testing.T) (*workspace.Workspace, *pipeline.Candidate) {
	t.Helper()
	src := calcTemplate(t)
	dst := filepath.Join(t.TempDir(), "ws")
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	ws, err := workspace.Open(dst, false)
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.OpenCandidate(ws, calcID)
	if err != nil {
		t.Fatal(err)
	}
	return ws, c
}
