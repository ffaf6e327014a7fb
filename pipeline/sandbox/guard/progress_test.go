package guard

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
