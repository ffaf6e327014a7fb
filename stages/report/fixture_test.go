package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/validate"
)

// The fixture workspace: two candidates over the rules fixture
// (rules/testdata/fixture: an EP, base and PR trees, a canonical mapping),
// one with the canonical mapping (all 28 rules pass) and one with rule 7's
// flawed mapping, validated for real by the validate stage.
const (
	goodID = "greet-gep-0001"
	badID  = "greet-gep-0002"
	// badLine is the artifact line of the flawed mapping's R07 violation.
	badLine = 36
)

func fixtureSpec(id string) testcand.Spec {
	return testcand.Spec{Sample: filepath.Join("..", "..", "rules", "testdata", "fixture"), ID: id,
		EPFile: "ep.md", EPID: "GEP 1", Title: "Localized greetings"}
}

// buildFixture builds the workspace and runs validate on both candidates
// through the engine, so that validate.json and status.json are real.
func buildFixture(t *testing.T) *workspace.Workspace {
	t.Helper()
	dir := t.TempDir()
	var ws *workspace.Workspace
	for _, tc := range []struct{ id, mapping string }{
		{goodID, "mapping.md"},
		{badID, filepath.Join("..", "r07", "fail-direct-count.md")},
	} {
		spec := fixtureSpec(tc.id)
		w, c, err := testcand.Build(dir, spec)
		if err != nil {
			t.Fatal(err)
		}
		ws = w
		if err := testcand.CopyMapping(spec, c, tc.mapping); err != nil {
			t.Fatal(err)
		}
		env := &pipeline.Env{Workspace: ws, Version: "test"}
		if _, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{validate.Stage{}}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

// runReport writes the report of ws and returns the stage.
func runReport(t *testing.T, ws *workspace.Workspace) *Stage {
	t.Helper()
	s := &Stage{}
	if err := s.Run(context.Background(), &pipeline.Env{Workspace: ws, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	return s
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func candidate(t *testing.T, ws *workspace.Workspace, id string) *pipeline.Candidate {
	t.Helper()
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := workspace.WriteJSON(path, v); err != nil {
		t.Fatal(err)
	}
}

var fixedTime = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
