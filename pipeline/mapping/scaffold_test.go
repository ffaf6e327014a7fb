package mapping_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/rules"
)

var update = flag.Bool("update", false, "rewrite the scaffold golden files under testdata/scaffold")

// sample is one bundled sample (data/samples) with its curated mapping.
type sample struct {
	name, id string
	// unfilled is the number of unfilled cells of its scaffold.
	unfilled int
	// leftOut are the scaffold's rows that the curated mapping does not
	// use: file-level rows, and test helpers it does not list.
	leftOut []string
}

var samples = []sample{
	{name: "tinykv", id: "tinykv-tkep-0002", unfilled: 101, leftOut: []string{
		"CHANGELOG.md - -",
		"README.md - -",
		"clients/python/tests/test_client.py - -",
		"clients/python/tinykv/client.py - -",
		"cmd/tinykv/main.go - -",
		"server/pyclient_test.go - -",
		"server/server.go - -",
		"server/server_test.go - -",
		"snapshot/snapshot_test.go - -",
		"store/expiry_test.go - -",
		"store/store_test.go - -",
		"store/store_test.go clock -",
		"store/store_test.go clock now",
		"store/store_test.go - newClock",
	}},
	{name: "unitconv", id: "unitconv-ucep-0004", unfilled: 115, leftOut: []string{
		"CHANGELOG.md - -",
		"README.md - -",
		"tests/test_cli.py - -",
		"tests/test_compound.py - -",
		"tests/test_format.py - -",
		"tests/test_parse.py - -",
		"tests/test_quantity.py - -",
		"tests/test_temperature.py - -",
		"unitconv/errors.py - -",
	}},
}

// loaded is a sample's repository, EP, change and scopes.
type loaded struct {
	dir    string
	doc    *ep.Document
	ch     *diff.Change
	scopes *syntax.Result // as rule 27 resolves them
}

func load(t *testing.T, s sample) loaded {
	t.Helper()
	dir := filepath.Join("..", "..", "data", "samples", s.name)
	repo := t.TempDir()
	if err := testrepo.Build(repo,
		testrepo.Step{Overlay: filepath.Join(dir, "base"), Tag: "base"},
		testrepo.Step{Overlay: filepath.Join(dir, "pr"), Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	doc, err := ep.Load(filepath.Join(dir, "ep.md"), "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := diff.Open(repo)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Diff(context.Background(), "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	scopes, err := syntax.Resolve(context.Background(), repo, ch, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return loaded{dir: repo, doc: doc, ch: ch, scopes: scopes}
}

func scaffold(t *testing.T, s sample, l loaded) *mapping.Mapping {
	t.Helper()
	res, err := mapping.ScaffoldScopes(context.Background(), l.dir, l.ch)
	if err != nil {
		t.Fatal(err)
	}
	return mapping.Scaffold(mapping.ScaffoldInput{ID: s.id, EP: l.doc, Change: l.ch, Scopes: res.Scopes})
}

// validate runs the 28 rules on src and holds back the violations at
// unfilled lines, as `lolbench validate` does.
func validate(t *testing.T, l loaded, src []byte) (kept []rules.Violation, held int, unfilled []mapping.Unfilled) {
	t.Helper()
	m, err := mapping.Parse(src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	rep, err := rules.Run(&rules.Input{EP: l.doc, Change: l.ch, Scopes: l.scopes, Mapping: m}, rules.All)
	if err != nil {
		t.Fatal(err)
	}
	masked := m.MarkerLines()
	for _, v := range rep.Violations {
		if v.Line > 0 && masked[v.Line] && len(m.Unfilled()) > 0 {
			held++
			continue
		}
		kept = append(kept, v)
	}
	return kept, held, m.Unfilled()
}

func curated(t *testing.T, s sample) ([]byte, *mapping.Mapping) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", s.name, "mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return src, m
}

// TestScaffoldGolden compares the scaffold of each sample with its golden
// file, and checks that it validates with unfilled cells only.
func TestScaffoldGolden(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			l := load(t, s)
			got := mapping.Render(scaffold(t, s, l))
			golden := filepath.Join("testdata", "scaffold", s.name+".md")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("scaffold differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
			// The reStructuredText version of the EP has the same headings.
			rst, err := ep.Load(filepath.Join("..", "..", "data", "samples", s.name, "ep.rst"), "")
			if err != nil {
				t.Fatal(err)
			}
			l.doc = rst
			if fromRST := mapping.Render(scaffold(t, s, l)); string(fromRST) != string(want) {
				t.Errorf("scaffold from ep.rst differs from %s:\n%s", golden, fromRST)
			}
			kept, held, unfilled := validate(t, l, got)
			if len(kept) != 0 {
				t.Errorf("violations besides unfilled cells: %+v", kept)
			}
			if held == 0 {
				t.Errorf("no violation held back; the test would not notice a leak")
			}
			if len(unfilled) != s.unfilled {
				t.Errorf("%d unfilled cells, want %d", len(unfilled), s.unfilled)
			}
		})
	}
}

// rowKey names a block row "path class function".
func rowKey(r mapping.CodeRow) string { return r.Path + " " + r.Class + " " + r.Function }

// TestScaffoldFilledAndFixed plays the curator: it fills a scaffold's
// judgement cells with the sample's curated choices (classification,
// blocks made of the scaffold's rows, reasons) and leaves every computed
// cell as the scaffold wrote it, then runs Fix. The result passes the 28
// rules and is the curated mapping, byte for byte.
func TestScaffoldFilledAndFixed(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			l := load(t, s)
			sc := scaffold(t, s, l)
			want, cur := curated(t, s)
			totals := mapping.Totals{EPSections: len(l.doc.Sections), PRFiles: len(l.ch.Files)}

			// The curated blocks are made of the scaffold's rows.
			var offered []string
			for _, r := range sc.Blocks[0].Direct.Rows {
				offered = append(offered, rowKey(r))
			}
			var used []string
			for _, b := range cur.Blocks {
				for _, r := range slices.Concat(b.Direct.Rows, b.Associated.Rows) {
					if !slices.Contains(offered, rowKey(r)) {
						t.Errorf("curated row %q is not in the scaffold", rowKey(r))
					}
					used = append(used, rowKey(r))
				}
			}
			var leftOut []string
			for _, k := range offered {
				if !slices.Contains(used, k) {
					leftOut = append(leftOut, k)
				}
			}
			if !slices.Equal(leftOut, s.leftOut) {
				t.Errorf("scaffold rows the curated mapping leaves out:\n%s\nwant:\n%s", strings.Join(leftOut, "\n"), strings.Join(s.leftOut, "\n"))
			}

			// Fill the judgement cells; the computed ones stay stale.
			byID := map[string]mapping.SCSRow{}
			for _, r := range cur.SCS.Rows {
				byID[r.Section] = r
			}
			for i := range sc.SCS.Rows {
				c := byID[sc.SCS.Rows[i].Section]
				sc.SCS.Rows[i].Implementable, sc.SCS.Rows[i].Category = c.Implementable, c.Category
			}
			sc.Blocks = slices.Clone(cur.Blocks)
			for i := range sc.Blocks {
				sc.Blocks[i].Number, sc.Blocks[i].Counts = 0, mapping.Counts{}
			}
			filled := mapping.Render(sc)

			fixed, changes, err := mapping.Fix(filled, totals)
			if err != nil {
				t.Fatal(err)
			}
			if len(changes) == 0 {
				t.Fatal("Fix changed nothing")
			}
			// What is left to fill: the reasons of the Unmapped rows Fix
			// added.
			_, _, unfilled := validate(t, l, fixed)
			var gotLeft, wantLeft []string
			for _, u := range unfilled {
				gotLeft = append(gotLeft, u.Where+": "+u.Cell)
			}
			for _, r := range cur.UnmappedSections.Rows {
				wantLeft = append(wantLeft, "section "+r.Section+": Reason")
			}
			for _, r := range cur.UnmappedFiles.Rows {
				wantLeft = append(wantLeft, "file `"+r.Path+"`: Reason")
			}
			if !slices.Equal(gotLeft, wantLeft) {
				t.Fatalf("unfilled after Fix:\n%s\nwant:\n%s", strings.Join(gotLeft, "\n"), strings.Join(wantLeft, "\n"))
			}
			m, err := mapping.Parse(fixed)
			if err != nil {
				t.Fatal(err)
			}
			for i := range m.UnmappedSections.Rows {
				m.UnmappedSections.Rows[i].Reason = cur.UnmappedSections.Rows[i].Reason
			}
			for i := range m.UnmappedFiles.Rows {
				m.UnmappedFiles.Rows[i].Reason = cur.UnmappedFiles.Rows[i].Reason
			}
			final := mapping.Render(m)
			again, changes, err := mapping.Fix(final, totals)
			if err != nil || len(changes) != 0 || string(again) != string(final) {
				t.Fatalf("Fix of a fixed mapping: err %v, changes %v", err, changes)
			}
			kept, held, unfilled := validate(t, l, final)
			if len(kept) != 0 || held != 0 || len(unfilled) != 0 {
				t.Fatalf("violations %+v, held back %d, unfilled %+v", kept, held, unfilled)
			}
			if string(final) != string(want) {
				t.Fatalf("filled and fixed scaffold differs from the curated mapping:\n%s", final)
			}
		})
	}
}

// TestScaffoldBuildFileFunctions: a function a PR adds to a build script
// that tree-sitter reads (noxfile.py) gets its row, as pypa/packaging's
// PEP 639 PR adds the nox session update_licenses (issue 25 §3); a build
// file it cannot read (pyproject.toml) keeps a file-level row.
func TestScaffoldBuildFileFunctions(t *testing.T) {
	base := map[string]string{
		"noxfile.py":     "import nox\n\n\n@nox.session\ndef tests(session):\n    session.run(\"pytest\")\n",
		"pyproject.toml": "[project]\nname = \"demo\"\n",
		"src/demo.py":    "def f():\n    return 1\n",
	}
	pr := map[string]string{
		"noxfile.py":     "import json\n\nimport nox\n\n\n@nox.session\ndef tests(session):\n    session.run(\"pytest\")\n\n\n@nox.session\ndef update_licenses(session):\n    session.install(\"httpx\")\n    json.dump({}, open(\"licenses.json\", \"w\"))\n",
		"pyproject.toml": "[project]\nname = \"demo\"\nlicense = \"MIT\"\n",
		"src/demo.py":    "def f():\n    return 2\n",
	}
	dir := t.TempDir()
	if err := testrepo.Build(dir,
		testrepo.Step{Files: base, Tag: "base"},
		testrepo.Step{Files: pr, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	r, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Diff(context.Background(), "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	res, err := mapping.ScaffoldScopes(context.Background(), dir, ch)
	if err != nil {
		t.Fatal(err)
	}
	m := mapping.Scaffold(mapping.ScaffoldInput{ID: "demo-1", Change: ch, Scopes: res.Scopes})
	var got []string
	for _, row := range m.Blocks[0].Direct.Rows {
		got = append(got, rowKey(row))
	}
	want := []string{"noxfile.py - -", "noxfile.py - update_licenses", "pyproject.toml - -", "src/demo.py - f"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}

// TestScaffoldGoSuiteMethods: the methods of a Go test suite (grpc-go's
// grpctest, a receiver with no name) are rows of their own, receiver as
// class, which is how a block names the subtest go test reports as
// Test/Balancer_OneAddress (issue 36 §3); a table-driven test is its
// function's row.
func TestScaffoldGoSuiteMethods(t *testing.T) {
	base := map[string]string{
		"go.mod": "module example.com/wrr\n\ngo 1.21\n",
		"wrr.go": "package wrr\n\nfunc Pick(n int) int { return n }\n",
	}
	pr := map[string]string{
		"wrr.go":           "package wrr\n\nfunc Pick(n int) int { return n + 1 }\n",
		"balancer_test.go": "package wrr\n\nimport \"testing\"\n\ntype s struct{ grpctest.Tester }\n\nfunc Test(t *testing.T) { grpctest.RunSubTests(t, s{}) }\n",
		"wrr_test.go": "package wrr\n\nimport \"testing\"\n\nfunc (s) TestBalancer_OneAddress(t *testing.T) {}\n\nfunc (*s) TestBalancer_Blackout(t *testing.T) {}\n\n" +
			"func TestTable(t *testing.T) {\n\tt.Run(\"case name\", func(t *testing.T) {})\n}\n",
	}
	dir := t.TempDir()
	if err := testrepo.Build(dir,
		testrepo.Step{Files: base, Tag: "base"},
		testrepo.Step{Files: pr, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	r, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := r.Diff(context.Background(), "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	res, err := mapping.ScaffoldScopes(context.Background(), dir, ch)
	if err != nil {
		t.Fatal(err)
	}
	m := mapping.Scaffold(mapping.ScaffoldInput{ID: "wrr-1", Change: ch, Scopes: res.Scopes})
	var got []string
	for _, row := range m.Blocks[0].Direct.Rows {
		got = append(got, rowKey(row))
	}
	want := []string{
		"balancer_test.go - -", "balancer_test.go s -", "balancer_test.go - Test",
		"wrr.go - Pick",
		"wrr_test.go - -", "wrr_test.go s TestBalancer_OneAddress", "wrr_test.go s TestBalancer_Blackout", "wrr_test.go - TestTable",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
}
