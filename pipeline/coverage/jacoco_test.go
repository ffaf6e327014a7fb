package coverage

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// TestJaCoCoPerTest: without a coverage command the adapter runs the test
// command once with the agent and the listener over the plan's tests
// (Surefire's -Dtest, parameterized invocations as their method), and
// reads the listener's index and the line reader's output back per test:
// the invocations of one method share its lines, lines run between tests
// are setup, and a test that did not run is a note.
func TestJaCoCoPerTest(t *testing.T) {
	src := "package com.x;\nclass A {\n  int f(int a) {\n    if (a > 0) {\n      return 1;\n    }\n    return 2;\n  }\n}\n"
	rc := recipe.Recipe{Test: recipe.Test{Command: "lolbench-maven-test -q {tests}", Suite: []string{"."}, Select: recipe.SelectNone}, Limits: recipe.Limits{TimeoutSec: 60}}
	tests := []string{"com.x.ATest::pos", "com.x.ATest::par{int}[1]", "com.x.ATest::par{int}[2]", "com.x.ATest$Inner::neg", "com.x.BTest::never"}
	p := NewPlan(context.Background(), Spec{Recipe: rc, Language: "Java",
		Sources: []SourceFile{{Path: "src/main/java/com/x/A.java", Language: "Java", Content: []byte(src), Added: []int{3, 4, 5, 6, 7}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: tests[:4]}, {Name: P2P, Tests: tests[4:]}},
	})
	s, err := jacocoAdapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `lolbench-maven-test -q '-Dtest=com.x.ATest#par,com.x.ATest#pos,com.x.ATest$Inner#neg,com.x.BTest#never' "-DargLine=-javaagent:$T/jacocoagent.jar=output=none,dumponexit=false" "-Dmaven.test.additionalClasspath=$T/lolbench-pertest.jar"`
	if !strings.Contains(s, "timeout -k 10 60 sh -c '"+strings.ReplaceAll(want, "'", `'\''`)+"'") || !strings.Contains(s, "lolbench.JacocoLines \"$cov/lines.tsv\"") {
		t.Errorf("script:\n%s\nwant it to run\n%s", s, want)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pertest"), 0o755)
	index := "1\tcom.x.ATest\tpos\t[engine:junit-jupiter]/[class:com.x.ATest]/[method:pos()]\n" +
		"2\tcom.x.ATest\tpar\t[engine:junit-jupiter]/[class:com.x.ATest]/[test-template:par(int)]/[test-template-invocation:#1]\n" +
		"3\tcom.x.ATest\tpar\t[engine:junit-jupiter]/[class:com.x.ATest]/[test-template:par(int)]/[test-template-invocation:#2]\n" +
		"4\tcom.x.ATest$Inner\tneg\t[engine:junit-jupiter]/[class:com.x.ATest]/[nested-class:Inner]/[method:neg()]\n" +
		"5\t\t\t[engine:junit-jupiter]/[class:com.x.ATest]/[test-factory:dyn()]/[dynamic-test:#1]\n"
	os.WriteFile(filepath.Join(dir, "pertest", "index.tsv"), []byte(index), 0o644)
	lines := "setup.exec\tcom/x/A.java\t3\n" +
		"t1.exec\tcom/x/A.java\t3,4,5\nt1.exec\tcom/y/Other.java\t9\n" +
		"t2.exec\tcom/x/A.java\t4,5\nt3.exec\tcom/x/A.java\t4,7\n" +
		"t4.exec\tcom/x/A.java\t4,7\nt5.exec\tcom/x/A.java\t5\n"
	os.WriteFile(filepath.Join(dir, "lines.tsv"), []byte(lines), 0o644)
	raw, err := jacocoAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	a := "src/main/java/com/x/A.java"
	wantRaw := map[string]Lines{
		"com.x.ATest::pos":         {a: {3, 4, 5}},
		"com.x.ATest::par{int}[1]": {a: {4, 5, 7}},
		"com.x.ATest::par{int}[2]": {a: {4, 5, 7}},
		"com.x.ATest$Inner::neg":   {a: {4, 7}},
	}
	if !reflect.DeepEqual(raw.PerTest, wantRaw) || !reflect.DeepEqual(raw.Setup, Lines{a: {3}}) {
		t.Errorf("per test %v, setup %v", raw.PerTest, raw.Setup)
	}
	if len(raw.Notes) != 1 || raw.Notes[0] != "1 test(s) did not run under the JaCoCo listener, e.g. com.x.BTest::never" {
		t.Errorf("notes %q", raw.Notes)
	}
	res := &Result{Target: *p.Target}
	finish(res, p, raw)
	// Line 3 is the method's signature: not executable, so its setup run
	// counts for nothing.
	if !res.PerTest || res.Suites[0].Covered != 3 || res.Suites[0].Executable != 3 || res.Suites[1].Covered != 0 {
		t.Errorf("result %+v", res.Suites)
	}
	if r, ok := res.Reaching(Lines{a: {7}}); !ok || !reflect.DeepEqual(r, []string{"com.x.ATest$Inner::neg", "com.x.ATest::par{int}[1]", "com.x.ATest::par{int}[2]"}) {
		t.Errorf("Reaching(7) = %v %v", r, ok)
	}
	if items, ok := (jacocoAdapter{}).Select(p, []string{"com.x.ATest::par{int}[2]", "com.x.ATest::par{int}[1]", "com.x.ATest$Inner::neg"}); !ok ||
		!reflect.DeepEqual(items, []string{"-Dtest=com.x.ATest#par,com.x.ATest$Inner#neg"}) {
		t.Errorf("Select = %q %v", items, ok)
	}
	// Broken output is an error, not coverage.
	os.WriteFile(filepath.Join(dir, "lines.tsv"), []byte("t1.exec\tcom/x/A.java\tx\n"), 0o644)
	if _, err := (jacocoAdapter{}).Read(dir, p); err == nil || err.Error() != `lines.tsv: bad line number "x"` {
		t.Errorf("bad line: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "run.exit"), []byte("124\n"), 0o644)
	if _, err := (jacocoAdapter{}).Read(dir, p); err == nil || !strings.HasPrefix(err.Error(), "the coverage run timed out after 60 s") {
		t.Errorf("timed out: %v", err)
	}
	if _, err := (jacocoAdapter{}).Read(t.TempDir(), p); err == nil || err.Error() != "the JaCoCo listener wrote no index (no test ran under it): no output" {
		t.Errorf("no index: %v", err)
	}
}

// TestJaCoCoStaticInitializer: a static initializer runs once, in the
// first test that loads its class; its lines are setup, so a mutant there
// runs every test.
func TestJaCoCoStaticInitializer(t *testing.T) {
	src := "package com.x;\nclass A {\n  static int k;\n  static {\n    k = 3;\n  }\n  int f() {\n    return k;\n  }\n}\n"
	rc := recipe.Recipe{Test: recipe.Test{Command: "mvn test {tests}"}, Limits: recipe.Limits{TimeoutSec: 60}}
	p := NewPlan(context.Background(), Spec{Recipe: rc, Language: "Java",
		Sources: []SourceFile{{Path: "src/main/java/com/x/A.java", Language: "Java", Content: []byte(src), Added: []int{4, 5, 6, 8}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: []string{"com.x.ATest::one", "com.x.ATest::two"}}},
	})
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "pertest"), 0o755)
	os.WriteFile(filepath.Join(dir, "pertest", "index.tsv"), []byte("1\tcom.x.ATest\tone\tu1\n2\tcom.x.ATest\ttwo\tu2\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lines.tsv"), []byte("t1.exec\tcom/x/A.java\t5,8\nt2.exec\tcom/x/A.java\t8\n"), 0o644)
	raw, err := jacocoAdapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{"com.x.ATest::one": {"src/main/java/com/x/A.java": {8}}, "com.x.ATest::two": {"src/main/java/com/x/A.java": {8}}}
	if !reflect.DeepEqual(raw.PerTest, want) || !reflect.DeepEqual(raw.Setup, Lines{"src/main/java/com/x/A.java": {5}}) {
		t.Errorf("per test %v, setup %v", raw.PerTest, raw.Setup)
	}
}

// FuzzJaCoCoPerTest: the listener's index and the line reader's output are
// written inside the container, by code the solution shares a JVM with;
// whatever they hold, reading them gives lines of the target or an error,
// never a panic.
func FuzzJaCoCoPerTest(f *testing.F) {
	src := "package com.x;\nclass A {\n  int f(int a) {\n    return a;\n  }\n}\n"
	p := NewPlan(context.Background(), Spec{Recipe: recipe.Recipe{Test: recipe.Test{Command: "mvn test {tests}"}}, Language: "Java",
		Sources: []SourceFile{{Path: "src/main/java/com/x/A.java", Language: "Java", Content: []byte(src), Added: []int{4}}},
		Suites:  []SuiteSpec{{Name: F2P, Tests: []string{"com.x.ATest::t"}}},
	})
	f.Add("1\tcom.x.ATest\tt\tu\n", "t1.exec\tcom/x/A.java\t4\nsetup.exec\tcom/x/A.java\t4\n")
	f.Add("x\ty\tz\n", "t1.exec\tcom/x/A.java\t-1,,\n")
	f.Fuzz(func(t *testing.T, index, lines string) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "pertest"), 0o755)
		os.WriteFile(filepath.Join(dir, "pertest", "index.tsv"), []byte(index), 0o644)
		os.WriteFile(filepath.Join(dir, "lines.tsv"), []byte(lines), 0o644)
		raw, err := jacocoAdapter{}.Read(dir, p)
		if err != nil {
			return
		}
		for _, l := range raw.PerTest {
			for file, ls := range l {
				if file != "src/main/java/com/x/A.java" || len(ls) == 0 || ls[0] <= 0 {
					t.Fatalf("lines %v", l)
				}
			}
		}
	})
}
