package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testcand"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
)

// TestDagCommand runs lolbench dag on the tinykv sample (mapped, not
// built): the graph for people, then --json, then the errors.
func TestDagCommand(t *testing.T) {
	dir := t.TempDir()
	s := testcand.Tinykv(filepath.Join("..", ".."))
	_, c, err := testcand.Build(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	// Without a mapping there is nothing to read.
	if _, errOut, code := runCLI(t, "dag", s.ID, "--workspace", dir); code != exitBadInput || errOut != "lolbench: dag: candidate tinykv-tkep-0002 has no mapping.md: run lolbench map tinykv-tkep-0002 first, or write it (docs/mapping-format.md)\n" {
		t.Errorf("no mapping: code %d, %q", code, errOut)
	}
	if err := testcand.CopyMapping(s, c, "mapping.md"); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "dag", s.ID, "--workspace", dir)
	want := `tinykv-tkep-0002: 6 sections, 2 edges, depth 2, width 4
  layer 0: 3.1 Store API; 3.2 Background sweeper; 3.5 Python client; 4 Backwards Compatibility
  layer 1: 3.3 Protocol commands; 3.4 Snapshot format
  3.1 -> 3.3
      producer-consumer: 3.3 uses TTL (server/server.go:40), which 3.1 defines in store/store.go:Store.TTL
      producer-consumer: 3.3 uses SetWithTTL (server/server.go:73), which 3.1 defines in store/store.go:Store.SetWithTTL
  3.1 -> 3.4
      producer-consumer: 3.4 uses value (store/store.go:142, 2 uses), which 3.1 defines in store/store.go:value
      producer-consumer: 3.4 uses expired (store/store.go:145), which 3.1 defines in store/store.go:value.expired
  not read: test evidence: no test-to-section map; run lolbench build tinykv-tkep-0002
`
	if code != 0 || errOut != "" || out != want {
		t.Errorf("code %d, stderr %q, out:\n%s", code, errOut, out)
	}
	out, _, code = runCLI(t, "dag", s.ID, "--workspace", dir, "--json")
	var got []*sectiondag.Result
	if err := json.Unmarshal([]byte(out), &got); code != 0 || err != nil || len(got) != 1 || got[0].Depth != 2 || len(got[0].Edges) != 2 ||
		strings.Join(got[0].Files["3.3"], ",") != "server/server.go" {
		t.Fatalf("--json: code %d, %v: %s", code, err, out)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, sectiondag.File)); err != nil {
		t.Error(err)
	}
	// A hostile id, and a mapping that cannot be parsed.
	if _, errOut, code := runCLI(t, "dag", "../x", "--workspace", dir); code != exitBadInput || !strings.Contains(errOut, `invalid candidate id "../x"`) {
		t.Errorf("bad id: code %d, %q", code, errOut)
	}
	if err := os.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), []byte("# Mapping: x\n\n| broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "dag", s.ID, "--workspace", dir); code != exitBadInput || errOut != "lolbench: dag: "+filepath.Join(c.Dir, pipeline.MappingFile)+":3: unexpected paragraph before the first part \"## Section Classification Summary\"\n" {
		t.Errorf("broken mapping: code %d, %q", code, errOut)
	}
}
