package report

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// listLimit is how many test ids a list of the candidate page shows
// inline; the rest are in the tests file beside the page. A real suite
// has tens of thousands of P2P tests (PEP 639: 26,860), which would make
// the page megabytes (issue 13 §3: under 500 KB whatever the count).
const listLimit = 200

// testsFile is the site-relative path of a candidate's tests file:
// "candidates/<id>.tests.json", beside its page.
func testsFile(id string) string { return "candidates/" + id + TestsSuffix }

// TestsSuffix ends the name of a candidate's tests file.
const TestsSuffix = ".tests.json"

// testsJSON is a candidate's tests file: every list of its build, whole.
type testsJSON struct {
	ID         string   `json:"id"`
	FailToPass []string `json:"fail_to_pass"`
	PassToPass []string `json:"pass_to_pass"`
	Flaky      []string `json:"flaky"`
	Broken     []string `json:"broken"`
	FailBoth   []string `json:"fail_both"`
	Skipped    []string `json:"skipped"`
}

// writeTests writes the tests file of a candidate whose build has lists,
// and sets the page's link to it; out is the site's folder.
func writeTests(out string, p *candidatePage) error {
	rec := p.Build.Record
	if rec == nil || rec.Report == nil {
		// A file of an earlier build would outlive its lists.
		if err := os.Remove(filepath.Join(out, filepath.FromSlash(testsFile(p.ID)))); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	r := rec.Report
	t := testsJSON{ID: p.ID, FailToPass: nonNil(r.FailToPass), PassToPass: nonNil(r.PassToPass), Flaky: []string{},
		Broken: nonNil(r.Broken), FailBoth: nonNil(r.FailBoth), Skipped: nonNil(r.Skipped)}
	for _, f := range r.Flaky {
		t.Flaky = append(t.Flaky, f.Name)
	}
	rel := testsFile(p.ID)
	if err := workspace.WriteJSON(filepath.Join(out, filepath.FromSlash(rel)), t); err != nil {
		return err
	}
	// The page is in the same folder.
	p.TestsJSON = path.Base(rel)
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// isTestsFile reports whether a file name of the candidates folder is a
// tests file, and whose.
func isTestsFile(name string) (id string, ok bool) {
	return strings.CutSuffix(name, TestsSuffix)
}
