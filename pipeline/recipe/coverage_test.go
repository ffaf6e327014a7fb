package recipe

import (
	"encoding/json"
	"strings"
	"testing"
)

// The build and coverage fields of issue 7: optional, so every older
// recipe parses unchanged; a JaCoCo command needs its placeholder and report.
func TestCoverageFields(t *testing.T) {
	base := "image: lolbench/offline-base\ntest:\n  command: mvn test {tests}\n  format: junit\n"
	cases := []struct {
		name, extra string
		want        Coverage
		build       string
		err         string
	}{
		{name: "none"},
		{name: "jacoco", extra: "build: mvn -q compile\ncoverage:\n  adapter: jacoco\n  command: mvn -q test jacoco:report -Dtest={tests}\n  report: target/site/jacoco/jacoco.xml\n",
			want: Coverage{Adapter: CoverageJaCoCo, Command: "mvn -q test jacoco:report -Dtest={tests}", Report: "target/site/jacoco/jacoco.xml"}, build: "mvn -q compile"},
		{name: "go", extra: "coverage:\n  adapter: go\n", want: Coverage{Adapter: CoverageGo}},
		{name: "unknown adapter", extra: "coverage:\n  adapter: lcov\n", err: `coverage.adapter: "lcov" is not one of go, python, jacoco, llvm-cov, gcov, v8, regrtest`},
		// Without a command, jacoco measures per test through the test command.
		{name: "jacoco per test", extra: "coverage:\n  adapter: jacoco\n", want: Coverage{Adapter: CoverageJaCoCo}},
		{name: "jacoco command without placeholder", extra: "coverage:\n  adapter: jacoco\n  command: mvn test\n  report: r.xml\n", err: "coverage.command: has no {tests} placeholder"},
		{name: "jacoco without report", extra: "coverage:\n  adapter: jacoco\n  command: x {tests}\n", err: "coverage.report: missing"},
		{name: "report leaves", extra: "coverage:\n  report: ../x.xml\n", err: `coverage.report: "../x.xml" leaves /testbed`},
		{name: "report glob", extra: "coverage:\n  report: a/*.xml\n", err: `coverage.report: "a/*.xml" may hold only`},
		{name: "report not xml", extra: "coverage:\n  report: a.json\n", err: `coverage.report: "a.json" must be an .xml file`},
		{name: "unknown field", extra: "coverage:\n  adaptor: go\n", err: "adaptor"},
	}
	for _, c := range cases {
		r, err := Parse("recipe.yaml", []byte(base+c.extra))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if r.Coverage != c.want || r.Build != c.build {
			t.Errorf("%s: coverage %+v build %q, want %+v %q", c.name, r.Coverage, r.Build, c.want, c.build)
		}
	}
	// A recipe without the fields keeps its JSON form (build.json).
	r, err := Parse("recipe.yaml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), "coverage") || strings.Contains(string(b), "build") {
		t.Errorf("JSON of a recipe without coverage: %s", b)
	}
}
