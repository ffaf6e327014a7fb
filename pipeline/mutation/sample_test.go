package mutation_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/sampletask"
	"github.com/lolbench/lolbench/pipeline/mutation"
)

func loadSample(t *testing.T, name string) *sampletask.Task {
	t.Helper()
	tk, err := sampletask.Load(context.Background(), filepath.Join("..", ".."), t.TempDir(), name)
	if err != nil {
		t.Fatal(err)
	}
	if tk.Mapping == nil {
		t.Fatalf("sample %s has no mapping.md", name)
	}
	return tk
}

// row is one operator mutant: id, section, file:[lines], mutated
// behaviour.
type row struct{ id, section, where, mutated string }

// The deterministic mutants of the Go sample (tinykv, TKEP-2), operator by
// operator: every site on an added line of the reference solution, the
// section that owns it (mapping.md), the reference lines it changes.
var tinykvOperators = []row{
	{"op-negate-condition-001", "3.5", "clients/python/tinykv/client.py:[27]", "it takes the branch when `not (ttl is None)` holds instead"},
	{"op-negate-condition-002", "3.5", "clients/python/tinykv/client.py:[31]", "it takes the branch when `not (reply != \"OK\")` holds instead"},
	{"op-negate-condition-003", "3.5", "clients/python/tinykv/client.py:[38]", "it takes the branch when `not (seconds < 0)` holds instead"},
	{"op-negate-condition-004", "3.3", "server/server.go:[37]", "it takes the branch when `!(len(cmd.Args) != 1)` holds instead"},
	{"op-negate-condition-005", "3.3", "server/server.go:[66]", "it takes the branch when `!(len(cmd.Args) != 3)` holds instead"},
	{"op-negate-condition-006", "3.3", "server/server.go:[70]", "it takes the branch when `!(err != nil || secs <= 0)` holds instead"},
	{"op-negate-condition-007", "3.3", "server/server.go:[73]", "it takes the branch when `!(err != nil)` holds instead"},
	{"op-negate-condition-008", "3.3", "server/server.go:[81]", "it takes the branch when `!(d == store.NoExpiry || d == store.Missing)` holds instead"},
	{"op-negate-condition-009", "3.4", "snapshot/snapshot.go:[31]", "it takes the branch when `it.ExpiresAt.IsZero()` holds instead"},
	{"op-negate-condition-010", "3.4", "snapshot/snapshot.go:[51]", "it takes the branch when `!(e.ExpiresAt != 0)` holds instead"},
	{"op-negate-condition-011", "3.2", "store/expiry.go:[12]", "it takes the branch when `!v.expired(now)` holds instead"},
	{"op-negate-condition-012", "3.1", "store/store.go:[56]", "it takes the branch when `!(ttl <= 0)` holds instead"},
	{"op-negate-condition-013", "3.1", "store/store.go:[85]", "it takes the branch when `!(!ok || v.expired(s.now()))` holds instead"},
	{"op-negate-condition-014", "3.1", "store/store.go:[107]", "it takes the branch when `v.expired(now)` holds instead"},
	{"op-negate-condition-015", "3.4", "store/store.go:[145]", "it takes the branch when `v.expired(now)` holds instead"},
	{"op-flip-comparison-001", "3.5", "clients/python/tinykv/client.py:[31]", "compares `reply == \"OK\"`"},
	{"op-flip-comparison-002", "3.5", "clients/python/tinykv/client.py:[38]", "compares `seconds <= 0`"},
	{"op-flip-comparison-003", "3.3", "server/server.go:[37]", "compares `len(cmd.Args) == 1`"},
	{"op-flip-comparison-004", "3.3", "server/server.go:[66]", "compares `len(cmd.Args) == 3`"},
	{"op-flip-comparison-005", "3.3", "server/server.go:[70]", "compares `err == nil`"},
	{"op-flip-comparison-006", "3.3", "server/server.go:[70]", "compares `secs < 0`"},
	{"op-flip-comparison-007", "3.3", "server/server.go:[73]", "compares `err == nil`"},
	{"op-flip-comparison-008", "3.3", "server/server.go:[81]", "compares `d != store.NoExpiry`"},
	{"op-flip-comparison-009", "3.3", "server/server.go:[81]", "compares `d != store.Missing`"},
	{"op-flip-comparison-010", "3.4", "snapshot/snapshot.go:[51]", "compares `e.ExpiresAt == 0`"},
	{"op-flip-comparison-011", "3.1", "store/store.go:[56]", "compares `ttl < 0`"},
	{"op-int-constant-001", "3.5", "clients/python/tinykv/client.py:[38]", "uses `1` instead"},
	{"op-int-constant-002", "3.3", "server/server.go:[37]", "uses `2` instead"},
	{"op-int-constant-003", "3.3", "server/server.go:[37]", "uses `0` instead"},
	{"op-int-constant-004", "3.3", "server/server.go:[40]", "uses `1` instead"},
	{"op-int-constant-005", "3.3", "server/server.go:[65]", "uses `5` instead"},
	{"op-int-constant-006", "3.3", "server/server.go:[65]", "uses `3` instead"},
	{"op-int-constant-007", "3.3", "server/server.go:[66]", "uses `4` instead"},
	{"op-int-constant-008", "3.3", "server/server.go:[66]", "uses `2` instead"},
	{"op-int-constant-009", "3.3", "server/server.go:[69]", "uses `2` instead"},
	{"op-int-constant-010", "3.3", "server/server.go:[69]", "uses `0` instead"},
	{"op-int-constant-011", "3.3", "server/server.go:[70]", "uses `1` instead"},
	{"op-int-constant-012", "3.3", "server/server.go:[73]", "uses `1` instead"},
	{"op-int-constant-013", "3.3", "server/server.go:[73]", "uses `3` instead"},
	{"op-int-constant-014", "3.3", "server/server.go:[73]", "uses `1` instead"},
	{"op-int-constant-015", "3.3", "server/server.go:[84]", "uses `2` instead"},
	{"op-int-constant-016", "3.3", "server/server.go:[84]", "uses `0` instead"},
	{"op-int-constant-017", "3.4", "snapshot/snapshot.go:[28]", "uses `3` instead"},
	{"op-int-constant-018", "3.4", "snapshot/snapshot.go:[28]", "uses `1` instead"},
	{"op-int-constant-019", "3.4", "snapshot/snapshot.go:[51]", "uses `1` instead"},
	{"op-int-constant-020", "3.4", "snapshot/snapshot.go:[52]", "uses `1` instead"},
	{"op-int-constant-021", "3.2", "store/expiry.go:[10]", "uses `1` instead"},
	{"op-int-constant-022", "3.1", "store/store.go:[16]", "uses `2` instead"},
	{"op-int-constant-023", "3.1", "store/store.go:[16]", "uses `0` instead"},
	{"op-int-constant-024", "3.1", "store/store.go:[17]", "uses `3` instead"},
	{"op-int-constant-025", "3.1", "store/store.go:[17]", "uses `1` instead"},
	{"op-int-constant-026", "3.1", "store/store.go:[56]", "uses `1` instead"},
	{"op-return-zero-001", "3.5", "clients/python/tinykv/client.py:[40]", "returns the zero value `None`"},
	{"op-return-zero-002", "3.3", "server/server.go:[35]", "returns the zero value `\"\"`"},
	{"op-return-zero-003", "3.3", "server/server.go:[38]", "returns the zero value `\"\"`"},
	{"op-return-zero-004", "3.3", "server/server.go:[40]", "returns the zero value `\"\"`"},
	{"op-return-zero-005", "3.3", "server/server.go:[67]", "returns the zero value `\"\"`"},
	{"op-return-zero-006", "3.3", "server/server.go:[71]", "returns the zero value `\"\"`"},
	{"op-return-zero-007", "3.3", "server/server.go:[74]", "returns the zero value `\"\"`"},
	{"op-return-zero-008", "3.3", "server/server.go:[76]", "returns the zero value `\"\"`"},
	{"op-return-zero-009", "3.3", "server/server.go:[82]", "returns the zero value `\"\"`"},
	{"op-return-zero-010", "3.3", "server/server.go:[85]", "returns the zero value `\"\"`"},
	{"op-return-zero-011", "3.2", "store/expiry.go:[17]", "returns the zero value `0`"},
	{"op-return-zero-012", "3.2", "store/expiry.go:[36]", "returns the zero value `nil`"},
	{"op-return-zero-013", "3.1", "store/store.go:[26]", "returns the zero value `false`"},
	{"op-return-zero-014", "3.1", "store/store.go:[38]", "returns the zero value `nil`"},
	{"op-return-zero-015", "3.1", "store/store.go:[44]", "returns the zero value `nil`"},
	{"op-return-zero-016", "3.1", "store/store.go:[57]", "returns the zero value `nil`"},
	{"op-return-zero-017", "3.1", "store/store.go:[73]", "returns the zero value `*new(time.Duration)`"},
	{"op-return-zero-018", "3.1", "store/store.go:[75]", "returns the zero value `*new(time.Duration)`"},
	{"op-return-zero-019", "3.1", "store/store.go:[77]", "returns the zero value `*new(time.Duration)`"},
	{"op-return-zero-020", "3.1", "store/store.go:[88]", "returns the zero value `\"\", false`"},
	{"op-return-zero-021", "3.1", "store/store.go:[97]", "returns the zero value `false`"},
	{"op-delete-call-001", "3.2", "store/expiry.go:[7]", "does not make the call"},
	{"op-delete-call-002", "3.2", "store/expiry.go:[13]", "does not make the call"},
	{"op-delete-call-003", "3.2", "store/expiry.go:[30]", "does not make the call"},
	{"op-delete-call-004", "3.2", "store/expiry.go:[36]", "does not make the call"},
	{"op-delete-call-005", "3.1", "store/store.go:[49]", "does not make the call"},
	{"op-delete-call-006", "3.1", "store/store.go:[59]", "does not make the call"},
	{"op-swap-if-else-001", "3.5", "clients/python/tinykv/client.py:[28 29 30]", "runs `reply = self._command(\"SETEX\", key, int(ttl), value)` when it holds and `reply = self._command(\"SET\", key, value)` otherwise"},
}

func TestSampleOperators(t *testing.T) {
	ctx := context.Background()
	tk := loadSample(t, "tinykv")
	o := mutation.NewOwners(tk.Mapping, tk.Scopes)
	cands, notes, err := mutation.OperatorCandidates(ctx, tk.Solution, o, mutation.Registry)
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	if _, err := mutation.Prepare(ctx, tk.Solution, cands, ""); err != nil {
		t.Fatal(err)
	}
	var got []row
	for _, c := range cands {
		m := c.Mutant
		if len(m.Files) != 1 || m.Status != mutation.Pending || m.Method != mutation.SyntaxOperator {
			t.Errorf("%s: files %v status %s method %s", m.ID, m.Files, m.Status, m.Method)
			continue
		}
		got = append(got, row{m.ID, m.Section, fmt.Sprintf("%s:%v", m.Files[0], m.Lines[m.Files[0]]), m.Mutated})
	}
	for i := 0; i < max(len(got), len(tinykvOperators)); i++ {
		switch {
		case i >= len(got):
			t.Errorf("missing %v", tinykvOperators[i])
		case i >= len(tinykvOperators):
			t.Errorf("unexpected %v", got[i])
		case got[i] != tinykvOperators[i]:
			t.Errorf("mutant %d:\n got %v\nwant %v", i+1, got[i], tinykvOperators[i])
		}
	}

	// The Python sample: the count per operator and per section.
	tk = loadSample(t, "unitconv")
	o = mutation.NewOwners(tk.Mapping, tk.Scopes)
	cands, notes, err = mutation.OperatorCandidates(ctx, tk.Solution, o, mutation.Registry)
	if err != nil || len(notes) > 0 {
		t.Fatal(err, notes)
	}
	perOp, perSection := map[string]int{}, map[string]int{}
	for _, c := range cands {
		perOp[c.Mutant.Operator]++
		perSection[c.Mutant.Section]++
	}
	wantOp := map[string]int{"negate-condition": 17, "flip-comparison": 12, "int-constant": 54, "return-zero": 13, "delete-call": 13, "swap-if-else": 2}
	// Module-level lines of units.py (the unit table) belong to no one
	// section: several blocks list the file at file level.
	wantSection := map[string]int{"": 35, "3.1": 33, "3.2": 31, "3.3": 6, "3.4": 3, "3.5": 3}
	if !reflect.DeepEqual(perOp, wantOp) || !reflect.DeepEqual(perSection, wantSection) {
		t.Errorf("unitconv: per operator %v, per section %v", perOp, perSection)
	}
}

// Every revert of the Go sample, and what it leaves: a section that owns a
// whole file's changes gives the file back as it was at the base commit,
// but for what the code left after it uses (gorevert.go). Every patch
// applies at the base commit and gives exactly the mutant's files, and
// compiles with the tests but where a field's type changed.
func TestSampleReverts(t *testing.T) {
	ctx := context.Background()
	tk := loadSample(t, "tinykv")
	o := mutation.NewOwners(tk.Mapping, tk.Scopes)
	cands := mutation.RevertCandidates(tk.Solution, o)
	patches, err := mutation.Prepare(ctx, tk.Solution, cands, "")
	if err != nil {
		t.Fatal(err)
	}
	type rev struct {
		id, section string
		files       []string
	}
	var got []rev
	for _, c := range cands {
		got = append(got, rev{c.Mutant.ID, c.Mutant.Section, c.Mutant.Files})
	}
	want := []rev{
		{"revert-3.1", "3.1", []string{"store/store.go"}},
		{"revert-3.2", "3.2", []string{"cmd/tinykv/main.go", "store/expiry.go"}},
		{"revert-3.3", "3.3", []string{"server/server.go"}},
		{"revert-3.4", "3.4", []string{"snapshot/snapshot.go", "store/store.go"}},
		{"revert-3.5", "3.5", []string{"clients/python/tinykv/client.py"}},
		{"revert-4", "4", []string{"snapshot/snapshot.go"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("reverts:\n got %v\nwant %v", got, want)
	}
	base := func(p string) string {
		b, err := tk.Repo.ReadFile(tk.Base, p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	byID := map[string]mutation.Candidate{}
	var statuses []string
	for _, c := range cands {
		byID[c.Mutant.ID] = c
		statuses = append(statuses, fmt.Sprintf("%s %s %s %s", c.Mutant.ID, c.Mutant.Status, c.Mutant.Drop, c.Mutant.Reason))
	}
	// Section 4 owns snapshot.go's file-level lines: comments, and the
	// "time" import 3.4's code uses, which the revert keeps. What is left
	// changes only comments: equivalent, dropped before any run.
	if want := []string{"revert-3.1 pending  ", "revert-3.2 pending  ", "revert-3.3 pending  ", "revert-3.4 pending  ", "revert-3.5 pending  ",
		"revert-4 dropped duplicate the revert changes only comments: every line of code section 4 owns is still used, so it is equivalent to the reference solution"}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("statuses:\n got %q\nwant %q", statuses, want)
	}
	for id, files := range map[string][]string{"revert-3.2": {"cmd/tinykv/main.go"}, "revert-3.3": {"server/server.go"}, "revert-3.5": {"clients/python/tinykv/client.py"}} {
		for _, f := range files {
			if got := string(byID[id].Edit[f]); got != base(f) {
				t.Errorf("%s: %s is not the base version:\n%s", id, f, got)
			}
		}
	}
	// The store's tests call Sweep and StartSweeper: 3.2's revert keeps
	// them as stubs, or the tests of the whole package would not compile.
	wantExpiry := `package store

import (
	"runtime"
	"time"
)

// Sweep removes every expired key once and returns how many it removed.
func (s *Store) Sweep() int {
	// lolbench stub revert: section 3.2 is not implemented
	lolbenchStubExit_expiry_go()
	return 0
}

// StartSweeper removes expired keys every interval until the returned
// function is called.
func (s *Store) StartSweeper(interval time.Duration) (stop func()) {
	// lolbench stub revert: section 3.2 is not implemented
	lolbenchStubExit_expiry_go()
	return func() {}
}
` + wrrExit("expiry.go")
	if e := string(byID["revert-3.2"].Edit["store/expiry.go"]); e != wantExpiry {
		t.Errorf("revert-3.2: store/expiry.go:\n%s\nwant:\n%s", e, wantExpiry)
	}
	if m := byID["revert-3.2"].Mutant; m.Variant != "stubs" || !strings.HasSuffix(m.Mutated, "(stubbed Store.Sweep (store/expiry.go): used by the tests; stubbed Store.StartSweeper (store/expiry.go): used by the tests)") {
		t.Errorf("revert-3.2: variant %q, mutated %q", m.Variant, m.Mutated)
	}
	if r := byID["revert-3.3"].Mutant; r.Requirement != "Add the SETEX and TTL commands with their replies, rejecting a non-numeric or non-positive TTL with ERR invalid ttl." ||
		!strings.HasPrefix(r.Mutated, "the 34 changed line(s) section 3.3 owns in server/server.go are reverted") || r.Scenario == "" || r.Rationale == "" {
		t.Errorf("revert-3.3 record %+v", r)
	}

	// Apply each patch at the base commit in a work tree of the sample.
	for i, c := range cands {
		wt := filepath.Join(t.TempDir(), "wt")
		if out, err := exec.Command("git", "-C", tk.Dir, "worktree", "add", "-q", "--detach", wt, tk.Base).CombinedOutput(); err != nil {
			t.Fatalf("worktree: %v %s", err, out)
		}
		pf := filepath.Join(t.TempDir(), "m.patch")
		os.WriteFile(pf, patches[i], 0o644)
		if out, err := exec.Command("git", "-C", wt, "apply", pf).CombinedOutput(); err != nil {
			t.Fatalf("%s does not apply: %v %s", c.Mutant.ID, err, out)
		}
		// Every Go revert compiles, tests included, but 3.1's and 3.4's:
		// each changes the type of a struct field that code the revert
		// keeps was written for, which only type checking could see.
		tp := filepath.Join(t.TempDir(), "test.patch")
		os.WriteFile(tp, tk.TestPatch, 0o644)
		if out, err := exec.Command("git", "-C", wt, "apply", tp).CombinedOutput(); err != nil {
			t.Fatalf("test patch: %v %s", err, out)
		}
		vet, err := goRun(t, wt, "vet", "./...")
		wantVet := map[string]string{
			"revert-3.1": "vet: store/expiry.go:12:8: v.expired undefined (type string has no field or method expired)",
			"revert-3.4": "vet: store/store.go:141:11: cannot use make(map[string]string, len(items)) (value of type map[string]string) as map[string]value value in assignment",
		}[c.Mutant.ID]
		if got := lastLine(vet); (err != nil) != (wantVet != "") || err != nil && got != wantVet {
			t.Errorf("%s: go vet: %v %q, want %q\n%s", c.Mutant.ID, err, got, wantVet, vet)
		}
		if c.Mutant.ID == "revert-3.2" {
			// The binary lives on: only the tests that call the stubs
			// fail.
			store := goTestStatuses(t, wt)
			var failed []string
			for _, l := range store {
				if strings.HasPrefix(l, "example.com/tinykv/store.") && !strings.HasSuffix(l, " passed") {
					failed = append(failed, l)
				}
			}
			if want := []string{"example.com/tinykv/store.TestStartSweeperStops failed", "example.com/tinykv/store.TestSweepRemovesExpired failed"}; !reflect.DeepEqual(failed, want) {
				t.Errorf("revert-3.2: the store's tests:\n%q\nwant failed only %q", store, want)
			}
		}
		for _, f := range tk.Solution.Files {
			want, edited := c.Edit[f.Path]
			if !edited {
				want = f.After
			}
			got, err := os.ReadFile(filepath.Join(wt, f.Path))
			if want == nil {
				if err == nil {
					t.Errorf("%s: %s should be gone", c.Mutant.ID, f.Path)
				}
				continue
			}
			if string(got) != string(want) {
				t.Errorf("%s: %s after the patch differs from the mutant", c.Mutant.ID, f.Path)
			}
		}
		exec.Command("git", "-C", tk.Dir, "worktree", "remove", "--force", wt).Run()
	}
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// A mutant equal to the reference, and one repeating another, are dropped
// as duplicates.
func TestPrepareDuplicates(t *testing.T) {
	ctx := context.Background()
	tk := loadSample(t, "tinykv")
	f := tk.Solution.File("server/server.go")
	changed := []byte(strings.Replace(string(f.After), "ERR invalid ttl", "ERR bad ttl", 1))
	cands := []mutation.Candidate{
		{Mutant: &mutation.Mutant{ID: "a", Status: mutation.Pending}, Edit: mutation.Edit{"server/server.go": f.After}},
		{Mutant: &mutation.Mutant{ID: "b", Status: mutation.Pending}, Edit: mutation.Edit{"server/server.go": changed}},
		{Mutant: &mutation.Mutant{ID: "c", Status: mutation.Pending}, Edit: mutation.Edit{"server/server.go": changed}},
	}
	if _, err := mutation.Prepare(ctx, tk.Solution, cands, ""); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cands {
		got = append(got, fmt.Sprintf("%s %s %s %s %v", c.Mutant.ID, c.Mutant.Status, c.Mutant.Drop, c.Mutant.Reason, c.Mutant.Lines))
	}
	want := []string{
		"a dropped duplicate the mutant is identical to the reference solution map[]",
		"b pending   map[server/server.go:[71]]",
		"c dropped duplicate the mutant's patch is identical to mutant b map[server/server.go:[71]]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := mutation.Prepare(ctx, tk.Solution, []mutation.Candidate{{Mutant: &mutation.Mutant{ID: "x"}, Edit: mutation.Edit{"server/server_test.go": []byte("x")}}}, ""); err == nil ||
		err.Error() != "mutant 1 edits server/server_test.go, which is not a mutable file of the reference solution" {
		t.Errorf("editing a test file: %v", err)
	}
}
