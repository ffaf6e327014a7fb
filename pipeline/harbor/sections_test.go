package harbor

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSetSections: a written task regraded with a new map: config.json's
// map and denominator, task.toml's untested sections and the README's
// FAIL_TO_PASS block change; every other file stays byte for byte.
func TestSetSections(t *testing.T) {
	ty := newToyTask(t)
	dir := filepath.Join(t.TempDir(), "task")
	if err := Write(dir, ty.task); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, f := range Files {
		before[f], _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
	}
	sections := map[string][]string{"tests/test_new.t::feature": {"1", "2"}}
	if err := SetSections(dir, sections, []string{"1", "2", "3"}, []string{"3"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Sections, sections) || !reflect.DeepEqual(cfg.Implementable, []string{"1", "2", "3"}) ||
		!reflect.DeepEqual(cfg.FailToPass, ty.task.FailToPass) || !reflect.DeepEqual(cfg.PassToPass, ty.task.PassToPass) {
		t.Fatalf("config %+v", cfg.Config)
	}
	m, err := ReadToml(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := m["metadata"].(map[string]any)["untested_sections"]; !reflect.DeepEqual(got, []any{"3"}) {
		t.Errorf("task.toml untested_sections %v", got)
	}
	rd, _ := os.ReadFile(filepath.Join(dir, Readme))
	wantBlock := "## FAIL_TO_PASS\n\n- `tests/test_new.t::feature` (sections 1, 2)\n- `tests/test_old.t::more`\n\n" +
		"Untested sections (no FAIL_TO_PASS test asserts them, so even the reference solution does not complete them): 3.\n\n## Running it\n"
	if !strings.Contains(string(rd), wantBlock) {
		t.Errorf("README.md:\n%s", rd)
	}
	if !strings.HasPrefix(string(rd), string(before[Readme][:strings.Index(string(before[Readme]), "## FAIL_TO_PASS")])) {
		t.Error("README.md changed before its FAIL_TO_PASS block")
	}
	for _, f := range Files {
		if f == ConfigJSON || f == TaskToml || f == Readme {
			continue
		}
		if now, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f))); string(now) != string(before[f]) {
			t.Errorf("%s changed", f)
		}
	}
	// Back to no untested section: the mark goes.
	if err := SetSections(dir, sections, []string{"1", "2"}, nil); err != nil {
		t.Fatal(err)
	}
	if m, _ := ReadToml(dir); m["metadata"].(map[string]any)["untested_sections"] != nil {
		t.Error("untested_sections stayed")
	}
}
