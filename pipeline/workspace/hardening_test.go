package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.md", "hello")
	big := write("big.md", strings.Repeat("x", 11))
	link := filepath.Join(dir, "link.md")
	os.Symlink(ok, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, want string
	}{
		{ok, ""},
		{big, big + ": 11 bytes, more than the test cap of 10 bytes"},
		{link, link + ": a symbolic link; only regular files are read"},
		{dir, dir + ": a folder, not a file"},
		{"/dev/zero", "/dev/zero: a device; only regular files are read"},
		{fifo, fifo + ": a named pipe; only regular files are read"},
		{filepath.Join(dir, "none"), "open " + filepath.Join(dir, "none") + ": no such file or directory"},
	}
	for _, tt := range tests {
		data, err := ReadFile(tt.path, 10, "the test cap")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ReadFile(%s) error %q, want %q", tt.path, got, tt.want)
		}
		if tt.want == "" && string(data) != "hello" {
			t.Errorf("ReadFile(%s) = %q", tt.path, data)
		}
	}
	var tl *TooLargeError
	if _, err := ReadFile(big, 10, "the test cap"); !errors.As(err, &tl) || tl.Size != 11 || tl.Max != 10 {
		t.Errorf("not a *TooLargeError: %v", err)
	}
}

func TestReadFileIn(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644)
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sub"), 0o755)
	os.WriteFile(filepath.Join(root, "sub", "m.md"), []byte("mapping"), 0o644)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "leak"))
	os.Symlink(outside, filepath.Join(root, "outdir"))
	os.Symlink("sub", filepath.Join(root, "indir"))
	tests := []struct {
		rel, want string
	}{
		{"sub/m.md", ""},
		{"indir/m.md", ""}, // a link to a folder inside the root is followed
		{"/etc/passwd", root + "/etc/passwd: path \"/etc/passwd\" leaves " + root},
		{"../x", filepath.Join(root, "../x") + ": path \"../x\" leaves " + root},
		{"sub/../../x", filepath.Join(root, "../x") + ": path \"sub/../../x\" leaves " + root},
		{"leak", root + "/leak: a symbolic link; only regular files are read"},
		{"outdir/secret", root + "/outdir/secret: a link on the way leads outside " + root},
		{"sub", root + "/sub: a folder, not a file"},
		{"none", "open " + root + "/none: no such file or directory"},
	}
	for _, tt := range tests {
		data, err := ReadFileIn(root, tt.rel, 100, "the test cap")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ReadFileIn(%q) error %q, want %q", tt.rel, got, tt.want)
		}
		if tt.want == "" && string(data) != "mapping" {
			t.Errorf("ReadFileIn(%q) = %q", tt.rel, data)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{4 << 20: "4 MiB", 64 << 10: "64 KiB", 1000: "1000 bytes", 3<<20 + 1: "3145729 bytes"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".status.json.tmp-123456": true,
		".ep.md.tmp-1":            true,
		"status.json.tmp-123":     false, // not WriteFile's
		".status.json.tmp-":       false,
		".x.tmp-12a":              false,
		"status.json":             false,
		".tmp-123":                false,
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

// A run killed between creating and renaming a temporary file leaves it;
// RemoveTemp removes exactly those, not the clones' own files.
func TestRemoveTemp(t *testing.T) {
	w, err := Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{
		"candidates/a/status.json":                false,
		"candidates/a/.status.json.tmp-4242":      true,
		"candidates/a/task/.instruction.md.tmp-1": true,
		"llm/ab/.abcd.json.tmp-77":                true,
		"repos/x.git/.pack.tmp-5":                 false,
		"candidates/b/.keep.tmp-x":                false,
		"candidates/b/notes.tmp-12":               false,
	}
	for f := range files {
		p := filepath.Join(w.Root, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	removed, err := w.RemoveTemp()
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, p := range removed {
		rel, _ := filepath.Rel(w.Root, p)
		got = append(got, filepath.ToSlash(rel))
	}
	for f, tmp := range files {
		if tmp {
			want = append(want, f)
		}
		_, err := os.Stat(filepath.Join(w.Root, f))
		if exists := err == nil; exists == tmp {
			t.Errorf("%s: exists %v after RemoveTemp", f, exists)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	// Limited to one folder.
	os.WriteFile(filepath.Join(w.Root, "candidates/a/.x.tmp-1"), nil, 0o644)
	os.WriteFile(filepath.Join(w.Root, "llm/.y.tmp-1"), nil, 0o644)
	if removed, _ := w.RemoveTemp("candidates/a"); len(removed) != 1 || filepath.Base(removed[0]) != ".x.tmp-1" {
		t.Errorf("RemoveTemp(candidates/a) = %v", removed)
	}
}

func TestLockRun(t *testing.T) {
	w, err := Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := w.LockRun("")
	if err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(w.Root, "locks", "run.lock")
	_, err = w.LockRun("")
	host, _ := os.Hostname()
	prefix := "the workspace is in use by another lolbench run: " + w.Root + " is locked by pid " + strconv.Itoa(os.Getpid()) + " on " + host + " since "
	if !errors.Is(err, ErrBusy) || !strings.HasPrefix(err.Error(), prefix) || !strings.HasSuffix(err.Error(), " ("+main+"); wait for it to finish") {
		t.Fatalf("second whole run: %v", err)
	}
	if _, err := w.LockRun("0/2"); !errors.Is(err, ErrBusy) {
		t.Fatalf("shard beside a whole run: %v", err)
	}
	whole.Release()

	s0, err := w.LockRun("0/2")
	if err != nil {
		t.Fatal(err)
	}
	s1, err := w.LockRun("1/2")
	if err != nil {
		t.Fatalf("two shards side by side: %v", err)
	}
	shardFile := filepath.Join(w.Root, "locks", "run-shard-0-of-2.lock")
	if _, err := w.LockRun("0/2"); !errors.Is(err, ErrBusy) || !strings.HasSuffix(err.Error(), " ("+shardFile+"); wait for it to finish, or run another shard") {
		t.Fatalf("same shard twice: %v", err)
	}
	want := "the workspace is in use by another lolbench run: " + w.Root + " is locked by sharded runs (--shard) (" + main + "); wait for it to finish"
	if _, err := w.LockRun(""); err == nil || err.Error() != want {
		t.Fatalf("whole run beside shards: %v\nwant %s", err, want)
	}
	s0.Release()
	s1.Release()
	again, err := w.LockRun("")
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
}
