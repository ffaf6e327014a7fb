package augment

import (
	"path"
	"sort"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/testaudit"
)

// cfamilyLanguages are the languages of a C or C++ product: its headers
// are "C/C++ Header" in the language table, and the audit needs them to
// tell a source-only name from an interface one.
var cfamilyLanguages = map[string]bool{"C": true, "C++": true, "C/C++ Header": true}

// cfamilyProductPaths lists the product files the C and C++ audit reads:
// every C, C++ and header source file of the folders the PR changes such
// files in (list returns a head folder's file names), sorted.
func cfamilyProductPaths(files []diff.File, list func(dir string) []string) []string {
	dirs := map[string]bool{}
	for _, f := range files {
		if f.Category == lang.Source && f.NewPath != "" && cfamilyLanguages[f.Language] {
			dirs[path.Dir(f.NewPath)] = true
		}
	}
	var out []string
	for d := range dirs {
		for _, name := range list(d) {
			p := path.Join(d, name)
			if lang.Classify(p) != lang.Source {
				continue
			}
			if l := lang.ForPath(p); l != nil && cfamilyLanguages[l.Name] {
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// cfamilyProduct reads the C and C++ audit's product files at head.
func (t *task) cfamilyProduct() []testaudit.File {
	var out []testaudit.File
	for _, p := range cfamilyProductPaths(t.change.Files, t.listDir) {
		if src, err := t.repo.ReadFile(t.head, p); err == nil && len(src) <= testaudit.MaxSource {
			out = append(out, testaudit.File{Path: p, Source: src})
		}
	}
	return out
}
