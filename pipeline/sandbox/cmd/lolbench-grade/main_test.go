package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestUsage: the command line is checked before anything runs; the
// verifier's behaviour is tested in pipeline/sandbox/guard and, end to
// end, in test/exploits.
func TestUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage:"},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"run"}, 2, "usage:"},
		{[]string{"run", "-config", "x"}, 2, "usage:"},
		{[]string{"run", "-config", "/nonexistent/config.json", "-out", t.TempDir()}, 2, "verifier configuration"},
		{[]string{"verify", "extra"}, 2, "usage:"},
		{[]string{"count", "-log", "l", "-out", "o"}, 2, "usage:"},
		{[]string{"count", "-log", "l", "-until", "u", "-out", "o", "-known", "-1"}, 2, "usage:"},
		{[]string{"help"}, 0, ""},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tt.args, &out, &errOut)
		if code != tt.code || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, errOut.String(), tt.code, tt.want)
		}
	}
}
