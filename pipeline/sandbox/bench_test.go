package sandbox

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
	"github.com/lolbench/lolbench/pipeline/sandbox/testcmd"
)

// BenchmarkFirstTask prepares tinykv's environment from a cold layer 2
// (the install commands build Go's standard library without cgo and the
// project), as the first task of a repository and base commit does. Each
// iteration adds a distinct no-op install step, so no layer 2 exists yet
// and the engine's cache cannot serve one.
//
//	go test -run '^$' -bench 'Task$' -benchtime 3x ./pipeline/sandbox
func BenchmarkFirstTask(b *testing.B) {
	d := needDocker(b)
	s := loadSample(b, "tinykv")
	ctx := context.Background()
	run := time.Now().UnixNano()
	for i := 0; i < b.N; i++ {
		spec := s.spec(fmt.Sprintf("bench-first-%d", i))
		spec.Recipe.Install = append([]string{fmt.Sprintf("echo cold %d %d", run, i)}, spec.Recipe.Install...)
		env, err := d.Prepare(ctx, spec)
		if err != nil {
			b.Fatal(err)
		}
		if env.Info().EnvReused {
			b.Fatal("layer 2 was reused")
		}
		b.StopTimer()
		d.RemoveImage(ctx, env.Info().TaskImage)
		d.RemoveImage(ctx, env.Info().EnvImage)
		b.StartTimer()
	}
}

// BenchmarkSecondTask prepares a further task of the same repository, base
// commit and recipe: layer 2 exists and is reused, and is tagged with the
// task's name.
func BenchmarkSecondTask(b *testing.B) {
	d := needDocker(b)
	s := loadSample(b, "tinykv")
	ctx := context.Background()
	if _, err := d.Prepare(ctx, s.spec("bench-warm")); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		env, err := d.Prepare(ctx, s.spec(fmt.Sprintf("bench-second-%d", i)))
		if err != nil {
			b.Fatal(err)
		}
		if !env.Info().EnvReused {
			b.Fatal("layer 2 was rebuilt")
		}
		b.StopTimer()
		d.RemoveImage(ctx, env.Info().TaskImage)
		b.StartTimer()
	}
	b.StopTimer()
	d.RemoveImage(ctx, "lolbench/task:bench-warm")
}

// legacyVerifyScript is the verifier before issue 11, kept here only as
// the benchmark's baseline: as the recipe's user, it applied the solution,
// restored the PR's test files from the base tag, applied the test patch
// and ran the tests once, graded from the log and exit status, with no
// reset, no canary and no process control.
func legacyVerifyScript(r recipe.Recipe, selection, testPaths []string) string {
	var b strings.Builder
	b.WriteString("set -u\nout=\"$LOLBENCH_DIR/out\"\nmkdir -p \"$out\"\ncd \"$LOLBENCH_TESTBED\" || exit 90\n")
	b.WriteString("git apply --whitespace=nowarn \"$LOLBENCH_DIR/solution.patch\" || exit 91\n")
	for _, p := range testPaths {
		fmt.Fprintf(&b, "if git cat-file -e %[1]s:%[2]s 2>/dev/null; then git checkout -q %[1]s -- %[2]s; else rm -f -- %[2]s; fi\n", BaseTag, testcmd.Quote(p))
	}
	b.WriteString("git apply --whitespace=nowarn \"$LOLBENCH_DIR/test.patch\" || exit 92\n")
	b.WriteString("log=\"$out/run-1.log\"\nexitfile=\"$out/run-1.exit\"\nresdir=\"$out/run-1.results\"\n")
	b.WriteString(RunOnceScript(r, selection))
	return b.String()
}

// BenchmarkVerify scores the reference solution on each sample with the
// verifier before issue 11 (legacy) and with the guarded one (guarded):
// one test run in a fresh container from the same environment image, and
// the grade. Run side by side:
//
//	go test -run '^$' -bench 'Verify' -benchtime 10x ./pipeline/sandbox
func BenchmarkVerify(b *testing.B) {
	d := needDocker(b)
	ctx := context.Background()
	for _, name := range []string{"tinykv", "unitconv"} {
		s := loadSample(b, name)
		env, err := d.Prepare(ctx, s.spec(name+"-bench"))
		if err != nil {
			b.Fatal(err)
		}
		plan := s.plan
		plan.Recipe.Runs = 1
		paths := s.testPaths
		b.Run(name+"/legacy", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out := b.TempDir()
				job := Job{Name: "legacy", Script: legacyVerifyScript(plan.Recipe, plan.Selection, paths), OutDir: out,
					Files: map[string][]byte{"test.patch": plan.TestPatch, "solution.patch": plan.Solution}}
				if _, err := env.Run(ctx, job); err != nil {
					b.Fatal(err)
				}
				resDir := ""
				if plan.Recipe.Test.Results != "" {
					resDir = filepath.Join(out, "run-1.results")
				}
				res, _ := grade.ReadResults(plan.Recipe.Test.Format, filepath.Join(out, "run-1.log"), resDir)
				if len(res) == 0 {
					b.Fatalf("no results: %s", out)
				}
			}
		})
		b.Run(name+"/guarded", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				side, err := RunSide(ctx, env, plan, After, plan.Solution, b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				if len(side.Runs) != 1 || side.Runs[0].Void != "" || side.Runs[0].Canaries == 0 {
					b.Fatalf("run %+v", side.Runs)
				}
			}
		})
	}
}
