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
	// The verifier replaces the file by a rename (guard's progress.write):
	// a plain write could be read empty, between truncate and write.
	replace := func(s string) {
		tmp := filepath.Join(out, guard.ProgressFile+".tmp")
		if err := os.WriteFile(tmp, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Join(out, guard.ProgressFile)); err != nil {
			t.Fatal(err)
		}
	}
	stop := follow(ctx, readLocal(out, t.TempDir()))
	for _, s := range []string{"one", "two"} {
		replace(s)
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
	replace("three")
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(seen, []string{"one", "two"}) {
		t.Errorf("seen %q, want one then two", seen)
	}
	// Without a watch, nothing is read.
	follow(context.Background(), func(string) ([]byte, error) { t.Error("read without a watch"); return nil, nil })()
}

// TestReadLocalPaths: a local job's watched file is relative to its out/
// folder, or an absolute sandbox path under the job's root folder (the
// verifier's /logs/verifier, lolbench verify).
func TestReadLocalPaths(t *testing.T) {
	out, root := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(out, guard.ProgressFile), []byte("out"), 0o644)
	os.MkdirAll(filepath.Join(root, "logs", "verifier"), 0o755)
	os.WriteFile(filepath.Join(root, "logs", "verifier", guard.ProgressFile), []byte("root"), 0o644)
	read := readLocal(out, root)
	for file, want := range map[string]string{guard.ProgressFile: "out", "/logs/verifier/" + guard.ProgressFile: "root"} {
		if got, err := read(file); err != nil || string(got) != want {
			t.Errorf("read(%q) = %q, %v; want %q", file, got, err, want)
		}
	}
}

// TestFollowProgress: the side's start is sent at once; polls pass on the
// file's changes; the end comes from the file's host copy, or from the
// last state when there is none.
func TestFollowProgress(t *testing.T) {
	defer func(d time.Duration) { pollEvery = d }(pollEvery)
	pollEvery = time.Millisecond
	var mu sync.Mutex
	var got []TestProgress
	fn := func(p TestProgress) { mu.Lock(); got = append(got, p); mu.Unlock() }
	ctx, over := FollowProgress(context.Background(), fn, CoverageSide, 1, 12, guard.ProgressFile)
	out := t.TempDir()
	stop := follow(ctx, readLocal(out, t.TempDir()))
	os.WriteFile(filepath.Join(out, guard.ProgressFile), []byte(`{"run":1,"runs":1,"done":4,"known":12}`), 0o644)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 2 || time.Now().After(deadline) {
			break
		}
	}
	stop()
	over(filepath.Join(t.TempDir(), "absent.json"))
	want := []TestProgress{
		{Side: CoverageSide, Run: 1, Runs: 1, Known: 12},
		{Side: CoverageSide, Run: 1, Runs: 1, Done: 4, Known: 12},
		{Side: CoverageSide, Run: 1, Runs: 1, Done: 4, Known: 12, Ended: true, Over: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("progress:\ngot  %+v\nwant %+v", got, want)
	}
}
