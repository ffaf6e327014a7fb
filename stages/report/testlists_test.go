package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/stages/build"
)

// TestLongTestLists: a candidate with 30,000 P2P tests (PEP 639's pair has
// 26,860) gets a page under 500 KB that shows the first listLimit ids of
// each long list and links to the tests file beside it, which holds them
// all; a short list is shown whole. The tests file goes with its page.
func TestLongTestLists(t *testing.T) {
	ws := buildFixture(t)
	c := candidate(t, ws, goodID)
	ids := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("tests/test_%s.py::TestLongClassName::test_a_fairly_long_test_name_%05d[param-%d]", prefix, i, i%7)
		}
		return out
	}
	p2p, skipped := ids("p2p", 30000), ids("skip", 1500)
	rec := &build.Record{ID: goodID, Version: "env-1", Report: &sandbox.Report{Runs: 3, Command: "pytest {tests}",
		Classification: sandbox.Classification{FailToPass: []string{"tests/test_a.py::test_new"}, PassToPass: p2p, Skipped: skipped,
			Flaky: []sandbox.Flaky{{Name: "tests/test_a.py::test_clock", Side: "before"}}}}}
	writeJSON(t, filepath.Join(c.Dir, build.RecordFile), rec)

	s := runReport(t, ws)
	page := readFile(t, s.Pages[goodID])
	if len(page) >= 500<<10 {
		t.Fatalf("page is %d bytes, want under 500 KB", len(page))
	}
	const file = goodID + ".tests.json"
	contains(t, "page", page,
		`<details id="f2p" open><summary>FAIL_TO_PASS: 1</summary><ul class="tests"><li><code>tests/test_a.py::test_new</code></li></ul>`+"\n</details>",
		`<details id="p2p"><summary>PASS_TO_PASS: 30000</summary><ul class="tests"><li><code>`+p2p[0]+`</code></li>`,
		`<li><code>`+p2p[listLimit-1]+`</code></li></ul><p class="muted">… and 29,800 more: all 30,000 in <a href="`+file+`">`+file+`</a></p>`+"\n</details>",
		`<li><code>`+skipped[listLimit-1]+`</code></li></ul><p class="muted">… and 1,300 more: all 1,500 in <a href="`+file+`">`+file+`</a></p>`,
	)
	if strings.Contains(page, p2p[listLimit]) {
		t.Errorf("the page lists P2P test %d", listLimit+1)
	}
	var got testsJSON
	data := readFile(t, filepath.Join(s.Dir, "candidates", file))
	if err := json.Unmarshal([]byte(data), &got); err != nil {
		t.Fatal(err)
	}
	want := testsJSON{ID: goodID, FailToPass: []string{"tests/test_a.py::test_new"}, PassToPass: p2p, Flaky: []string{"tests/test_a.py::test_clock"},
		Broken: []string{}, FailBoth: []string{}, Skipped: skipped}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tests file: %d P2P, %d skipped; want all %d and %d", len(got.PassToPass), len(got.Skipped), len(p2p), len(skipped))
	}
	// The candidate without a build has no tests file; once the good one
	// is gone, its file goes with its page.
	if _, err := os.Stat(filepath.Join(s.Dir, "candidates", badID+".tests.json")); !os.IsNotExist(err) {
		t.Errorf("tests file without a build: %v", err)
	}
	if err := os.RemoveAll(c.Dir); err != nil {
		t.Fatal(err)
	}
	s = runReport(t, ws)
	if _, err := os.Stat(filepath.Join(s.Dir, "candidates", file)); !os.IsNotExist(err) {
		t.Errorf("stale tests file kept: %v", err)
	}
}

// TestChartLabelsFit: a long bar label widens the label column instead of
// running off the chart's left edge, and a wide last bin edge gets room on
// the right; short ones keep the default layout.
func TestChartLabelsFit(t *testing.T) {
	short := HBarChart("t", []BarRow{{Label: "validate", Segments: []Segment{{Name: "passed", Value: 2, Class: "passed"}}}}, nil)
	if short.Width != chartPad*2+barLabelWidth+barWidth+barValueWidth {
		t.Errorf("short labels: width %d", short.Width)
	}
	long := "proposals whose status is accepted or final and that link a merged PR"
	c := HBarChart("t", []BarRow{{Label: long, Segments: []Segment{{Name: "passed", Value: 2, Class: "passed"}}}}, nil)
	for _, tx := range c.Texts {
		if tx.Text == long {
			// Right-anchored at X: it starts about X - width.
			if start := float64(tx.X) - float64(textWidth(long, labelCharWidth)); start < 0 {
				t.Errorf("label starts at %.1f, left of the chart", start)
			}
		}
	}
	if c.Width != chartPad*2+textWidth(long, labelCharWidth)+12+barWidth+barValueWidth {
		t.Errorf("long label: width %d", c.Width)
	}
	h := Histogram("t", "kLoC", []float64{0, 123456.5}, "bar-a")
	last := h.Texts[len(h.Texts)-2] // the last edge, then the unit
	if last.Text != "200000" || float64(last.X)+float64(textWidth(last.Text, tickCharWidth))/2 > float64(h.Width) {
		t.Errorf("last edge %q at %v runs past the width %d", last.Text, last.X, h.Width)
	}
}
