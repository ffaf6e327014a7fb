// Package sandbox holds the executors and the verifier: it builds the
// environments that benchmark tasks run in and runs test plans in them
// (issue 6; paper §3.3, task construction), and its subpackages grade a
// run (grade, guard, testcmd, and cmd/lolbench-grade, the verifier inside
// the container). What executors read but do not own lives beside it:
// result parsers (pipeline/results), base images (pipeline/baseimage), the
// Harbor task format (pipeline/harbor).
//
// Two executors share one interface:
//
//   - docker (NewDocker) builds layered images through the Engine API
//     (github.com/moby/moby/client): a base image per language and
//     toolchain (layer 1), an environment image per repository at a base
//     commit with the recipe's install commands run (layer 2, reused by
//     every task of that repository and base commit), and the task's image
//     (layer 3: layer 2 tagged with the task's name; the Harbor Dockerfile
//     adds the task's labels). Jobs run in containers with no network, CPU,
//     memory and pids limits, a wall-clock deadline and, where the recipe
//     allows, a non-root user.
//   - local (NewLocal) runs the same scripts in a temporary git work tree on
//     the host. It is not isolated: it exists for machines without a Docker
//     engine, and says so when it starts.
//
// A job is a POSIX shell script with a few files beside it; the scripts
// are the same for both executors (script.go), which is why the two agree.
// In both, the repository lives in a fresh git repository whose single
// commit, tagged lolbench-base, holds the base tree (no later history can
// leak the solution), and a job sees two variables: LOLBENCH_DIR, the
// folder with its files (out/ in it is collected), and LOLBENCH_TESTBED,
// the repository (/testbed in a container).
//
// Validate runs a task's test plan: each side (before and after the
// reference solution) Runs times in one sandbox, one run after the other,
// so state a test leaves behind (a temporary file, a counter) is seen by the
// next run exactly as in a real flaky suite. Classify turns the runs into
// the fail-to-pass and pass-to-pass lists and the flaky tests.
//
// The verifier is one linear read (grade: read.go, judge.go, score.go);
// guard keeps the tested code away from it (docs/architecture.md,
// "Grading and its threat model").
package sandbox
