package languages

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/langsupport"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/recipe"
)

var root = func() string { r, _ := filepath.Abs("../.."); return r }()

// TestLanguagesDocIsCurrent fails when docs/languages.md no longer matches
// the support matrix the code gives.
func TestLanguagesDocIsCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join(root, "docs", "languages.md"))
	if err != nil {
		t.Fatalf("read docs/languages.md: %v (generate it with `make docs`)", err)
	}
	if string(got) != langsupport.Markdown() {
		t.Fatal("docs/languages.md is stale: run `make docs` (lolbench lang doc > docs/languages.md)")
	}
}

// TestMatrix pins the rows of the three languages that run end to end,
// column by column, so that a capability lost in a package shows here.
func TestMatrix(t *testing.T) {
	ops := []string{"negate-condition", "flip-comparison", "int-constant", "return-zero", "delete-call", "swap-if-else"}
	want := map[string]langsupport.Row{
		"Go": {Language: "Go", Scopes: true, TestFiles: []string{"*_test.go"}, Reset: []string{"go.work", "go.work.sum", "go.mod[replace]"},
			Formats: []string{"go-json", "junit"}, Coverage: "go", PerTest: true, SingleTest: "go test -run '^TestA$|^Test$/^Sub$' per package",
			Mutation: ops, Members: true, TestAudit: true, Canary: true, BaseImage: "common", Fence: "go", Augment: true, Samples: []string{"tinykv", "envfile"}, Gaps: []langsupport.Gap{},
			Versions: "any release the Go module proxy has (golang.org/toolchain, go1.2.2 on), from the base commit's go.mod (toolchain line, else go line) or the recipe's go:, downloaded on the host; go: system keeps the image's Go (Debian's 1.19.8 in the offline image)"},
		"Java": {Language: "Java", Scopes: true, TestFiles: []string{"*Test.java", "*Tests.java", "*IT.java", "*TestCase.java", "src/test/", "src/testFixtures/", "src/integrationTest/"},
			Reset:   []string{"junit-platform.properties", "META-INF/services/org.junit.*", "pom.xml[test-plugins]", ".mvn/*", ".mvn/*/*", "gradlew", "mvnw", "gradle/wrapper/*"},
			Formats: []string{"junit"}, Coverage: "jacoco", PerTest: true, SingleTest: "Surefire -Dtest=Class#method,Class$Nested#method",
			Mutation: ops, Members: true, TestAudit: true, Canary: true, BaseImage: "java", Fence: "java", Augment: true, Samples: []string{"coinage"}, Gaps: []langsupport.Gap{},
			Versions: "OpenJDK 17 only (Debian's openjdk-17-jdk-headless, Maven 3.8.7); another needs a public image that has it (recipe image:) on a machine that reaches its registry"},
		"Rust": {Language: "Rust", Scopes: true, TestFiles: []string{"*_test.rs", "tests.rs", "tests/"},
			Reset: []string{".cargo/config.toml", ".cargo/config", "rust-toolchain", "rust-toolchain.toml", "build.rs",
				"Cargo.toml[lib]", "Cargo.toml[test]", "Cargo.toml[patch]", "Cargo.toml[replace]", "Cargo.toml[profile]", "Cargo.toml[dev-dependencies]", "Cargo.toml[target]"},
			Formats: []string{"cargo", "junit"}, Coverage: "llvm-cov", PerTest: true, SingleTest: "lolbench-cargo-test TARGET::path::name (cargo test --test TARGET -- --exact path::name)",
			Mutation: ops, Members: true, TestAudit: true, Canary: true, BaseImage: "rust", Fence: "rust", Augment: true, Samples: []string{"verso"}, Gaps: []langsupport.Gap{},
			Versions: "rustc 1.63 and cargo 0.66 only (Debian's; edition 2021 without later features); another needs a public image that has it (recipe image:) on a machine that reaches its registry"},
	}
	for name, w := range want {
		if got := rows[name]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, got, w)
		}
	}
}

// TestSamples: every sample the matrix names exists, builds its
// repository with make-repo.sh, has a recipe, a mapping and an EP, and
// changes source files of its language.
func TestSamples(t *testing.T) {
	for language, names := range langsupport.Samples {
		if lang.ByName(language) == nil {
			t.Errorf("langsupport.Samples names %q, not a language of the table", language)
		}
		for _, name := range names {
			dir := filepath.Join(root, "data", "samples", name)
			for _, f := range []string{"make-repo.sh", "recipe.yaml", "mapping.md", "ep.md", "README.md"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("sample %s (%s): %v", name, language, err)
				}
			}
			r, err := recipe.Load(filepath.Join(dir, "recipe.yaml"))
			if err != nil {
				t.Errorf("sample %s: %v", name, err)
			} else if r.Language != "" && !lang.SameFamily(lang.ByName(r.Language).Name, language) {
				t.Errorf("sample %s: its recipe says language %q, the matrix %s", name, r.Language, language)
			}
			data, err := os.ReadFile(filepath.Join(dir, "mapping.md"))
			if err != nil {
				continue
			}
			m, err := mapping.Parse(data)
			if err != nil {
				t.Errorf("sample %s: mapping.md: %v", name, err)
				continue
			}
			n := 0
			for _, row := range m.PFS.Rows {
				if l := lang.ForPath(row.Path); row.Category == string(lang.Source) && l != nil && l.Name == language {
					n++
				}
			}
			if n == 0 {
				t.Errorf("sample %s: its PR changes no %s source file (mapping.md's PR File Summary)", name, language)
			}
			impl := 0
			for _, row := range m.SCS.Rows {
				if row.Implementable == "yes" {
					impl++
				}
			}
			if impl == 0 {
				t.Errorf("sample %s: no implementable section", name)
			}
		}
	}
}

// TestMaintainersGuideListsThePieces: the completeness table of
// docs/maintainers.md is langsupport.Pieces, piece for piece and place for
// place, so that the guide names exactly the files the test asks for.
func TestMaintainersGuideListsThePieces(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "docs", "maintainers.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(src), "\n## The completeness test\n")
	if !ok {
		t.Fatal(`docs/maintainers.md has no "## The completeness test" section`)
	}
	var got [][2]string
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "| `") || len(cells) < 2 {
			continue
		}
		got = append(got, [2]string{strings.Trim(strings.TrimSpace(cells[0]), "`"), strings.TrimSpace(cells[1])})
	}
	var want [][2]string
	for _, p := range langsupport.Pieces {
		want = append(want, [2]string{p.Name, p.Where})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("docs/maintainers.md, \"The completeness test\", lists\n%q\nwhile langsupport.Pieces (pipeline/langsupport/support.go) is\n%q", got, want)
	}
	// Every file a piece names exists.
	for _, p := range langsupport.Pieces {
		for _, f := range regexp.MustCompile(`(?:pipeline|data)/[\w/.]+`).FindAllString(p.Where, -1) {
			if _, err := os.Stat(filepath.Join(root, strings.TrimSuffix(f, "."))); err != nil {
				t.Errorf("piece %s names %s: %v", p.Name, f, err)
			}
		}
	}
}
