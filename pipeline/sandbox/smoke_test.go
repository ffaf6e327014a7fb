package sandbox

import (
	"context"
	"encoding/json"
	"os"
	"testing"
)

func TestSmokeDocker(t *testing.T) {
	ctx := context.Background()
	d, err := NewDocker(ctx)
	if err != nil {
		t.Skip(err)
	}
	s := loadSample(t, "tinykv")
	spec := s.spec("tinykv-tkep-0002")
	spec.LogDir = t.TempDir()
	spec.Status = os.Stderr
	env, err := d.Prepare(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Validate(ctx, env, s.plan, t.TempDir(), os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", " ")
	t.Logf("%s", b)
}
