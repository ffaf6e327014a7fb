package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/sandbox/guard"
)

// TestValidateProgress: each side reports its start, then its last state
// as the verifier left it. (Polls are switched off: what they see depends
// on timing; TestFollow covers them.)
func TestValidateProgress(t *testing.T) {
	defer func(d time.Duration) { pollEvery = d }(pollEvery)
	pollEvery = time.Hour
	ty := newToy(t, toyRecipe())
	var got []TestProgress
	ty.plan.Progress = func(p TestProgress) { got = append(got, p) }
	ty.plan.Known = map[string]int{Before: 7}
	if _, err := Validate(context.Background(), ty.prepare(t, NewLocal(nil)), ty.plan, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	// The toy prints pytest's -rA summary only: 4 tests a run on both
	// sides (test_new.t's one, failing before the solution, and
	// test_old.t's three). The first run expects the caller's 7, the
	// after side the before side's last run.
	want := []TestProgress{
		{Side: Before, Run: 1, Runs: 3, Known: 7},
		{Side: Before, Run: 3, Runs: 3, Done: 4, Known: 4, Ended: true, Over: true},
		{Side: After, Run: 1, Runs: 3, Known: 4},
		{Side: After, Run: 3, Runs: 3, Done: 4, Known: 4, Ended: true, Over: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("progress:\ngot  %+v\nwant %+v", got, want)
	}
}

// TestFollow: a watched file is read every pollEvery while the job runs,
// and no more once it is stopped.
func TestFollow(t *testing.T) {
	defer func(d time.Duration) { pollEvery = d }(pollEvery)
	pollEvery = 5 * time.Millisecond
	out := t.TempDir()
	var mu sync.Mutex
	var seen []string
	ctx := withWatch(context.Background(), guard.ProgressFile, func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) == 0 || seen[len(seen)-1] != string(b) {
			seen = append(seen, string(b))
		}
	})
	stop := follow(ctx, readLocal(out))
	for _, s := range []string{"one", "two"} {
		if err := os.WriteFile(filepath.Join(out, guard.ProgressFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			mu.Lock()
			n := len(seen)
			mu.Unlock()
			if n > 0 && seen[n-1] == s || time.Now().After(deadline) {
				break
			}
		}
	}
	stop()
	os.WriteFile(filepath.Join(out, guard.ProgressFile), []byte("three"), 0o644)
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(seen, []string{"one", "two"}) {
		t.Errorf("seen %q, want one then two", seen)
	}
	// Without a watch, nothing is read.
	follow(context.Background(), func(string) ([]byte, error) { t.Error("read without a watch"); return nil, nil })()
}
