// Package langsupport is the language support matrix (issue 22): per language
// of the language table, what each stage can do with it, read from the
// tables and registries of the packages that do it, never declared here
// twice. `lolbench lang list` prints it and docs/languages.md is generated
// from it (Markdown); test/languages checks that both match the code and
// that the gaps are the declared ones. The only table of its own is
// Samples, which names the bundled sample of each language.
package langsupport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/testaudit"
)

// Samples names, per language, the bundled samples under data/samples
// whose reference solution scores Completed 100% (docs/design.md,
// "Languages"); test/languages checks that each exists and is in its
// language.
var Samples = map[string][]string{
	"Go":     {"tinykv", "envfile"},
	"Python": {"unitconv"},
	"Java":   {"coinage"},
	"Rust":   {"verso"},
	// bumpkit is TypeScript with one JavaScript module and test file, run
	// together (lang.SameFamily).
	"TypeScript": {"bumpkit"},
	"JavaScript": {"bumpkit"},
	"C++":        {"semkit"},
	"C":          {"inikit"},
}

// Row is one language's support.
type Row struct {
	Language string `json:"language"`
	// Scopes: tree-sitter scopes (pipeline/syntax), so the mapping rules,
	// the scopes of a PR and the test audit can read its files.
	Scopes bool `json:"scopes"`
	// TestFiles are its test-file conventions (pipeline/lang): base-name
	// globs, test folders and test paths.
	TestFiles []string `json:"test_files"`
	// Reset is its test configuration, reset before every graded run
	// (lang.Language.TestConfig).
	Reset []string `json:"reset"`
	// Formats are the result formats its test tools write.
	Formats []string `json:"result_formats"`
	// Coverage is its default coverage adapter; PerTest and SingleTest
	// what that adapter can do.
	Coverage   string `json:"coverage,omitempty"`
	PerTest    bool   `json:"per_test_coverage"`
	SingleTest string `json:"single_test,omitempty"`
	// Mutation are the syntax operators that mutate it; a language with
	// operators also has stub reverts.
	Mutation []string `json:"mutation_operators"`
	// Members: rules for the public data members a change adds
	// (pipeline/syntax/members_langs.go), for the spec variant and the
	// report.
	Members bool `json:"members"`
	// TestAudit: the deterministic audit of generated tests.
	TestAudit bool `json:"test_audit"`
	// Canary: the verifier plants canaries for it.
	Canary bool `json:"canary"`
	// BaseImage is the key of its offline base image (lolbench env base
	// --lang), "" for none.
	BaseImage string `json:"base_image,omitempty"`
	// HostSDK says, for a language without an offline image, that its
	// toolchain must come from the host, and why (baseimage.HostSDK).
	HostSDK string `json:"host_sdk,omitempty"`
	// Versions says which toolchain versions a task can have offline and
	// how (baseimage.Versions); "" for a language no image serves.
	Versions string `json:"versions,omitempty"`
	// Fence is its Markdown code-block tag (pipeline/syntax/fence.go),
	// which the spec variant fences its signatures with.
	Fence string `json:"fence,omitempty"`
	// Augment: the augment stage knows where a new test file of the
	// language goes (the language table's NewTest).
	Augment bool `json:"augment"`
	// Samples are its bundled samples.
	Samples []string `json:"samples"`
	// Gaps are the pieces it lacks, and why (Gaps).
	Gaps []Gap `json:"gaps"`
}

// Matrix returns one row per language of the table, in the table's order.
func Matrix() []Row {
	var out []Row
	for _, l := range lang.Table {
		r := Row{Language: l.Name, Scopes: syntax.Supported(l.Name), Reset: nonNil(l.TestConfig),
			Formats: nonNil(results.LanguageFormats[l.Name]), Mutation: []string{},
			Members: syntax.HasMembers(l.Name), TestAudit: testaudit.Lookup(l.Name) != nil, Canary: guard.HasCanary(l.Name),
			Fence: syntax.FenceTag(l.Name), Augment: l.NewTest != "", Samples: nonNil(Samples[l.Name]), Gaps: append([]Gap{}, Gaps[l.Name]...)}
		r.TestFiles = append(append(append([]string{}, l.TestNames...), suffix(l.TestDirs, "/")...), suffix(l.TestPaths, "/")...)
		if a, err := coverage.AdapterFor(recipe.Recipe{}, l.Name); err == nil && coverage.SupportedLanguage(l.Name) {
			s := a.Support()
			r.Coverage, r.PerTest, r.SingleTest = a.Name(), s.PerTest, s.SingleTest
		}
		if slices.Contains(mutation.OperatorLanguages(), l.Name) {
			for _, op := range mutation.Registry {
				r.Mutation = append(r.Mutation, op.Name)
			}
		}
		if im := baseimage.ForLanguage(l.Name); im != nil {
			r.BaseImage = im.Key
		}
		slices.SortStableFunc(r.Gaps, func(a, b Gap) int { return pieceIndex(a.Piece) - pieceIndex(b.Piece) })
		r.HostSDK = baseimage.HostSDK[l.Name]
		r.Versions = baseimage.Versions[l.Name]
		out = append(out, r)
	}
	return out
}

// pieceIndex is a piece's place in Pieces (len(Pieces) when unknown).
func pieceIndex(name string) int {
	for i, p := range Pieces {
		if p.Name == name {
			return i
		}
	}
	return len(Pieces)
}

func nonNil(s []string) []string {
	return append([]string{}, s...)
}

func suffix(list []string, s string) []string {
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = x + s
	}
	return out
}

// Pieces are what a language needs for every stage, in the matrix's
// column order: each with the column that shows it, where it is added
// (docs/maintainers.md lists the same, checked by test/languages) and how
// the matrix tells that a language has it.
var Pieces = []struct {
	Name, Column, Where string
	Has                 func(Row) bool
}{
	{Tests, "test files", "TestNames, TestDirs or TestPaths in its entry of pipeline/lang/table.go", func(r Row) bool { return len(r.TestFiles) > 0 }},
	{Syntax, "scopes", "a grammar file in pipeline/syntax and its line in grammarNames, pipeline/syntax/parser.go", func(r Row) bool { return r.Scopes }},
	{Members, "members", "member rules in pipeline/syntax and their line in memberGrammarNames, pipeline/syntax/members_langs.go", func(r Row) bool { return r.Members }},
	{Results, "result formats", "a line in LanguageFormats, pipeline/results/languages.go", func(r Row) bool { return len(r.Formats) > 0 }},
	{Coverage, "per-test coverage", "statement rules in pipeline/coverage/executable.go and an adapter in pipeline/coverage (AdapterFor, pipeline/coverage/measure.go)", func(r Row) bool { return r.Coverage != "" }},
	{Mutation, "mutation operators", "a Syntax entry in pipeline/mutation/operator.go", func(r Row) bool { return len(r.Mutation) > 0 }},
	{TestAudit, "test audit", "a rule file in pipeline/testaudit and its line in Languages, pipeline/testaudit/audit.go", func(r Row) bool { return r.TestAudit }},
	{Canary, "canary", "a canary kind in pipeline/sandbox/guard/canary.go", func(r Row) bool { return r.Canary }},
	{Image, "base image", "an Image in pipeline/baseimage (a build script with its packages and tools)", func(r Row) bool { return r.BaseImage != "" }},
	{Fence, "fence", "its code-block tag in fenceTags, pipeline/syntax/fence.go", func(r Row) bool { return r.Fence != "" }},
	{Augment, "augment", "NewTest in its entry of pipeline/lang/table.go", func(r Row) bool { return r.Augment }},
	{Sample, "sample", "a sample under data/samples and its line in Samples, pipeline/langsupport/support.go", func(r Row) bool { return len(r.Samples) > 0 }},
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "-"
}

func list(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = "`" + strings.ReplaceAll(x, "|", `\|`) + "`"
	}
	return strings.Join(q, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}

// Markdown is docs/languages.md.
func Markdown() string {
	rows := Matrix()
	var b strings.Builder
	b.WriteString("# Languages\n\n<!-- Generated by `lolbench lang doc` (make docs) from the tables in code; do not edit. -->\n\n")
	b.WriteString("What lolbench can do with each language of its language table, stage by stage. Every column is read\n")
	b.WriteString("from the package that does the work (pipeline/langsupport); `lolbench lang list` prints the same\n")
	b.WriteString("matrix, and `--json` gives it to scripts. test/languages checks that this page matches the code and that\n")
	b.WriteString("every gap is a declared one.\n\n")
	b.WriteString("| Language | Scopes | Members | Test files | Reset rules | Result formats | Single test | Per-test coverage | Mutation | Test audit | Canary | Base image | Fence | Augment | Sample |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		cov := "-"
		if r.Coverage != "" {
			cov = r.Coverage
			if !r.PerTest {
				cov += " (per suite)"
			}
		}
		mut := "-"
		if len(r.Mutation) > 0 {
			mut = fmt.Sprintf("%d operators, stub revert", len(r.Mutation))
		}
		img := orDash(r.BaseImage)
		if r.HostSDK != "" {
			img = "needs an SDK from the host"
		}
		fence := "-"
		if r.Fence != "" {
			fence = "`" + r.Fence + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.Language, yes(r.Scopes), yes(r.Members), list(r.TestFiles),
			list(r.Reset), list(r.Formats), orDash(r.SingleTest), cov, mut, yes(r.TestAudit), yes(r.Canary), img, fence, yes(r.Augment), list(r.Samples))
	}
	b.WriteString("\nMutation operators: ")
	var ops []string
	for _, op := range mutation.Registry {
		ops = append(ops, "`"+op.Name+"`")
	}
	b.WriteString(strings.Join(ops, ", ") + ".\n\n## Base images\n\n")
	b.WriteString("`lolbench env base --lang KEY` builds an image from Debian's packages, offline; a recipe names it as\n")
	b.WriteString("`image: " + baseimage.Name + "` and picks it by its `language:` (docs/projects.md, \"The offline base image\").\n\n")
	b.WriteString("| Key | Languages | Built on | Holds | Tag variable |\n|---|---|---|---|---|\n")
	for _, im := range baseimage.Images {
		parent := "debootstrap"
		if im.Parent != nil {
			parent = "`" + im.Parent.Key + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` |\n", im.Key, strings.Join(im.Languages, ", "), parent, im.Toolchain, im.EnvVar)
	}
	for _, r := range rows {
		if r.HostSDK != "" {
			fmt.Fprintf(&b, "\n%s %s.\n", r.Language, r.HostSDK)
		}
	}
	b.WriteString("\n## Toolchain versions\n\nWhich versions of its toolchain a task can have when neither builds nor tests reach a network\n")
	b.WriteString("(docs/projects.md, \"Recipes\" and \"Dependencies from the host\"):\n\n| Language | Versions offline |\n|---|---|\n")
	for _, r := range rows {
		if r.Versions != "" {
			fmt.Fprintf(&b, "| %s | %s |\n", r.Language, strings.ReplaceAll(r.Versions, "|", `\|`))
		}
	}
	b.WriteString("\n## What adding a language takes\n\nA language has each piece below or declares the gap, and why, in Gaps\n")
	b.WriteString("(pipeline/langsupport/gaps.go); test/languages fails both when a piece is missing without being declared\n")
	b.WriteString("and when a declared gap has been filled, naming the file to edit (docs/maintainers.md has the steps).\n\n")
	b.WriteString("| Piece | Column | Where |\n|---|---|---|\n")
	for _, p := range Pieces {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", p.Name, p.Column, p.Where)
	}
	b.WriteString("\n## Declared gaps\n\n| Language | Lacks | Why |\n|---|---|---|\n")
	for _, r := range rows {
		// One line per reason, its pieces in the matrix's order.
		var whys []string
		byWhy := map[string][]string{}
		for _, g := range r.Gaps {
			if byWhy[g.Why] == nil {
				whys = append(whys, g.Why)
			}
			byWhy[g.Why] = append(byWhy[g.Why], g.Piece)
		}
		for _, w := range whys {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", r.Language, strings.Join(byWhy[w], ", "), strings.ReplaceAll(w, "|", `\|`))
		}
	}
	return b.String()
}
