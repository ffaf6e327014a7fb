package sandbox

import (
	"fmt"
	"strings"

	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// checkPrefix starts the one line the environment check prints when it
// fails; the executors turn that line into the error.
const checkPrefix = "lolbench-check: "

// CheckScript checks, after the install commands, that the project under
// test comes from the testbed and not from a copy installed elsewhere
// (issue 13 §2): Debian's python3-packaging, say, imported instead of the
// pypa/packaging checkout would make every test test the wrong code.
//
//   - Go, when testbed/go.mod exists and go is on PATH: no go.work outside
//     the testbed is in use, and the module path resolves to the testbed
//     (go list -m). A go list that fails says nothing either way.
//   - Python, when python3 is on PATH: each of imports imports, and from
//     the testbed. With no imports, the top-level packages of the testbed
//     and of its src/ folder (a folder with __init__.py, not tests, docs
//     and the like) are checked, and only for shadowing: one that does not
//     import may be set up by the test runner.
//
// On failure it prints one line starting with checkPrefix, naming the
// module and where it comes from, and exits 1. It runs in testbed.
func CheckScript(testbed string, imports []string) string {
	var b strings.Builder
	b.WriteString("# lolbench: the project under test must come from the testbed.\n")
	// pwd -P: go list prints the real path.
	fmt.Fprintf(&b, "cd %s || exit 1\ntb=$(pwd -P)\n", testcmd.Quote(testbed))
	b.WriteString(`if [ -f go.mod ] && command -v go >/dev/null 2>&1; then
	mod=$(sed -n 's/^[[:space:]]*module[[:space:]]\{1,\}"\{0,1\}\([^"[:space:]]*\).*/\1/p' go.mod | head -n 1)
	work=$(go env GOWORK 2>/dev/null)
	case "$work" in
	"" | off | "$tb"/*) ;;
	*)
		echo "` + checkPrefix + `Go module $mod resolves through the workspace file $work, outside $tb: unset GOWORK (or set it to off) in the recipe's env"
		exit 1
		;;
	esac
	if [ -n "$mod" ] && dir=$(go list -m -f '{{.Dir}}' "$mod" 2>/dev/null); then
		case "$dir" in
		"$tb" | "$tb"/*) ;;
		*)
			echo "` + checkPrefix + `Go module $mod resolves to $dir, not to $tb: remove the replace directive or workspace that points there"
			exit 1
			;;
		esac
	fi
fi
if command -v python3 >/dev/null 2>&1; then
	python3 -B - "$tb"`)
	for _, m := range imports {
		b.WriteString(" " + testcmd.Quote(m))
	}
	b.WriteString(` <<'LOLBENCH_PY' || exit 1
import importlib, os, sys
tb = os.path.realpath(sys.argv[1])
named = sys.argv[2:]
skip = {"test", "tests", "testing", "doc", "docs", "example", "examples", "bench", "benchmark",
        "benchmarks", "script", "scripts", "tools", "build", "dist", "ci", "site-packages"}
mods = list(named)
if not named:
    for parent in (tb, os.path.join(tb, "src")):
        try:
            names = sorted(os.listdir(parent))
        except OSError:
            continue
        for n in names:
            if n.isidentifier() and n.lower() not in skip and n not in mods and os.path.isfile(os.path.join(parent, n, "__init__.py")):
                mods.append(n)
def one_line(s):
    return " ".join(str(s).split())
def under(p):
    p = os.path.realpath(p)
    return p == tb or p.startswith(tb + os.sep)
for m in mods:
    try:
        mod = importlib.import_module(m)
    except BaseException as e:
        if isinstance(e, KeyboardInterrupt):
            raise
        if named:
            print("` + checkPrefix + `Python module %s does not import in %s: %s: %s" % (m, tb, type(e).__name__, one_line(e)))
            sys.exit(1)
        continue
    f = getattr(mod, "__file__", None)
    paths = [f] if f else list(getattr(mod, "__path__", None) or [])
    if paths and not any(under(p) for p in paths):
        print("` + checkPrefix + `Python module %s is imported from %s, not from %s: an installed package shadows the project under test; put the testbed first on sys.path (the recipe's env PYTHONPATH, or pip install -e . in install) or remove that package" % (m, paths[0], tb))
        sys.exit(1)
LOLBENCH_PY
fi
`)
	return b.String()
}
