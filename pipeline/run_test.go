package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// copyStage reads the output of the stage before it (in) and writes its
// own (name.txt): the previous text plus its name.
type copyStage struct {
	name, in string
	mu       sync.Mutex
	ran      []string
}

func (s *copyStage) Name() string   { return s.name }
func (s *copyStage) String() string { return "running " + s.name }
func (s *copyStage) Inputs(env *Env, c *Candidate) (Inputs, error) {
	return Inputs{Files: []string{s.in}}, nil
}
func (s *copyStage) Run(ctx context.Context, env *Env, c *Candidate) error {
	s.mu.Lock()
	s.ran = append(s.ran, c.ID)
	s.mu.Unlock()
	old, _ := os.ReadFile(filepath.Join(c.Dir, s.in))
	return workspace.WriteFile(filepath.Join(c.Dir, s.name+".txt"), append(old, s.name+"\n"...), 0o644)
}

type wsStage struct {
	name string
	runs int
}

func (s *wsStage) Name() string   { return s.name }
func (s *wsStage) String() string { return "running " + s.name }
func (s *wsStage) Run(ctx context.Context, env *Env) error {
	s.runs++
	return nil
}

func newPlanWorkspace(t *testing.T, ids ...string) (*Env, *Plan, []*copyStage) {
	t.Helper()
	ws, err := workspace.Open(t.TempDir(), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		d, _ := ws.CandidateDir(id)
		os.MkdirAll(d, 0o755)
	}
	each := []*copyStage{{name: "map", in: "input.txt"}, {name: "validate", in: "map.txt"}, {name: "build", in: "validate.txt"}}
	plan := &Plan{Before: []WorkspaceStage{&wsStage{name: "collect"}}, After: []WorkspaceStage{&wsStage{name: "export"}}}
	for _, s := range each {
		plan.Each = append(plan.Each, s)
	}
	return &Env{Workspace: ws, Version: "t"}, plan, each
}

func traces(t *testing.T, env *Env) map[string]string {
	t.Helper()
	out := map[string]string{}
	ids, _ := env.Workspace.Candidates()
	for _, id := range ids {
		d, _ := env.Workspace.CandidateDir(id)
		b, _ := os.ReadFile(filepath.Join(d, "build.txt"))
		out[id] = string(b)
	}
	return out
}

func TestRunFromToOnly(t *testing.T) {
	env, plan, each := newPlanWorkspace(t, "a-1", "b-2", "c-3")
	sum, err := Run(context.Background(), env, plan, RunOptions{Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sum.Stages, ","); got != "collect,map,validate,build,export" {
		t.Fatalf("stages = %s", got)
	}
	want := map[string]string{"a-1": "map\nvalidate\nbuild\n", "b-2": "map\nvalidate\nbuild\n", "c-3": "map\nvalidate\nbuild\n"}
	if got := traces(t, env); !reflect.DeepEqual(got, want) {
		t.Fatalf("traces = %v", got)
	}
	// Up to date: nothing reruns.
	if _, err := Run(context.Background(), env, plan, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, s := range each {
		if len(s.ran) != 3 {
			t.Fatalf("%s ran %d times, want 3", s.name, len(s.ran))
		}
	}
	// --from validate --only b-2 --force reruns validate and build of b-2.
	env.Force = true
	if _, err := Run(context.Background(), env, plan, RunOptions{From: "validate", To: "build", Only: []string{"b-2"}}); err != nil {
		t.Fatal(err)
	}
	env.Force = false
	if len(each[0].ran) != 3 || len(each[1].ran) != 4 || each[1].ran[3] != "b-2" || len(each[2].ran) != 4 {
		t.Fatalf("runs after --from validate --only b-2: %v %v %v", each[0].ran, each[1].ran, each[2].ran)
	}
	if _, err := Run(context.Background(), env, plan, RunOptions{From: "deploy"}); err == nil || !strings.Contains(err.Error(), "no such stage") {
		t.Fatalf("unknown stage: %v", err)
	}
	if _, err := Run(context.Background(), env, plan, RunOptions{Only: []string{"zz"}}); err == nil || !strings.Contains(err.Error(), `no candidate "zz"`) {
		t.Fatalf("unknown candidate: %v", err)
	}
}

// TestShardsUnionEqualsUnshardedRun: n workers with --shard i/n together do
// exactly the work of one unsharded run, each candidate once.
func TestShardsUnionEqualsUnshardedRun(t *testing.T) {
	ids := []string{"alpha-1", "beta-2", "gamma-3", "delta-4", "eps-5", "zeta-6", "eta-7", "theta-8", "iota-9"}
	whole, wplan, _ := newPlanWorkspace(t, ids...)
	if _, err := Run(context.Background(), whole, wplan, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	sharded, splan, each := newPlanWorkspace(t, ids...)
	const n = 4
	for i := 0; i < n; i++ {
		if _, err := Run(context.Background(), sharded, splan, RunOptions{Shard: Shard{I: i, N: n}, From: "map", To: "build"}); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := traces(t, sharded), traces(t, whole); !reflect.DeepEqual(got, want) {
		t.Fatalf("sharded traces %v, unsharded %v", got, want)
	}
	ran := slices.Clone(each[0].ran)
	sort.Strings(ran)
	sorted := slices.Clone(ids)
	sort.Strings(sorted)
	if !slices.Equal(ran, sorted) {
		t.Fatalf("map ran on %v, want each candidate once", ran)
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Fatalf("ParseShard(2/5) = %v, %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}
