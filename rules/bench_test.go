package rules

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// A generated candidate for the validate benchmark (issue target: 1,000
// changed files, 100k changed lines, a 200-section EP; under 10 s on two
// cores and within 2x of the scope extraction alone). Its mapping is built
// from the resolved scopes, so that it passes all 28 rules and every rule
// runs its full path.

// genSource writes one Go or Python file: classes of methods of 8
// statements; version 1 edits half the statements and adds a method per
// class, so each file changes about 100 lines.
func genSource(i, version int) (string, string) {
	var b strings.Builder
	const classes, methods, stmts = 4, 6, 8
	if i%2 == 0 {
		path := fmt.Sprintf("svc/p%02d/f%04d.go", i%40, i)
		fmt.Fprintf(&b, "package p%02d\n\n", i%40)
		for c := range classes {
			fmt.Fprintf(&b, "type T%d_%d struct{ v int }\n\n", i, c)
			for m := range methods + version {
				fmt.Fprintf(&b, "func (t *T%d_%d) M%d(x int) int {\n", i, c, m)
				for s := range stmts {
					k := s
					if version == 1 && s%2 == 0 && m%2 == 0 {
						k = s + 100
					}
					fmt.Fprintf(&b, "\tx = x*%d + %d\n", m+1, k)
				}
				b.WriteString("\treturn x\n}\n\n")
			}
		}
		return path, b.String()
	}
	path := fmt.Sprintf("lib/m%02d/f%04d.py", i%40, i)
	b.WriteString("import os\n\n")
	for c := range classes {
		fmt.Fprintf(&b, "class T%d_%d:\n", i, c)
		for m := range methods + version {
			fmt.Fprintf(&b, "    def m%d(self, x):\n", m)
			for s := range stmts {
				k := s
				if version == 1 && s%2 == 0 && m%2 == 0 {
					k = s + 100
				}
				fmt.Fprintf(&b, "        x = x * %d + %d\n", m+1, k)
			}
			b.WriteString("        return x\n\n")
		}
	}
	return path, b.String()
}

// genCandidate writes the repository, the EP and a mapping that passes all
// rules into dir; it returns the paths.
func genCandidate(tb testing.TB, dir string, nFiles, nTop, nSub int) (repo, epPath, mappingPath string) {
	tb.Helper()
	repo = filepath.Join(dir, "repo")
	for v, tag := range []string{"base", "head"} {
		tree := filepath.Join(dir, tag)
		for i := range nFiles {
			p, src := genSource(i, v)
			os.MkdirAll(filepath.Join(tree, filepath.Dir(p)), 0o755)
			if err := os.WriteFile(filepath.Join(tree, p), []byte(src), 0o644); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := testrepo.Build(repo, testrepo.Step{Overlay: filepath.Join(dir, "base"), Tag: "base"}, testrepo.Step{Overlay: filepath.Join(dir, "head"), Tag: "head"}); err != nil {
		tb.Fatal(err)
	}

	// The EP: nTop contextual sections, each with nSub implementable
	// subsections of their own text.
	var ep strings.Builder
	type sec struct{ id, title, quote string }
	var subs []sec
	m := &mapping.Mapping{Title: "generated"}
	row := 0
	for t := range nTop {
		title := fmt.Sprintf("Area %d", t+1)
		fmt.Fprintf(&ep, "## %s\n\nThis area groups the components numbered from %d onwards and explains why they exist in words that no rule reads.\n\n", title, t*nSub+1)
		row++
		m.SCS.Rows = append(m.SCS.Rows, mapping.SCSRow{Index: fmt.Sprint(row), Section: fmt.Sprint(t + 1), Title: title, Implementable: "no", Category: "contextual", Mapped: "no"})
		for s := range nSub {
			k := t*nSub + s + 1
			st := fmt.Sprintf("Component %d", k)
			quote := fmt.Sprintf("Component %d must apply rule %d to every request it receives.", k, k)
			fmt.Fprintf(&ep, "### %s\n\n%s It also logs the outcome.\n\n", st, quote)
			id := fmt.Sprintf("%d.%d", t+1, s+1)
			subs = append(subs, sec{id, st, quote})
			row++
			m.SCS.Rows = append(m.SCS.Rows, mapping.SCSRow{Index: fmt.Sprint(row), Section: id, Title: st, Implementable: "yes", Category: "implementation", Mapped: "yes"})
		}
	}
	epPath = filepath.Join(dir, "ep.md")
	if err := os.WriteFile(epPath, []byte(ep.String()), 0o644); err != nil {
		tb.Fatal(err)
	}

	r, err := diff.Open(repo)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err := r.Diff(context.Background(), "base", "head")
	if err != nil {
		tb.Fatal(err)
	}
	res, err := syntax.Resolve(context.Background(), repo, ch, syntax.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	scopes := map[string][]mapping.CodeRow{}
	for _, s := range res.Scopes {
		if s.Class != "" || s.Function != "" {
			scopes[s.File] = append(scopes[s.File], mapping.CodeRow{Path: s.File, Class: s.Class, Function: s.Function})
		}
	}
	// File i belongs to subsection i mod len(subs).
	owned := make([][]string, len(subs))
	for i, f := range ch.Files {
		owned[i%len(subs)] = append(owned[i%len(subs)], f.Path())
		m.PFS.Rows = append(m.PFS.Rows, mapping.PFSRow{Index: fmt.Sprint(i + 1), Path: f.Path(), Category: string(f.Category),
			Role: "direct", DirectSections: subs[i%len(subs)].id, AssociatedSections: "-"})
	}
	n := len(ch.Files)
	for i, s := range subs {
		files := owned[i]
		sort.Strings(files)
		b := mapping.Block{Number: i + 1, Section: s.id, Title: s.title,
			Quote:       mapping.Quote{Text: s.quote},
			Requirement: mapping.Requirement{Text: fmt.Sprintf("Apply rule %d to every request.", i+1)},
			Counts: mapping.Counts{Direct: len(files), DirectPercent: mapping.FormatPercent(len(files), n),
				AssociatedPercent: mapping.FormatPercent(0, n), Accounted: len(files), AccountedPercent: mapping.FormatPercent(len(files), n), PRFiles: n},
			Associated: mapping.Table[mapping.CodeRow]{None: true},
		}
		for _, f := range files {
			b.Direct.Rows = append(b.Direct.Rows, mapping.CodeRow{Path: f, Class: "-", Function: "-"})
			b.Direct.Rows = append(b.Direct.Rows, scopes[f]...)
			b.Summary.Items = append(b.Summary.Items, mapping.SummaryItem{Path: f, Text: "Applies the rule."})
		}
		m.Blocks = append(m.Blocks, b)
	}
	m.UnmappedSections.None, m.UnmappedFiles.None = true, true
	stat := func(name string, v any) {
		m.Stats.Rows = append(m.Stats.Rows, mapping.StatRow{Metric: name, Value: fmt.Sprint(v)})
	}
	stat("EP sections", len(m.SCS.Rows))
	stat("Implementable sections", len(subs))
	stat("Mapped implementable sections", len(subs))
	stat("Unmapped implementable sections", 0)
	stat("EP-section coverage", mapping.FormatPercent(len(subs), len(subs)))
	stat("PR files", n)
	stat("Direct files", n)
	stat("Associated files", 0)
	stat("Unmapped files", 0)
	stat("PR-file coverage", mapping.FormatPercent(n, n))
	stat(mapping.CategoryMetric(lang.Source), n)
	mappingPath = filepath.Join(dir, "mapping.md")
	if err := os.WriteFile(mappingPath, mapping.Render(m), 0o644); err != nil {
		tb.Fatal(err)
	}
	return repo, epPath, mappingPath
}

// TestGeneratedCandidatePasses keeps the benchmark honest: its candidate
// passes every rule, so the benchmark measures the full rule paths.
func TestGeneratedCandidatePasses(t *testing.T) {
	repo, epPath, mp := genCandidate(t, t.TempDir(), 40, 4, 5)
	in, err := Load(context.Background(), Sources{EP: epPath, Repo: repo, Base: "base", Head: "head", Mapping: mp})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(in, All)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Violations {
		t.Errorf("R%02d %s:%d %s", v.Rule, v.Where, v.Line, v.Message)
	}
}

// BenchmarkValidate loads and checks the generated candidate: EP parse,
// diff, scope extraction and all 28 rules. Compare with
// BenchmarkValidateScopesOnly, the scope extraction alone.
func BenchmarkValidate(b *testing.B) {
	repo, epPath, mp := genCandidate(b, b.TempDir(), 1000, 20, 9)
	b.ResetTimer()
	for range b.N {
		in, err := Load(context.Background(), Sources{EP: epPath, Repo: repo, Base: "base", Head: "head", Mapping: mp})
		if err != nil {
			b.Fatal(err)
		}
		rep, err := Run(in, All)
		if err != nil {
			b.Fatal(err)
		}
		if !rep.Passed() {
			b.Fatalf("generated candidate has %d violations, first: %+v", len(rep.Violations), rep.Violations[0])
		}
	}
}

// BenchmarkValidateScopesOnly is the scope extraction of the same change.
func BenchmarkValidateScopesOnly(b *testing.B) {
	repo, _, _ := genCandidate(b, b.TempDir(), 1000, 20, 9)
	r, err := diff.Open(repo)
	if err != nil {
		b.Fatal(err)
	}
	ch, err := r.Diff(context.Background(), "base", "head")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := syntax.Resolve(context.Background(), repo, ch, syntax.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
