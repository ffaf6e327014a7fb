package sandbox

import (
	"testing"
)

func TestGuardScript(t *testing.T) {
	got := GuardScript(`"$LOLBENCH_DIR/lolbench-grade" run`, "-runs", "3", "-out", `"$LOLBENCH_DIR/out"`)
	want := `#!/bin/sh
# lolbench: the verifier runs the tests (pipeline/sandbox/guard).
set -u
set -- -runs 3 -out "$LOLBENCH_DIR/out"
if [ -n "${LOLBENCH_LOCAL:-}" ]; then
	set -- "$@" -local -testbed "$LOLBENCH_TESTBED" -pristine "$LOLBENCH_PRISTINE"
fi
exec "$LOLBENCH_DIR/lolbench-grade" run "$@"
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
