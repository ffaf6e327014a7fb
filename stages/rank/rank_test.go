package rank

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/validate"
)

// ready builds the tinykv candidate with its mapping, a passing
// validate.json (the real static rules) and the audit.json a passing audit
// writes.
func ready(t *testing.T) (*workspace.Workspace, *pipeline.Candidate) {
	t.Helper()
	spec := testcand.Tinykv("../..")
	ws, c, err := testcand.Build(t.TempDir(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := testcand.CopyMapping(spec, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	if err := (validate.Stage{}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c); err != nil {
		t.Fatalf("validate: %v", err)
	}
	writeAudit(t, c, true, "")
	return ws, c
}

func writeAudit(t *testing.T, c *pipeline.Candidate, passed bool, sha string) {
	t.Helper()
	if sha == "" {
		b, err := os.ReadFile(filepath.Join(c.Dir, pipeline.MappingFile))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		sha = hex.EncodeToString(h[:])
	}
	rep := audit.Report{Candidate: c.ID, MappingSHA256: sha, Model: "m", Complete: true, Passed: passed,
		Rules: []audit.RuleReport{{Rule: "S5", Name: "mapping semantics", Passed: passed, Findings: []audit.Finding{}, Exchanges: []string{}}}}
	if !passed {
		rep.Rules[0].Findings = []audit.Finding{{Rule: "S5", Message: "section 3.4: Store.Restore belongs to 3.1"}}
	}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, pipeline.AuditFile), rep); err != nil {
		t.Fatal(err)
	}
}

// judged is a judgement of the eight implementable sections of the tinykv
// mapping. Hand computation:
//
//	3.1 core+normative  (9,9,8,8,9)   q 8.75 w 1.0
//	3.2 internal        (9,8,8,8,8)   q 8.40 w 0.8
//	3.3 core            (10,9,9,8,9)  q 9.30 w 1.0
//	3.4 core+dependents (9,9,9,8,8)   q 8.80 w 1.0 (clipped)
//	3.5 core            (8,8,8,8,8)   q 8.00 w 1.0
//	4   compatibility   (9,8,9,7,8)   q 8.45 w 0.6
//	5   tests           (10,9,9,8,9)  q 9.30 w 0.4
//	6.1 internal+optional (7,8,8,7,6) q 7.30 w 0.6
//	Σ w·q = 54.740, Σ w = 6.4, Q = 8.553125 → 8.6
const judged = `{"sections": [
 {"section": "3.1", "claims": ["SetWithTTL stores with expiry", "TTL reports remaining time"], "coverage": 9, "precision": 9, "scope": 8, "granularity": 8, "specificity": 9, "category": "core", "modifiers": ["normative"], "reason": "all store claims mapped to functions"},
 {"section": "3.2", "claims": ["sweeper removes expired keys"], "coverage": 9, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "internal", "modifiers": [], "reason": "sweeper and flag mapped"},
 {"section": "3.3", "claims": ["SETEX", "TTL command"], "coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "core", "modifiers": [], "reason": "both commands mapped"},
 {"section": "3.4", "claims": ["version 2", "expires_at"], "coverage": 9, "precision": 9, "scope": 9, "granularity": 8, "specificity": 8, "category": "core", "modifiers": ["dependents"], "reason": "format mapped"},
 {"section": "3.5", "claims": ["set with ttl", "ttl method"], "coverage": 8, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core", "modifiers": [], "reason": "client mapped"},
 {"section": "4", "claims": ["version 1 still loads"], "coverage": 9, "precision": 8, "scope": 9, "granularity": 7, "specificity": 8, "category": "compatibility", "modifiers": [], "reason": "file-level row only"},
 {"section": "5", "claims": ["unit tests"], "coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "tests", "modifiers": [], "reason": "every test function listed"},
 {"section": "6.1", "claims": ["LRU eviction"], "coverage": 7, "precision": 8, "scope": 8, "granularity": 7, "specificity": 6, "category": "internal", "modifiers": ["optional"], "reason": "rightly deferred"}
], "instance_score": 8.5, "main_reason": "every implemented section is mapped at function level"}`

func TestRankRetains(t *testing.T) {
	ws, c := ready(t)
	f := newFake(t, judged)
	res, reason := pipeline.Classify((&Stage{LLM: f.client(t, ws)}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
	if res != pipeline.Passed || reason != "" {
		t.Fatalf("got %s %q", res, reason)
	}
	rep, err := Load(c)
	if err != nil {
		t.Fatal(err)
	}
	const comp = "Q = Σ w·q / Σ w = (1.0×8.75 + 0.8×8.40 + 1.0×9.30 + 1.0×8.80 + 1.0×8.00 + 0.6×8.45 + 0.4×9.30 + 0.6×7.30) / (1.0 + 0.8 + 1.0 + 1.0 + 1.0 + 0.6 + 0.4 + 0.6) = 54.740 / 6.4 = 8.5531 → 8.6"
	if rep.Q == nil || rep.Q.String() != "8.6" || string(rep.QExact) != "8.5531" || rep.Computation != comp ||
		!rep.Retained || rep.Review != ReviewAwaiting || rep.JudgeScore != 8.5 || rep.Model != "judge-model" ||
		len(rep.Exchanges) != 1 || !rep.Gates.Static || !rep.Gates.Semantic || rep.Threshold != 80 {
		t.Fatalf("report %+v\n%s", rep, rep.Computation)
	}
	var got []string
	for _, r := range rep.Sections {
		got = append(got, r.Section+" "+r.Title+" w"+r.W.String()+" q"+r.Q.String())
	}
	want := "3.1 Store API w1.0 q8.8|3.2 Background sweeper w0.8 q8.4|3.3 Protocol commands w1.0 q9.3|3.4 Snapshot format w1.0 q8.8|3.5 Python client w1.0 q8.0|4 Backwards Compatibility w0.6 q8.5|5 Test Plan w0.4 q9.3|6.1 Eviction policies w0.6 q7.3"
	if strings.Join(got, "|") != want {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	// The judge was told which sections to grade and the vocabularies.
	user := f.requests()[0][1].Content
	system := f.requests()[0][0].Content
	if !strings.Contains(user, "one row each:\n- 3.1 Store API\n- 3.2 Background sweeper\n") || !strings.Contains(user, "- 6.1 Eviction policies\n") ||
		!strings.Contains(system, "- `compatibility` (weight 0.6): ") || !strings.Contains(system, "- `optional` (-0.2): ") {
		t.Fatalf("judge prompt lacks the sections or vocabularies")
	}
}

func TestRankAsksAgainForMissingSections(t *testing.T) {
	ws, c := ready(t)
	// The first answer drops 6.1 and grades 3, which is not implementable.
	first := strings.Replace(judged, `"section": "6.1"`, `"section": "3"`, 1)
	f := newFake(t, first, judged)
	res, _ := pipeline.Classify((&Stage{LLM: f.client(t, ws)}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
	calls := f.requests()
	if res != pipeline.Passed || len(calls) != 2 {
		t.Fatalf("got %s after %d calls", res, len(calls))
	}
	last := calls[1][len(calls[1])-1]
	if last.Role != llm.RoleUser || last.Content != "Your previous answer could not be used: sections 6.1 are not graded; sections 3 are not implementable sections of the artifact; give exactly one row per listed section. Reply again with only the corrected JSON, no prose and no code fences." {
		t.Fatalf("feedback %q", last.Content)
	}
	rep, _ := Load(c)
	if len(rep.Exchanges) != 2 || rep.Q.String() != "8.6" {
		t.Fatalf("exchanges %v Q %s", rep.Exchanges, rep.Q)
	}
}

func TestRankRejectsBelowThreshold(t *testing.T) {
	ws, c := ready(t)
	// Section 3.5's coverage drops from 8 to 1: q 5.20, Σ w·q = 51.940,
	// Q = 8.1156 → 8.1. Section 3.3 too (10 to 1): q 5.70, Σ w·q = 48.340,
	// Q = 7.553125 → 7.6.
	low := strings.Replace(judged, `"coverage": 8, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core"`,
		`"coverage": 1, "precision": 8, "scope": 8, "granularity": 8, "specificity": 8, "category": "core"`, 1)
	low = strings.Replace(low, `"coverage": 10, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "core"`,
		`"coverage": 1, "precision": 9, "scope": 9, "granularity": 8, "specificity": 9, "category": "core"`, 1)
	f := newFake(t, low)
	res, reason := pipeline.Classify((&Stage{LLM: f.client(t, ws)}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
	if res != pipeline.Rejected || reason != "Q 7.6 < 8.0: every implemented section is mapped at function level" {
		t.Fatalf("got %s %q", res, reason)
	}
	rep, _ := Load(c)
	if rep.Retained || rep.Review != "" || string(rep.QExact) != "7.5531" {
		t.Fatalf("report %+v", rep)
	}
}

func TestRankGates(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, c *pipeline.Candidate)
		result pipeline.Result
		reason string
	}{
		{"semantic audit failed", func(t *testing.T, c *pipeline.Candidate) { writeAudit(t, c, false, "") },
			pipeline.Rejected, "semantic audit failed: 1 finding (S5 1)"},
		{"audit of another mapping", func(t *testing.T, c *pipeline.Candidate) { writeAudit(t, c, true, strings.Repeat("0", 64)) },
			pipeline.Skipped, "audit.json is about another mapping.md: run lolbench audit tinykv-tkep-0002 again"},
		{"no audit", func(t *testing.T, c *pipeline.Candidate) { os.Remove(filepath.Join(c.Dir, pipeline.AuditFile)) },
			pipeline.Skipped, "no audit.json: run lolbench audit tinykv-tkep-0002 first"},
		{"static validation failed", func(t *testing.T, c *pipeline.Candidate) {
			workspace.WriteJSON(filepath.Join(c.Dir, pipeline.ValidateFile), map[string]any{
				"violations": []map[string]any{{"rule": 7, "where": "section 3.1", "line": 40, "message": "m"}, {"rule": 7, "where": "section 3.2", "line": 70, "message": "m"}},
				"rules":      []any{}, "forwarded": []any{}})
		}, pipeline.Rejected, "static validation did not pass: 2 static-rule violations (R07)"},
		{"unfilled cells of a scaffold", func(t *testing.T, c *pipeline.Candidate) {
			workspace.WriteJSON(filepath.Join(c.Dir, pipeline.ValidateFile), map[string]any{
				"violations": []any{}, "rules": []any{}, "forwarded": []any{}, "held_back": 3,
				"unfilled": []map[string]any{{"line": 7, "where": "section 1", "cell": "Implementable"}, {"line": 7, "where": "section 1", "cell": "Category"}}})
		}, pipeline.Rejected, "static validation did not pass: 2 unfilled cells, the first at line 7 (section 1: Implementable); 3 violations at unfilled lines held back"},
		{"no validation", func(t *testing.T, c *pipeline.Candidate) { os.Remove(filepath.Join(c.Dir, pipeline.ValidateFile)) },
			pipeline.Skipped, "no validate.json: run lolbench validate first (lolbench rank runs it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws, c := ready(t)
			tc.setup(t, c)
			f := newFake(t)
			res, reason := pipeline.Classify((&Stage{LLM: f.client(t, ws)}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
			if res != tc.result || reason != tc.reason || len(f.requests()) != 0 {
				t.Fatalf("got %s %q after %d calls", res, reason, len(f.requests()))
			}
		})
	}
	ws, c := ready(t)
	res, reason := pipeline.Classify((&Stage{}).Run(context.Background(), &pipeline.Env{Workspace: ws}, c))
	if res != pipeline.Skipped || reason != llm.ErrNoEndpoint.Error() {
		t.Fatalf("no endpoint: %s %q", res, reason)
	}
}

func TestJudgementValidation(t *testing.T) {
	row := func(mut func(*JudgedSection)) *Judgement {
		s := JudgedSection{Section: "3.1", Claims: []string{"c"}, Dimensions: dims(5, 5, 5, 5, 5), Category: Core, Reason: "r"}
		if mut != nil {
			mut(&s)
		}
		return &Judgement{Sections: []JudgedSection{s}, InstanceScore: 8, MainReason: "m"}
	}
	for _, tc := range []struct {
		name string
		j    *Judgement
		err  string
	}{
		{"ok", row(nil), ""},
		{"no sections", &Judgement{InstanceScore: 8, MainReason: "m"}, `field "sections" is missing or null`},
		{"empty id", row(func(s *JudgedSection) { s.Section = " " }), `sections[0]: field "section" is empty`},
		{"no claims", row(func(s *JudgedSection) { s.Claims = nil }), `section 3.1: field "claims" is empty; list the section's requirement claims`},
		{"blank claim", row(func(s *JudgedSection) { s.Claims = []string{"a", ""} }), `section 3.1: claim 2 is empty`},
		{"no reason", row(func(s *JudgedSection) { s.Reason = "" }), `section 3.1: field "reason" is empty`},
		{"score 0", row(func(s *JudgedSection) { s.Granularity = 0 }), `section 3.1: granularity is 0; scores are whole numbers from 1 to 10`},
		{"bad category", row(func(s *JudgedSection) { s.Category = "api" }),
			`section 3.1: unknown category "api"; categories are core, internal, compatibility, tests, docs, non-implementable, modifiers normative, dependents, illustrative, vague, optional`},
		{"twice", &Judgement{Sections: []JudgedSection{row(nil).Sections[0], row(nil).Sections[0]}, InstanceScore: 8, MainReason: "m"},
			`section 3.1 is graded twice; give one row per section`},
		{"instance score", &Judgement{Sections: []JudgedSection{}, InstanceScore: 0, MainReason: "m"}, `instance_score is 0; it is a number from 1 to 10`},
		{"main reason", &Judgement{Sections: []JudgedSection{}, InstanceScore: 7.5}, `field "main_reason" is empty`},
	} {
		err := tc.j.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.err)
		}
	}
}
