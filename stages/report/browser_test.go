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
	spec testcand.Spec
	// project and language fix candidate.json (testcand writes "sample"
	// and "Go").
	project, language string
	// mapping is the mapping.md content; "" leaves it out.
	mapping string
}

// flawedMapping is the tinykv mapping with a deliberate mistake (a wrong
// EP-section coverage), and the line of the mistake.
func flawedMapping(t *testing.T) (string, int) {
	good, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "tinykv", "mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	const from, to = "| EP-section coverage | 87.5% |", "| EP-section coverage | 75.0% |"
	if !strings.Contains(string(good), from) {
		t.Fatalf("tinykv mapping.md has no %q line", from)
	}
	bad := strings.Replace(string(good), from, to, 1)
	line := slices.Index(strings.Split(bad, "\n"), to) + 1
	return bad, line
}

// buildDemo builds the demo workspace: tinykv with its mapping, unitconv
// without one, and tinykv with the flawed mapping; validate runs on all
// three through the engine.
func buildDemo(t *testing.T) (*workspace.Workspace, []string, int) {
	t.Helper()
	root := filepath.Join("..", "..")
	good, err := os.ReadFile(filepath.Join(root, "data", "samples", "tinykv", "mapping.md"))
	if err != nil {
		t.Fatal(err)
	}
	bad, badLine := flawedMapping(t)
	tinykv := testcand.Tinykv(root)
	flawed := tinykv
	flawed.ID = "tinykv-tkep-0002-flawed"
	unitconv := testcand.Spec{Sample: filepath.Join(root, "data", "samples", "unitconv"), ID: "unitconv-ucep-0004",
		EPFile: "ep.md", EPID: "UCEP 4", Title: "Unit expressions and temperature scales"}
	demo := []demoCandidate{
		{tinykv, "tinykv", "Go", string(good)},
		{flawed, "tinykv", "Go", bad},
		{unitconv, "unitconv", "Python", ""},
	}
	dir := t.TempDir()
	var ws *workspace.Workspace
	var ids []string
	for _, d := range demo {
		w, c, err := testcand.Build(dir, d.spec)
		if err != nil {
			t.Fatal(err)
		}
		ws = w
		info, err := c.LoadInfo()
		if err != nil {
			t.Fatal(err)
		}
		info.Project, info.Language = d.project, d.language
		writeJSON(t, filepath.Join(c.Dir, pipeline.InfoFile), info)
		if d.mapping != "" {
			if err := workspace.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte(d.mapping), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := &pipeline.Env{Workspace: ws, Version: "test"}
		if _, err := pipeline.RunCandidate(context.Background(), env, c, []pipeline.CandidateStage{validate.Stage{}}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.spec.ID)
	}
	slices.Sort(ids)
	return ws, ids, badLine
}

func TestBrowser(t *testing.T) {
	exe := chromium()
	if exe == "" {
		t.Skip("SKIP browser test: chromium is not installed (apt-get install -y chromium; CI installs it in .ci/run)")
	}
	ws, ids, badLine := buildDemo(t)
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
	// violation link opens its page scrolled to the offending line.
	const flawedID = "tinykv-tkep-0002-flawed"
	link := chromedp.CSS(fmt.Sprintf("#c-%s a.violation-link", flawedID))
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
	case rule != "R08":
		t.Errorf("violation link says %q, want R08", rule)
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
	if hash != "#v1" || name != "global-arithmetic" {
		t.Errorf("the badge opened %q with rule %q, want #v1 and global-arithmetic", hash, name)
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
