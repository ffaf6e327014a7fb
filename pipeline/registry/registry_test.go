package registry

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

const good = `projects:
  - name: tinykv
    path: repo
    language: Go
    domain: storage
    eps:
      kind: local
      dir: eps
      glob: "*.md"
      name: "TKEP-{n}"
      id_key: tkep
    links:
      curated:
        - ep: 2
          pr: 7
          title: Add key expiry
          base: base
          head: head
          created_at: 2026-03-16
          merged_at: 2026-03-21T09:00:00Z
          open_prs: [9]
    thresholds:
      min_loc: 300
      min_source_share: 0.6
    recipe:
      image: golang:1.22
      test: {command: "go test -json {tests}", format: go-json}
  - name: cpython
    repo: python/cpython
    language: Python
    domain: language
    eps:
      kind: git
      repo: python/peps
      glob: "peps/**/pep-*.rst"
      name: "PEP {n}"
      width: 5
      statuses: [Final]
    links:
      search:
        patterns: ["PEP {n}"]
      curated:
        - ep: "0617"
          pr: 20106
`

func TestParseGood(t *testing.T) {
	r, err := Parse("p.yaml", "/reg", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"tinykv", "cpython"}) {
		t.Fatalf("names = %v", got)
	}
	tk, _ := r.Project("tinykv")
	l := tk.Links.Curated[0]
	if l.EP.Canonical() != "2" || l.PR != 7 || !l.Complete() || !reflect.DeepEqual(l.OpenPRs, []int{9}) ||
		!l.Created.Equal(time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC)) || !l.Merged.Equal(time.Date(2026, 3, 21, 9, 0, 0, 0, time.UTC)) {
		t.Errorf("curated link = %+v", l)
	}
	if th := Defaults().Apply(tk.Thresholds); th != (Thresholds{MinLoC: 300, MinChangedLines: 1000, MinFiles: 10, MinSourceShare: 0.6, MinTestFiles: 1}) {
		t.Errorf("thresholds = %+v", th)
	}
	// The recipe's host paths are relative to the registry's folder.
	if tk.Recipe == nil || tk.Recipe.Image != "golang:1.22" || tk.Recipe.Test.Command != "go test -json {tests}" || tk.Recipe.Dir != "/reg" {
		t.Errorf("recipe = %#v", tk.Recipe)
	}
	if got, err := r.Resolve(tk.Field("path"), tk.Path); err != nil || got != filepath.Join("/reg", "repo") {
		t.Errorf("Resolve = %s, %v", got, err)
	}
	if !tk.Local() || tk.EPRepo() != "" {
		t.Errorf("Local %v, EPRepo %q", tk.Local(), tk.EPRepo())
	}
	if got := tk.CandidateID("0002"); got != "tinykv-tkep-0002" {
		t.Errorf("CandidateID = %s", got)
	}
	cp, _ := r.Project("cpython")
	if got := cp.CandidateID("617"); got != "cpython-pep-00617" {
		t.Errorf("CandidateID with width 5 = %s", got)
	}
	if got := cp.EPs.ID("0617"); got != "PEP 617" {
		t.Errorf("ID = %s", got)
	}
	if got := cp.CurationFor("617"); len(got) != 1 || got[0].PR != 20106 || got[0].Complete() {
		t.Errorf("CurationFor(617) = %+v", got)
	}
	if err := r.Errorf(cp.Field("eps.glob"), "bad"); err.Error() != "p.yaml:35: projects[1].eps.glob: bad" {
		t.Errorf("Errorf = %v", err)
	}
}

// Every bad registry names the file, the line and the field.
func TestParseErrors(t *testing.T) {
	minimal := func(extra string) string {
		return "projects:\n  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps:\n      kind: local\n      dir: e\n      glob: \"*\"\n      name: \"X {n}\"\n    links:\n      search:\n        patterns: [\"X {n}\"]\n" + extra
	}
	tests := []struct {
		name, src, want string
	}{
		{"empty", "", "p.yaml: projects: the registry is empty; it needs a projects list"},
		{"syntax", "projects: [", "p.yaml:1: sequence end token ']' not found"},
		{"not a mapping", "- a\n", "p.yaml:1: want a mapping, got a list"},
		{"no projects", "projects: []\n", "p.yaml:1: projects: the registry lists no projects"},
		{"unknown field", minimal("    globb: x\n"), `p.yaml:14: projects[0].globb: unknown field "globb"`},
		{"wrong type", minimal("    thresholds:\n      min_loc: lots\n"), `p.yaml:15: projects[0].thresholds.min_loc: want an integer, got "lots"`},
		{"negative threshold", minimal("    thresholds:\n      min_files: -1\n"), "p.yaml:15: projects[0].thresholds.min_files: must not be negative, got -1"},
		{"share of one", minimal("    thresholds:\n      min_source_share: 1\n"), "p.yaml:15: projects[0].thresholds.min_source_share: must be at least 0 and below 1, got 1"},
		{"bad recipe", minimal("    recipe:\n      image: img\n      test: {command: \"run\", format: tap}\n"), "p.yaml:14: projects[0].recipe: test.command: \"run\" has no {tests} placeholder for the test selection\n" +
			"p.yaml:14: projects[0].recipe: test.format: unknown test-result format \"tap\" (known: junit, go-json, cargo, pytest-ra)"},
		{"duplicate key", "projects:\n  - name: x\n    name: y\n", strings.Join([]string{
			"p.yaml:2: projects[0].repo: required (or path, for a local repository)",
			"p.yaml:2: projects[0].language: required",
			"p.yaml:2: projects[0].domain: required",
			"p.yaml:2: projects[0].eps: required: where the proposals live",
			"p.yaml:2: projects[0].links: required: a curated list, a search, or both",
			"p.yaml:3: projects[0].name: duplicate key; first defined at line 2",
		}, "\n")},
		{"alias", "projects: &a\n  - name: x\n", "p.yaml:1: projects: YAML anchors are not allowed in a registry; repeat the value instead"},
		{"merge key", "projects:\n  - <<: {name: x}\n", "p.yaml:2: projects[0]: YAML merge keys are not allowed in a registry"},
		{"two documents", "projects: []\n---\nprojects: []\n", "p.yaml: want exactly one YAML document, found 2"},
		{"missing everything", "projects:\n  - name: Bad_Name\n", strings.Join([]string{
			`p.yaml:2: projects[0].name: "Bad_Name": use lower-case letters, digits and '-', starting with a letter or digit`,
			"p.yaml:2: projects[0].repo: required (or path, for a local repository)",
			"p.yaml:2: projects[0].language: required",
			"p.yaml:2: projects[0].domain: required",
			"p.yaml:2: projects[0].eps: required: where the proposals live",
			"p.yaml:2: projects[0].links: required: a curated list, a search, or both",
		}, "\n")},
		{"eps problems", "projects:\n  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps:\n      kind: svn\n      glob: \"../*\"\n      format: docx\n      name: PEP\n      width: 13\n    links:\n      search:\n        patterns: [\"PEP\", '\"{n}\"']\n",
			strings.Join([]string{
				`p.yaml:7: projects[0].eps.kind: "svn": want one of git, github-issues, local, web`,
				`p.yaml:8: projects[0].eps.glob: "../*": empty, '.' and '..' segments are not allowed`,
				`p.yaml:9: projects[0].eps.format: "docx": want one of pep-rst, rst, kep-yaml, rust-rfc, markdown, html, dokuwiki (or leave it out to choose by extension)`,
				`p.yaml:10: projects[0].eps.name: "PEP" must hold {n} exactly once`,
				"p.yaml:11: projects[0].eps.width: must be between 0 and 12, got 13",
				`p.yaml:14: projects[0].links.search.patterns[0]: "PEP" must hold {n} exactly once`,
				`p.yaml:14: projects[0].links.search.patterns[1]: "\"{n}\"" must not hold quotes or line breaks`,
			}, "\n")},
		{"git without a glob", "projects:\n  - name: x\n    path: r\n    language: Go\n    domain: d\n    eps:\n      kind: git\n      name: \"X {n}\"\n    links:\n      curated:\n        - {ep: 1, pr: 2, base: a, head: b, created_at: 2026-01-01, merged_at: 2026-01-02}\n",
			strings.Join([]string{
				"p.yaml:6: projects[0].eps.repo: required for kind git (or path, or clone_url)",
				"p.yaml:6: projects[0].eps.glob: required for kind git",
			}, "\n")},
		{"curated problems", "projects:\n  - name: x\n    path: r\n    language: Go\n    domain: d\n    eps:\n      kind: local\n      dir: e\n      glob: \"*\"\n      name: \"X {n}\"\n    links:\n      search:\n        patterns: [\"X {n}\"]\n      curated:\n        - ep: 1\n          pr: 0\n          created_at: soon\n          base: --upload-pack=evil\n        - pr: 3\n          open_prs: [-1]\n",
			strings.Join([]string{
				"p.yaml:12: projects[0].links.search: a search needs the project's GitHub repo",
				"p.yaml:15: projects[0].links.curated[0].head: required for a project without a GitHub repo",
				"p.yaml:15: projects[0].links.curated[0]: give both base and head, or neither",
				"p.yaml:16: projects[0].links.curated[0].pr: required: the PR number, a positive integer",
				`p.yaml:17: projects[0].links.curated[0].created_at: "soon" is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z)`,
				`p.yaml:18: projects[0].links.curated[0].base: "--upload-pack=evil" is not a revision`,
				"p.yaml:19: projects[0].links.curated[1].ep: required: the proposal number",
				"p.yaml:19: projects[0].links.curated[1].base: required for a project without a GitHub repo",
				"p.yaml:19: projects[0].links.curated[1].head: required for a project without a GitHub repo",
				"p.yaml:20: projects[0].links.curated[1].open_prs[0]: must be a positive PR number, got -1",
			}, "\n")},
		{"duplicate project", minimal("  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps: {kind: local, dir: e, glob: \"*\", name: \"X {n}\"}\n    links: {search: {patterns: [\"X {n}\"]}}\n"),
			"p.yaml:14: projects[1].name: project \"x\" is already defined by projects[0]"},
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

// The shipped registry is valid and holds the paper's 29 projects exactly
// as its Table 5 names them (../shared/PAPER-FACTS.md): language, domain
// (one of the five) and task count, 100 tasks in all; the one other entry
// (go) has no paper row. Each is a GitHub project with a search for its
// PRs, and every family of proposal source is represented.
func TestShippedRegistry(t *testing.T) {
	r, err := Load("../../data/projects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	table5 := []string{
		"Compilers/CPython/Python/18", "Compilers/Cargo/Rust/1", "Compilers/Mypy/Python/1", "Compilers/OpenJDK/Java/14",
		"Compilers/PHP/C/4", "Compilers/Roslyn/C#/1", "Compilers/Ruff/Rust/1", "Compilers/Rust/Rust/4",
		"Compilers/TypeScript/TypeScript/4", "Data Science/Apache Arrow/C++/2", "Data Science/Apache DataFusion/Rust/2",
		"Data Science/Apache Flink/Java/13", "Data Science/Apache Iceberg/Java/1", "Data Science/Apache Kafka/Java/7",
		"Data Science/NumPy/Python/2", "Data Science/Pandas/Python/1", "Data Science/Scikit-learn/Python/1",
		"Distributed Systems/cert-manager/Go/1", "Distributed Systems/gRPC-Go/Go/1", "Distributed Systems/Kubernetes/Go/7",
		"Distributed Systems/Kueue/Go/1", "Distributed Systems/OpenTofu/Go/4", "Distributed Systems/Prometheus/Go/3",
		"Databases/DuckDB/C++/1", "Databases/Presto/Java/1", "Databases/Vitess/Go/1",
		"Web/ASP.NET Core/C#/1", "Web/Django/Python/1", "Web/FastAPI/Python/1",
	}
	var got, others []string
	tasks := 0
	for _, p := range r.Projects {
		if p.Paper == nil {
			others = append(others, p.Name)
			continue
		}
		got = append(got, fmt.Sprintf("%s/%s/%s/%d", p.Domain, p.Paper.Project, p.Language, p.Paper.Tasks))
		tasks += p.Paper.Tasks
	}
	slices.Sort(got)
	table5 = slices.Sorted(slices.Values(table5))
	if !reflect.DeepEqual(got, table5) {
		t.Errorf("Table 5 rows\n got %q\nwant %q", got, table5)
	}
	if tasks != 100 || !reflect.DeepEqual(others, []string{"go"}) {
		t.Errorf("%d tasks; entries not in the paper %v", tasks, others)
	}
	formats := map[string]bool{}
	for _, p := range r.Projects {
		if p.Local() || p.Repo == "" || p.Links.Search == nil {
			t.Errorf("%s: not a GitHub project with a search", p.Name)
		}
		formats[p.EPs.Kind+"/"+p.EPs.Format] = true
	}
	for _, f := range []string{"git/pep-rst", "git/rst", "git/", "git/kep-yaml", "git/rust-rfc", "git/markdown", "web/html", "web/dokuwiki", "github-issues/"} {
		if !formats[f] {
			t.Errorf("no project reads %s proposals", f)
		}
	}
}

// TestPaperRow: a project with a Table 5 row needs the paper's name, a
// task count and one of the five domains; without a row the domain is
// free text.
func TestPaperRow(t *testing.T) {
	const head = "projects:\n  - name: p\n    repo: o/p\n    language: Go\n    eps: {kind: github-issues, label: x, name: \"issue {n}\"}\n    links: {search: {patterns: [\"#{n}\"]}}\n"
	for _, tt := range []struct{ extra, want string }{
		{"    domain: container orchestration\n", ""},
		{"    domain: Distributed Systems\n    paper: {project: Kueue, tasks: 1}\n", ""},
		{"    domain: container orchestration\n    paper: {project: Kueue, tasks: 1}\n",
			`domain: "container orchestration": a project of the paper has one of its five domains: Compilers, Data Science, Distributed Systems, Databases, Web`},
		{"    domain: Web\n    paper: {tasks: 0}\n", "paper.project: required"},
	} {
		dir := t.TempDir()
		f := filepath.Join(dir, "projects.yaml")
		if err := os.WriteFile(f, []byte(head+tt.extra), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(f)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: %v", tt.extra, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: error %v, want %q", tt.extra, err, tt.want)
		}
	}
}

// TestRealRegistries: the real pairs of data/real load, each link pinned
// to its commits with its curated mapping beside it, and each recipe
// valid (docs/real-projects.md; data/real/build.sh rebuilds them).
func TestRealRegistries(t *testing.T) {
	for _, tt := range []struct {
		file, project, base, head, mapping, format string
		check                                      func(rc *recipe.Recipe) bool
	}{
		{"cpython.yaml", "cpython", "36860134a9eda8df5af5a38d6c7533437c594c2f", "af530469954e8ad49f1e071ef31c844b9bfda414", "curated/cpython-pep-0706.md", "junit",
			func(rc *recipe.Recipe) bool {
				return rc.Coverage.Adapter == "regrtest" && reflect.DeepEqual(rc.Omit, []string{"Misc/svnmap.txt"})
			}},
		// go.mod says go 1.17, which cannot build the dependencies.
		{"grpc-go.yaml", "grpc-go", "c44f77e12db9c09d27504f972e3275d6e6c544ea", "5c4bee51c2ff3e713735d0c99547fc76bb739c2a", "curated/grpc-go-grfc-a58.md", "go-json",
			func(rc *recipe.Recipe) bool { return rc.Go == "1.20.14" }},
		// pretend is the one test dependency the offline base lacks.
		{"packaging.yaml", "packaging", "6c338a8425803476769151953cc5de5548e2befa", "029f41580098bcf52b69684843bdc7ea37959a7e", "curated/packaging-pep-0639.md", "junit",
			func(rc *recipe.Recipe) bool { return slices.Equal(rc.Packages, []string{"python3-pretend"}) }},
		// go.mod's go 1.24.0 decides the toolchain.
		{"opentofu.yaml", "opentofu", "81ab6b6da269429a6235410bce4bfe99be36960b", "2bcd0e7d570a39fc23994eb16695769ca5299979", "curated/opentofu-rfc-20241118.md", "go-json",
			func(rc *recipe.Recipe) bool { return rc.Go == "" }},
	} {
		t.Run(tt.file, func(t *testing.T) {
			r, err := Load(filepath.Join("../../data/real", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Names(); !reflect.DeepEqual(got, []string{tt.project}) {
				t.Fatalf("projects = %v", got)
			}
			p := r.Projects[0]
			if len(p.Links.Curated) != 1 {
				t.Fatalf("curated links %+v", p.Links.Curated)
			}
			l := p.Links.Curated[0]
			if l.Base != tt.base || l.Head != tt.head || l.Mapping != tt.mapping {
				t.Errorf("link %+v", l)
			}
			if _, err := mapping.ParseFile(filepath.Join("../../data/real", l.Mapping)); err != nil {
				t.Errorf("curated mapping: %v", err)
			}
			rc := p.Recipe
			if rc == nil || rc.Test.Format != tt.format || !tt.check(rc) {
				t.Fatalf("recipe %+v", rc)
			}
			if err := rc.Validate(); err != nil {
				t.Errorf("recipe: %v", err)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.yaml")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load(dir); err == nil || err.Error() != "registry: "+dir+": a folder, not a file" {
		t.Errorf("folder: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, make([]byte, MaxFileSize+1), 0o644)
	if _, err := Load(big); err == nil || err.Error() != "registry: "+big+": 262145 bytes, more than the registry size cap of 256 KiB" {
		t.Errorf("big file: %v", err)
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"peps/pep-*.rst", "peps/pep-0617.rst", true},
		{"peps/pep-*.rst", "peps/sub/pep-0617.rst", false},
		{"keps/*/*/kep.yaml", "keps/sig-node/1287-x/kep.yaml", true},
		{"keps/*/*/kep.yaml", "keps/sig-node/kep.yaml", false},
		{"**/kep.yaml", "kep.yaml", true},
		{"**/kep.yaml", "a/b/c/kep.yaml", true},
		{"a/**", "a/b/c", true},
		{"a/**/z", "a/z", true},
		{"a/**/z", "a/b/y", false},
		{"*.md", "ep.md", true},
		{"*.md", "ep.rst", false},
	}
	for _, tt := range tests {
		if got, err := MatchGlob(tt.pattern, tt.name); got != tt.want || err != nil {
			t.Errorf("MatchGlob(%q, %q) = %v, %v", tt.pattern, tt.name, got, err)
		}
	}
	if err := checkGlob("**/**/**/**/x"); err == nil {
		t.Error("four ** segments accepted")
	}
	if err := checkGlob("[x"); err == nil {
		t.Error("bad pattern accepted")
	}
}

func TestParseTime(t *testing.T) {
	want := time.Date(2020, 3, 24, 0, 0, 0, 0, time.UTC)
	for _, s := range []string{"2020-03-24", "24-Mar-2020", "24-March-2020", "2020/03/24", "24 Mar 2020", "March 24, 2020", " '2020-03-24' "} {
		if got, err := ParseTime(s); err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v", s, got, err)
		}
	}
	if got, err := ParseTime("2020-03-24T10:00:00+02:00"); err != nil || !got.Equal(time.Date(2020, 3, 24, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("RFC 3339 = %v, %v", got, err)
	}
	for _, s := range []string{"", "soon", "2020-13-01", "32-Mar-2020"} {
		if _, err := ParseTime(s); err == nil {
			t.Errorf("ParseTime(%q) accepted", s)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("projects: [{name: x}]"))
	f.Add([]byte("projects: &a [*a]"))
	// The pathological shapes of issue 14, small enough to mutate.
	for _, s := range []string{
		"projects:\n  - recipe:\n      env: " + strings.Repeat("[", 2000),
		func() string {
			var b strings.Builder
			for i := range 200 {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return b.String()
		}(),
		"projects:\n" + strings.Repeat("  k: v\n", 200),
		strings.Repeat("---\nprojects: []\n", 20),
		"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: &d [*c, *c]\n",
		"\ufeff" + good,
		"projects:\n  - name: x\n    name: y\n",
		"projects:\n  - name: x\n    thresholds: {min_files: 9.99}\n",
		"projects:\n  - name: \x00\n",
		"projects:\n  - name: x\n    links: {curated: [{ep: 1, pr: 2, mapping: /dev/zero}]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse("f.yaml", "/", data)
		if err == nil && len(r.Projects) == 0 {
			t.Fatal("a registry without projects was accepted")
		}
	})
}

// TestSelects: a file is a proposal when the glob matches it and no
// exclude glob does (kubernetes/enhancements: KEPs nested one level deeper
// count, the two templates do not).
func TestSelects(t *testing.T) {
	e := &EPSource{Glob: "keps/**/kep.yaml", Exclude: []string{"keps/NNNN-kep-template/kep.yaml", "keps/*/providers/0000-cloud-provider-template/kep.yaml"}}
	for name, want := range map[string]bool{
		"keps/sig-node/1287-in-place-update-pod-resources/kep.yaml":                 true,
		"keps/sig-cloud-provider/azure/2328-ccm-instance-metadata/kep.yaml":         true,
		"keps/NNNN-kep-template/kep.yaml":                                           false,
		"keps/sig-cloud-provider/providers/0000-cloud-provider-template/kep.yaml":   false,
		"keps/sig-node/5978-cluster-resource-claim-template/kep.yaml":               true,
		"pkg/repo/testdata/repos/valid/keps/sig-architecture/123-newstyle/kep.yaml": false,
		"keps/sig-node/1287-in-place-update-pod-resources/README.md":                false,
	} {
		if got := e.Selects(name); got != want {
			t.Errorf("Selects(%q) = %v", name, got)
		}
	}
}
