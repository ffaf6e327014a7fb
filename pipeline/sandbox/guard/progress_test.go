package guard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestProgressFile(t *testing.T) {
	out := t.TempDir()
	p := newProgress(out, 3)
	read := func() string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, ProgressFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	w := p.start(1)
	if got, want := read(), `{"run":1,"runs":3,"done":0,"known":0}`; got != want {
		t.Errorf("at the start of run 1: %s, want %s", got, want)
	}
	fmt.Fprint(w, "{\"Action\":\"pass\",\"Test\":\"TestA\"}\n{\"Action\":\"fail\",\"Test\":\"TestB\"}\n{\"Action\":\"run\",\"Test\":\"TestC\"}\n")
	p.end()
	if got, want := read(), `{"run":1,"runs":3,"done":2,"known":0,"ended":true}`; got != want {
		t.Errorf("at the end of run 1: %s, want %s", got, want)
	}
	// The next run expects what the last one reported, until its output
	// announces a count.
	w = p.start(2)
	if got, want := read(), `{"run":2,"runs":3,"done":0,"known":2}`; got != want {
		t.Errorf("at the start of run 2: %s, want %s", got, want)
	}
	fmt.Fprint(w, "collected 5 items\ntests/test_a.py ..F  [ 60%]\n")
	p.end()
	if got, want := read(), `{"run":2,"runs":3,"done":3,"known":5,"ended":true}`; got != want {
		t.Errorf("at the end of run 2: %s, want %s", got, want)
	}
	// Without Options.Progress there is no writer, and nothing breaks.
	var none *progress
	fmt.Fprint(none.start(1), "x\n")
	none.end()
}

// TestFollowLog: the counter follows a log another process writes, from
// before it exists to the end, and the run ends with what the log said
// last. The caller's estimate stands until the log announces its count.
func TestFollowLog(t *testing.T) {
	defer func(d time.Duration) { followEvery = d }(followEvery)
	followEvery = time.Millisecond
	dir, out := t.TempDir(), t.TempDir()
	log := filepath.Join(dir, "run.log")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { FollowLog(ctx, log, filepath.Join(dir, "never"), out, 40); close(done) }()
	read := func() string {
		data, _ := os.ReadFile(filepath.Join(out, ProgressFile))
		return string(data)
	}
	// wait waits for the file's content, as the host's polls see it.
	wait := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); read() != want; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("progress %s, want %s", read(), want)
			}
		}
	}
	wait(`{"run":1,"runs":1,"done":0,"known":40}`)
	f, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprint(f, "collected 42 items\n\ntests/test_a.py ..")
	wait(`{"run":1,"runs":1,"done":0,"known":42}`)
	fmt.Fprint(f, "F.s   [ 11%]\ntests/test_b.py ..")
	wait(`{"run":1,"runs":1,"done":5,"known":42}`)
	// The rest arrives as the run ends: it is read before the end.
	fmt.Fprint(f, ".\n")
	cancel()
	<-done
	if got, want := read(), `{"run":1,"runs":1,"done":8,"known":42,"ended":true}`; got != want {
		t.Errorf("at the end: %s, want %s", got, want)
	}
	defer cancel()
	// The writer says it is done with a file: what it wrote last counts.
	out = t.TempDir()
	until := filepath.Join(dir, "done")
	if err := os.WriteFile(log, []byte("collected 2 items\n\ntests/test_a.py ..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(until, nil, 0o644)
	FollowLog(context.Background(), log, until, out, 0)
	if got, want := read(), `{"run":1,"runs":1,"done":2,"known":2,"ended":true}`; got != want {
		t.Errorf("ended by %s: %s, want %s", until, got, want)
	}
}
