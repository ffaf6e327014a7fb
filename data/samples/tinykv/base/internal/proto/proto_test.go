package proto

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		line string
		max  int
		want Command
	}{
		{"get a\r\n", 2, Command{Name: "GET", Args: []string{"a"}}},
		{"SET k hello world", 3, Command{Name: "SET", Args: []string{"k", "hello world"}}},
		{"KEYS", 1, Command{Name: "KEYS", Args: []string{}}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.line, tt.max)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, %v", tt.line, got, err)
		}
	}
	if _, err := Parse("  \n", 2); err != ErrEmpty {
		t.Errorf("blank line: %v", err)
	}
}

// TestParseRepeatable alternates between passing and failing from one run to
// the next. It stands for the flaky tests of real suites: lolbench must see
// it flip across repeated runs and keep it out of the F2P and P2P sets.
func TestParseRepeatable(t *testing.T) {
	counter := filepath.Join(os.TempDir(), "tinykv-flaky-counter")
	data, _ := os.ReadFile(counter)
	n, _ := strconv.Atoi(string(data))
	os.WriteFile(counter, []byte(strconv.Itoa(n+1)), 0o644)
	if n%2 == 1 {
		t.Fatalf("run %d: simulated timing failure", n)
	}
}
