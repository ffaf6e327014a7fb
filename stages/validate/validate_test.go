package validate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

func TestValidateStage(t *testing.T) {
	good, err := os.ReadFile("../../data/samples/tinykv/mapping.md")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(good), "| EP-section coverage | 87.5% |", "| EP-section coverage | 75.0% |", 1)
	for _, tc := range []struct {
		name    string
		mapping string // "" leaves mapping.md out
		result  pipeline.Result
		reason  string
		report  bool // validate.json is written
	}{
		{"sample passes", string(good), pipeline.Passed, "", true},
		{"violation rejects", bad, pipeline.Rejected, "1 static-rule violation (R08)", true},
		{"parse error rejects", "# Mapping: x\n\nstray text\n", pipeline.Rejected,
			`mapping.md cannot be parsed: 7 parse errors: line 1: missing part "## Section Classification Summary"; line 1: missing part "## PR File Summary"; line 1: missing part "## Mapped Sections"; ...`, false},
		{"no mapping skips", "", pipeline.Skipped, "no mapping.md to validate; run lolbench map tinykv-tkep-0002 or write it by hand (docs/mapping-format.md)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, c, err := testcand.Build(t.TempDir(), testcand.Tinykv("../.."))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(c.Dir, pipeline.ValidateFile)
			// A stale report from an earlier artifact.
			if err := workspace.WriteJSON(out, map[string]any{"violations": []any{}, "rules": []any{}, "forwarded": []any{}}); err != nil {
				t.Fatal(err)
			}
			if tc.mapping != "" {
				os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(tc.mapping), 0o644)
			}
			res, reason := pipeline.Classify(Stage{}.Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
			if res != tc.result || reason != tc.reason {
				t.Fatalf("got %s %q\nwant %s %q", res, reason, tc.result, tc.reason)
			}
			rep, err := Load(c)
			if !tc.report {
				if !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("stale validate.json kept: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.result == pipeline.Rejected && (len(rep.Violations) != 1 || rep.Violations[0].Rule != 8 || len(rep.Rules) != 28) {
				t.Fatalf("report %+v", rep)
			}
			if tc.result == pipeline.Passed && (!rep.Passed() || len(rep.Rules) != 28) {
				t.Fatalf("report %+v", rep)
			}
		})
	}
}

func TestInputs(t *testing.T) {
	_, c, err := testcand.Build(t.TempDir(), testcand.Tinykv("../.."))
	if err != nil {
		t.Fatal(err)
	}
	in, err := Stage{}.Inputs(nil, c)
	if err != nil || strings.Join(in.Files, " ") != "candidate.json ep.md mapping.md" || strings.Join(in.Params, " ") != "static rules 28" {
		t.Fatalf("%+v %v", in, err)
	}
	if s := (Stage{}); s.Name() != "validate" || s.String() != "validating mappings" {
		t.Fatal("names")
	}
}
