package mutation_test

import (
	"context"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// python/cpython #102953's shape: extract() hands its error handling to a
// new _handle_fatal_error(), and git aligns the new function's `raise`,
// `else:` and last call with the old extract()'s, so they are unchanged
// lines of the diff inside a function that exists only after it. The
// revert of the section that owns the new function removes it whole: with
// its added lines only, the `else:` stayed behind and the file did not
// parse.
const (
	freshBase = `class TarFile:
    def extract(self, member):
        try:
            self.extract_member(member)
        except OSError as e:
            if self.errorlevel > 0:
                raise
            else:
                self._dbg(1, "tarfile: %s" % e)

    def close(self):
        pass
`
	freshPR = `class TarFile:
    def extract(self, member):
        try:
            self.extract_member(member)
        except OSError as e:
            self._handle_fatal_error(e)

    def _handle_fatal_error(self, e):
        """Handle a fatal error according to errorlevel."""
        if self.errorlevel > 0:
            raise
        elif isinstance(e, OSError):
            if e.filename is None:
                self._dbg(1, "tarfile: %s" % e.strerror)
            else:
                self._dbg(1, "tarfile: %s %r" % (e.strerror, e.filename))
        else:
            self._dbg(1, "tarfile: %s" % e)

    def close(self):
        pass
`
)

func TestRevertFreshFunctionWhole(t *testing.T) {
	dir := t.TempDir()
	if err := testrepo.Build(dir, testrepo.Step{Files: map[string]string{"tarfile.py": freshBase}, Tag: "base"},
		testrepo.Step{Files: map[string]string{"tarfile.py": freshPR}, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ch, err := repo.Diff(ctx, "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	scopes, err := syntax.Resolve(ctx, dir, ch, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := mutation.LoadSolution(ctx, repo, ch)
	if err != nil {
		t.Fatal(err)
	}
	m := &mapping.Mapping{Blocks: []mapping.Block{
		{Section: "4.2", Title: "Filters", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{{Path: "tarfile.py", Class: "TarFile", Function: "extract"}}}},
		{Section: "4.4", Title: "FilterError", Direct: mapping.Table[mapping.CodeRow]{Rows: []mapping.CodeRow{{Path: "tarfile.py", Class: "TarFile", Function: "_handle_fatal_error"}}}},
	}}
	// The blank line the PR added before the new function is no line of
	// it: it stays.
	got := map[string]string{}
	for _, r := range mutation.Reverts(sol, mutation.NewOwners(m, scopes)) {
		got[r.Section.ID] = string(r.Edit["tarfile.py"])
	}
	want44 := `class TarFile:
    def extract(self, member):
        try:
            self.extract_member(member)
        except OSError as e:
            self._handle_fatal_error(e)


    def close(self):
        pass
`
	if got["4.4"] != want44 {
		t.Errorf("revert of 4.4:\n%s\nwant:\n%s", got["4.4"], want44)
	}
}
