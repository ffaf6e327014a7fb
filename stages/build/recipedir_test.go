package build

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

// TestRecipeDir: the copy of a project's recipe that collect writes into a
// candidate's folder locates its host files in the registry's folder, and
// the host files' hash is an input; a curator's own recipe.yaml keeps its
// folder (docs/projects.md, "Dependencies from the host").
func TestRecipeDir(t *testing.T) {
	env := newEnv(t)
	c, err := pipeline.OpenCandidate(env.Workspace, "p-ep-1")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	regDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(regDir, "conftest.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const src = "image: debian\ntest: {command: 'pytest {tests}', format: junit, results: r.xml}\nfiles: [conftest.py]\n"
	reg, err := recipe.Parse("projects.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	reg.Dir = regDir
	st := &Stage{Recipe: func(*pipeline.Info) (*recipe.Recipe, error) { r := *reg; return &r, nil }}
	info := &pipeline.Info{Project: "p"}

	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(c.Dir, RecipeFile), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(src)
	r, err := st.recipeFor(c, info)
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir != regDir {
		t.Fatalf("the registry's copy: Dir = %q, want the registry's folder %q", r.Dir, regDir)
	}
	if _, err := r.HostFiles(); err != nil {
		t.Fatal(err)
	}

	// A curator's own recipe: its files lie beside it.
	write(src + "runs: 1\n")
	if r, err = st.recipeFor(c, info); err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.Abs(c.Dir); r.Dir != want {
		t.Fatalf("a curator's recipe: Dir = %q, want the candidate's folder %q", r.Dir, want)
	}

	// A changed host file changes the inputs.
	write(src)
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.InfoFile), []byte(`{"id":"p-ep-1","project":"p"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	in1, err := st.Inputs(env, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(regDir, "conftest.py"), []byte("x = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in2, err := st.Inputs(env, c)
	if err != nil {
		t.Fatal(err)
	}
	if len(in1.Params) != len(in2.Params) || in1.Params[len(in1.Params)-1] == in2.Params[len(in2.Params)-1] {
		t.Fatalf("a changed host file left the inputs alone: %q", in2.Params)
	}
}
