package eval

import (
	"os"
	"testing"
)

// testSource is the text of one of the package's files.
func testSource(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
