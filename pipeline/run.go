package pipeline

import (
	"context"
	"fmt"
	"hash/fnv"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Plan is the ordered list of stages of a run: workspace stages before the
// candidates (collect), the per-candidate stages, and workspace stages
// after them (export).
type Plan struct {
	Before []WorkspaceStage
	Each   []CandidateStage
	After  []WorkspaceStage
}

// Names lists every stage of the plan in order.
func (p *Plan) Names() []string {
	var names []string
	for _, s := range p.Before {
		names = append(names, s.Name())
	}
	for _, s := range p.Each {
		names = append(names, s.Name())
	}
	for _, s := range p.After {
		names = append(names, s.Name())
	}
	return names
}

// Shard selects one deterministic slice of the candidates: candidate id
// hashes to shard FNV-1a(id) mod N. Hashing, rather than cutting the
// sorted list, keeps a candidate in its shard when others are added.
type Shard struct{ I, N int }

// ParseShard reads "i/n" (0 <= i < n).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 <= i < n, e.g. 0/4", s)
	}
	return Shard{I: i, N: n}, nil
}

// Has reports whether the candidate belongs to the shard; the zero Shard
// holds every candidate.
func (s Shard) Has(id string) bool {
	if s.N <= 1 {
		return true
	}
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32()%uint32(s.N)) == s.I
}

// RunOptions select what a run does.
type RunOptions struct {
	From, To string   // stage names; empty: the first and the last
	Only     []string // candidate ids; empty: every candidate
	Jobs     int      // candidates in parallel; 0 means 1
	Shard    Shard
	// Observe receives stage events; it is called from several goroutines.
	Observe func(Event)
}

// CandidateRun is the outcome of one candidate.
type CandidateRun struct {
	ID       string         `json:"id"`
	Outcomes []StageOutcome `json:"stages"`
	Err      string         `json:"error,omitempty"`
	// Panic is the stack of a panic in a stage on this candidate: a bug,
	// which the command reports as one (not as bad input). The other
	// candidates run on.
	Panic string `json:"panic,omitempty"`
}

// Summary is the outcome of a run.
type Summary struct {
	Stages     []string       `json:"stages"`
	Candidates []CandidateRun `json:"candidates"`
}

// Run executes the plan over the workspace's candidates, like make: only
// stages whose inputs changed run again. Workspace stages run once; the
// per-candidate stages run on up to Jobs candidates at a time.
func Run(ctx context.Context, env *Env, plan *Plan, opt RunOptions) (*Summary, error) {
	names := plan.Names()
	from, to := 0, len(names)-1
	for flag, name := range map[string]string{"--from": opt.From, "--to": opt.To} {
		if name == "" {
			continue
		}
		i := slices.Index(names, name)
		if i < 0 {
			return nil, fmt.Errorf("%s %s: no such stage; stages are %s", flag, name, strings.Join(names, ", "))
		}
		if flag == "--from" {
			from = i
		} else {
			to = i
		}
	}
	if from > to {
		return nil, fmt.Errorf("--from %s comes after --to %s", names[from], names[to])
	}
	selected := func(i int) bool { return i >= from && i <= to }
	sum := &Summary{Stages: names[from : to+1]}

	for i, s := range plan.Before {
		if selected(i) {
			if err := runWorkspaceStage(ctx, env, s, opt.Observe); err != nil {
				return sum, err
			}
		}
	}

	base := len(plan.Before)
	first, last := max(from-base, 0), min(to-base, len(plan.Each)-1)
	if first <= last {
		ids, err := env.Workspace.Candidates()
		if err != nil {
			return sum, err
		}
		var todo []string
		for _, id := range ids {
			if opt.Shard.Has(id) && (len(opt.Only) == 0 || slices.Contains(opt.Only, id)) {
				todo = append(todo, id)
			}
		}
		for _, id := range opt.Only {
			if !slices.Contains(ids, id) {
				return sum, fmt.Errorf("--only: no candidate %q in %s", id, env.Workspace.Root)
			}
		}
		sum.Candidates = runCandidates(ctx, env, plan.Each[:last+1], first, todo, opt)
		if err := ctx.Err(); err != nil {
			return sum, err
		}
	}

	for i, s := range plan.After {
		if selected(base + len(plan.Each) + i) {
			if err := runWorkspaceStage(ctx, env, s, opt.Observe); err != nil {
				return sum, err
			}
		}
	}
	return sum, nil
}

func runWorkspaceStage(ctx context.Context, env *Env, s WorkspaceStage, observe func(Event)) error {
	notify(observe, Event{Stage: s})
	res, reason := Classify(s.Run(ctx, env))
	notify(observe, Event{Stage: s, Done: &StageOutcome{Stage: s.Name(), Result: res, Reason: reason}})
	if res == Failed || res == Rejected {
		return fmt.Errorf("%s: %s", s.Name(), reason)
	}
	return nil
}

func runCandidates(ctx context.Context, env *Env, stages []CandidateStage, first int, ids []string, opt RunOptions) []CandidateRun {
	runs := make([]CandidateRun, len(ids))
	jobs := max(opt.Jobs, 1)
	sem := make(chan struct{}, jobs)
	var wg sync.WaitGroup
	for i, id := range ids {
		runs[i].ID = id
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			defer func() {
				if v := recover(); v != nil {
					runs[i].Err = OneLine(fmt.Sprintf("panic: %v", v))
					runs[i].Panic = string(debug.Stack())
				}
			}()
			c, err := OpenCandidate(env.Workspace, id)
			if err == nil {
				runs[i].Outcomes, err = runCandidate(ctx, env, c, stages, first, opt.Observe)
			}
			if err != nil {
				runs[i].Err = err.Error()
			}
		}()
	}
	wg.Wait()
	return runs
}
