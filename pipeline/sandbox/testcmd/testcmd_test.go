package testcmd

import (
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"./store", "./store"},
		{"tests/test_x.py", "tests/test_x.py"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"a\nb", "'a\nb'"},
		{"-k", "-k"},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSelection(t *testing.T) {
	goR := recipe.Recipe{Test: recipe.Test{Select: recipe.SelectPackages}}
	pyR := recipe.Recipe{Test: recipe.Test{Select: recipe.SelectFiles}}
	with := func(r recipe.Recipe, suite ...string) recipe.Recipe {
		r.Test.Suite = suite
		return r
	}
	tests := []struct {
		name  string
		r     recipe.Recipe
		files []string
		want  []string
	}{
		{"go all packages", with(goR, "./..."), []string{"store/store_test.go", "server/server_test.go"}, []string{"./..."}},
		{"go packages", with(goR), []string{"store/store_test.go", "store/expiry_test.go", "server/server_test.go", "main_test.go"}, []string{".", "./server", "./store"}},
		{"go subtree", with(goR, "./store/..."), []string{"store/x/a_test.go", "server/s_test.go"}, []string{"./store/...", "./server"}},
		{"go root package covers only itself", with(goR, "."), []string{"store/s_test.go", "a_test.go"}, []string{".", "./store"}},
		{"pytest dir", with(pyR, "tests"), []string{"tests/test_a.py", "other/test_b.py"}, []string{"tests", "other/test_b.py"}},
		{"pytest dot covers all", with(pyR, "."), []string{"tests/test_a.py"}, []string{"."}},
		{"pytest no suite", with(pyR), []string{"tests/test_b.py", "tests/test_a.py", "tests/test_a.py"}, []string{"tests/test_a.py", "tests/test_b.py"}},
		{"option-like file", with(pyR), []string{"-x_test.py"}, []string{"./-x_test.py"}},
		{"none", recipe.Recipe{Test: recipe.Test{Select: recipe.SelectNone, Suite: []string{"all"}}}, []string{"t/test_a.py"}, []string{"all"}},
		{"prefix is not a folder", with(pyR, "tests"), []string{"tests2/test_a.py"}, []string{"tests", "tests2/test_a.py"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Selection(tt.r, tt.files); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTestCommand(t *testing.T) {
	r := recipe.Recipe{Test: recipe.Test{Command: "pytest -q {tests} && echo {tests}"}}
	got := TestCommand(r, []string{"tests", "a b.py", "it's.py"})
	want := `pytest -q tests 'a b.py' 'it'\''s.py' && echo tests 'a b.py' 'it'\''s.py'`
	if got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}
