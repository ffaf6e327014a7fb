package mutation_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// A RawMetadata-shaped class body that three sections change, as PEP 639
// changes pypa/packaging's (issue 25 §3): 7.2 rewords the docstring (the
// class-body row owns the lines outside every member), 7.2.1 adds
// license_expression with its comment and retypes dynamic, 7.2.2 adds
// license_files; 7.2.1 also adds a function.
const (
	membersBase = `class RawMetadata(TypedDict, total=False):
    """Raw core metadata."""

    name: str
    dynamic: list[str]


def parse(data):
    return RawMetadata(**data)
`
	membersPR = `class RawMetadata(TypedDict, total=False):
    """Raw core metadata, as of Metadata 2.4."""

    name: str
    dynamic: list[str] | None

    # Metadata 2.4 - PEP 639
    license_expression: str
    license_files: list[str]


def parse(data):
    return RawMetadata(**data)


def check_expression(value):
    return value.strip()
`
)

// membersTask builds the repository and the mapping's Direct rows: a
// member row per section's member, beside the class-body row.
func membersTask(t *testing.T) (*mutation.Solution, *mutation.Owners) {
	t.Helper()
	dir := t.TempDir()
	if err := testrepo.Build(dir, testrepo.Step{Files: map[string]string{"metadata.py": membersBase}, Tag: "base"},
		testrepo.Step{Files: map[string]string{"metadata.py": membersPR}, Tag: "head"}); err != nil {
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
	block := func(id string, rows ...[2]string) mapping.Block {
		b := mapping.Block{Section: id, Title: "Section " + id}
		for _, r := range rows {
			b.Direct.Rows = append(b.Direct.Rows, mapping.CodeRow{Path: "metadata.py", Class: r[0], Function: r[1]})
		}
		return b
	}
	m := &mapping.Mapping{Blocks: []mapping.Block{
		block("7.2", [2]string{"`RawMetadata`", "-"}),
		block("7.2.1", [2]string{"`RawMetadata`", "`license_expression`"}, [2]string{"`RawMetadata`", "`dynamic`"}, [2]string{"-", "`check_expression`"}),
		block("7.2.2", [2]string{"`RawMetadata`", "`license_files`"}),
	}}
	return sol, mutation.NewOwners(m, scopes)
}

// TestMemberRowReverts: each section's mapped-section revert removes
// exactly its own members (and puts back the member it changed), and the
// class-body row's section only the lines outside every member.
func TestMemberRowReverts(t *testing.T) {
	sol, o := membersTask(t)
	got := map[string]string{}
	for _, r := range mutation.Reverts(sol, o) {
		got[r.Section.ID] = string(r.Edit["metadata.py"])
	}
	want := map[string]string{
		"7.2": `class RawMetadata(TypedDict, total=False):
    """Raw core metadata."""

    name: str
    dynamic: list[str] | None

    # Metadata 2.4 - PEP 639
    license_expression: str
    license_files: list[str]


def parse(data):
    return RawMetadata(**data)


def check_expression(value):
    return value.strip()
`,
		"7.2.1": `class RawMetadata(TypedDict, total=False):
    """Raw core metadata, as of Metadata 2.4."""

    name: str
    dynamic: list[str]
    license_files: list[str]


def parse(data):
    return RawMetadata(**data)
`,
		"7.2.2": `class RawMetadata(TypedDict, total=False):
    """Raw core metadata, as of Metadata 2.4."""

    name: str
    dynamic: list[str] | None

    # Metadata 2.4 - PEP 639
    license_expression: str


def parse(data):
    return RawMetadata(**data)


def check_expression(value):
    return value.strip()
`,
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("revert of %s:\n%s\nwant:\n%s", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("reverts of %d sections, want %d", len(got), len(want))
	}
}

// TestMemberRowStubRevert: the stub revert of 7.2.1 keeps its function's
// signature, and still removes its members: the class body loses exactly
// license_expression (with its comment) and gets dynamic back.
func TestMemberRowStubRevert(t *testing.T) {
	sol, o := membersTask(t)
	sr, ok, err := mutation.StubReverts(context.Background(), sol, o, *o.Section("7.2.1"))
	if err != nil || !ok {
		t.Fatalf("stub revert: %v %v", ok, err)
	}
	want := `class RawMetadata(TypedDict, total=False):
    """Raw core metadata, as of Metadata 2.4."""

    name: str
    dynamic: list[str]
    license_files: list[str]


def parse(data):
    return RawMetadata(**data)


def check_expression(value):
    raise NotImplementedError("lolbench stub revert: section 7.2.1 is not implemented")
`
	if got := string(sr.Edit["metadata.py"]); got != want {
		t.Errorf("stub revert:\n%s\nwant:\n%s", got, want)
	}
	if w := []string{"metadata.py RawMetadata.dynamic", "metadata.py RawMetadata.license_expression"}; !reflect.DeepEqual(sr.Members, w) {
		t.Errorf("members %q, want %q", sr.Members, w)
	}
	cd := mutation.StubCandidate(sr, "revert-7.2.1", "")
	if want := "; the class-body members the mapping gives it alone are reverted (metadata.py RawMetadata.dynamic, metadata.py RawMetadata.license_expression)"; len(cd.Mutant.Mutated) < len(want) || cd.Mutant.Mutated[len(cd.Mutant.Mutated)-len(want):] != want {
		t.Errorf("record: %s", cd.Mutant.Mutated)
	}
}
