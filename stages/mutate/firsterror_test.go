package mutate

import "testing"

// TestFirstError: the line that names a source file wins over Maven's
// banner; then a line that reads like an error; then the first line.
func TestFirstError(t *testing.T) {
	tests := []struct{ log, want string }{
		{"[INFO] x\n[ERROR] COMPILATION ERROR :\n[ERROR] /testbed/src/main/java/A.java:[3,5] cannot find symbol\n", "[ERROR] /testbed/src/main/java/A.java:[3,5] cannot find symbol"},
		{"# m/x\nx/y.go:3:1: undefined: z\n", "x/y.go:3:1: undefined: z"},
		{"building\nError: no such thing\n", "Error: no such thing"},
		{"just output\n", "just output"},
		{"", "exit status 2"},
	}
	for _, tt := range tests {
		if got := firstError(tt.log, 2); got != tt.want {
			t.Errorf("firstError(%q) = %q, want %q", tt.log, got, tt.want)
		}
	}
}
