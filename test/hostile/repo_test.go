package hostile

import (
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
)

// gitRepo builds a repository of two commits, tagged base and head.
func gitRepo(t *testing.T, dir, base, head string) {
	t.Helper()
	if err := testrepo.Build(dir, testrepo.Step{Overlay: base, Tag: "base"}, testrepo.Step{Overlay: head, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
}
