package recipe

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/goccy/go-yaml"
)

// hostDir makes a recipe folder: files by path, and links (path -> target).
func hostDir(t *testing.T, files map[string]string, links map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "recipes")
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestHostFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := hostDir(t, map[string]string{
		"conftest.py":                         "x = 1\n",
		"req/test.txt":                        "tinydep==1.0\n",
		"wheels/tinydep-1.0-py3-none-any.whl": "zip",
		"wheels/sub/ignored.whl":              "not read",
		"data/table.csv":                      "a,b\n",
	}, map[string]string{
		"inside-link.csv":    "data/table.csv",
		"escape.txt":         outside,
		"wheels/escape.whl":  outside,
		"data/up/secret.txt": "../../../" + filepath.Base(filepath.Dir(outside)) + "/secret.txt",
		"linked-dir":         filepath.Dir(outside),
	})

	t.Run("listed", func(t *testing.T) {
		r := &Recipe{Dir: dir, Files: []string{"conftest.py", "data/table.csv"}, Requirements: []string{"req/test.txt"}, Wheels: "wheels"}
		os.Remove(filepath.Join(dir, "wheels/escape.whl"))
		defer os.Symlink(outside, filepath.Join(dir, "wheels/escape.whl"))
		got, err := r.HostFiles()
		if err != nil {
			t.Fatal(err)
		}
		want := []HostFile{
			{Field: "files[0]", Rel: "conftest.py", Size: 6},
			{Field: "files[1]", Rel: "data/table.csv", Size: 4},
			{Field: "requirements[0]", Rel: "req/test.txt", Size: 13},
			{Field: "wheels", Rel: "wheels/tinydep-1.0-py3-none-any.whl", Size: 3},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got  %+v\nwant %+v", got, want)
		}
		k1, err := r.HostFilesKey(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "conftest.py"), []byte("x = 2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if k2, _ := r.HostFilesKey(got); k2 == k1 {
			t.Fatal("the key did not change with a file's content")
		}
	})

	// Every file is checked, and every problem named with its field and
	// the path as written (issue 14: no link followed, even one that stays
	// inside, and no device or pipe opened).
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	r := &Recipe{Dir: dir, Files: []string{"escape.txt", "data/up/secret.txt", "missing.txt", "data", "linked-dir/secret.txt", "conftest.py", "inside-link.csv", "fifo", "zero"},
		Requirements: []string{"conftest.py"}}
	_, err := r.HostFiles()
	want := `files[0]: "escape.txt" (` + dir + `/escape.txt) is a symbolic link; only regular files are copied
files[1]: "data/up/secret.txt" (` + dir + `/data/up/secret.txt) is a symbolic link; only regular files are copied
files[2]: "missing.txt" (` + dir + `/missing.txt) does not exist
files[3]: "data" (` + dir + `/data) is a folder, not a file
files[4]: "linked-dir/secret.txt" (` + dir + `/linked-dir/secret.txt) leads outside the recipe's folder ` + dir + ` through a symbolic link
files[6]: "inside-link.csv" (` + dir + `/inside-link.csv) is a symbolic link; only regular files are copied
files[7]: "fifo" (` + dir + `/fifo) is a named pipe; only regular files are copied
files[8]: "zero" (` + dir + `/zero) is a symbolic link; only regular files are copied
requirements[0]: "conftest.py" is named twice (also by files[5])`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}

	// A link inside the wheels folder stops the listing, and so does a
	// wheels folder that is a link.
	r = &Recipe{Dir: dir, Wheels: "wheels"}
	_, err = r.HostFiles()
	want = `wheels: "wheels/escape.whl" (` + dir + `/wheels/escape.whl) is a symbolic link; only regular files are copied`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	r = &Recipe{Dir: dir, Wheels: "linked-dir"}
	_, err = r.HostFiles()
	want = `wheels: "linked-dir" (` + dir + `/linked-dir) is not a folder`
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}

	r = &Recipe{Files: []string{"conftest.py"}}
	if _, err := r.HostFiles(); err == nil || err.Error() != "files, wheels, requirements, maven_repo: the recipe's folder is unknown (a recipe read with Parse, not Load)" {
		t.Fatalf("err = %v", err)
	}
	if got, err := (&Recipe{}).HostFiles(); got != nil || err != nil {
		t.Fatalf("no host files: %v, %v", got, err)
	}
}

// TestLoadSetsDir: a loaded recipe's host paths are relative to its file's
// folder.
func TestLoadSetsDir(t *testing.T) {
	dir := hostDir(t, map[string]string{"recipe.yaml": "image: debian\ntest: {command: 'x {tests}', format: junit}\nfiles: [a.txt]\n", "a.txt": "a"}, nil)
	r, err := Load(filepath.Join(dir, "recipe.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir != dir {
		t.Fatalf("Dir = %q, want %q", r.Dir, dir)
	}
	if got, err := r.HostFiles(); err != nil || len(got) != 1 || got[0].Rel != "a.txt" {
		t.Fatalf("%+v, %v", got, err)
	}
}

// TestHostFilesCaps: a file over MaxHostFile, files over MaxHostFilesSize
// together, and a wheels folder over MaxHostFiles entries are refused with
// the cap named. The large files are sparse: they take no disk.
func TestHostFilesCaps(t *testing.T) {
	dir := hostDir(t, map[string]string{"ok.txt": "ok"}, nil)
	sparse := func(name string, size int64) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
	}
	sparse("huge.whl", MaxHostFile+1)
	r := &Recipe{Dir: dir, Files: []string{"ok.txt", "huge.whl"}}
	_, err := r.HostFiles()
	want := "files[1]: " + dir + "/huge.whl: 1073741825 bytes, more than the cap on one host file of a recipe of 1024 MiB"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}

	var files []string
	for i := range 5 {
		name := "part" + strconv.Itoa(i)
		sparse(name, MaxHostFile)
		files = append(files, name)
	}
	r = &Recipe{Dir: dir, Files: files}
	_, err = r.HostFiles()
	want = "files[4]: " + dir + "/part4: the host files reach 5368709120 bytes in all, more than the recipe's cap of 4096 MiB"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}

	wheels := filepath.Join(dir, "many")
	if err := os.Mkdir(wheels, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range MaxHostFiles + 1 {
		if err := os.WriteFile(filepath.Join(wheels, strconv.Itoa(i)+".whl"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r = &Recipe{Dir: dir, Wheels: "many"}
	_, err = r.HostFiles()
	if err == nil || !strings.HasPrefix(err.Error(), "wheels: "+wheels+": more than 10000 entries") {
		t.Fatalf("err = %v", err)
	}
}

// TestOpenHostFileChanged: a file swapped after HostFiles listed it (for a
// link, or to another size) is not opened.
func TestOpenHostFileChanged(t *testing.T) {
	dir := hostDir(t, map[string]string{"a.txt": "abc", "b.txt": "xyz"}, nil)
	r := &Recipe{Dir: dir, Files: []string{"a.txt", "b.txt"}}
	files, err := r.HostFiles()
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "a.txt"))
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "a.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.OpenHostFile(files[0]); err == nil || err.Error() != `files[0]: "a.txt" (`+dir+`/a.txt) is a symbolic link; only regular files are copied` {
		t.Fatalf("err = %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := r.OpenHostFile(files[1]); err == nil || err.Error() != `files[1]: "b.txt" (`+dir+`/b.txt) changed since it was listed` {
		t.Fatalf("err = %v", err)
	}
	if _, err := r.HostFilesKey(files); err == nil {
		t.Fatal("the key of changed files was computed")
	}
}

// TestSameAs: a recipe and its YAML copy (what collect writes into a
// candidate's folder) declare the same thing whatever their Dir; any
// declared difference tells them apart.
func TestSameAs(t *testing.T) {
	src := "image: debian\ntest: {command: 'x {tests}', format: junit}\nwheels: wheels\nrequirements: [req.txt]\nenv: {A: '1'}\n"
	a, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a.Dir = "/registry"
	data, err := yaml.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("recipe.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	b.Dir = "/candidate"
	if !a.SameAs(b) || !a.HostPaths() {
		t.Fatalf("the copy differs:\n%s", data)
	}
	b.Requirements = []string{"other.txt"}
	if a.SameAs(b) {
		t.Fatal("different requirements compare equal")
	}
	if (&Recipe{Image: "x"}).HostPaths() {
		t.Fatal("a recipe without host paths has some")
	}
}
