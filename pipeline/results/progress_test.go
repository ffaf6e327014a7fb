package results

import (
	"strings"
	"testing"
)

func TestCounter(t *testing.T) {
	tests := []struct {
		name        string
		out         string
		done, known int
	}{
		{"go test -json", `{"Action":"start","Package":"ex/kv"}
{"Action":"run","Package":"ex/kv","Test":"TestGet"}
{"Action":"output","Package":"ex/kv","Test":"TestGet","Output":"--- PASS: TestGet\n"}
{"Action":"pass","Package":"ex/kv","Test":"TestGet","Elapsed":0}
{"Action":"fail","Package":"ex/kv","Test":"TestPut/sub","Elapsed":0}
{"Action":"skip","Package":"ex/kv","Test":"TestDel","Elapsed":0}
{"Action":"pass","Package":"ex/kv","Elapsed":0.1}
`, 3, 0},
		{"pytest progress, wrapped", "============ test session starts ============\ncollected 12 items\n\ntests/test_a.py ..F.s   [ 41%]\n\x1b[32m.....\x1b[0m                [ 83%]\ntests/test_b.py xX  [100%]\n\n=== short test summary info ===\nPASSED tests/test_a.py::test_1\nFAILED tests/test_a.py::test_3 - assert\n", 12, 12},
		{"pytest -rA summary alone", "===== short test summary info =====\nPASSED tests/a.t::x\nFAILED tests/a.t::y - failed\nSKIPPED [2] tests/a.t:3: slow\n", 3, 0},
		{"pytest verbose", "collecting 3 items\ntests/test_a.py::test_1 PASSED    [ 33%]\ntests/test_a.py::TestK::test_m[a b] FAILED [ 66%]\ntests/test_b.py::test_2 SKIPPED (no) [100%]\n", 2, 3},
		{"cargo", "running 2 tests\ntest a::b ... ok\ntest c ... FAILED\n\nrunning 1 test\ntest d ... ignored, slow\ntest result: ok.\n", 3, 3},
		{"a line without its end is not counted yet", `{"Action":"pass","Test":"TestA"}` + "\n" + `{"Action":"pass","Test":"TestB"}`, 1, 0},
		{"noise", "ok  \tex/kv\t0.1s\nFAIL\nsome output ... ok\n" + strings.Repeat("x", 200000) + "\n", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Counter
			// Byte by byte: lines arrive in pieces from a pipe.
			for i := 0; i < len(tt.out); i++ {
				c.Write([]byte{tt.out[i]})
			}
			if done, known := c.Counts(); done != tt.done || known != tt.known {
				t.Errorf("Counts() = %d, %d; want %d, %d", done, known, tt.done, tt.known)
			}
		})
	}
}
