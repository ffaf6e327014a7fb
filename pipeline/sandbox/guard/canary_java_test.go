package guard

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestJavaCanaries: a canary in the package and for the JUnit of its
// folder's tests, named as Surefire runs it; none outside a test root.
func TestJavaCanaries(t *testing.T) {
	top := t.TempDir()
	files := map[string]string{
		"src/test/java/org/x/MoneyTest.java":        "package org.x;\n\nimport org.junit.jupiter.api.Test;\nclass MoneyTest {}\n",
		"legacy/src/test/java/org/y/OldTests.java":  "package  org . y ;\nimport org.junit.Test;\npublic class OldTests {}\n",
		"src/test/java/DefaultTest.java":            "class DefaultTest {}\n",
		"src/main/java/org/x/RateTest.java":         "package org.x;\n",
		"src/test/java/org/x/Helper.java":           "package org.x;\n",
		"src/test/resources/org/x/FixtureTest.java": "x",
	}
	for p, s := range files {
		f := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte(s), 0o644)
	}
	tests := []struct {
		dir  string
		want string // the source, with the random names and numbers as \w+ and \d+
	}{
		{"src/test/java/org/x", `^package org\.x;\n\nclass ([A-Z][a-z]+Test) \{\n    @org\.junit\.jupiter\.api\.Test\n    void ([a-z]+)\(\) \{\n        org\.junit\.jupiter\.api\.Assertions\.assertEquals\((\d+), (\d+)\);\n    \}\n\}\n$`},
		{"legacy/src/test/java/org/y", `^package org\.y;\n\npublic class ([A-Z][a-z]+Test) \{\n    @org\.junit\.Test\n    public void ([a-z]+)\(\) \{\n        org\.junit\.Assert\.assertEquals\((\d+), (\d+)\);\n    \}\n\}\n$`},
		{"src/test/java", `^class ([A-Z][a-z]+Test) \{\n    @org\.junit\.jupiter\.api\.Test\n    void ([a-z]+)\(\) \{\n`},
	}
	for _, tt := range tests {
		cs, err := javaCanaries(top, tt.dir)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%s: %v, %d canaries", tt.dir, err, len(cs))
		}
		c := cs[0]
		m := regexp.MustCompile(tt.want).FindStringSubmatch(string(c.source))
		if m == nil {
			t.Fatalf("%s: source\n%s", tt.dir, c.source)
		}
		if c.Name != m[2] || c.File != tt.dir+"/"+m[1]+".java" || c.Dir != tt.dir || !javaTestFile(m[1]+".java") {
			t.Errorf("%s: canary %+v, class %s, method %s", tt.dir, c.Canary, m[1], m[2])
		}
		if len(m) > 4 && m[3] == m[4] {
			t.Errorf("%s: the canary compares %s with itself", tt.dir, m[3])
		}
	}
	for _, dir := range []string{"src/main/java/org/x", "src/test/resources/org/x"} {
		if cs, err := javaCanaries(top, dir); err != nil || len(cs) != 0 {
			t.Errorf("%s: %v, %d canaries; want none outside a test source root", dir, err, len(cs))
		}
	}
	for name, want := range map[string]bool{"MoneyTest.java": true, "TestMoney.java": true, "MoneyTests.java": true, "MoneyTestCase.java": true, "MoneyIT.java": false, "Helper.java": false, "MoneyTest.kt": false} {
		if javaTestFile(name) != want {
			t.Errorf("javaTestFile(%q) = %v", name, !want)
		}
	}
}
