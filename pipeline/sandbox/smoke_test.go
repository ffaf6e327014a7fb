package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestSmoke(t *testing.T) {
	name := os.Getenv("SMOKE")
	if name == "" {
		t.Skip()
	}
	ctx := context.Background()
	var ex Executor
	if os.Getenv("SMOKE_LOCAL") != "" {
		l := NewLocal(os.Stderr)
		l.Env = []string{"PATH=/usr/local/go/bin:/usr/bin:/bin"}
		ex = l
	} else {
		d, err := NewDocker(ctx)
		if err != nil {
			t.Skip(err)
		}
		ex = d
	}
	s := loadSample(t, name)
	spec := s.spec(name + "-x")
	spec.LogDir = t.TempDir()
	spec.Status = os.Stderr
	env, err := ex.Prepare(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	rep, err := Validate(ctx, env, s.plan, t.TempDir(), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep.Classification, "", " ")
	t.Logf("%s\n%s", rep.Summary(), b)
}
