package loc

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The target: `lolbench loc --all` at least 10x faster than
// `cloc --skip-uniqueness` on $(go env GOROOT)/src, with Go, C and
// Assembly code counts within 2% of cloc's. Compare with
//
//	go test ./pipeline/loc -run '^$' -bench GOROOT
//	LOLBENCH_CLOC=1 go test ./pipeline/loc -run TestAgreesWithCloc -v

func gorootSrc(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skipf("go env GOROOT: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("no GOROOT sources: %v", err)
	}
	return dir
}

// clocLanguage is one language of cloc's --json output.
type clocLanguage struct {
	Files   int64 `json:"nFiles"`
	Blank   int64 `json:"blank"`
	Comment int64 `json:"comment"`
	Code    int64 `json:"code"`
}

// runCloc runs cloc the way the comparison needs: every file counted,
// duplicates included (--skip-uniqueness), as JSON.
func runCloc(tb testing.TB, dir string) map[string]clocLanguage {
	tb.Helper()
	path, err := exec.LookPath("cloc")
	if err != nil {
		tb.Skip("cloc is not installed (Debian: apt-get install cloc)")
	}
	out, err := exec.Command(path, "--skip-uniqueness", "--quiet", "--json", dir).Output()
	if err != nil {
		tb.Fatalf("cloc: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		tb.Fatalf("cloc output: %v", err)
	}
	langs := map[string]clocLanguage{}
	for name, v := range raw {
		if name == "header" {
			continue
		}
		var l clocLanguage
		if err := json.Unmarshal(v, &l); err != nil {
			tb.Fatalf("cloc output for %s: %v", name, err)
		}
		langs[name] = l
	}
	return langs
}

func BenchmarkLocGOROOT(b *testing.B) {
	dir := gorootSrc(b)
	var res *Result
	for b.Loop() {
		var err error
		res, err = CountDir(context.Background(), dir, Options{All: true})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Total.Code), "code-lines")
	b.ReportMetric(float64(res.Total.Files), "files")
}

func BenchmarkClocGOROOT(b *testing.B) {
	dir := gorootSrc(b)
	if _, err := exec.LookPath("cloc"); err != nil {
		b.Skip("cloc is not installed (Debian: apt-get install cloc)")
	}
	var langs map[string]clocLanguage
	for b.Loop() {
		langs = runCloc(b, dir)
	}
	sum := langs["SUM"]
	b.ReportMetric(float64(sum.Code), "code-lines")
	b.ReportMetric(float64(sum.Files), "files")
}

// TestAgreesWithCloc is slow (cloc takes over a minute on GOROOT/src), so
// it runs only when asked with LOLBENCH_CLOC=1 and cloc is installed.
func TestAgreesWithCloc(t *testing.T) {
	if os.Getenv("LOLBENCH_CLOC") != "1" {
		t.Skip("set LOLBENCH_CLOC=1 to compare with cloc on GOROOT/src")
	}
	if _, err := exec.LookPath("cloc"); err != nil {
		t.Skip("cloc is not installed (Debian: apt-get install cloc)")
	}
	dir := gorootSrc(t)

	start := time.Now()
	theirs := runCloc(t, dir)
	clocTime := time.Since(start)
	start = time.Now()
	ours, err := CountDir(context.Background(), dir, Options{All: true})
	if err != nil {
		t.Fatal(err)
	}
	ourTime := time.Since(start)
	// Times are logged, not asserted: a timed assertion is not a
	// benchmark (see BenchmarkLocGOROOT, BenchmarkClocGOROOT).
	t.Logf("cloc %v, lolbench %v (%.1fx)", clocTime.Round(time.Millisecond), ourTime.Round(time.Millisecond), clocTime.Seconds()/ourTime.Seconds())

	for _, name := range []string{"Go", "C", "Assembly"} {
		c, ok := theirs[name]
		if !ok || c.Code == 0 {
			t.Errorf("cloc counted no %s code", name)
			continue
		}
		o := ours.Languages[name]
		if o == nil {
			t.Errorf("we counted no %s code", name)
			continue
		}
		diff := float64(o.Code-c.Code) / float64(c.Code) * 100
		t.Logf("%-9s files %5d/%5d  code %8d/%8d (%+.2f%%)  comment %7d/%7d  blank %7d/%7d  (ours/cloc)",
			name, o.Files, c.Files, o.Code, c.Code, diff, o.Comment, c.Comment, o.Blank, c.Blank)
		if diff > 2 || diff < -2 {
			t.Errorf("%s code: ours %d, cloc %d: %+.2f%%, more than 2%% apart", name, o.Code, c.Code, diff)
		}
	}
}
