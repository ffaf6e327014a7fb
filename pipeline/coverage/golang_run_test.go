package coverage

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/results"
)

// suiteSample is a Go package with a grpctest-like runner (the methods of
// s run as subtests of Test, named without their prefix), a table-driven
// test whose case names go test rewrites (a space, regexp metacharacters,
// a repeated name) and nested subtests.
var suiteSample = map[string]string{
	"go.mod": "module example.com/sample\n\ngo 1.21\n",
	"sample_test.go": `package sample

import (
	"reflect"
	"strings"
	"testing"
)

type s struct{}

func Test(t *testing.T) {
	v := reflect.ValueOf(s{})
	for i := 0; i < v.NumMethod(); i++ {
		if name, ok := strings.CutPrefix(v.Type().Method(i).Name, "Test"); ok {
			t.Run(name, v.Method(i).Interface().(func(*testing.T)))
		}
	}
}

func (s) TestBalancer_OneAddress(t *testing.T)   {}
func (s) TestBalancer_OneAddressX(t *testing.T)  {}
func (s) TestBalancer_TwoAddresses(t *testing.T) {}

func TestTable(t *testing.T) {
	for _, name := range []string{"a (b)|c.d", "a (b)|c.d", "plain", "[x]"} {
		t.Run(name, func(t *testing.T) {
			t.Run("deep", func(t *testing.T) {})
		})
	}
}
`,
}

// goRun runs go test -json with -run pattern on the sample, on the host,
// and returns the leaves that ran.
func goRun(t *testing.T, dir, pattern string) []string {
	t.Helper()
	cmd := exec.Command("go", "test", "-json", "-count=1", "-run", pattern, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go test -run %q: %v\n%s", pattern, err, out)
	}
	res, err := results.GoJSON{}.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	for _, r := range results.Leaves("go-json", res) {
		if r.Status != results.Passed {
			t.Fatalf("%s: %s", r.Name, r.Status)
		}
		ran = append(ran, r.Name)
	}
	return ran
}

// TestGoRunPatternsSelect runs the patterns Script and Select write with
// the host's go command: each selects exactly its tests, subtests of a
// suite runner and of a table whose names go test rewrote included.
func TestGoRunPatternsSelect(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on the host")
	}
	dir := t.TempDir()
	for name, content := range suiteSample {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const pkg = "example.com/sample."
	for _, tt := range []struct{ id, pattern string }{
		{pkg + "Test/Balancer_OneAddress", `^Test$/^Balancer_OneAddress$`},
		{pkg + "TestTable/a_(b)|c.d#01/deep", `^TestTable$/^a_\(b\)\|c\.d#01$/^deep$`},
		{pkg + "TestTable/[x]/deep", `^TestTable$/^\[x\]$/^deep$`},
	} {
		g, ok := parseGoTest(tt.id)
		if !ok {
			t.Fatalf("parseGoTest(%q) failed", tt.id)
		}
		if got := runPattern(g.name); got != tt.pattern {
			t.Errorf("runPattern(%q) = %q, want %q", g.name, got, tt.pattern)
		}
		if ran := goRun(t, dir, tt.pattern); !reflect.DeepEqual(ran, []string{tt.id}) {
			t.Errorf("-run %q ran %q, want only %s", tt.pattern, ran, tt.id)
		}
	}
	// Select: the union of whole paths, one alternative each.
	p := NewPlan(context.Background(), Spec{Recipe: recipe.Recipe{Test: recipe.Test{Command: "go test -json {tests}"}}})
	want := []string{pkg + "Test/Balancer_TwoAddresses", pkg + "TestTable/a_(b)|c.d/deep", pkg + "TestTable/plain/deep"}
	items, ok := goAdapter{}.Select(p, want)
	if !ok || len(items) != 3 || items[0] != "-run" {
		t.Fatalf("Select = %q, %v", items, ok)
	}
	if ran := goRun(t, dir, items[1]); !reflect.DeepEqual(ran, want) {
		t.Errorf("Select's -run %q ran %q, want %q", items[1], ran, want)
	}
}
