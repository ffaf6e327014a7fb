package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.json")
	os.WriteFile(cfg, []byte(`{"task":"lolbench/x","format":"pytest-ra","FAIL_TO_PASS":["t::a","t::c"],"PASS_TO_PASS":["t::b"],"f2p_sections":{"t::a":["2"]}}`), 0o644)
	log := filepath.Join(dir, "log")
	os.WriteFile(log, []byte("== short test summary info ==\nPASSED t::a\nPASSED t::b\nFAILED t::c - no\n"), 0o644)
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-config", cfg, "-exit", "1", "-log", log, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := "PASS FAIL_TO_PASS t::a (passed)\nFAIL FAIL_TO_PASS t::c (failed)\nPASS PASS_TO_PASS t::b (passed)\n" +
		"reward 0: FAIL_TO_PASS 1/2, PASS_TO_PASS 1/1, sections 1/1\n"
	if stdout.String() != want {
		t.Fatalf("stdout\n%s\nwant\n%s", stdout.String(), want)
	}
	if txt, _ := os.ReadFile(filepath.Join(out, "reward.txt")); string(txt) != "0\n" {
		t.Fatalf("reward.txt %q", txt)
	}
	stdout.Reset()
	if code := run([]string{"-config", cfg, "-error", "the test patch does not apply", "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !bytes.Contains(stdout.Bytes(), []byte("error: the test patch does not apply\n")) {
		t.Fatalf("stdout %s", stdout.String())
	}
	for _, args := range [][]string{{"-config", filepath.Join(dir, "none")}, {"-config", cfg}, {"-bogus"}} {
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}
