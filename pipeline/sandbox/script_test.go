package sandbox

import (
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

func TestSideScriptShape(t *testing.T) {
	r := recipe.Recipe{Runs: 2, Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}, Limits: recipe.Limits{TimeoutSec: 60}}
	s := SideScript(r, []string{"./..."})
	for _, want := range []string{
		`git apply --whitespace=nowarn "$LOLBENCH_DIR/test.patch"`,
		`git apply --whitespace=nowarn "$LOLBENCH_DIR/solution.patch"`,
		"while [ $i -le 2 ]; do",
		"timeout -k 10 60 sh -c 'go test -json ./...'",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("side script lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "rm -f") {
		t.Errorf("a recipe without a results glob removes files:\n%s", s)
	}
}
