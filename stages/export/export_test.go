package export

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/build"
)

// builtWorkspace has three candidates: a built one, a rejected one and one
// never built.
func builtWorkspace(t *testing.T) *pipeline.Env {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	add := func(id string, result pipeline.Result, reason string) *pipeline.Candidate {
		c, _ := pipeline.OpenCandidate(ws, id)
		os.MkdirAll(c.Dir, 0o755)
		info := `{"id":"` + id + `","project":"p","repo":"o/p","language":"Go","domain":"databases","repo_dir":"repos/p",
"ep":{"id":"PEP 9","title":"Nine","file":"ep.md","created":"2026-01-01T00:00:00Z"},
"pr":{"number":9,"title":"t","author":"a","created_at":"2026-02-03T04:05:06Z","merged_at":"2026-02-04T00:00:00Z","base_sha":"b","head_sha":"h"},"criteria":[]}`
		os.WriteFile(filepath.Join(c.Dir, "candidate.json"), []byte(info), 0o644)
		os.WriteFile(filepath.Join(c.Dir, "ep.md"), []byte("# Nine\n\nText.\n"), 0o644)
		if result != "" {
			c.SaveStatus(&pipeline.Status{Stages: map[string]*pipeline.StageStatus{"build": {Result: result, Reason: reason}}})
		}
		return c
	}
	c := add("p-pep-0009", pipeline.Passed, "")
	os.MkdirAll(filepath.Join(c.Dir, "build"), 0o755)
	os.WriteFile(filepath.Join(c.Dir, build.SolutionFile), []byte("diff --git a/x b/x\n"), 0o644)
	os.WriteFile(filepath.Join(c.Dir, build.TestPatch), []byte("diff --git a/x_test b/x_test\n"), 0o644)
	rec := build.Record{ID: "p-pep-0009", Project: "p", Repo: "o/p", BaseCommit: "b", HeadCommit: "h",
		CreatedAt: time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC), Version: "b-12345678",
		Recipe:   recipe.Recipe{Image: "golang:1.22", Test: recipe.Test{Command: "go test -json {tests}", Format: "go-json"}},
		Sections: []build.Section{{ID: "1", Title: "Nine"}},
		Report: &sandbox.Report{Command: "go test -json ./...", Classification: sandbox.Classification{
			FailToPass: []string{"m.TestA"}, PassToPass: []string{"m.TestB", "m.TestC"}}},
		Task: "task"}
	workspace.WriteJSON(filepath.Join(c.Dir, build.RecordFile), rec)
	// Section 2 has no test: the task is not ready.
	smap := sectionmap.Compute("build", sectionmap.Input{Tests: []string{"m.TestA"},
		Sections: []mapping.TaskSection{{ID: "1", Title: "Nine"}, {ID: "2", Title: "Two"}},
		Rows:     map[string]sectionmap.Rows{"m.TestA": {Named: map[string]int{"1": 1}}}})
	if err := sectionmap.Save(c, smap, true); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(c.Dir, "task", "tests"), 0o755)
	os.WriteFile(filepath.Join(c.Dir, "task", "task.toml"), []byte("version = '1.0'\n"), 0o644)
	os.WriteFile(filepath.Join(c.Dir, "task", "tests", "test.sh"), []byte("#!/bin/sh\n"), 0o755)
	add("p-pep-0010", pipeline.Rejected, "no fail-to-pass test: x")
	add("p-pep-0011", "", "")
	return &pipeline.Env{Workspace: ws, Version: "test"}
}

func TestExportSWEBench(t *testing.T) {
	env := builtWorkspace(t)
	// A task whose reference solution leaves a section untested is not
	// ready: skipped, with the reason and the flag that includes it.
	st := &Stage{Format: SWEBench}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	wantSkipped := map[string]string{"p-pep-0010": "build rejected: no fail-to-pass test: x", "p-pep-0011": "not built; run lolbench build",
		"p-pep-0009": "not ready: the reference solution completes 1/2 sections: untested 2; export it with --include-unreviewed"}
	if st.Exported != nil || !reflect.DeepEqual(st.Skipped, wantSkipped) {
		t.Fatalf("exported %v, skipped %v", st.Exported, st.Skipped)
	}
	// Included, it is marked with its untested sections.
	st = &Stage{Format: SWEBench, IncludeUnreviewed: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	delete(wantSkipped, "p-pep-0009")
	if !reflect.DeepEqual(st.Exported, []string{"p-pep-0009"}) || !reflect.DeepEqual(st.Skipped, wantSkipped) {
		t.Fatalf("exported %v, skipped %v", st.Exported, st.Skipped)
	}
	data, err := os.ReadFile(st.Path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"instance_id":"p-pep-0009","repo":"o/p","base_commit":"b","patch":"diff --git a/x b/x\n","test_patch":"diff --git a/x_test b/x_test\n",` +
		`"problem_statement":"# Nine\n\nText.\n","hints_text":"","FAIL_TO_PASS":["m.TestA"],"PASS_TO_PASS":["m.TestB","m.TestC"],` +
		`"created_at":"2026-02-03T04:05:06Z","version":"b-12345678","environment_setup_commit":"b","ep_id":"PEP 9","ep_title":"Nine","pr_number":9,` +
		`"language":"Go","domain":"databases","sections":[{"id":"1","title":"Nine"}],"f2p_sections":{"m.TestA":["1"]},"implementable_sections":["1","2"],"untested_sections":["2"],` +
		`"test_command":"go test -json ./...","test_format":"go-json","test_infra_reset":{"categories":["test","test-data","vendor"],"globs":["*.pth",".babelrc",".cargo/config",".cargo/config.toml",".mocharc*",".mvn/*",".mvn/*/*",".npmrc",".pytest.ini","CTestConfig.cmake","CTestCustom.cmake","CTestCustom.cmake.in","CTestCustom.ctest","CTestCustom.ctest.in","CTestTestfile.cmake","Cargo.toml[dev-dependencies]","Cargo.toml[lib]","Cargo.toml[patch]","Cargo.toml[profile]","Cargo.toml[replace]","Cargo.toml[target]","Cargo.toml[test]","FindCMocka.cmake","FindGTest.cmake","GTestConfig.cmake","GoogleTest.cmake","GoogleTestAddTests.cmake","META-INF/services/org.junit.*","babel.config.*","build.rs","cmocka-config.cmake","conftest.py","go.mod[replace]","go.work","go.work.sum","gradle/wrapper/*","gradlew","gtest_main.cc","gtest_main.cpp","jest.config.*","jest.setup.*","junit-platform.properties","karma.conf.*","mvnw","package.json[test-config]","pom.xml[test-plugins]","pyproject.toml[tool.pytest]","pytest.ini","rust-toolchain","rust-toolchain.toml","setup.cfg[tool:pytest]","sitecustomize.py","test/*/CMakeLists.txt","test/CMakeLists.txt","test_main.c","test_main.cc","test_main.cpp","tests/*/CMakeLists.txt","tests/CMakeLists.txt","testsuite/CMakeLists.txt","tox.ini[pytest]","tsconfig*.json[ts-node]","usercustomize.py","vitest.config.*","vitest.setup.*","vitest.workspace.*"]}}` + "\n"
	if string(data) != want {
		t.Fatalf("got\n%s\nwant\n%s", data, want)
	}
	// Every line is a JSON object with SWE-bench's required fields.
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"instance_id", "repo", "base_commit", "patch", "test_patch", "problem_statement", "FAIL_TO_PASS", "PASS_TO_PASS", "created_at", "version"} {
			if _, ok := m[k]; !ok {
				t.Errorf("missing %s", k)
			}
		}
	}
}

func TestExportHarbor(t *testing.T) {
	env := builtWorkspace(t)
	out := t.TempDir()
	st := &Stage{Format: Harbor, Out: out, IncludeUnreviewed: true}
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if st.Path != filepath.Join(out, "harbor") || !reflect.DeepEqual(st.Exported, []string{"p-pep-0009"}) {
		t.Fatalf("path %s, exported %v", st.Path, st.Exported)
	}
	fi, err := os.Stat(filepath.Join(out, "harbor", "p-pep-0009", "tests", "test.sh"))
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("test.sh not copied executable: %v", err)
	}
	// A second export replaces the first.
	if err := st.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(out, "harbor")); len(entries) != 1 {
		t.Fatalf("entries %v", entries)
	}
}

func TestExportUnknownFormat(t *testing.T) {
	err := (&Stage{Format: "csv"}).Run(context.Background(), builtWorkspace(t))
	if err == nil || err.Error() != `export: unknown format "csv" (known: harbor, swebench)` {
		t.Fatalf("err = %v", err)
	}
}
