package collect

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A PR GitHub no longer has (404) drops its pair with the reason; the
// other pairs of the project are collected as before.
func TestCollectPRNotFound(t *testing.T) {
	fx := newFixture(t)
	fx.gh.gone = map[int]bool{2: true}
	st := fx.stage(t, false)
	if err := runStage(context.Background(), t, st, filepath.Join(fx.dir, "work")); err != nil {
		t.Fatal(err)
	}
	got := st.Funnel.Projects[0]
	want := wantFunnel(t, fx)
	want.Candidates, want.Kept = 0, nil
	want.Steps[4].Dropped++ // ep-predates-pr
	want.Steps[4].Kept--
	for _, s := range want.Steps[5:9] {
		s.Considered--
		s.Kept--
	}
	want.Steps[9].Considered, want.Steps[9].Kept = 0, 0
	gone := Drop{EP: "WEP 2", PR: 2, Path: "proposals/wep-0002.md", Step: CritPredates,
		Reason: "github pull request acme/widget#2: not found on GitHub (404)"}
	want.Dropped = append(want.Dropped[:4:4], append([]Drop{gone}, want.Dropped[4:]...)...)
	// The link WEP 2 declares is a 404 too: not a PR, so no evidence.
	want.Paired[1].Evidence = want.Paired[1].Evidence[1:]
	if !reflect.DeepEqual(got, want) {
		t.Errorf("funnel:\n got %s\nwant %s", mustJSON(got), mustJSON(want))
	}
}

// A search GitHub answers with incomplete_results is used but not
// recorded: the funnel lists it, and the next run asks again and records
// the complete answer.
func TestCollectIncompleteSearch(t *testing.T) {
	fx := newFixture(t)
	fx.gh.incomplete = map[string]int{"WEP 12": 1}
	wsDir := filepath.Join(fx.dir, "work")
	st := fx.stage(t, false)
	if err := runStage(context.Background(), t, st, wsDir); err != nil {
		t.Fatal(err)
	}
	q := `repo:acme/widget is:pr in:title,body "WEP 12"`
	p := st.Funnel.Projects[0]
	if !reflect.DeepEqual(p.Incomplete, []string{q}) {
		t.Fatalf("incomplete searches %q", p.Incomplete)
	}
	for _, d := range p.Dropped {
		if d.EP == "WEP 12" && d.Reason != "no merged PR of acme/widget references WEP 12 (0 PRs found, 0 merged); GitHub's search results were incomplete, so the search runs again next time; none of its 1 declared link to acme/widget is a merged PR" {
			t.Errorf("WEP 12 dropped because %q", d.Reason)
		}
	}
	var table strings.Builder
	st.Funnel.WriteTable(&table)
	if !strings.HasSuffix(table.String(), "  1 GitHub search was incomplete; it runs again on the next run\n") {
		t.Errorf("table:\n%s", table.String())
	}

	searches := func() int {
		n := 0
		for uri, c := range fx.gh.served {
			if strings.Contains(uri, "/search/issues") && strings.Contains(uri, "%22WEP+12%22") {
				n += c
			}
		}
		return n
	}
	if n := searches(); n != 1 {
		t.Fatalf("WEP 12 searched %d times", n)
	}
	st2 := fx.stage(t, false)
	if err := runStage(context.Background(), t, st2, wsDir); err != nil {
		t.Fatal(err)
	}
	if n := searches(); n != 2 || len(st2.Funnel.Projects[0].Incomplete) != 0 {
		t.Fatalf("second run: WEP 12 searched %d times in all, incomplete %q", n, st2.Funnel.Projects[0].Incomplete)
	}
	st3 := fx.stage(t, true)
	if err := runStage(context.Background(), t, st3, wsDir); err != nil {
		t.Fatalf("offline after a complete search: %v", err)
	}
}

// A curated PR GitHub does not have drops its proposal at the linking
// step, with the reason.
func TestCollectCuratedPRNotFound(t *testing.T) {
	fx := newFixture(t)
	reg, _ := os.ReadFile(fx.regPath)
	os.WriteFile(fx.regPath, []byte(strings.Replace(string(reg), "    links:\n", "    links:\n      curated:\n        - {ep: 10, pr: 99}\n", 1)), 0o644)
	st := fx.stage(t, false)
	if err := runStage(context.Background(), t, st, filepath.Join(fx.dir, "work")); err != nil {
		t.Fatal(err)
	}
	var got []Drop
	for _, d := range st.Funnel.Projects[0].Dropped {
		if d.EP == "WEP 10" {
			got = append(got, d)
		}
	}
	want := []Drop{{EP: "WEP 10", Path: "proposals/wep-0010.md", Step: StepLinked,
		Reason: "curated PR #99 of WEP 10: github pull request acme/widget#99: not found on GitHub (404)"}}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(st.Funnel.Projects[0].Kept, []string{"widget-wep-0002"}) {
		t.Fatalf("WEP 10 drops %+v, kept %v", got, st.Funnel.Projects[0].Kept)
	}
}
