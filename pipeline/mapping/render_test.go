package mapping

import (
	"testing"
)

func mustJSON(t testing.TB, m *Mapping) string {
	t.Helper()
	b, err := JSON(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
