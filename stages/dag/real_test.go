package dag

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// TestPEP639Packaging is the graph of the real pair PEP 639 ×
// pypa/packaging #828 (docs/real-projects.md), checked by hand: section
// 8.2.1 (the License-Expression field) validates through
// canonicalize_license_expression, which 8.1 (SPDX license expression
// syntax) adds; 8.2 (Core Metadata 2.4) and 8.2.2 (License-File) share no
// definition with the others. packaging's code is not part of lolbench:
// set LOLBENCH_REAL_PACKAGING to a clone of pypa/packaging holding both
// commits (make real does the same with its CLONES).
func TestPEP639Packaging(t *testing.T) {
	clone := os.Getenv("LOLBENCH_REAL_PACKAGING")
	if clone == "" {
		t.Skip("LOLBENCH_REAL_PACKAGING is not set: the path of a pypa/packaging clone (docs/real-projects.md)")
	}
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws.Root, "repos"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(clone, filepath.Join(ws.Root, "repos", "packaging")); err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.OpenCandidate(ws, "packaging-pep-0639")
	if err != nil {
		t.Fatal(err)
	}
	mp, err := os.ReadFile(filepath.Join("..", "..", "data", "real", "curated", "packaging-pep-0639.md"))
	if err != nil {
		t.Fatal(err)
	}
	info := pipeline.Info{ID: c.ID, Project: "packaging", Repo: "pypa/packaging", Language: "Python", RepoDir: "repos/packaging",
		EP: pipeline.EPInfo{ID: "PEP 639", File: "ep.rst"},
		PR: pipeline.PRInfo{Number: 828, BaseSHA: "6c338a8425803476769151953cc5de5548e2befa", HeadSHA: "029f41580098bcf52b69684843bdc7ea37959a7e"}}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, pipeline.InfoFile), info); err != nil {
		t.Fatal(err)
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), mp, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Compute(context.Background(), &pipeline.Env{Workspace: ws}, c)
	if err != nil {
		t.Fatal(err)
	}
	want := []sectiondag.Edge{{From: "8.1", To: "8.2.1", Evidence: []sectiondag.Evidence{{Kind: sectiondag.ProducerConsumer,
		Detail: "8.2.1 uses canonicalize_license_expression (src/packaging/metadata.py:652), which 8.1 defines in src/packaging/licenses/__init__.py:canonicalize_license_expression"}}}}
	if !reflect.DeepEqual(r.Edges, want) || len(r.Dropped) != 0 || !reflect.DeepEqual(r.Layers, [][]string{{"8.1", "8.2", "8.2.2"}, {"8.2.1"}}) {
		t.Errorf("edges %+v\ndropped %+v\nlayers %q", r.Edges, r.Dropped, r.Layers)
	}
}
