package sandbox

import (
	"context"
	"fmt"
	"testing"
	"time"
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
// commit and recipe: layer 2 exists and is reused, only the thin task image
// is built.
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
