package guard

import (
	"regexp"
	"testing"
)

// TestNodeCanaries: a first and a last canary, ES modules that fail, named
// as lolbench-node-test collects them; JavaScript and TypeScript share them.
func TestNodeCanaries(t *testing.T) {
	cs, err := nodeCanaries("", "test/unit")
	if err != nil || len(cs) != 2 {
		t.Fatalf("%v, %d canaries", err, len(cs))
	}
	re := regexp.MustCompile(`^import \{ test \} from 'node:test';\nimport \{ strictEqual \} from 'node:assert';\n\ntest\('([A-Z][a-z]+)', \(\) => \{\n  strictEqual\((\d+), (\d+)\);\n\}\);\n$`)
	files := []*regexp.Regexp{regexp.MustCompile(`^test/unit/0[a-z]+\.test\.mjs$`), regexp.MustCompile(`^test/unit/zzzz[a-z]+\.test\.mjs$`)}
	for i, c := range cs {
		m := re.FindStringSubmatch(string(c.source))
		if m == nil {
			t.Fatalf("canary %d: source\n%s", i, c.source)
		}
		if c.Name != m[1] || c.Dir != "test/unit" || !files[i].MatchString(c.File) || c.Last != (i == 1) || m[2] == m[3] {
			t.Errorf("canary %d: %+v, test %q, compares %s with %s", i, c.Canary, m[1], m[2], m[3])
		}
	}
	if cs[0].Name == cs[1].Name {
		t.Errorf("both canaries are named %s", cs[0].Name)
	}
	for _, l := range []string{"JavaScript", "TypeScript"} {
		if !HasCanary(l) {
			t.Errorf("%s has no canary", l)
		}
	}
	for name, want := range map[string]bool{"a.test.ts": true, "a.spec.mjs": true, "a.test.cjs": true, "a.test.js": true, "a.spec.cts": true,
		"a.ts": false, "test.ts": false, "a.test.tsx": false, "a.test.mts": false, "a_test.js": false, "a.test.ts.orig": false} {
		if nodeTestFile(name) != want {
			t.Errorf("nodeTestFile(%q) = %v", name, !want)
		}
	}
}
