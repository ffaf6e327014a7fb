package recipe

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const goRecipe = `image: golang:1.22-bookworm
packages: [make]
install:
  - go build ./...
env:
  CGO_ENABLED: "0"
test:
  command: go test -json -count=1 {tests}
  suite: ["./..."]
  select: packages
  format: go-json
runs: 5
limits:
  cpus: 1.5
  memory_mb: 2048
  timeout_sec: 600
`

func TestParseValid(t *testing.T) {
	r, err := Parse("recipe.yaml", []byte(goRecipe))
	if err != nil {
		t.Fatal(err)
	}
	want := &Recipe{
		Image:    "golang:1.22-bookworm",
		Packages: []string{"make"},
		Install:  []string{"go build ./..."},
		Env:      map[string]string{"CGO_ENABLED": "0"},
		Test:     Test{Command: "go test -json -count=1 {tests}", Suite: []string{"./..."}, Select: "packages", Format: "go-json"},
		Runs:     5,
		Limits:   Limits{CPUs: 1.5, MemoryMB: 2048, TimeoutSec: 600},
	}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("got %+v\nwant %+v", r, want)
	}
	d := r.Defaults()
	wantD := *want
	wantD.User = "lolbench"
	wantD.Limits = Limits{CPUs: 1.5, MemoryMB: 2048, PIDs: DefaultPIDs, StorageMB: DefaultStorageMB, TimeoutSec: 600, AgentTimeoutSec: DefaultAgentTimeoutSec}
	if !reflect.DeepEqual(d, wantD) {
		t.Fatalf("defaults: got %+v\nwant %+v", d, wantD)
	}
	// Defaults copies: changing the copy leaves the recipe alone.
	d.Env["X"] = "1"
	d.Install[0] = "x"
	if _, ok := r.Env["X"]; ok || r.Install[0] != "go build ./..." {
		t.Fatal("Defaults shares maps or slices with the recipe")
	}
	if r.Defaults().Runs != 5 || (Recipe{}).Defaults().Runs != DefaultRuns || (Recipe{}).Defaults().Test.Select != SelectFiles {
		t.Fatal("runs/select defaults")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown field", "image: x\nimagee: y\n", `recipe r.yaml:2: unknown field "imagee"`},
		{"wrong type", "image: x\nruns: many\n", "recipe r.yaml:2: "},
		{"empty", "", "recipe r.yaml: image: missing: name the base image, e.g. golang:1.22-bookworm\n" +
			"test.command: missing: the command that runs the tests, with {tests} for the selection\n" +
			"test.format: missing: one of junit, go-json, cargo, pytest-ra"},
		{"no placeholder", "image: python:3.12\ntest: {command: pytest, format: junit}\n",
			`recipe r.yaml: test.command: "pytest" has no {tests} placeholder for the test selection`},
		{"bad format", "image: python:3.12\ntest: {command: 'pytest {tests}', format: tap}\n",
			`recipe r.yaml: test.format: unknown test-result format "tap" (known: junit, go-json, cargo, pytest-ra)`},
		{"bad image", "image: 'Bad Image'\ntest: {command: 'x {tests}', format: junit}\n",
			`recipe r.yaml: image: "Bad Image" is not a Docker image reference`},
		{"root user", "image: debian\nuser: root\ntest: {command: 'x {tests}', format: junit}\n",
			`recipe r.yaml: user: root is refused: the tests run unprivileged so that they cannot reach the verifier (docs/architecture.md, "Grading and its threat model"); install what needs root through packages`},
		{"bad reset globs", "image: debian\ntest: {command: 'x {tests}', format: junit, reset: ['/etc/passwd', '../x', 'a[', '', 'tox.ini[pytest]', 'Makefile']}\n",
			"recipe r.yaml: test.reset[0]: \"/etc/passwd\" must be relative to the repository\n" +
				"test.reset[1]: \"../x\" leaves the repository\n" +
				"test.reset[2]: \"a[\" is not a glob: syntax error in pattern\n" +
				"test.reset[3]: \"\" is empty or holds a NUL byte or a line break"},
		{"bad package and user", "image: debian\npackages: ['git; rm -rf /']\nuser: 'Root User'\ntest: {command: 'x {tests}', format: junit}\n",
			"recipe r.yaml: packages[0]: \"git; rm -rf /\" is not a Debian package name\nuser: \"Root User\" is not a user name"},
		{"results leaves", "image: debian\ntest: {command: 'x {tests}', format: junit, results: '../x.xml'}\n",
			`recipe r.yaml: test.results: "../x.xml" leaves /testbed`},
		{"results absolute", "image: debian\ntest: {command: 'x {tests}', format: junit, results: '/tmp/x.xml'}\n",
			`recipe r.yaml: test.results: "/tmp/x.xml" must be relative to /testbed`},
		{"results shell", "image: debian\ntest: {command: 'x {tests}', format: junit, results: 'a;b'}\n",
			`recipe r.yaml: test.results: "a;b" may hold only letters, digits and . _ - / * ? [ ]`},
		{"results not a report", "image: debian\ntest: {command: 'x {tests}', format: junit, results: 'src/*'}\n",
			`recipe r.yaml: test.results: "src/*" must end in a report extension (.xml, .json, .jsonl, .log, .txt, .out, .trx)`},
		{"select none without suite", "image: debian\ntest: {command: 'x {tests}', format: junit, select: none}\n",
			"recipe r.yaml: test.suite: empty while test.select is none: nothing would be run"},
		{"bad select", "image: debian\ntest: {command: 'x {tests}', format: junit, select: modules}\n",
			`recipe r.yaml: test.select: "modules" is not one of files, packages, none`},
		{"limits", "image: debian\ntest: {command: 'x {tests}', format: junit}\nruns: 50\nlimits: {cpus: -1, memory_mb: 10, pids: 5, timeout_sec: -3}\n",
			"recipe r.yaml: runs: 50 is outside 1..20 (0 means 3)\nlimits.cpus: -1 is outside 0..256\nlimits.memory_mb: 10 is outside 64..1048576\nlimits.pids: 5 is outside 32..4194304\nlimits.timeout_sec: -3 is outside 1..86400"},
		{"env", "image: debian\nenv: {'A B': x, OK: \"a\\nb\"}\ntest: {command: 'x {tests}', format: junit}\n",
			"recipe r.yaml: env: \"A B\" is not a variable name\nenv.OK: value contains a NUL byte or a line break"},
		{"empty install", "image: debian\ninstall: ['  ']\ntest: {command: 'x {tests}', format: junit}\n",
			"recipe r.yaml: install[0]: empty command"},
		{"host paths", "image: debian\ntest: {command: 'x {tests}', format: junit}\nfiles: [../secret, /etc/passwd, 'a/./b', 'a\\b', '']\nwheels: wheels/\nrequirements: ['x/../../y']\n",
			"recipe r.yaml: files[0]: \"../secret\" leaves the recipe's folder\n" +
				"files[1]: \"/etc/passwd\" must be relative to the recipe's folder\n" +
				"files[2]: \"a/./b\" is not a clean path (no ., // or trailing /)\n" +
				"files[3]: \"a\\\\b\" is empty or holds a NUL byte, a line break or a backslash\n" +
				"files[4]: \"\" is empty or holds a NUL byte, a line break or a backslash\n" +
				"wheels: \"wheels/\" is not a clean path (no ., // or trailing /)\n" +
				"requirements[0]: \"x/../../y\" leaves the recipe's folder"},
		{"requirements without wheels", "image: debian\ntest: {command: 'x {tests}', format: junit}\nrequirements: [req.txt]\n",
			"recipe r.yaml: requirements: needs wheels: the folder pip installs them from, offline"},
		{"go modules and imports", "image: debian\ntest: {command: 'x {tests}', format: junit}\ngo_modules: always\nimports: [packaging, 'os.path', '1x', 'a-b']\n",
			"recipe r.yaml: go_modules: \"always\" is not one of auto, off\n" +
				"imports[2]: \"1x\" is not a Python module name\n" +
				"imports[3]: \"a-b\" is not a Python module name"},
		{"bad go", "image: debian\ntest: {command: 'x {tests}', format: junit}\ngo: 1.2x\n",
			`recipe r.yaml: go: "1.2x" is not a Go version (1.22, 1.22.4, 1.21rc2), or system for the image's Go`},
		{"go list", "image: debian\ntest: {command: 'x {tests}', format: junit}\ngo: [1.22]\n",
			`recipe r.yaml: go: "[1.22]" is not a Go version (1.22, 1.22.4, 1.21rc2), or system for the image's Go`},
		{"omit", "image: debian\ntest: {command: 'x {tests}', format: junit}\nomit: [Misc/svnmap.txt, ../x, /etc/passwd, 'Lib/./x.py', '']\n",
			"recipe r.yaml: omit[1]: \"../x\" leaves the repository\n" +
				"omit[2]: \"/etc/passwd\" must be relative to the repository\n" +
				"omit[3]: \"Lib/./x.py\" is not a clean path (no ., // or trailing /)\n" +
				"omit[4]: \"\" is empty or holds a NUL byte, a line break or a backslash"},
		{"not a mapping", "- a\n- b\n", "recipe r.yaml"},
		{"garbage", "{{{{", "recipe r.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("r.yaml", []byte(tt.yaml))
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if tt.want == "recipe r.yaml" || strings.HasSuffix(tt.want, ": ") {
				if !strings.HasPrefix(err.Error(), tt.want) {
					t.Fatalf("got %q, want prefix %q", err, tt.want)
				}
				return
			}
			if err.Error() != tt.want {
				t.Fatalf("got\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

// TestParseGo: go: is read as written (an unquoted 1.20 stays 1.20, not
// the number 1.2), quoted or not, and survives a JSON round trip (the
// build record).
func TestParseGo(t *testing.T) {
	for in, want := range map[string]GoVersion{
		"go: 1.20\n": "1.20", "go: \"1.22.4\"\n": "1.22.4", "go: '1.17' # newest 1.17.x\n": "1.17",
		"go: system\n": GoSystem, "go: go1.21rc2\n": "go1.21rc2", "": "",
	} {
		r, err := Parse("r.yaml", []byte("image: debian\ntest: {command: 'x {tests}', format: junit}\n"+in))
		if err != nil || r.Go != want {
			t.Errorf("%q: go %q, %v; want %q", in, r.Go, err, want)
			continue
		}
		data, _ := json.Marshal(r)
		var back Recipe
		if err := json.Unmarshal(data, &back); err != nil || back.Go != want {
			t.Errorf("%q: JSON round trip %q, %v", in, back.Go, err)
		}
	}
}

// TestSampleRecipes checks that every sample project has a valid recipe.
func TestSampleRecipes(t *testing.T) {
	dirs, err := os.ReadDir("../../data/samples")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		n++
		if _, err := Load(filepath.Join("../../data/samples", d.Name(), "recipe.yaml")); err != nil {
			t.Errorf("sample %s: %v", d.Name(), err)
		}
	}
	if n == 0 {
		t.Fatal("no sample projects")
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(goRecipe))
	f.Add([]byte("image: [\n"))
	f.Add([]byte("test: {command: '{tests}', format: junit, results: '**/*.xml'}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("f.yaml", data)
		if err == nil && r.Validate() != nil {
			t.Fatal("Parse accepted an invalid recipe")
		}
	})
}
