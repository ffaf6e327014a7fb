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
	Doc:   `When the EP has test sections and the PR changes test files (file category test), every test section is classified Implementable yes with category evaluation, and every test file of the PR is assigned, direct or associated, to at least one test section or one of its subsections. A test section is one whose title speaks of tests (tests, testing, test plan, test suite, test cases), or one whose title speaks of validation or verification and that is part of a test section or whose own text speaks of tests (tests, testing, tested, test suites or cases, unit, integration or regression tests): "API Validation" that says how the API checks its input is not a test plan, "Validation" that says which tests check the change is. Classify the test sections as implementable evaluation sections and list the test files in their blocks. A test section without a summary row is rule 3's, and values outside the vocabulary rule 4's.`,
	Check: checkR09,
}

// A title that names tests makes a test section; a title that names
// validation or verification makes one only with more evidence, since
// "API Validation" or "Signature verification" are features to build.
var (
	testTitleRE  = regexp.MustCompile(`(?i)\b(tests?|testing|test[- ]?(plans?|suites?|cases?))\b`)
	checkTitleRE = regexp.MustCompile(`(?i)\b(validations?|validating|verifications?|verifying)\b`)
	testTextRE   = regexp.MustCompile(`(?i)\b(tests|testing|tested|test[- ]?(suites?|cases?|plans?)|(unit|integration|regression)[- ]?tests?)\b`)
)

// r09TestSections returns the EP's test sections: a title that names tests,
// or one that names validation or verification in a section that is part
// of a test section or whose own text speaks of tests.
func r09TestSections(doc *ep.Document) map[*ep.Section]bool {
	test := map[*ep.Section]bool{}
	for _, s := range doc.Sections { // parents come before their children
		switch {
		case testTitleRE.MatchString(s.Title):
			test[s] = true
		case checkTitleRE.MatchString(s.Title):
			test[s] = (s.Parent != nil && test[s.Parent]) || testTextRE.MatchString(doc.Text(s.Own))
		}
	}
	return test
}

func checkR09(p *Pass) {
	if p.EP == nil || p.Change == nil {
		return
	}
	isTest := r09TestSections(p.EP)
	var tests []*ep.Section
	for _, s := range p.EP.Sections {
		if isTest[s] {
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
		if r09Assigned(p, isTest, f) {
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
func r09Assigned(p *Pass, isTest map[*ep.Section]bool, file string) bool {
	for _, uses := range [][]FileUse{p.Direct[file], p.Associated[file]} {
		for _, u := range uses {
			for s := p.SectionByID[strings.TrimSpace(u.Block.Section)]; s != nil; s = s.Parent {
				if isTest[s] {
					return true
				}
			}
		}
	}
	return false
}
