package report

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/rules"
	"github.com/lolbench/lolbench/stages/validate"
)

// The browser test (issue 8) loads the report of the demo samples in a
// real headless Chromium, the one Debian packages (CI installs it in
// .ci/run), and checks that the index lists the demo candidates, that a
// violation link on the index opens the right candidate page at the
// offending artifact line, and takes screenshots. They are written to the
// test's temporary folder, or to $LOLBENCH_SCREENSHOT_DIR when set, so
// that a person can look at them.

// chromium finds the browser, or returns "".
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// demoCandidate is one candidate of the demo workspace.
type demoCandidate struct {
	id, project string
	// mapping is the sample's mapping file copied to mapping.md.
	mapping string
}

// The demo's candidates (data/demo/demo.sh): the tinykv sample with its
// curated mapping, and again with the mapping that has deliberate
// mistakes.
var demo = []demoCandidate{
	{"tinykv-flawed-tkep-0002", "tinykv-flawed", "mapping-flawed.md"},
	{"tinykv-tkep-0002", "tinykv", "mapping.md"},
}

// buildDemo builds the demo workspace with the samples' repository and
// mappings, and runs validate on both candidates through the engine.
func buildDemo(t *testing.T) *workspace.Workspace {
	t.Helper()
	dir := t.TempDir()
	var ws *workspace.Workspace
	for _, d := range demo {
		spec := testcand.Tinykv(filepath.Join("..", ".."))
		spec.ID = d.id
		w, c, err := testcand.Build(dir, spec)
		if err != nil {
			t.Fatal(err)
		}
		ws = w
		info, err := c.LoadInfo()
		if err != nil {
			t.Fatal(err)
		}
		info.Project = d.project
		writeJSON(t, filepath.Join(c.Dir, pipeline.InfoFile), info)
		if err := testcand.CopyMapping(spec, c, d.mapping); err != nil {
			t.Fatal(err)
		}
		env := &pipeline.Env{Workspace: ws, Version: "test"}
		if _, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{validate.Stage{}}); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("SKIP browser test: chromium is not installed (apt-get install -y chromium; CI installs it in .ci/run)")
	}
	ws := buildDemo(t)
	var ids []string
	for _, d := range demo {
		ids = append(ids, d.id)
	}
	// The evidence the index's first violation link must open: the first
	// violation of the flawed mapping, as the validate stage reported it.
	const flawedID = "tinykv-flawed-tkep-0002"
	rep, err := readValidate(ws, flawedID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) == 0 || rep.Violations[0].Line == 0 {
		t.Fatalf("the flawed demo mapping should have a first violation with an artifact line: %+v", rep.Violations)
	}
	first := rep.Violations[0]
	badLine := first.Line
	s := runReport(t, ws)
	shots := os.Getenv("LOLBENCH_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	}

	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe),
		chromedp.NoSandbox, // CI runs as root in a container
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	defer cancelTimeout()

	index := (&url.URL{Scheme: "file", Path: filepath.ToSlash(s.Index)}).String()
	if err := chromedp.Do(ctx, chromedp.Navigate(index), chromedp.WaitVisible(chromedp.CSS("#candidates"))); err != nil {
		t.Fatalf("load %s: %v", index, err)
	}
	listed, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("a.cand-link")).map(a => a.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, ids) {
		t.Fatalf("index lists %q, want the demo candidates %q", listed, ids)
	}
	shot(t, ctx, shots, "index.png", chromedp.FullScreenshot(100))

	// One click from the index to the evidence: the flawed candidate's
	// first violation link opens its page scrolled to the offending line.
	link := chromedp.CSS(fmt.Sprintf("#c-%s a.violation-link", flawedID))
	wantRule := fmt.Sprintf("R%02d", first.Rule)
	rule, err := chromedp.Run(ctx, chromedp.Text(link))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(link),
		chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#L%d", badLine))),
		chromedp.Sleep(200*time.Millisecond), // let the scroll settle
	); err != nil {
		t.Fatalf("follow the violation link: %v", err)
	}
	type target struct {
		Href   string  `json:"href"`
		ID     string  `json:"id"`
		Class  string  `json:"class"`
		Top    float64 `json:"top"`
		Height float64 `json:"height"`
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[target](`(() => {
		const t = document.querySelector(":target");
		return {href: location.href, id: t ? t.id : "", class: t ? t.className : "",
			top: t ? t.getBoundingClientRect().top : -1, height: window.innerHeight};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	shot(t, ctx, shots, "violation.png", chromedp.CaptureScreenshot())
	wantSuffix := fmt.Sprintf("/reports/candidates/%s.html#L%d", flawedID, badLine)
	switch {
	case rule != wantRule && !strings.HasPrefix(rule, wantRule+" ×"):
		t.Errorf("violation link says %q, want %s", rule, wantRule)
	case !strings.HasSuffix(got.Href, wantSuffix):
		t.Errorf("the violation link opened %s, want …%s", got.Href, wantSuffix)
	case got.ID != fmt.Sprintf("L%d", badLine) || got.Class != "hl":
		t.Errorf("target is #%s (class %q), want the highlighted line L%d", got.ID, got.Class, badLine)
	case got.Top < 0 || got.Top >= got.Height:
		t.Errorf("line L%d is at y=%g, outside the viewport of height %g", badLine, got.Top, got.Height)
	}

	// From the highlighted line, its rule badge leads back to the
	// violation with the rule's doc.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf("#L%d a.mark", badLine))),
		chromedp.WaitVisible(chromedp.CSS("#v1")),
	); err != nil {
		t.Fatalf("follow the line's rule badge: %v", err)
	}
	hash, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash`))
	if err != nil {
		t.Fatal(err)
	}
	name, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#v1 .rule-name")))
	if err != nil {
		t.Fatal(err)
	}
	if want := rules.Lookup(first.Rule).Name; hash != "#v1" || name != want {
		t.Errorf("the badge opened %q with rule %q, want #v1 and %s", hash, name, want)
	}
	shot(t, ctx, shots, "candidate.png", chromedp.FullScreenshot(100))
}

// shot takes a screenshot and writes it to dir.
func shot(t *testing.T, ctx context.Context, dir, name string, a chromedp.Action[[]byte]) {
	t.Helper()
	img, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if len(img) == 0 {
		t.Fatalf("screenshot %s is empty", name)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, img, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", p)
}
