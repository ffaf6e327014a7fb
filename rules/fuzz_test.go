package rules

import (
	"bytes"
	"os"
	"testing"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// fuzzSeeds are the canonical mapping and cases that reach many rules'
// failure paths: wrong vocabularies and columns, reordered blocks, a file in
// both tables, a missing row, a subsection with its own EP (read here
// against the fixture EP, which makes it a hostile input in its own right).
var fuzzSeeds = []string{
	"testdata/fixture/mapping.md",
	"testdata/r01/fail-two-roles.md",
	"testdata/r01/fail-missing-source-file.md",
	"testdata/r03/fail-mapped-and-unmapped.md",
	"testdata/r03/pass-subsection.md",
	"testdata/r04/fail-vocabulary.md",
	"testdata/r04/fail-renamed-column.md",
	"testdata/r06/fail-blocks-swapped.md",
	"testdata/r07/pass-file-in-both-tables.md",
	"testdata/r09/pass-associated-test-file.md",
}

// FuzzRun mutates mapping artifacts and runs every rule on each one that
// parses, against the fixture project with its EP in Markdown and in
// reStructuredText, and once without scopes. Rules read hostile input: Run must never report a
// crashed rule, and every violation must name a rule that ran, say what is
// wrong, and point at a line of the artifact (or 0).
func FuzzRun(f *testing.F) {
	for _, s := range fuzzSeeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var docs []*ep.Document
	for _, p := range []string{"testdata/fixture/ep.md", "testdata/fixture/ep.rst"} {
		doc, err := ep.Load(p, "")
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, doc)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := mapping.Parse(src)
		if err != nil {
			return // the parser's business: rules only ever see parsed artifacts
		}
		change, scopes := fixtureInputs(t)
		lines := bytes.Count(src, []byte("\n")) + 1
		inputs := []struct {
			name string
			in   *Input
		}{
			{"Markdown EP", &Input{EP: docs[0], Change: change, Scopes: scopes, Mapping: m}},
			{"RST EP", &Input{EP: docs[1], Change: change, Scopes: scopes, Mapping: m}},
			// Scopes are nil when tree-sitter was not run.
			{"Markdown EP, no scopes", &Input{EP: docs[0], Change: change, Mapping: m}},
		}
		for _, in := range inputs {
			rep, err := Run(in.in, All)
			if err != nil {
				t.Fatalf("%s: %v\nartifact:\n%s", in.name, err, src)
			}
			for _, v := range rep.Violations {
				if Lookup(v.Rule) == nil || v.Message == "" || v.Line < 0 || v.Line > lines {
					t.Fatalf("%s: malformed violation %+v (artifact has %d lines)\nartifact:\n%s", in.name, v, lines, src)
				}
			}
		}
	})
}
