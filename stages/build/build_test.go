package build

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/dockertest"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// sampleCandidate puts data/samples/NAME into a workspace as a collected
// candidate: the repository from make-repo.sh, candidate.json, the EP, the
// recipe and, when the sample has one, the mapping. head names the PR's
// last commit ("head" unless a test adds one).
func sampleCandidate(t testing.TB, ws *workspace.Workspace, name, id, epFile string, extra func(repo string) string) *pipeline.Candidate {
	t.Helper()
	src, _ := filepath.Abs(filepath.Join("..", "..", "data", "samples", name))
	repo := filepath.Join(ws.Root, "repos", id)
	if out, err := exec.Command("bash", filepath.Join(src, "make-repo.sh"), repo).CombinedOutput(); err != nil {
		t.Fatalf("make-repo.sh: %v: %s", err, out)
	}
	head := "head"
	if extra != nil {
		head = extra(repo)
	}
	rev := func(r string) string {
		out, err := exec.Command("git", "-C", repo, "rev-parse", r).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(c.Dir, 0o755)
	for _, f := range []string{epFile, "recipe.yaml", "mapping.md"} {
		if data, err := os.ReadFile(filepath.Join(src, f)); err == nil {
			os.WriteFile(filepath.Join(c.Dir, f), data, 0o644)
		}
	}
	lang := map[string]string{"tinykv": "Go", "unitconv": "Python"}[name]
	info := fmt.Sprintf(`{"id":%q,"project":%q,"repo":"example/%s","language":%q,"domain":"testing","repo_dir":"repos/%s",
"ep":{"id":"EP %s","title":"The sample proposal","file":%q,"created":"2026-02-01T00:00:00Z"},
"pr":{"number":42,"title":"Implement it","author":"a","created_at":"2026-03-01T12:00:00Z","merged_at":"2026-03-02T12:00:00Z","base_sha":%q,"head_sha":%q},
"criteria":[]}`, id, name, name, lang, id, name, epFile, rev("base"), rev(head))
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.InfoFile), []byte(info), 0o644); err != nil {
		t.Fatal(err)
	}
	return c
}

func needDocker(t *testing.T) *sandbox.Docker { return dockertest.Executor(t) }

func newEnv(t *testing.T) *pipeline.Env {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Env{Workspace: ws, Getenv: os.Getenv, Version: "test"}
}

func runBuild(t *testing.T, env *pipeline.Env, st *Stage, c *pipeline.Candidate) pipeline.StageOutcome {
	t.Helper()
	outs, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{st})
	if err != nil || len(outs) != 1 {
		t.Fatalf("run: %v %v", outs, err)
	}
	return outs[0]
}

// TestBuildTinykv builds the Go sample end to end with Docker: the lists,
// the F2P-to-section map from its mapping, the Harbor folder, and the
// verifier on the reference and on a partial solution, with both
// executors.
func TestBuildTinykv(t *testing.T) {
	d := needDocker(t)
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "tinykv", "tinykv-tkep-0002", "ep.md", nil)
	st := &Stage{IncludeUnreviewed: true, Executor: d}
	if o := runBuild(t, env, st, c); o.Result != pipeline.Passed {
		t.Fatalf("build: %+v", o)
	}
	rec, err := LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	rep := rec.Report
	// The older tests of the three packages whose test files do not
	// compile before the solution are not fail-to-pass: their code is
	// unchanged, only their package's build failed (issue 36 §2).
	notBuilt := []string{"example.com/tinykv/server.TestHandle", "example.com/tinykv/snapshot.TestRoundTrip",
		"example.com/tinykv/store.TestDelete", "example.com/tinykv/store.TestKeysSorted", "example.com/tinykv/store.TestSetGet"}
	if len(rep.FailToPass) != 11 || !reflect.DeepEqual(rep.PassToPass, append([]string{"example.com/tinykv/internal/proto.TestParse"}, notBuilt...)) ||
		!reflect.DeepEqual(rep.NotBuiltBefore, notBuilt) ||
		len(rep.Flaky) != 1 || rep.Flaky[0].Name != "example.com/tinykv/internal/proto.TestParseRepeatable" {
		t.Fatalf("lists: %+v", rep.Classification)
	}
	// The build's test-to-section map rests on the mapping's rows; the
	// Python client's section is tested by the Go test that drives it.
	wantSecs := map[string][]string{
		"example.com/tinykv/server.TestSetexAndTTL":        {"3.3"},
		"example.com/tinykv/server.TestPythonClientExpiry": {"3.5"},
		"example.com/tinykv/snapshot.TestExpiryRoundTrip":  {"3.4"}, "example.com/tinykv/snapshot.TestLoadSkipsExpired": {"3.4"},
		"example.com/tinykv/snapshot.TestLoadVersion1":   {"4"},
		"example.com/tinykv/store.TestSetClearsExpiry":   {"3.1"},
		"example.com/tinykv/store.TestSetWithTTLExpires": {"3.1"}, "example.com/tinykv/store.TestSetWithTTLRejectsNonPositive": {"3.1"},
		"example.com/tinykv/store.TestStartSweeperStops": {"3.2"}, "example.com/tinykv/store.TestSweepRemovesExpired": {"3.2"},
		"example.com/tinykv/store.TestTTL": {"3.1"},
	}
	smap, err := sectionmap.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(smap.F2PSections(), wantSecs) || smap.Stage != "build" || smap.Reference != (sectionmap.Figures{Completed: 6, Total: 6}) {
		t.Fatalf("sections.json: %v, %s, %v", smap.F2PSections(), smap.Stage, smap.Reference)
	}
	if rec.TestFiles == nil || strings.Join(rec.TestFiles, " ") != "server/pyclient_test.go server/server_test.go snapshot/snapshot_test.go store/expiry_test.go store/store_test.go" {
		t.Fatalf("test files %q (the Python client's tests are not Go)", rec.TestFiles)
	}
	if len(rec.Sections) != 14 || rec.Sections[3] != (Section{"3.1", "Store API"}) {
		t.Fatalf("sections %v", rec.Sections)
	}
	task := filepath.Join(c.Dir, TaskDir)
	for _, f := range harbor.Files {
		if _, err := os.Stat(filepath.Join(task, filepath.FromSlash(f))); err != nil {
			t.Errorf("task lacks %s", f)
		}
	}
	// Verify: the reference scores 1; a solution with only the store's
	// files scores 0, with exact counts; the local executor agrees.
	ref, _ := os.ReadFile(filepath.Join(c.Dir, SolutionFile))
	g, err := harbor.Verify(context.Background(), d, task, ref, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every task section has a test: the reference solution completes
	// all six (the test plan and the unmapped 6.1 are not task sections).
	if counts(g) != [7]int{1, 11, 11, 6, 6, 6, 6} {
		t.Fatalf("reference: %+v", g)
	}
	partial, err := exec.Command("git", "-C", filepath.Join(env.Workspace.Root, "repos", c.ID), "diff", "base", "head", "--", "store/store.go", "store/expiry.go").Output()
	if err != nil {
		t.Fatal(err)
	}
	// Completed: 3.1 and 3.2, and 4, whose one test (TestLoadVersion1)
	// loads a version 1 snapshot, which the old snapshot code still does
	// once the store compiles with the new tests.
	want := [7]int{0, 7, 11, 6, 6, 3, 6}
	for _, ex := range []sandbox.Executor{d, localExecutor()} {
		g, err := harbor.Verify(context.Background(), ex, task, partial, t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if counts(g) != want {
			t.Fatalf("%s: partial solution: %v, want %v", ex.Name(), counts(g), want)
		}
		var completed []string
		for _, s := range g.Sections {
			if s.Completed {
				completed = append(completed, s.ID)
			}
		}
		if !reflect.DeepEqual(completed, []string{"3.1", "3.2", "4"}) {
			t.Fatalf("%s: partial solution: completed sections %v", ex.Name(), completed)
		}
	}
	// Unchanged inputs: the next run is up to date.
	if o := runBuild(t, env, st, c); !o.UpToDate || o.Result != pipeline.Passed {
		t.Fatalf("second run: %+v", o)
	}
}

// TestBuildUnitconvLocal builds the Python sample with the local executor
// (the Docker executor's lists are checked in pipeline/sandbox).
func TestBuildUnitconvLocal(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("SKIPPING: no /usr/bin/python3 with pytest on this host")
	}
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "unitconv", "unitconv-ucep-0004", "ep.rst", nil)
	if o := runBuild(t, env, &Stage{IncludeUnreviewed: true, Executor: localExecutor()}, c); o.Result != pipeline.Passed {
		t.Fatalf("build: %+v", o)
	}
	rec, _ := LoadRecord(c)
	if len(rec.Report.FailToPass) != 40 || len(rec.Report.PassToPass) != 30 || rec.Report.Env.Isolated {
		t.Fatalf("record: %d F2P, %d P2P, env %+v", len(rec.Report.FailToPass), len(rec.Report.PassToPass), rec.Report.Env)
	}
	// The F2P tests of unitconv and the sections their test files serve in
	// data/samples/unitconv/mapping.md.
	wantSections := map[string]string{
		"tests.test_cli::test_cli_compound":                         "3.5",
		"tests.test_cli::test_cli_offset_error":                     "3.5",
		"tests.test_cli::test_cli_temperature":                      "3.5",
		"tests.test_cli::test_cli_temperature_ascii":                "3.5",
		"tests.test_compound::test_composed_unit_is_a_unit":         "3",
		"tests.test_compound::test_composed_units_compare_by_value": "3.2",
		"tests.test_compound::test_div":                             "3.2",
		"tests.test_compound::test_mul":                             "3.2",
		"tests.test_compound::test_power":                           "3.2",
		"tests.test_compound::test_power_needs_int":                 "3.2",
		"tests.test_compound::test_terms_cancel":                    "3.2",
		"tests.test_format::test_format_compound_symbol":            "3.4",
		"tests.test_format::test_format_temperature_ascii":          "3.4",
		"tests.test_format::test_format_temperature_symbol":         "3.4",
		"tests.test_parse::test_parse_bad_expression[m s-bad unit expression 'm s' at column 3: two units without an operator]":         "3.1",
		"tests.test_parse::test_parse_bad_expression[m/-bad unit expression 'm/' at column 2: operator / without a unit after it]":      "3.1",
		"tests.test_parse::test_parse_bad_expression[m//s-bad unit expression 'm//s' at column 3: operator / without a unit before it]": "3.1",
		"tests.test_parse::test_parse_bad_expression[s^0-bad unit expression 's^0' at column 1: exponent 0]":                            "3.1",
		"tests.test_parse::test_parse_left_to_right":                   "3.1",
		"tests.test_parse::test_parse_negative_exponent":               "3.1",
		"tests.test_parse::test_parse_power":                           "3.1",
		"tests.test_parse::test_parse_product_with_blanks":             "3.1",
		"tests.test_parse::test_parse_quantity_with_expression":        "3.1",
		"tests.test_parse::test_parse_quotient":                        "3.1",
		"tests.test_parse::test_parse_reciprocal":                      "3.1",
		"tests.test_quantity::test_acceleration_units_agree":           "3.1",
		"tests.test_quantity::test_compound_dimension_error":           "3.1",
		"tests.test_quantity::test_existing_units_keep_a_zero_offset":  "4",
		"tests.test_quantity::test_power_from_energy_per_time":         "3.1",
		"tests.test_quantity::test_si_adds_offset":                     "3.3",
		"tests.test_quantity::test_speed":                              "3.1",
		"tests.test_temperature::test_aliases":                         "3.3",
		"tests.test_temperature::test_kelvin_composes":                 "3.3",
		"tests.test_temperature::test_offset_units_cannot_be_composed": "3.3",
		"tests.test_temperature::test_round_trip":                      "3.3",
		"tests.test_temperature::test_scales[-40-degF-degC--40.0]":     "3.3",
		"tests.test_temperature::test_scales[0-K-degF--459.67]":        "3.3",
		"tests.test_temperature::test_scales[0-degC-K-273.15]":         "3.3",
		"tests.test_temperature::test_scales[100-degC-degF-212.0]":     "3.3",
		"tests.test_temperature::test_scales[32-degF-K-273.15]":        "3.3",
	}
	smap, err := sectionmap.Load(c)
	if err != nil {
		t.Fatal(err)
	}
	gotSections := map[string]string{}
	for test, ids := range smap.F2PSections() {
		gotSections[test] = strings.Join(ids, " ")
	}
	if !reflect.DeepEqual(gotSections, wantSections) {
		t.Fatalf("F2P sections = %v\nwant %v", gotSections, wantSections)
	}
	ins, _ := os.ReadFile(filepath.Join(c.Dir, TaskDir, harbor.Instruction))
	if !strings.Contains(string(ins), "```rst\nUCEP: 4\n") {
		t.Fatalf("instruction.md does not carry the RST proposal:\n%.400s", ins)
	}
}

// TestBuildRejectsBrokenSolution: a PR whose code does not even import is
// rejected, the reason recorded in status.json and build.json, and no task
// is left.
func TestBuildRejectsBrokenSolution(t *testing.T) {
	d := needDocker(t)
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "unitconv", "unitconv-ucep-0004", "ep.rst", func(repo string) string {
		script := `set -e
sed -i 's/^def mul(a, b):/def mul(a, b)/' unitconv/units.py
git -c user.name=x -c user.email=x@y commit -qam "break it"
git tag broken`
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return "broken"
	})
	o := runBuild(t, env, &Stage{IncludeUnreviewed: true, Executor: d}, c)
	want := "no fail-to-pass test: no test passes after the reference solution (run 1: exit code 1 (1 planted canary fails on purpose), 7 error)"
	if o.Result != pipeline.Rejected || o.Reason != want {
		t.Fatalf("outcome %+v\nwant reason %q", o, want)
	}
	st, _ := c.LoadStatus()
	rec, _ := LoadRecord(c)
	if st.Stages["build"].Reason != want || rec.Rejected != want {
		t.Fatalf("status %+v, record %q", st.Stages["build"], rec.Rejected)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, TaskDir)); err == nil {
		t.Fatal("a rejected candidate has a task folder")
	}
}

func TestBuildRejectsWithoutRunning(t *testing.T) {
	tests := []struct {
		name, reason string
		edit         string
	}{
		{"only tests", "the PR changes only test files: there is no solution to implement",
			"git checkout -q base -- . && git checkout -q head -- tests && git -c user.name=x -c user.email=x@y commit -qm t && git tag only-tests"},
		{"no test file", "the PR changes no test file: nothing could check a solution",
			"git checkout -q head -- unitconv README.md && git checkout -q base -- tests && git -c user.name=x -c user.email=x@y commit -qam t -q && git tag only-tests"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			c := sampleCandidate(t, env.Workspace, "unitconv", "unitconv-ucep-0004", "ep.rst", func(repo string) string {
				cmd := exec.Command("sh", "-c", "git checkout -q -b side base && "+tt.edit)
				cmd.Dir = repo
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				return "only-tests"
			})
			o := runBuild(t, env, &Stage{IncludeUnreviewed: true, Executor: sandbox.NewLocal(nil)}, c)
			if o.Result != pipeline.Rejected || o.Reason != tt.reason {
				t.Fatalf("outcome %+v", o)
			}
		})
	}
}

func TestBuildNeedsRecipe(t *testing.T) {
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "unitconv", "unitconv-ucep-0004", "ep.rst", nil)
	os.Remove(filepath.Join(c.Dir, RecipeFile))
	o := runBuild(t, env, &Stage{IncludeUnreviewed: true, Executor: sandbox.NewLocal(nil)}, c)
	if o.Result != pipeline.Failed || !strings.Contains(o.Reason, "candidate unitconv-ucep-0004 has no recipe: give project unitconv a recipe in the registry") {
		t.Fatalf("outcome %+v", o)
	}
}

func localExecutor() *sandbox.Local {
	l := sandbox.NewLocal(nil)
	l.Env = []string{"PATH=/usr/local/go/bin:/usr/bin:/bin"}
	return l
}

// counts are a grade's reward.json fields in order.
func counts(g *grade.Grade) [7]int {
	return [7]int{g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, g.SectionsCompleted, g.SectionsTotal}
}

// TestBuildGates: a candidate that has not passed every gate is not built
// (a skipped gate is not a pass), and says which; with IncludeUnreviewed it
// is, marked unreviewed in the record and in task.toml.
func TestBuildGates(t *testing.T) {
	env := newEnv(t)
	c := sampleCandidate(t, env.Workspace, "unitconv", "unitconv-ucep-0004", "ep.rst", nil)
	st := &pipeline.Status{Stages: map[string]*pipeline.StageStatus{
		"validate": {Result: pipeline.Passed},
		"audit":    {Result: pipeline.Skipped, Reason: "no LLM endpoint configured"},
		"rank":     {Result: pipeline.Passed},
	}}
	if err := c.SaveStatus(st); err != nil {
		t.Fatal(err)
	}
	o := runBuild(t, env, &Stage{Executor: sandbox.NewLocal(nil)}, c)
	want := "not built: gates not passed (audit skipped: no LLM endpoint configured; review not run); a skipped gate is not a pass: pass them, or build with --include-unreviewed"
	if o.Result != pipeline.Skipped || o.Reason != want {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, TaskDir)); err == nil {
		t.Fatal("a task was built")
	}
	o = runBuild(t, env, &Stage{IncludeUnreviewed: true, Executor: localExecutor()}, c)
	if o.Result != pipeline.Passed {
		t.Fatalf("outcome %+v", o)
	}
	rec, err := LoadRecord(c)
	if err != nil {
		t.Fatal(err)
	}
	gaps := []string{"audit skipped: no LLM endpoint configured", "review not run"}
	if !rec.Unreviewed || !reflect.DeepEqual(rec.SkippedGates, gaps) {
		t.Fatalf("record: unreviewed %v, gates %q", rec.Unreviewed, rec.SkippedGates)
	}
	m, err := harbor.ReadToml(filepath.Join(c.Dir, TaskDir))
	if err != nil {
		t.Fatal(err)
	}
	meta := m["metadata"].(map[string]any)
	if meta["unreviewed"] != true || !reflect.DeepEqual(meta["skipped_gates"], []any{gaps[0], gaps[1]}) {
		t.Fatalf("task.toml metadata %v", meta)
	}
}
