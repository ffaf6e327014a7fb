package rules

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R09 checks test plan coverage.
var R09 = &Rule{
	ID:    9,
	Name:  "test-plan-coverage",
	Doc:   `When the EP has test sections (a heading whose title speaks of tests, testing, test plans, validation or verification) and the PR changes test files (file category test), every test section is classified Implementable yes with category evaluation, and every test file of the PR is assigned, direct or associated, to at least one test section or one of its subsections. Classify the test sections as implementable evaluation sections and list the test files in their blocks. A test section without a summary row is rule 3's, and values outside the vocabulary rule 4's.`,
	Check: checkR09,
}

// testTitleRE recognises a test section by its title.
var testTitleRE = regexp.MustCompile(`(?i)\b(tests?|testing|test[- ]?plans?|validations?|verifications?)\b`)

func checkR09(p *Pass) {
	if p.EP == nil || p.Change == nil {
		return
	}
	var tests []*ep.Section
	for _, s := range p.EP.Sections {
		if testTitleRE.MatchString(s.Title) {
			tests = append(tests, s)
		}
	}
	var files []string
	for i := range p.Change.Files {
		if p.Change.Files[i].Category == lang.Test {
			files = append(files, p.Change.Files[i].Path())
		}
	}
	if len(tests) == 0 || len(files) == 0 {
		return
	}
	for _, s := range tests {
		for _, r := range p.SCS[s.ID] {
			impl, okImpl := mapping.ParseYesNo(strings.TrimSpace(r.Implementable))
			cat, okCat := mapping.ParseSectionCategory(strings.TrimSpace(r.Category))
			var wrong []string
			if okImpl && !impl {
				wrong = append(wrong, "Implementable no")
			}
			if okCat && cat != mapping.Evaluation {
				wrong = append(wrong, "Category "+string(cat))
			}
			if len(wrong) > 0 {
				p.Reportf(r.Line, "section "+s.ID, "section %s %q is a test section and the PR changes %d test files, but it is classified %s; classify it Implementable yes, Category evaluation",
					s.ID, s.Title, len(files), strings.Join(wrong, ", "))
			}
		}
	}
	for _, f := range files {
		if r09Assigned(p, f) {
			continue
		}
		line := 0
		for _, r := range p.Mapping.PFS.Rows {
			if strings.TrimSpace(r.Path) == f {
				line = r.Line
				break
			}
		}
		var names []string
		for _, s := range tests {
			names = append(names, fmt.Sprintf("%s %q", s.ID, s.Title))
		}
		p.Reportf(line, FileWhere(f), "test file `%s` is not assigned to any test section (%s); list it in the Direct modifications or Associated changes of a test section's block",
			f, strings.Join(names, ", "))
	}
}

// r09Assigned reports whether a block of a test section, or of a subsection
// of one, names the file in either table.
func r09Assigned(p *Pass, file string) bool {
	for _, uses := range [][]FileUse{p.Direct[file], p.Associated[file]} {
		for _, u := range uses {
			for s := p.SectionByID[strings.TrimSpace(u.Block.Section)]; s != nil; s = s.Parent {
				if testTitleRE.MatchString(s.Title) {
					return true
				}
			}
		}
	}
	return false
}
