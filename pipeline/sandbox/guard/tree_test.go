package guard

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(body, "->"); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listTree describes a folder: "path=content" for files, "path->target"
// for links, "path/" for folders.
func listTree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out = append(out, rel+"->"+target)
		case fi.IsDir():
			out = append(out, rel+"/")
		default:
			data, _ := os.ReadFile(p)
			out = append(out, rel+"="+string(data))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// TestSyncTree: the live side becomes the pristine one, whatever the
// tested code made of it, and nothing outside is touched.
func TestSyncTree(t *testing.T) {
	src, dst, outside := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{"home/.bashrc": "a", "home/.cache/x": "cache", "home/link": "->.bashrc"})
	writeTree(t, outside, map[string]string{"secret": "s"})
	writeTree(t, dst, map[string]string{
		"home/.bashrc":                     "changed",
		"home/.local/bin/go":               "#!/bin/sh\necho wrapper",
		"home/link":                        "->/etc/passwd",
		"home/.cache/x/evil":               "a folder where a file was",
		"home/.config/pip/pip.conf":        "[global]\nindex-url = x",
		"home/.local/lib/usercustomize.py": "import os",
	})
	// A link where a folder was, pointing outside.
	os.RemoveAll(filepath.Join(dst, "home", ".cache"))
	os.Symlink(outside, filepath.Join(dst, "home", ".cache"))
	syscall.Mkfifo(filepath.Join(dst, "home", "fifo"), 0o644)
	if _, err := syncTree(openRoot(t, dst), openRoot(t, src), "home", time.Time{}); err != nil {
		t.Fatal(err)
	}
	if got, want := listTree(t, dst), listTree(t, src); !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := listTree(t, outside); !reflect.DeepEqual(got, []string{"secret=s"}) {
		t.Fatalf("outside touched: %q", got)
	}
	if c, err := syncTree(openRoot(t, dst), openRoot(t, src), "home", time.Time{}); err != nil || c != 0 {
		t.Fatalf("second sync changed %d: %v", c, err)
	}
}

// TestSyncTreeKeepsTimes: a restored file is as old as the pristine one,
// whatever its content was, so that make or cargo never takes a restored
// object file for newer than the sources the solution changed (a file
// rewritten with the same content but touched is restored too).
func TestSyncTreeKeepsTimes(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	writeTree(t, src, map[string]string{"build/ini.c.o": "base object", "build/same.o": "same"})
	writeTree(t, dst, map[string]string{"build/ini.c.o": "the solution's object", "build/same.o": "same"})
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, f := range []string{"ini.c.o", "same.o"} {
		os.Chtimes(filepath.Join(src, "build", f), old, old)
	}
	if c, err := syncTree(openRoot(t, dst), openRoot(t, src), "build", time.Time{}); err != nil || c != 2 {
		t.Fatalf("sync changed %d: %v; want 2", c, err)
	}
	for _, f := range []string{"ini.c.o", "same.o"} {
		fi, err := os.Stat(filepath.Join(dst, "build", f))
		if err != nil || !fi.ModTime().Equal(old) {
			t.Errorf("%s: %v, modified %v; want %v", f, err, fi.ModTime(), old)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(dst, "build", "ini.c.o")); string(data) != "base object" {
		t.Errorf("ini.c.o = %q", data)
	}
}

// TestPutThroughLinks: writing a file whose folder is a link replaces the
// link with a real folder.
func TestPutThroughLinks(t *testing.T) {
	dst, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(dst, "tests"))
	uid, gid := os.Getuid(), os.Getgid()
	if err := put(openRoot(t, dst), "tests/conftest.py", &entry{data: []byte("x"), mode: 0o644, uid: uid, gid: gid}); err != nil {
		t.Fatal(err)
	}
	if got := listTree(t, dst); !reflect.DeepEqual(got, []string{"tests/", "tests/conftest.py=x"}) {
		t.Fatalf("got %q", got)
	}
	if got := listTree(t, outside); len(got) != 0 {
		t.Fatalf("wrote through the link: %q", got)
	}
	if e, err := readEntry(openRoot(t, dst), "tests"); e != nil || err != nil {
		t.Fatalf("a folder read as an entry: %v %v", e, err)
	}
}
