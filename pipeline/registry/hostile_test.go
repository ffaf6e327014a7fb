package registry

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// entry is a valid project entry; extra lines are added under it.
func entry(extra string) string {
	return "projects:\n  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps:\n      kind: local\n      dir: e\n      glob: \"*\"\n      name: \"X {n}\"\n    links:\n      search:\n        patterns: [\"X {n}\"]\n" + extra
}

// TestHostileRegistries: every problem of a file is reported at once,
// each with its line and field; the pre-scans refuse what the YAML parser
// would choke on.
func TestHostileRegistries(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"every decode error at once", entry("    globb: x\n    thresholds:\n      min_loc: lots\n      min_files: 9.99\n      min_test_files: 2.0\n      min_source_share: half\n      extra: 1\n    language: Python\n"), strings.Join([]string{
			`p.yaml:14: projects[0].globb: unknown field "globb"`,
			`p.yaml:16: projects[0].thresholds.min_loc: want an integer, got "lots"`,
			`p.yaml:17: projects[0].thresholds.min_files: want an integer, got 9.99`,
			`p.yaml:18: projects[0].thresholds.min_test_files: want an integer, got 2.0`,
			`p.yaml:19: projects[0].thresholds.min_source_share: want a number, got "half"`,
			`p.yaml:20: projects[0].thresholds.extra: unknown field "extra"`,
			"p.yaml:21: projects[0].language: duplicate key; first defined at line 4",
		}, "\n")},
		{"decode errors beside validation errors", entry("    thresholds: {min_files: 9.99, min_loc: -1}\n  - name: Bad\n    repo: o/r\n    language: [Go]\n    domain: d\n    eps: {kind: local, dir: e, glob: \"*\", name: \"X {n}\"}\n    links: {curated: [{ep: 1, pr: 2, open_prs: [one]}]}\n"), strings.Join([]string{
			"p.yaml:14: projects[0].thresholds.min_files: want an integer, got 9.99",
			"p.yaml:14: projects[0].thresholds.min_loc: must not be negative, got -1",
			`p.yaml:15: projects[1].name: "Bad": use lower-case letters, digits and '-', starting with a letter or digit`,
			"p.yaml:17: projects[1].language: want a string, got a list",
			"p.yaml:20: projects[1].links.curated[0].open_prs[0]: want an integer, got \"one\"",
		}, "\n")},
		{"duplicate keys by field", entry("    eps:\n      kind: git\n") + "  - name: y\n    name: z\n", strings.Join([]string{
			"p.yaml:14: projects[0].eps: duplicate key; first defined at line 6",
			"p.yaml:16: projects[1].repo: required (or path, for a local repository)",
			"p.yaml:16: projects[1].language: required",
			"p.yaml:16: projects[1].domain: required",
			"p.yaml:16: projects[1].eps: required: where the proposals live",
			"p.yaml:16: projects[1].links: required: a curated list, a search, or both",
			"p.yaml:17: projects[1].name: duplicate key; first defined at line 16",
		}, "\n")},
		{"aliases and anchors, all of them", "projects:\n  - &a\n    name: x\n  - *a\n  - <<: {name: y}\n", strings.Join([]string{
			"p.yaml:2: projects[0]: YAML anchors are not allowed in a registry; repeat the value instead",
			"p.yaml:4: projects[1]: YAML aliases are not allowed in a registry; repeat the value instead",
			"p.yaml:5: projects[2]: YAML merge keys are not allowed in a registry",
		}, "\n")},
		{"NUL byte", entry("    domain2: \x00\n"), "p.yaml:14: NUL byte; YAML is text"},
		{"nested 40,000 levels", "projects:\n  - recipe:\n      env: " + strings.Repeat("[", 40000), "p.yaml:3: YAML nested more than 32 levels deep"},
		{"a mapping of many keys", "projects:\n" + strings.Repeat("  k: v\n", 200), "p.yaml:130: a YAML mapping with more than 128 keys"},
		{"many documents", strings.Repeat("---\nprojects: []\n", 20), "p.yaml:33: more than 16 YAML document markers"},
		{"over the size cap", "projects: []\n#" + strings.Repeat("x", MaxFileSize), "p.yaml: 262158 bytes, more than the registry size cap of 256 KiB"},
		// The curator's folders (path, eps.path, eps.dir) may lie anywhere;
		// the files collection copies stay inside the registry's folder.
		{"copied files leave the registry's folder", strings.Replace(entry("      curated:\n        - {ep: 1, pr: 2, mapping: /etc/passwd}\n        - {ep: 2, pr: 3, mapping: ../../x.md}\n"), "dir: e", "dir: /etc", 1) +
			"    recipe: {image: i, test: {command: \"t {tests}\", format: junit}, coverage: {report: ../r.xml}}\n  - name: y\n    path: ../elsewhere\n    language: Go\n    domain: d\n    eps: {kind: git, path: /srv/eps, glob: \"*\", name: \"Y {n}\"}\n    links: {curated: [{ep: 1, pr: 2, base: a, head: b, created_at: 2026-01-01, merged_at: 2026-01-02}]}\n", strings.Join([]string{
			`p.yaml:15: projects[0].links.curated[0].mapping: "/etc/passwd" must be a path inside the registry's folder: relative to it, without '..'`,
			`p.yaml:16: projects[0].links.curated[1].mapping: "../../x.md" must be a path inside the registry's folder: relative to it, without '..'`,
			`p.yaml:17: projects[0].recipe: coverage.report: "../r.xml" leaves /testbed`,
		}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("p.yaml", "/reg", []byte(tt.src))
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Error() != tt.want {
				t.Fatalf("error:\n%s\nwant:\n%s", err, tt.want)
			}
		})
	}
}

// A byte order mark is ignored: the registry reads as without one, with
// the same lines.
func TestBOM(t *testing.T) {
	r, err := Parse("p.yaml", "/reg", []byte("\ufeff"+good))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Names(), ","); got != "tinykv,cpython" {
		t.Fatalf("names %s", got)
	}
	_, err = Parse("p.yaml", "/reg", []byte("\ufeff"+entry("    globb: x\n")))
	if err == nil || err.Error() != `p.yaml:14: projects[0].globb: unknown field "globb"` {
		t.Fatalf("error %v", err)
	}
}

// ReadFile keeps to the registry's folder, links included, and reads
// regular files only, within the cap; Resolve gives the curator's folders
// wherever they are.
func TestPathsStayInside(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret"), 0o644)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "curated", "repo"), 0o755)
	os.WriteFile(filepath.Join(dir, "curated", "m.md"), []byte("# Mapping: x\n"), 0o644)
	os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "curated", "leak.md"))
	os.Symlink(outside, filepath.Join(dir, "out"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.md"))
	r := &Registry{File: "p.yaml", Dir: dir, lines: map[string]int{"projects[0].links.curated[0].mapping": 9, "projects[0].path": 3}}

	if data, err := r.ReadFile("projects[0].links.curated[0].mapping", "curated/m.md", 1<<20, "the cap"); err != nil || string(data) != "# Mapping: x\n" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	for rel, want := range map[string]string{
		"curated/leak.md": "p.yaml:9: projects[0].links.curated[0].mapping: " + dir + "/curated/leak.md: a symbolic link; only regular files are read",
		"out/secret.md":   "p.yaml:9: projects[0].links.curated[0].mapping: " + dir + "/out/secret.md: a link on the way leads outside " + dir,
		"zero.md":         "p.yaml:9: projects[0].links.curated[0].mapping: " + dir + "/zero.md: a symbolic link; only regular files are read",
		"/etc/passwd":     "p.yaml:9: projects[0].links.curated[0].mapping: " + dir + "/etc/passwd: path \"/etc/passwd\" leaves " + dir,
		"curated":         "p.yaml:9: projects[0].links.curated[0].mapping: " + dir + "/curated: a folder, not a file",
	} {
		if _, err := r.ReadFile("projects[0].links.curated[0].mapping", rel, 1<<20, "the cap"); err == nil || err.Error() != want {
			t.Errorf("ReadFile(%s) = %v\nwant %s", rel, err, want)
		}
	}
	if _, err := r.ReadFile("projects[0].links.curated[0].mapping", "curated/m.md", 5, "the mapping size cap"); err == nil ||
		err.Error() != "p.yaml:9: projects[0].links.curated[0].mapping: "+dir+"/curated/m.md: 13 bytes, more than the mapping size cap of 5 bytes" {
		t.Errorf("capped ReadFile = %v", err)
	}

	// The curator's folders are resolved, not confined: a clone may lie
	// anywhere, and the funnel shows where it was read.
	for p, want := range map[string]string{
		"curated/repo":    filepath.Join(dir, "curated", "repo"),
		"out":             filepath.Join(dir, "out"),
		"/home/me/src/dj": "/home/me/src/dj",
		"../clones/deps":  filepath.Join(filepath.Dir(dir), "clones", "deps"),
	} {
		if got, err := r.Resolve("projects[0].path", p); err != nil || got != want {
			t.Errorf("Resolve(%s) = %s, %v; want %s", p, got, err, want)
		}
	}
	if _, err := r.Resolve("projects[0].path", "a\nb"); err == nil || err.Error() != `p.yaml:3: projects[0].path: "a\nb" is not a path` {
		t.Errorf("Resolve(a\\nb) = %v", err)
	}
}
