package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSafeJoin(t *testing.T) {
	root := "/ws"
	tests := []struct {
		rel     string
		want    string
		wantErr bool
	}{
		{"candidates/a/mapping.md", "/ws/candidates/a/mapping.md", false},
		{"a/../b", "/ws/b", false},
		{"", "/ws", false},
		{"..", "", true},
		{"../etc/passwd", "", true},
		{"a/../../etc", "", true},
		{"/etc/passwd", "", true},
		{"a\x00b", "", true},
		{"..foo", "/ws/..foo", false},
	}
	for _, tt := range tests {
		got, err := SafeJoin(root, tt.rel)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("SafeJoin(%q) = %q, %v; want %q, error %v", tt.rel, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestValidID(t *testing.T) {
	for _, ok := range []string{"cpython-pep-0617", "a", "k8s-kep-1287.v2"} {
		if err := ValidID(ok); err != nil {
			t.Errorf("ValidID(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "A", "../x", "a/b", "a..b", "-x", strings.Repeat("a", 129), "a b"} {
		if err := ValidID(bad); err == nil {
			t.Errorf("ValidID(%q) accepted", bad)
		}
	}
}

func TestWriteFileAtomicLeavesNoTemporaries(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "x.json")
	if err := WriteJSON(p, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(p, map[string]int{"a": 2}); err != nil {
		t.Fatal(err)
	}
	var got map[string]int
	if err := ReadJSON(p, &got); err != nil || got["a"] != 2 {
		t.Fatalf("ReadJSON = %v, %v", got, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries, want only x.json", len(entries))
	}
}

func TestCandidates(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "work"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"b-1", "a-2"} {
		d, _ := w.CandidateDir(id)
		os.MkdirAll(d, 0o755)
	}
	os.MkdirAll(filepath.Join(w.Root, "candidates", "Not Valid"), 0o755)
	ids, err := w.Candidates()
	if err != nil || strings.Join(ids, ",") != "a-2,b-1" {
		t.Fatalf("Candidates = %v, %v", ids, err)
	}
}
