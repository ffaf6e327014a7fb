package mutation_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/mutation"
)

// TestRestrict: the tinykv reference restricted to section 3.1 (the
// ancestors of 3.3, protocol commands) reverts every other section at
// once: the server and the CLI go back to the base, the store keeps 3.1's
// TTL API and loses 3.4's snapshot support, and the patch applies. Kept
// whole, nothing is reverted.
func TestRestrict(t *testing.T) {
	tk := loadSample(t, "tinykv")
	o := mutation.NewOwners(tk.Mapping, tk.Scopes)
	r := mutation.Restrict(tk.Solution, o, []string{"3.1"})
	if want := []string{"clients/python/tinykv/client.py", "cmd/tinykv/main.go", "server/server.go", "snapshot/snapshot.go", "store/expiry.go", "store/store.go"}; !reflect.DeepEqual(r.Files, want) || r.Invalid != "" {
		t.Fatalf("files %q, invalid %q", r.Files, r.Invalid)
	}
	if r.Section.ID != mutation.Restricted || r.Section.Title != "sections 3.2, 3.3, 3.4, 3.5, 4, 5" {
		t.Errorf("section %+v", r.Section)
	}
	base, err := tk.Repo.ReadFile(tk.Base, "server/server.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Edit["server/server.go"]) != string(base) {
		t.Error("server/server.go is not the base version")
	}
	store := string(r.Edit["store/store.go"])
	if !strings.Contains(store, "func (s *Store) SetWithTTL(") || !strings.Contains(store, "func (s *Store) TTL(") {
		t.Errorf("3.1's API is gone from store/store.go:\n%s", store)
	}
	if _, err := mutation.Prepare(context.Background(), tk.Solution, []mutation.Candidate{{Mutant: &mutation.Mutant{ID: "restricted-3-3"}, Edit: r.Edit}}, ""); err != nil {
		t.Fatal(err)
	}
	if all := mutation.Restrict(tk.Solution, o, []string{"3.1", "3.2", "3.3", "3.4", "3.5", "4"}); all.Lines != 0 || len(all.Edit) != 0 {
		t.Errorf("keeping every section reverted %d lines in %q", all.Lines, all.Files)
	}
}
