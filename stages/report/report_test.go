package report

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/prompts"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/audit"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/collect"
	"github.com/lolbench/lolbench/stages/rank"
	"github.com/lolbench/lolbench/stages/review"
)

func TestStageNames(t *testing.T) {
	s := &Stage{}
	if s.Name() != "report" || s.String() != "writing the report" {
		t.Fatalf("Name %q, String %q", s.Name(), s.String())
	}
}

// contains fails the test for every snippet that the page lacks.
func contains(t *testing.T, name, page string, snippets ...string) {
	t.Helper()
	for _, s := range snippets {
		if !strings.Contains(page, s) {
			t.Errorf("%s lacks %q", name, s)
		}
	}
}

// TestStatistics checks the measured statistics of the fixture (counted
// by hand: base has greet.go 11 code lines and tools/greet.py 7; the
// solution is README.md 1+1, greet.go 13+1, locale.go 17+0, tools/greet.py
// 12+2; the new public members are Go's Locales variable and Python's
// Locales.TABLE class attribute, issue 12 §1), the dataset table, the
// cache, and that an EP edit recomputes the mention share.
func TestStatistics(t *testing.T) {
	ws := buildFixture(t)
	s := runReport(t, ws)
	if s.Computed != 2 || s.Cached != 0 {
		t.Fatalf("first run: computed %d, cached %d; want 2, 0", s.Computed, s.Cached)
	}
	var st Stats
	if err := workspace.ReadJSON(filepath.Join(s.Dir, StatsDir, goodID+".json"), &st); err != nil {
		t.Fatal(err)
	}
	want := Stats{
		RepoLoC: 18, SolutionFiles: 4, SolutionLoC: 47,
		Classes:    []string{"locale.go: Table", "tools/greet.py: Locales"},
		Functions:  []string{"greet.go: Greet", "greet.go: GreetIn", "locale.go: Table.Lookup", "tools/greet.py: Locales.get", "tools/greet.py: greet"},
		Members:    []string{"locale.go: Locales", "tools/greet.py: Locales.TABLE"},
		ClassNames: []string{"Locales", "Table"},
		Mentioned:  []string{},
	}
	if st.RepoLoC != want.RepoLoC || st.SolutionFiles != want.SolutionFiles || st.SolutionLoC != want.SolutionLoC ||
		!slices.Equal(st.Classes, want.Classes) || !slices.Equal(st.Functions, want.Functions) || !slices.Equal(st.Members, want.Members) ||
		!slices.Equal(st.ClassNames, want.ClassNames) || !slices.Equal(st.Mentioned, want.Mentioned) {
		t.Fatalf("stats\n got %+v\nwant %+v", st, want)
	}
	index := readFile(t, s.Index)
	contains(t, "index", index,
		`<tr><th scope="row">sample</th><td class="num">2</td><td>Go</td><td class="num">0.0 (0.0)</td><td class="num">47 (47)</td><td class="num">4.0 (4.0)</td><td class="num">2.0 (2.0)</td><td class="num">5.0 (5.0)</td><td class="num">2.0 (2.0)</td><td class="num">0.0% <span class="muted">(0/4)</span></td></tr>`,
		`<tr><th scope="row">Not rejected</th><td class="num">1</td>`)

	// A rerun reads the cache.
	s = runReport(t, ws)
	if s.Computed != 0 || s.Cached != 2 {
		t.Fatalf("rerun: computed %d, cached %d; want 0, 2", s.Computed, s.Cached)
	}
	// An EP that names both classes changes the key of that candidate only.
	epPath := filepath.Join(candidate(t, ws, goodID).Dir, "ep.md")
	ep := readFile(t, epPath) + "\nThe Table type and the Locales class hold the greetings.\n"
	if err := os.WriteFile(epPath, []byte(ep), 0o644); err != nil {
		t.Fatal(err)
	}
	s = runReport(t, ws)
	if s.Computed != 1 || s.Cached != 1 {
		t.Fatalf("after an EP edit: computed %d, cached %d; want 1, 1", s.Computed, s.Cached)
	}
	contains(t, "index", readFile(t, s.Index),
		`<td class="num">50.0% <span class="muted">(2/4)</span></td></tr>`,
		`<tr><th scope="row">Not rejected</th><td class="num">1</td><td>Go</td><td class="num">0.0 (0.0)</td><td class="num">47 (47)</td><td class="num">4.0 (4.0)</td><td class="num">2.0 (2.0)</td><td class="num">5.0 (5.0)</td><td class="num">2.0 (2.0)</td><td class="num">100.0% <span class="muted">(2/2)</span></td></tr>`)
	contains(t, "candidate page", readFile(t, s.Pages[goodID]),
		`<dt>New members</dt><dd>2: <code>locale.go: Locales</code>, <code>tools/greet.py: Locales.TABLE</code></dd>`,
		`<dt>Named in the EP</dt><dd>2 of 2 class names (100.0%): <code>Locales</code>, <code>Table</code></dd>`)
}

// TestIndex checks the candidates, the funnel, the rejections and the
// one-click link from a violation to its artifact line.
func TestIndex(t *testing.T) {
	ws := buildFixture(t)
	s := runReport(t, ws)
	if s.Index != filepath.Join(ws.Root, "reports", "index.html") {
		t.Fatalf("index at %s", s.Index)
	}
	if got := s.Paths(); !slices.Equal(got, []string{
		filepath.Join(ws.Root, "reports", "candidates", goodID+".html"),
		filepath.Join(ws.Root, "reports", "candidates", badID+".html"),
	}) {
		t.Fatalf("pages %q", got)
	}
	index := readFile(t, s.Index)
	contains(t, "index", index,
		`<a class="cand-link" href="candidates/greet-gep-0001.html">greet-gep-0001</a>`,
		`<a class="cand-link" href="candidates/greet-gep-0002.html">greet-gep-0002</a>`,
		`<td><span class="badge passed">passed validate</span></td>`,
		`<td><span class="badge rejected">rejected at validate: 1 static-rule violation (R07)</span></td>`,
		`<a class="violation-link" href="candidates/greet-gep-0002.html#L36" title="per-section-proportions">R07</a>`,
		`<tr><td>validate</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">0</td><td class="num">0</td></tr>`,
		`<tr><td>audit</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">2</td></tr>`,
		`<tr><td>validate</td><td>1 static-rule violation (R07)</td><td class="num">1</td><td><a href="candidates/greet-gep-0002.html">greet-gep-0002</a> </td></tr>`,
		`<rect x="160" y="58" width="210" height="18" class="passed"><title>validate: passed 1</title></rect>`,
		`<rect x="370" y="58" width="210" height="18" class="rejected"><title>validate: rejected 1</title></rect>`,
	)
	// collect and export are workspace stages: collect is derived from
	// candidate.json; nothing was exported.
	contains(t, "index", index,
		`<tr><td>collect</td><td class="num">2</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">0</td></tr>`,
		`<tr><td>export</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td class="num">2</td></tr>`)
	contains(t, "page", readFile(t, s.Pages[goodID]),
		`<tr><td>collect</td><td><span class="badge passed">passed</span></td><td>kept by collection (candidate.json)</td><td class="muted">workspace stage</td></tr>`)
	if strings.Contains(index, `id="collection"`) {
		t.Error("index shows a collection funnel without collect/funnel.json")
	}
	if css := readFile(t, filepath.Join(s.Dir, "style.css")); !strings.Contains(css, "tr:target") {
		t.Error("style.css not written")
	}
}

// TestViolationPage checks the flawed candidate's page: the violation with
// its rule doc and evidence, the highlighted and anchored artifact line,
// the outline's classification and the notes of stages not run.
func TestViolationPage(t *testing.T) {
	ws := buildFixture(t)
	rep, err := readValidate(ws, badID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Rule != 7 || rep.Violations[0].Line != badLine {
		t.Fatalf("fixture violations %+v", rep.Violations)
	}
	s := runReport(t, ws)
	page := readFile(t, s.Pages[badID])
	doc := escapeText(rules.Lookup(7).Doc)
	contains(t, "page", page,
		`<li id="v1" class="violation">`,
		`<span class="rule">R07</span> <span class="rule-name">per-section-proportions</span> · section 2.1 · <a class="evidence-link" href="#L36">line 36</a>`,
		`<pre class="evidence"><a href="#L36">36</a>  **Files:** 3 direct (42.9%), 2 associated (28.6%), 4 accounted (57.1%) of 7 PR files &lt;!-- want R07`,
		`<details><summary>Rule R07: per-section-proportions</summary><p class="doc">`+doc+`</p></details>`,
		`<tr id="L36" class="hl"><td class="n"><a href="#L36">36</a></td>`,
		`<td class="marks"><a class="mark" href="#v1">R07</a></td></tr>`,
		`<tr id="L35"><td class="n"><a href="#L35">35</a></td><td class="t"><pre></pre></td><td class="marks"></td></tr>`,
		`<tr id="sec-2.1"><td>2.1</td><td class="lvl2">Greeting API</td>`+"\n"+`<td>yes</td><td>implementation</td><td>yes</td>`+"\n"+`<td class="num"></td>`+"\n"+`<td><a class="ln" href="#L9">L9</a> · block <a class="ln" href="#L29">L29</a></td></tr>`,
		`<h4>1. Section 2.1: Greeting API <a class="ln" href="#L29">L29</a></h4>`,
		`<p><strong>Files:</strong> 3 direct (42.9%), 2 associated (28.6%), 4 accounted (57.1%) of 7 PR files <a class="ln" href="#L36">L36</a></p>`,
		"<section id=\"audit\">\n<h2>Semantic audit</h2>"+`<p class="note absent">not run yet</p>`,
		"<section id=\"tests\">\n<h2>F2P and P2P tests</h2>"+`<p class="note absent">not run yet</p>`,
		`<tr><td>validate</td><td><span class="badge rejected">rejected</span></td><td>1 static-rule violation (R07)</td>`,
	)
	if n := strings.Count(page, `class="hl"`); n != 1 {
		t.Errorf("%d highlighted lines, want 1", n)
	}
	good := readFile(t, s.Pages[goodID])
	contains(t, "good page", good, `<p class="note passed">All 28 static rules pass.</p>`)
	if strings.Contains(good, `class="hl"`) {
		t.Error("the canonical mapping has highlighted lines")
	}
}

func readValidate(ws *workspace.Workspace, id string) (*rules.Report, error) {
	var rep rules.Report
	c, err := pipeline.OpenCandidate(ws, id)
	if err != nil {
		return nil, err
	}
	return &rep, workspace.ReadJSON(filepath.Join(c.Dir, pipeline.ValidateFile), &rep)
}

// escapeText is html/template's escaping of text: the five characters it
// replaces, in its own spelling.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}

// TestLaterStages writes the artifacts of the later stages, as their own
// packages build them, and checks that each section renders them, and that
// a skipped stage says why.
func TestLaterStages(t *testing.T) {
	ws := buildFixture(t)
	c := candidate(t, ws, goodID)
	mp := readFile(t, filepath.Join(c.Dir, pipeline.MappingFile))
	sha := sha256hex(mp)

	writeJSON(t, filepath.Join(c.Dir, pipeline.AuditFile), &audit.Report{
		Candidate: goodID, MappingSHA256: sha, Model: "m", Complete: true, Passed: false,
		Rules: []audit.RuleReport{
			{Rule: "S1", Name: "requirement-fidelity", Passed: false, Findings: []audit.Finding{{Rule: "S1", Message: "section 2.2 requirement drops the lookup miss"}}},
			{Rule: "S8", Name: "external-links", Passed: true, Findings: []audit.Finding{}, Verdict: "complete",
				Links: []audit.Link{{URL: "https://example.com/greetings-notes", Essential: false, Accessible: true}}},
		},
	})
	j := &rank.Judgement{InstanceScore: 8, MainReason: "tight mapping", Sections: []rank.JudgedSection{
		{Section: "2.1", Claims: []string{"GreetIn greets"}, Dimensions: rank.Dimensions{Coverage: 9, Precision: 8, Scope: 8, Granularity: 7, Specificity: 8}, Category: rank.Core, Modifiers: []rank.Modifier{rank.Normative}, Reason: "covers the API"},
		{Section: "2.2", Claims: []string{"one table"}, Dimensions: rank.Dimensions{Coverage: 8, Precision: 8, Scope: 8, Granularity: 8, Specificity: 8}, Category: rank.Internal, Modifiers: []rank.Modifier{}, Reason: "the table"},
	}}
	rrep, err := rank.BuildReport(j, []prompts.Section{{ID: "2.1", Level: 2, Title: "Greeting API"}, {ID: "2.2", Level: 2, Title: "Locale table"}}, rank.Gates{Static: true, Semantic: true})
	if err != nil {
		t.Fatal(err)
	}
	rrep.Candidate, rrep.MappingSHA256, rrep.Model = goodID, sha, "judge-m"
	writeJSON(t, filepath.Join(c.Dir, pipeline.RankFile), rrep)
	q := *rrep.Q
	writeJSON(t, filepath.Join(c.Dir, pipeline.ReviewFile), &review.Record{Candidate: goodID, Decision: review.Accepted,
		Note: "reads well", Reviewer: "ada", Q: &q, MappingSHA256: sha, ReviewedAt: fixedTime})
	// The build's test-to-section map, from the mapping's rows.
	if err := sectionmap.Save(c, sectionmap.Compute("build", sectionmap.Input{
		Tests:    []string{"example/greet.TestGreetInFallsBack", "example/greet.TestLookup"},
		Sections: []mapping.TaskSection{{ID: "2.1", Title: "Greeting API"}, {ID: "2.2", Title: "Locale table"}},
		Rows:     map[string]sectionmap.Rows{"example/greet.TestGreetInFallsBack": {Named: map[string]int{"2.1": 1}}}}), true); err != nil {
		t.Fatal(err)
	}
	rec := &build.Record{ID: goodID, Version: "env-1", Task: build.TaskDir,
		Report: &sandbox.Report{Runs: 3, Command: "go test -json ./...", Classification: sandbox.Classification{
			FailToPass: []string{"example/greet.TestGreetInFallsBack", "example/greet.TestLookup"},
			PassToPass: []string{"example/greet.TestGreet"},
			Flaky:      []sandbox.Flaky{{Name: "example/greet.TestClock", Side: "after", Statuses: nil}},
		}}}
	writeJSON(t, filepath.Join(c.Dir, build.RecordFile), rec)
	if err := os.MkdirAll(filepath.Join(c.Dir, build.TaskDir), 0o755); err != nil {
		t.Fatal(err)
	}
	// The bad candidate's audit was skipped.
	bad := candidate(t, ws, badID)
	st, err := bad.LoadStatus()
	if err != nil {
		t.Fatal(err)
	}
	st.Stages["audit"] = &pipeline.StageStatus{Result: pipeline.Skipped, Reason: "no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL", Finished: fixedTime}
	if err := bad.SaveStatus(st); err != nil {
		t.Fatal(err)
	}

	s := runReport(t, ws)
	page := readFile(t, s.Pages[goodID])
	contains(t, "page", page,
		// audit
		`<span class="badge rejected">failed</span> semantic audit failed: 1 finding (S1 1) · model <code>m</code>`,
		`<tr><td>S1</td><td>requirement-fidelity</td><td><span class="badge rejected">failed</span></td>`+"\n"+`<td><ul><li>section 2.2 requirement drops the lookup miss</li></ul>`,
		`<code>complete</code>`,
		// judge scores and Q
		`<tr><td>2.1 <a class="ln" href="#L29">L29</a></td><td>Greeting API</td><td class="num">9</td><td class="num">8</td><td class="num">8</td><td class="num">7</td><td class="num">8</td><td class="num" title="exact 8.30">8.3</td><td>core</td><td>normative</td><td class="num">1.0</td>`,
		`<pre class="computation">`+escapeText(rrep.Computation)+`</pre>`,
		`<dt>Q</dt><dd>8.2 (exact 8.1667), threshold 8.0</dd>`,
		`<td class="num">8.3</td>`+"\n"+`<td><a class="ln" href="#L9">L9</a> · block`,
		// review
		`<span class="badge passed">accepted</span> by ada on 2026-03-02 at Q 8.2: reads well`,
		// F2P and P2P
		`<p class="note passed">Harbor task in <code>task/</code> (environment version <code>env-1</code>).</p>`,
		`<details id="f2p" open><summary>FAIL_TO_PASS: 2</summary><ul class="tests"><li><code>example/greet.TestGreetInFallsBack</code></li><li><code>example/greet.TestLookup</code></li></ul>`,
		`<details id="p2p"><summary>PASS_TO_PASS: 1</summary>`,
		`<summary>1 flaky (excluded)</summary>`,
		// the build's test-to-section map, with its evidence
		`<p class="muted">Written by <code>build</code> from mapping rows (<code>sections.json</code>); the task is graded by it.`,
		`<p>The reference solution completes <b>1/2</b> task sections.</p>`,
		`<p class="note failed">Not ready: 1 untested section (no FAIL_TO_PASS test asserts it, so even the reference solution does not complete it).`,
		`<tr><td><a href="#sec-2.2">2.2</a> Locale table</td><td class="num">0</td><td>no mapping row names a FAIL_TO_PASS test for it, nor its test file&#39;s PR File Summary row</td></tr>`,
		`<tr><td><code>example/greet.TestGreetInFallsBack</code></td><td><a href="#sec-2.1">2.1</a></td><td>row of block 1</td></tr>`,
		`Possibly overly broad (no section): 1 test: <code>example/greet.TestLookup</code>`,
		"<section id=\"mutants\">\n<h2>Mutants</h2>"+`<p class="note absent">not run yet</p>`,
	)
	if rrep.Computation == "" || !strings.Contains(rrep.Computation, "→ 8.2") {
		t.Fatalf("computation %q", rrep.Computation)
	}
	contains(t, "bad page", readFile(t, s.Pages[badID]),
		"<section id=\"audit\">\n<h2>Semantic audit</h2>"+`<p class="note skipped">skipped: no LLM endpoint configured; set LOLBENCH_LLM_BASE_URL</p>`)

	// A later mapping edit makes the audit and the ranking stale.
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(mp+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = runReport(t, ws)
	contains(t, "page after edit", readFile(t, s.Pages[goodID]),
		`<code>audit.json</code> is about another <code>mapping.md</code>`,
		`<code>rank.json</code> is about another <code>mapping.md</code>`)
}

// writePhase4 writes issue 7's files for the good candidate, built with
// pipeline/mutation and pipeline/coverage: two mutants (one killed, one
// survived, one dropped), the kill matrix, Table 8, the coverage and the
// test-to-section map.
func writePhase4(t *testing.T, c *pipeline.Candidate) {
	t.Helper()
	killed := &mutation.Mutant{ID: "revert-2.2", Method: mutation.MappedRevert, Section: "2.2", SectionTitle: "Locale table",
		Requirement: "en, fr and de must be present", Reference: "fr found", Mutated: "fr missing", Scenario: `Lookup("fr")`,
		Rationale: "a missing code is observable", Files: []string{"locale.go"}, Status: mutation.Killed, KilledBy: []string{"TestLookup"}}
	survived := &mutation.Mutant{ID: "op-negate-condition-001", Method: mutation.SyntaxOperator, Operator: "negate-condition",
		Section: "2.1", Status: mutation.Survived}
	dropped := &mutation.Mutant{ID: "op-return-zero-002", Method: mutation.SyntaxOperator, Operator: "return-zero",
		Status: mutation.Dropped, Drop: mutation.DropCompile, Reason: "greet.go:9: missing return"}
	uncovered := &mutation.Mutant{ID: "op-int-constant-003", Method: mutation.SyntaxOperator, Operator: "int-constant",
		Section: "2.1", Status: mutation.Uncovered, Reason: "no test executes the lines it changes"}
	judged := &mutation.Mutant{ID: "llm-semantic-mutation-2.2", Method: mutation.SemanticMutation, Section: "2.2",
		Requirement: "en, fr and de must be present", Status: mutation.Killed, KilledBy: []string{"TestLookup"}, Judge: "the edit drops fr from the table"}
	all := []*mutation.Mutant{judged, killed, survived, dropped, uncovered}
	m := mutation.NewMatrix([]string{"TestLookup", "TestGreetInFallsBack"})
	m.Add(judged, map[string]mutation.Outcome{"TestLookup": mutation.OutcomeKilled, "TestGreetInFallsBack": mutation.OutcomePassed})
	m.Add(killed, map[string]mutation.Outcome{"TestLookup": mutation.OutcomeKilled, "TestGreetInFallsBack": mutation.OutcomePassed})
	m.Add(survived, map[string]mutation.Outcome{"TestGreetInFallsBack": mutation.OutcomePassed})
	rep := mutation.NewReport(goodID, nil, all)
	rep.Runs = mutation.Runs{Jobs: 2, Full: 4, Executed: 3, Saved: 1, Selective: true}
	writeJSON(t, filepath.Join(c.Dir, mutation.IndexFile), all)
	writeJSON(t, filepath.Join(c.Dir, mutation.MatrixFile), m)
	writeJSON(t, filepath.Join(c.Dir, mutation.ReportFile), rep)
	target := coverage.Lines{"locale.go": {3, 4, 5, 6, 7}, "greet.go": {8, 9, 10, 11, 12}}
	cov := &coverage.Result{Adapter: "go", Tool: "go test -coverprofile", PerTest: true, Suites: []coverage.Suite{
		coverage.NewSuite(coverage.F2P, []string{"TestLookup", "TestGreetInFallsBack"}, target, coverage.Lines{"locale.go": {3, 4, 5}, "greet.go": {8, 9, 10}}),
		coverage.NewSuite(coverage.P2P, []string{}, target, coverage.Lines{}),
	}, Uncovered: []coverage.Span{{File: "locale.go", Start: 6, End: 7, Lines: 2}}}
	writeJSON(t, filepath.Join(c.Dir, coverage.ResultFile), cov)
	// mutate's map replaces the build's, and grades otherwise.
	if err := sectionmap.Save(c, sectionmap.Compute("build", sectionmap.Input{Tests: []string{"TestLookup"},
		Sections: []mapping.TaskSection{{ID: "2.1"}, {ID: "2.2"}},
		Rows:     map[string]sectionmap.Rows{"TestLookup": {Named: map[string]int{"2.2": 2}}}}), true); err != nil {
		t.Fatal(err)
	}
	if err := sectionmap.Save(c, sectionmap.Compute("mutate", sectionmap.Input{
		Tests:    []string{"TestLookup", "TestGreetInFallsBack"},
		Sections: []mapping.TaskSection{{ID: "2.1", Title: "Greeting API"}, {ID: "2.2", Title: "Locale table"}, {ID: "4", Title: "Four"}},
		Reverts:  map[string]string{"revert-2.2": "2.2"},
		Judged:   map[string]bool{"TestLookup": true, "TestGreetInFallsBack": true},
		Kills:    map[string][]string{"TestLookup": {"revert-2.2", "llm-semantic-mutation-2.2"}},
	}), false); err != nil {
		t.Fatal(err)
	}
}

// TestEnhancementHook checks issue 7's files: Table 8, the mutants with
// their records and kill status, the kill matrix, coverage and the
// test-to-section map, which wins over the build stage's.
func TestEnhancementHook(t *testing.T) {
	ws := buildFixture(t)
	c := candidate(t, ws, goodID)
	writePhase4(t, c)
	s := runReport(t, ws)
	page := readFile(t, s.Pages[goodID])
	contains(t, "page", page,
		// Table 8: the LLM mutant and the mapped revert are killed, the
		// operators made two valid mutants (the third did not compile):
		// one survived, one no test executes, which is not a survivor.
		// The EP-level row sums the LLM method.
		`<tr><td>Semantic Mutation</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">1</td><td class="num">100.0%</td></tr>`,
		`<tr><td>Mapped-section revert</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">1</td><td class="num">100.0%</td></tr>`,
		`<tr><td>Syntax operators</td><td class="num">3</td><td class="num">2</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">0.0%</td></tr>`,
		`<tfoot>`+"\n"+`<tr><td>EP-level methods</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">1</td><td class="num">1</td><td class="num">100.0%</td></tr>`+"\n"+
			`<tr><td>Total</td><td class="num">5</td><td class="num">4</td><td class="num">1</td><td class="num">3</td><td class="num">2</td><td class="num">66.7%</td></tr></tfoot>`,
		`2 sandbox jobs, 3 of 4 test executions (per-test coverage saved 1) · dropped by compile: 1</p>`,
		`<td><span class="badge skipped">uncovered</span><br><span class="muted">no test executes the lines it changes</span></td>`,
		`<dt>Judge</dt><dd>the edit drops fr from the table</dd>`,
		`<tr id="m-revert-2.2"><td><code>revert-2.2</code></td><td>Mapped-section revert</td><td><a href="#sec-2.2">2.2</a> Locale table</td>`,
		`<td><span class="badge passed">killed</span><br><span class="muted">by TestLookup</span></td>`,
		`<dt>Scenario</dt><dd>Lookup(&#34;fr&#34;)</dd>`,
		`<td><span class="badge rejected">survived</span></td>`,
		`<td><span class="badge skipped">dropped</span> <span class="muted">compile</span><br><span class="muted">greet.go:9: missing return</span></td>`,
		`<summary>Kill matrix: 3 mutants × 2 F2P tests</summary>`,
		`<tr><td><a href="#m-revert-2.2"><code>revert-2.2</code></a></td><td>2.2</td><td class="center o-passed">✓</td><td class="center o-killed">K</td></tr>`,
		`<td class="center o-passed">✓</td><td class="center o-unreached">–</td></tr>`,
		`<tr><td>F2P</td><td class="num">2</td><td class="num">6</td><td class="num">10</td><td class="num">60.0%</td></tr>`,
		`<tr><td>P2P</td><td class="num">0</td><td class="num">0</td><td class="num">10</td><td class="num">0.0%</td></tr>`,
		`<li><code>locale.go</code> lines 6–7 (2 executable)</li>`,
		`<p class="muted">Written by <code>mutate</code> from kill matrix (<code>sections.json</code>)`,
		`<p>The reference solution completes <b>1/3</b> task sections; 1/2 under the map build wrote before.</p>`,
		`<p class="note failed">Not ready: 2 untested sections (no FAIL_TO_PASS test asserts them, so even the reference solution does not complete them).`,
		`<tr><td><code>TestLookup</code></td><td><a href="#sec-2.2">2.2</a></td><td>killed revert-2.2</td></tr>`,
		`<tr><td><a href="#sec-4">4</a> Four</td><td class="num">0</td><td>no mapping row names a FAIL_TO_PASS test for it, nor its test file&#39;s PR File Summary row</td></tr>`,
		`Possibly overly broad (no section): 1 test: <code>TestGreetInFallsBack</code>`,
	)
	// Without dag.json the graph section says what to run.
	contains(t, "page", page, `<p class="note absent">No section graph: run <code>lolbench dag</code> on this candidate.</p>`)
	// A damaged file is reported on the page; the report still works.
	if err := os.WriteFile(filepath.Join(c.Dir, coverage.ResultFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	s = runReport(t, ws)
	contains(t, "page", readFile(t, s.Pages[goodID]), `coverage/coverage.json: unexpected EOF</p>`)

	// A custom hook replaces the files.
	s = &Stage{Enhancement: func(*pipeline.Candidate) (*Enhancement, error) {
		return &Enhancement{Mutants: &mutation.Set{Mutants: []*mutation.Mutant{}, Matrix: mutation.NewMatrix(nil)}}, nil
	}}
	if err := s.Run(context.Background(), &pipeline.Env{Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	contains(t, "page", readFile(t, s.Pages[goodID]), `<p class="note absent">No mutants.</p>`)
}

// TestCollectFunnel checks the collection section from funnel.json.
func TestCollectFunnel(t *testing.T) {
	ws := buildFixture(t)
	f := &collect.Funnel{
		Projects: []*collect.ProjectFunnel{{Project: "greet", Dropped: []collect.Drop{
			{EP: "GEP 2", Step: "pr-size", Reason: "300 changed lines < 1,000"},
			{EP: "GEP 3", Step: "pr-size", Reason: "300 changed lines < 1,000"},
			{EP: "GEP 4", Step: "linked", Reason: "no merged PR references it"},
		}}},
		Total: &collect.ProjectFunnel{Project: "all projects", EPs: 4, Pairs: 3, Candidates: 2, Steps: []*collect.Step{
			{Step: "eps", Unit: "eps", Considered: 4, Kept: 4},
			{Step: "linked", Unit: "eps", Considered: 4, Kept: 3, Dropped: 1},
			{Step: "pr-size", Criterion: 2, Unit: "pairs", Considered: 4, Kept: 2, Dropped: 2},
			{Step: "implementable-section", Criterion: 6, Unit: "pairs", Considered: 2, Kept: 2, Pending: true},
		}},
	}
	writeJSON(t, filepath.Join(ws.Root, "collect", collect.FunnelFile), f)
	s := runReport(t, ws)
	contains(t, "index", readFile(t, s.Index),
		`<p>From <code>collect/funnel.json</code>: 4 proposals, 3 EP–PR pairs, 2 candidates.</p>`,
		`<tr><td>2</td><td>pr-size</td><td>pairs</td><td class="num">4</td><td class="num">2</td><td class="num">2</td></tr>`,
		`<tr><td>6</td><td>implementable-section</td><td>pairs</td><td class="num">2</td><td colspan="2" class="muted">pending: the mapping stage enforces it</td></tr>`,
		`<tr><td>pr-size</td><td>300 changed lines &lt; 1,000</td><td class="num">2</td></tr>`+"\n"+`<tr><td>linked</td><td>no merged PR references it</td><td class="num">1</td></tr>`,
	)
}

// TestHostile writes hostile strings into every artifact the report reads
// and checks that none reaches the page as markup and that unsafe URLs are
// neutralised. Odd and broken files only show up on their pages.
func TestHostile(t *testing.T) {
	ws := buildFixture(t)
	const (
		script = `<script>alert("x")</script>`
		img    = `<img src=x onerror=alert(1)>`
		svg    = `<svg onload=alert(1)>`
		close  = `</td></tr></table><iframe src=//evil>`
	)
	c := candidate(t, ws, goodID)
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	info.Project, info.Language, info.Domain = script, img, svg
	info.EP.Title, info.EP.URL = close, "javascript:alert(1)"
	info.PR.Title, info.PR.URL, info.PR.Author = script, "JaVaScRiPt:alert(2)", img
	info.Checks = []pipeline.Check{{Criterion: script, Value: img, Reason: close}}
	writeJSON(t, filepath.Join(c.Dir, pipeline.InfoFile), info)
	st, err := c.LoadStatus()
	if err != nil {
		t.Fatal(err)
	}
	st.Stages[svg] = &pipeline.StageStatus{Result: pipeline.Rejected, Reason: script}
	st.Stages["audit"] = &pipeline.StageStatus{Result: pipeline.Skipped, Reason: img}
	if err := c.SaveStatus(st); err != nil {
		t.Fatal(err)
	}
	// A hostile cell in the mapping (the report does not revalidate).
	mp := readFile(t, filepath.Join(c.Dir, pipeline.MappingFile))
	mp = strings.Replace(mp, "| 3 | 2.1 | Greeting API |", "| 3 | 2.1 | Greeting "+strings.ReplaceAll(script, "|", "")+" API |", 1)
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(mp), 0o644); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(c.Dir, pipeline.ValidateFile), &rules.Report{
		Violations: []rules.Violation{{Rule: 99, Where: script, Line: 100000, Message: img}, {Rule: 7, Where: close, Line: 9, Message: svg}},
		Rules:      []rules.RuleResult{}, Forwarded: []rules.Forward{{Rule: 26, To: svg, Reason: script}}})
	writeJSON(t, filepath.Join(c.Dir, pipeline.AuditFile), &audit.Report{Rules: []audit.RuleReport{{Rule: script, Name: img,
		Findings: []audit.Finding{{Message: close}}, Verdict: svg, VerdictReason: script,
		Links: []audit.Link{{URL: "javascript:alert(3)", Note: img, Essential: true}}}}})
	writeJSON(t, filepath.Join(c.Dir, build.RecordFile), &build.Record{Rejected: script, Report: &sandbox.Report{Command: img,
		Classification: sandbox.Classification{FailToPass: []string{svg}, PassToPass: []string{close}}}})
	writeJSON(t, filepath.Join(c.Dir, sectionmap.File), &sectionmap.Map{Stage: script, Sources: []string{img},
		Tests:    []sectionmap.Test{{Test: svg, Sections: []string{`"><script>`}, Evidence: []string{close}}},
		Sections: []sectionmap.Section{{ID: `"><script>`, Title: img, Tests: []string{svg}, Untested: script}},
		Broad:    []string{script}, Untested: []string{close}, Previous: &sectionmap.Previous{Stage: svg}})
	mu := &mutation.Mutant{ID: "m1", Method: mutation.Method(img), Operator: svg, Section: close, Requirement: script,
		Scenario: close, Status: mutation.Status(script), Drop: mutation.Drop(img), Reason: svg, KilledBy: []string{script}, Files: []string{img}}
	matrix := mutation.NewMatrix([]string{script})
	matrix.Add(mu, map[string]mutation.Outcome{script: mutation.OutcomeKilled})
	writeJSON(t, filepath.Join(c.Dir, mutation.IndexFile), []*mutation.Mutant{mu})
	writeJSON(t, filepath.Join(c.Dir, mutation.MatrixFile), matrix)
	writeJSON(t, filepath.Join(c.Dir, mutation.ReportFile), &mutation.Report{Methods: []mutation.Row{{Method: mutation.Method(script)}}, Skipped: []string{img},
		Drops: map[mutation.Drop]int{mutation.Drop(svg): 1}})
	writeJSON(t, filepath.Join(c.Dir, coverage.ResultFile), &coverage.Result{Tool: script, Suites: []coverage.Suite{{Name: img}},
		Uncovered: []coverage.Span{{File: svg}}, Notes: []string{close}})
	writeJSON(t, filepath.Join(c.Dir, sectiondag.File), &sectiondag.Result{Candidate: script, Sources: []string{img}, Missing: []string{close},
		Titles: map[string]string{"a": script, svg: img},
		Graph: &sectiondag.Graph{Nodes: []sectiondag.Node{{ID: "a"}, {ID: svg, Layer: 1}}, Layers: [][]string{{"a"}, {svg}}, Depth: 2, Width: 1,
			Edges:   []sectiondag.Edge{{From: "a", To: svg, Evidence: []sectiondag.Evidence{{Kind: script, Detail: close}}}},
			Dropped: []sectiondag.Dropped{{Edge: sectiondag.Edge{From: svg, To: "a"}, Why: img}}},
		Checks: []sectiondag.Check{{Section: svg, Ancestors: []string{"a"}, Tests: 2, Why: script}}, NotDiscriminative: []string{svg}})
	writeJSON(t, filepath.Join(ws.Root, "collect", collect.FunnelFile), &collect.Funnel{
		Projects: []*collect.ProjectFunnel{{Project: script, Dropped: []collect.Drop{{Step: img, Reason: script}}}},
		Total:    &collect.ProjectFunnel{Steps: []*collect.Step{{Step: svg, Unit: close, Considered: 1, Dropped: 1}}},
	})
	// The other candidate's files are broken.
	bad := candidate(t, ws, badID)
	for _, f := range []string{pipeline.StatusFile, pipeline.RankFile, pipeline.ReviewFile} {
		if err := os.WriteFile(filepath.Join(bad.Dir, f), []byte(`{"stages": 3`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A folder that is not a valid candidate id gets no page.
	if err := os.MkdirAll(filepath.Join(ws.Root, "candidates", "Bad<id>"), 0o755); err != nil {
		t.Fatal(err)
	}

	s := runReport(t, ws)
	if len(s.Pages) != 2 {
		t.Fatalf("pages %v", s.Pages)
	}
	tag := regexp.MustCompile(`(?i)<(script|img|svg onload|iframe)|(href|src)="\s*javascript:`)
	for name, path := range map[string]string{"index": s.Index, "good": s.Pages[goodID], "bad": s.Pages[badID]} {
		page := readFile(t, path)
		if m := tag.FindString(page); m != "" {
			i := strings.Index(page, m)
			t.Errorf("%s page has %q unescaped: …%s…", name, m, page[max(0, i-80):min(len(page), i+80)])
		}
	}
	good := readFile(t, s.Pages[goodID])
	contains(t, "good page", good,
		`<a href="#ZgotmplZ" rel="noopener noreferrer">GEP 1</a>: &lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;iframe src=//evil&gt;`,
		`<a href="#ZgotmplZ" rel="noopener noreferrer">#2</a>: &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`,
		`<dt>Project</dt><dd>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`,
		`<td>Greeting &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; API</td>`,
		`<tr><td>&lt;svg onload=alert(1)&gt;</td><td><span class="badge rejected">rejected</span></td><td>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</td>`,
		`<span class="rule">R99</span> <span class="rule-name"></span> · &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; · line 100000 (not in the artifact)`,
		`<tr id="L9" class="hl">`,
		`<code>javascript:alert(3)</code>`,
		`<p class="note rejected">rejected: &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</p>`,
		`<a href="#sec-%22%3e%3cscript%3e">&#34;&gt;&lt;script&gt;</a>`,
		`<tr id="m-m1"><td><code>m1</code></td><td>&lt;img src=x onerror=alert(1)&gt; <code>&lt;svg onload=alert(1)&gt;</code></td>`,
		`<th class="center" title="&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;">T1</th>`,
		`<p class="muted">Executable added lines of the reference solution, measured with <code>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</code>.</p>`,
		`<rect x="182" y="12" width="130" height="24" class="node"><title>&lt;svg onload=alert(1)&gt; &lt;img src=x onerror=alert(1)&gt; (layer 1)</title></rect>`,
		`<p class="note skipped">Dropped &lt;svg onload=alert(1)&gt; → a: &lt;img src=x onerror=alert(1)&gt;.</p>`,
		`<td class="num">0 / 2</td><td><span class="badge failed">not discriminative</span> &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</td></tr>`,
	)
	// audit.json exists, so the skip recorded in status.json is not shown.
	if strings.Contains(good, "skipped: &lt;img") {
		t.Error("the audit section shows the status note although audit.json exists")
	}
	badPage := readFile(t, s.Pages[badID])
	contains(t, "bad page", badPage, `<p class="note failed">read `, `status.json: unexpected EOF</p>`)
	index := readFile(t, s.Index)
	contains(t, "index", index, `<tr><td>&lt;img src=x onerror=alert(1)&gt;</td><td>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</td><td class="num">1</td></tr>`)
}

// TestStalePages checks that a removed candidate's page goes away.
func TestStalePages(t *testing.T) {
	ws := buildFixture(t)
	s := runReport(t, ws)
	old := s.Pages[badID]
	if err := os.RemoveAll(candidate(t, ws, badID).Dir); err != nil {
		t.Fatal(err)
	}
	s = runReport(t, ws)
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("stale page %s kept: %v", old, err)
	}
	if len(s.Pages) != 1 {
		t.Fatalf("pages %v", s.Pages)
	}
}

// TestNoStatistics checks a candidate whose repository is gone: the page
// says why, the table counts it as a task without figures.
func TestNoStatistics(t *testing.T) {
	ws := buildFixture(t)
	if err := os.RemoveAll(filepath.Join(ws.Root, "repos", badID)); err != nil {
		t.Fatal(err)
	}
	s := runReport(t, ws)
	contains(t, "index", readFile(t, s.Index),
		`<td class="num muted" colspan="2" title="`,
		`<tr><th scope="row">All candidates</th><td class="num">2</td><td>Go</td><td class="num">0.0 (0.0)</td><td class="num">47 (47)</td>`,
		`<p class="note failed">No statistics for greet-gep-0002: see its page.</p>`)
	contains(t, "page", readFile(t, s.Pages[badID]), `<p class="note failed">No statistics: `)
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestDerive checks the outcomes of the workspace stages that status.json
// does not record per candidate.
func TestDerive(t *testing.T) {
	ws := buildFixture(t)
	c := candidate(t, ws, goodID)
	info, err := c.LoadInfo()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws.Root, "export", "harbor", goodID), 0o755); err != nil {
		t.Fatal(err)
	}
	recorded := &pipeline.StageStatus{Result: pipeline.Skipped, Reason: "recorded"}
	for _, tc := range []struct {
		name    string
		checks  []pipeline.Check
		status  map[string]*pipeline.StageStatus
		collect pipeline.StageStatus
		derived []string
	}{
		{"all criteria passed", []pipeline.Check{{Criterion: "has-tests", Passed: true}}, nil,
			pipeline.StageStatus{Result: pipeline.Passed, Reason: "kept by collection (candidate.json)"}, []string{"collect", "export"}},
		{"stale candidate", []pipeline.Check{{Criterion: "has-tests", Passed: true}, {Criterion: "eps", Value: "dropped", Reason: "the proposal is no longer in the project's EP source"}}, nil,
			pipeline.StageStatus{Result: pipeline.Rejected, Reason: "eps: the proposal is no longer in the project's EP source"}, []string{"collect", "export"}},
		{"status.json wins", nil, map[string]*pipeline.StageStatus{"collect": recorded, "export": recorded},
			*recorded, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := *info
			in.Checks = tc.checks
			st := &pipeline.Status{Stages: map[string]*pipeline.StageStatus{}}
			for k, v := range tc.status {
				st.Stages[k] = v
			}
			out, derived := derive(ws, c, &in, st)
			if got := *out.Stages["collect"]; got != tc.collect {
				t.Fatalf("collect %+v, want %+v", got, tc.collect)
			}
			var names []string
			for n := range derived {
				names = append(names, n)
			}
			slices.Sort(names)
			if !slices.Equal(names, tc.derived) {
				t.Fatalf("derived %v, want %v", names, tc.derived)
			}
			if tc.derived != nil && out.Stages["export"].Reason != "exported to export/harbor/"+goodID {
				t.Fatalf("export %+v", out.Stages["export"])
			}
			if len(st.Stages) != len(tc.status) {
				t.Fatal("derive changed the status it was given")
			}
		})
	}
	if _, d := derive(ws, candidate(t, ws, badID), nil, &pipeline.Status{Stages: map[string]*pipeline.StageStatus{}}); len(d) != 0 {
		t.Fatalf("derived %v without candidate.json or export", d)
	}
}
