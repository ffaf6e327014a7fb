package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
)

// TestValidateCandidate runs `validate CANDIDATE --workspace W` on the
// tinykv candidate: the curated mapping, a scaffold (unfilled cells only,
// the rules' findings at their lines held back), and --fix on mappings
// whose computed cells are wrong.
func TestValidateCandidate(t *testing.T) {
	ws, dir := scaffoldWorkspace(t)
	mp := filepath.Join(dir, pipeline.MappingFile)
	sample := filepath.Join("..", "..", "data", "samples", "tinykv")
	readSample := func(name string) string {
		b, err := os.ReadFile(filepath.Join(sample, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	validate := func(extra ...string) (string, string, int) {
		return runCLI(t, append([]string{"validate", "tinykv-tkep-0002", "--workspace", ws}, extra...)...)
	}

	t.Run("no mapping yet", func(t *testing.T) {
		_, errOut, code := validate()
		want := "lolbench: candidate tinykv-tkep-0002 has no mapping.md; run lolbench mapping scaffold tinykv-tkep-0002 or lolbench map tinykv-tkep-0002\n"
		if code != exitBadInput || errOut != want {
			t.Fatalf("code %d, stderr %q", code, errOut)
		}
	})

	t.Run("curated mapping passes", func(t *testing.T) {
		os.WriteFile(mp, []byte(readSample("mapping.md")), 0o644)
		out, errOut, code := validate()
		if code != 0 || out != "28 of 28 rules passed, 0 violations\n" || errOut != "" {
			t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
		}
	})

	t.Run("scaffold: unfilled cells only", func(t *testing.T) {
		golden, err := os.ReadFile(scaffoldGolden)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(mp, golden, 0o644)
		out, _, code := validate()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for _, want := range []string{
			"unfilled: 101 cells hold TODO",
			"  " + mp + ":7: section 1: Implementable",
			"  " + mp + ":7: section 1: Category",
			"  " + mp + ":43: block 1: section",
			"  " + mp + ":43: block 1: title",
			"  " + mp + ":45: block 1: quote",
			"  " + mp + ":47: block 1: requirement",
			"  " + mp + ":55: block 1: which section `CHANGELOG.md` (file level) serves",
			"  " + mp + ":90: block 1: which section `store/store.go` `Store` serves",
			"  " + mp + ":130: block 1: summary of `store/store_test.go`",
		} {
			if !strings.Contains(out, want+"\n") {
				t.Errorf("stdout lacks %q", want)
			}
		}
		last := "28 of 28 rules passed, 0 violations, 101 unfilled cells (49 violations at unfilled lines held back)"
		if code != exitFindings || len(lines) != 103 || lines[0] != "unfilled: 101 cells hold TODO" || lines[102] != last {
			t.Fatalf("code %d, %d lines, stdout:\n%s", code, len(lines), out)
		}

		// --fix has nothing to compute in a scaffold; the JSON report
		// carries the same findings.
		out, _, code = validate("--fix", "--json")
		var rep struct {
			Violations []any `json:"violations"`
			Unfilled   []struct {
				Line  int    `json:"line"`
				Where string `json:"where"`
				Cell  string `json:"cell"`
			} `json:"unfilled"`
			HeldBack int   `json:"held_back"`
			Fixed    []any `json:"fixed"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		if code != exitFindings || len(rep.Violations) != 0 || len(rep.Unfilled) != 101 || rep.HeldBack != 49 ||
			rep.Fixed == nil || len(rep.Fixed) != 0 || rep.Unfilled[4].Line != 9 || rep.Unfilled[4].Cell != "Implementable" {
			t.Fatalf("code %d, report %+v", code, rep)
		}
		after, _ := os.ReadFile(mp)
		if string(after) != string(golden) {
			t.Fatal("--fix changed a scaffold")
		}
	})

	t.Run("--fix rewrites wrong computed cells, then the mapping passes", func(t *testing.T) {
		curated := readSample("mapping.md")
		broken := strings.NewReplacer(
			"| 4 | 3.1 | Store API | yes | implementation | yes |", "| 4 | 3.1 | Store API | yes | implementation | no |",
			"| `server/server.go` | source | direct | 3.3 | - |", "| `server/server.go` | source | associated | 3.3, 5 | - |",
			"**Files:** 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\n\n#### Direct modifications\n\n| File | Class | Function |\n|------|-------|----------|\n| `server/server.go`",
			"**Files:** 2 direct (14.3%), 1 associated (7.1%), 2 accounted (14.3%) of 13 PR files\n\n#### Direct modifications\n\n| File | Class | Function |\n|------|-------|----------|\n| `server/server.go`",
			"| Direct files | 12 |", "| Direct files | 9 |",
			"| test files | 6 |\n", "",
		).Replace(curated)
		os.WriteFile(mp, []byte(broken), 0o644)
		out, errOut, code := validate("--fix")
		want := "--fix: 6 changes to " + mp + "\n" +
			"  " + mp + ":10: section 3.1: Mapped: no -> yes\n" +
			"  " + mp + ":32: file `server/server.go`: Role: associated -> direct\n" +
			"  " + mp + ":32: file `server/server.go`: Direct sections: 3.3, 5 -> 3.3\n" +
			"  " + mp + ":119: block 3 (section 3.3): Files: 2 direct (14.3%), 1 associated (7.1%), 2 accounted (14.3%) of 13 PR files -> 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\n" +
			"  " + mp + ":286: Global Statistics: Direct files: 9 -> 12\n" +
			"  " + mp + ":291: Global Statistics: test files: (absent) -> 6\n" +
			"28 of 28 rules passed, 0 violations\n"
		if code != 0 || out != want || errOut != "" {
			t.Fatalf("code %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, want)
		}
		got, _ := os.ReadFile(mp)
		if string(got) != curated {
			t.Fatalf("fixed mapping differs from the curated one:\n%s", got)
		}
	})

	t.Run("--fix on the flawed mapping fixes what is computed", func(t *testing.T) {
		flawed := readSample("mapping-flawed.md")
		os.WriteFile(mp, []byte(flawed), 0o644)
		out, _, code := validate("--fix", "--rules", "7,8,12,18,20")
		want := "--fix: 5 changes to " + mp + "\n" +
			"  " + mp + ":11: section 3.2: #: 6 -> 5\n" +
			"  " + mp + ":51: block 1 (section 3.1): Files: 2 direct (14.3%), 1 associated (7.1%), 3 accounted (21.4%) of 14 PR files -> 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files\n" +
			"  " + mp + ":266: Unmapped Implementable Sections: section 6.1: Title: Eviction -> Eviction policies\n" +
			"  " + mp + ":273: Unmapped PR Files: file `README.md`: (absent) -> README.md | documentation | TODO\n" +
			"  " + mp + ":284: Global Statistics: EP-section coverage: 100.0% -> 87.5%\n" +
			"unfilled: 1 cell holds TODO\n" +
			"  " + mp + ":273: file `README.md`: Reason\n" +
			"R20 file-level-entries: 1 violation\n" +
			"  " + mp + ":274: file `*.md`: `*.md` in the Unmapped PR Files is a glob, not a single file; write one row per file it stands for: `CHANGELOG.md`, `README.md`\n" +
			"4 of 5 rules passed, 1 violation, 1 unfilled cell\n"
		if code != exitFindings || out != want {
			t.Fatalf("code %d, stdout:\n%s\nwant:\n%s", code, out, want)
		}
		wantFile := strings.NewReplacer(
			"| 6 | 3.2 | Background sweeper |", "| 5 | 3.2 | Background sweeper |",
			"**Files:** 2 direct (14.3%), 1 associated (7.1%), 3 accounted (21.4%) of 14 PR files <!--", "**Files:** 1 direct (7.1%), 1 associated (7.1%), 2 accounted (14.3%) of 14 PR files <!--",
			"| 6.1 | Eviction | deferred |", "| 6.1 | Eviction policies | deferred |",
			"| `CHANGELOG.md` | documentation | documentation-only |\n", "| `CHANGELOG.md` | documentation | documentation-only |\n| `README.md` | documentation | TODO |\n",
			"| EP-section coverage | 100.0% |", "| EP-section coverage | 87.5% |",
		).Replace(flawed)
		got, _ := os.ReadFile(mp)
		if string(got) != wantFile {
			t.Fatalf("fixed flawed mapping:\n%s", got)
		}
	})

	t.Run("--fix refuses an unparseable mapping", func(t *testing.T) {
		os.WriteFile(mp, []byte("# Mapping: x\n\n## Surprise\n"), 0o644)
		_, errOut, code := validate("--fix")
		got, _ := os.ReadFile(mp)
		if code != exitBadInput || !strings.Contains(errOut, mp+":3: unknown part") || string(got) != "# Mapping: x\n\n## Surprise\n" {
			t.Fatalf("code %d, stderr %q, file %q", code, errOut, got)
		}
	})
}
