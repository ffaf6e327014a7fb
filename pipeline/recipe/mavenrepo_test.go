package recipe

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMavenRepo: every regular file below the folder, at any depth, is a
// host file; a link anywhere in it, a file instead of a folder, or a path
// that leaves the recipe's folder is refused, naming the field.
func TestMavenRepo(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"m2/org/junit/junit-bom/5.9.2/junit-bom-5.9.2.pom", "m2/org/example/lib/1.0/lib-1.0.jar", "m2/org/example/lib/1.0/lib-1.0.pom", "plain.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(f), 0o644)
	}
	r := &Recipe{Dir: dir, MavenRepo: "m2"}
	files, err := r.HostFiles()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		if f.Field != "maven_repo" {
			t.Errorf("%s: field %q", f.Rel, f.Field)
		}
		got = append(got, f.Rel)
	}
	want := []string{"m2/org/example/lib/1.0/lib-1.0.jar", "m2/org/example/lib/1.0/lib-1.0.pom", "m2/org/junit/junit-bom/5.9.2/junit-bom-5.9.2.pom"}
	if !reflect.DeepEqual(got, want) || !r.HostPaths() {
		t.Fatalf("files %q, want %q", got, want)
	}
	if _, err := (&Recipe{Dir: dir, MavenRepo: "plain.txt"}).HostFiles(); err == nil || err.Error() != `maven_repo: "plain.txt" (`+dir+`/plain.txt) is not a folder` {
		t.Errorf("a file: %v", err)
	}
	os.Symlink("/etc/passwd", filepath.Join(dir, "m2/org/example/lib/1.0/evil.pom"))
	if _, err := r.HostFiles(); err == nil || !strings.Contains(err.Error(), `maven_repo: "m2/org/example/lib/1.0/evil.pom"`) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a link inside: %v", err)
	}
	if _, err := Parse("r.yaml", []byte("image: debian\ntest: {command: 'x {tests}', format: junit}\nmaven_repo: ../m2\n")); err == nil || err.Error() != `recipe r.yaml: maven_repo: "../m2" leaves the recipe's folder` {
		t.Errorf("leaves: %v", err)
	}
	if _, err := Parse("r.yaml", []byte("image: lolbench/offline-base\nlanguage: c#\ntest: {command: 'x {tests}', format: junit}\n")); err == nil || err.Error() != "recipe r.yaml: language: C# has no offline base image yet (lolbench lang list): name a public image for it" {
		t.Errorf("c#: %v", err)
	}
	if _, err := Parse("r.yaml", []byte("image: debian\nlanguage: cobol\ntest: {command: 'x {tests}', format: junit}\n")); err == nil || err.Error() != `recipe r.yaml: language: "cobol" is not a language of lolbench's table (lolbench lang list)` {
		t.Errorf("cobol: %v", err)
	}
	if r, err := Parse("r.yaml", []byte("image: lolbench/offline-base\nlanguage: java\nmaven_repo: m2\ntest: {command: 'x {tests}', format: junit}\n")); err != nil || r.Language != "java" || r.MavenRepo != "m2" {
		t.Errorf("java: %+v, %v", r, err)
	}
}
