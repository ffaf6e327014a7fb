package report

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// funcs are the templates' helpers. None returns template.HTML: they
// compute strings and numbers that html/template escapes where they land.
var funcs = template.FuncMap{
	// L is the anchor of an artifact line, "#L36", or "" for line 0.
	"L": func(n int) string {
		if n < 1 {
			return ""
		}
		return fmt.Sprintf("#L%d", n)
	},
	"join": strings.Join,
	// dagChart draws the section graph (dag.go).
	"dagChart": dagChart,
	// head is the data of the "head" template.
	"head": func(title, css string) map[string]string { return map[string]string{"Title": title, "CSS": css} },
	"add":  func(a, b int) int { return a + b },
	"sub":  func(a, b int) int { return a - b },
	// listLimit is how many items a long list shows inline (testlists.go).
	"listLimit": func() int { return listLimit },
	// resultClass is the CSS class of a stage result.
	"resultClass": func(r pipeline.Result) string {
		if r == "" {
			return "absent"
		}
		return string(r)
	},
	"resultText": func(r pipeline.Result) string {
		if r == "" {
			return "not run"
		}
		return string(r)
	},
	"kloc": func(n int64) string { return formatNumber(float64(n)/1000, 1) },
	"num":  func(n int) string { return formatNumber(float64(n), 0) },
	// percent is "a of b" as the artifact writes percentages.
	"percent": func(a, b int) string {
		if b <= 0 {
			return "–"
		}
		return formatNumber(float64(a)*100/float64(b), 1) + "%"
	},
	// violationGroups groups a page's violations by rule for the index:
	// each group links to its first violation's evidence.
	"violationGroups": violationGroups,
	// level is the outline indentation class of a section depth.
	"level": func(n int) string { return fmt.Sprintf("lvl%d", min(max(n, 1), 6)) },
	// testList is one list of test ids; a list longer than listLimit shows
	// its first listLimit ids and links to json, the file that holds all.
	"testList": func(name, id string, tests []string, always bool, json ...string) testListData {
		d := testListData{Name: name, ID: id, Tests: tests, Shown: tests, Always: always, Open: always && len(tests) <= listLimit}
		if len(tests) > listLimit {
			d.Shown, d.More = tests[:listLimit], len(tests)-listLimit
			if len(json) > 0 {
				d.JSON = json[0]
			}
		}
		return d
	},
	"codeTable": func(t mapping.Table[mapping.CodeRow], reason bool) codeTableData {
		return codeTableData{Table: t, Reason: reason}
	},
	// mutantClass is the badge class of a mutant's status.
	"mutantClass": func(status string) string {
		switch status {
		case "killed":
			return "passed"
		case "survived":
			return "rejected"
		}
		return "skipped"
	},
	// outcomeMark is a kill-matrix cell.
	"outcomeMark": func(o string) string {
		switch o {
		case "killed":
			return "K"
		case "passed":
			return "✓"
		case "unreached":
			return "–"
		}
		return "?"
	},
	"short": func(s string) string {
		if len(s) > 12 {
			return s[:12]
		}
		return s
	},
}

// testListData is one list of test ids; Always lists it even when empty.
type testListData struct {
	Name, ID     string
	Tests        []string
	Always, Open bool
	// Shown are the ids listed inline; More counts the others, which JSON
	// (the tests file, relative to the page) holds.
	Shown []string
	More  int
	JSON  string
}

// codeTableData is a block's Direct modifications (no Reason column) or
// Associated changes table.
type codeTableData struct {
	mapping.Table[mapping.CodeRow]
	Reason bool
}

// violationGroup is one rule's violations on a candidate, for the index.
type violationGroup struct {
	Rule  string
	Name  string
	Count int
	// Href opens the candidate page at the first violation's artifact
	// line, or at the violation itself when it has no line.
	Href string
}

func violationGroups(p *candidatePage) []violationGroup {
	var out []violationGroup
	at := map[string]int{}
	for _, it := range p.Validate.Items {
		i, ok := at[it.Rule]
		if !ok {
			href := it.Href
			if href == "" {
				href = "#" + it.Anchor
			}
			i = len(out)
			at[it.Rule] = i
			out = append(out, violationGroup{Rule: it.Rule, Name: it.Name, Href: p.Page + href})
		}
		out[i].Count++
	}
	return out
}
