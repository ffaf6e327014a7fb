package mutation_test

import (
	"os/exec"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/results"
)

// TestBuildBroken reads a real go test -json run of a module with three
// packages: one whose code does not compile (the first A58 revert error),
// one whose test file does not, and one that builds and fails a test.
// Only the first two are broken. Cargo's crate marker counts too, and a
// marker-like name that is not an error does not.
func TestBuildBroken(t *testing.T) {
	dir := mutantTree(t, map[string]string{
		"go.mod":            "module example.com/m\n\ngo 1.22\n",
		"bad/bad.go":        "package bad\n\nimport \"unsafe\"\n\nfunc F() int { return 1 }\n",
		"bad/bad_test.go":   "package bad\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {}\n",
		"tbad/tbad.go":      "package tbad\n\nfunc G() int { return 1 }\n",
		"tbad/tbad_test.go": "package tbad\n\nimport \"testing\"\n\nfunc TestG(t *testing.T) { _ = weightedSubConn{} }\n",
		"good/good.go":      "package good\n\nfunc H() int { return 1 }\n",
		"good/good_test.go": "package good\n\nimport \"testing\"\n\nfunc TestH(t *testing.T) { t.Fail() }\n\nfunc TestH2(t *testing.T) {}\n",
	}, nil, nil)
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, _ := cmd.Output()
	rs, err := results.GoJSON{}.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mutation.BuildBroken(rs), []string{"example.com/m/bad", "example.com/m/tbad"}; !reflect.DeepEqual(got, want) {
		t.Errorf("go: %q, want %q (results %v)", got, want, rs)
	}
	rs = []results.Result{
		{Name: "tinycrate [build]", Status: results.Error},
		{Name: "integration [binary]", Status: results.Error},
		{Name: "tinycrate::tests::it_works", Status: results.Failed},
		{Name: "example.com/m/x [package]", Status: results.Failed},
	}
	if got, want := mutation.BuildBroken(rs), []string{"tinycrate"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cargo: %q, want %q", got, want)
	}
	// A JUnit suite that failed outside every test: a test module that
	// does not import.
	rs = []results.Result{{Name: "tests.test_x" + results.SuiteMarker, Status: results.Error}, {Name: "tests.test_y::test_a", Status: results.Error}}
	if got, want := mutation.BuildBroken(rs), []string{"tests.test_x"}; !reflect.DeepEqual(got, want) {
		t.Errorf("junit: %q, want %q", got, want)
	}
}
