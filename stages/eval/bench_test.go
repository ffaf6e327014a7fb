package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lolbench/lolbench/data/taxonomy"
	"github.com/lolbench/lolbench/pipeline/trajectory"
)

// benchTrajectory is a 200-step trajectory in lolbench's events: reads,
// edits (some failing), commands, test runs, then a final message;
// variant v shifts what fails so that different modes fire.
func benchTrajectory(v int) []byte {
	var buf bytes.Buffer
	w := trajectory.NewWriter(&buf)
	w.Write(&trajectory.Event{Step: 1, Type: "message", Source: "user", Text: "Implement the proposal as described in the task."})
	files := []string{"store/store.go", "server/server.go", "store/ttl.go", "cmd/main.go", "store/store_test.go"}
	for s := 2; s <= 200; s++ {
		tok := &trajectory.Tokens{Input: 800, Cached: 20000 + int64(s)*100, Output: 150}
		w.Write(&trajectory.Event{Step: s, Type: "message", Source: "agent", Text: "Looking at the next part of the change; the TTL must be checked on read.", Tokens: tok})
		f := files[(s+v)%len(files)]
		id := fmt.Sprintf("c%d", s)
		switch (s + v) % 5 {
		case 0, 1:
			w.Write(&trajectory.Event{Step: s, Type: "tool_call", ID: id, Tool: "read_file", Action: "read", FilesRead: []string{f}})
			w.Write(&trajectory.Event{Step: s, Type: "result", ID: id, Text: "package store\n\nfunc Get(key string) (string, bool) {\n\treturn s.m[key]\n}\n"})
		case 2:
			ok := (s+v)%7 != 0
			w.Write(&trajectory.Event{Step: s, Type: "tool_call", ID: id, Tool: "edit_file", Action: "write", FilesWritten: []string{f}})
			w.Write(&trajectory.Event{Step: s, Type: "result", ID: id, Error: !ok, Text: "edited"})
			w.Write(&trajectory.Event{Step: s, Type: "edit", Path: f, Op: "modify", Error: !ok})
		case 3:
			passed := (s+v)%3 == 0
			w.Write(&trajectory.Event{Step: s, Type: "tool_call", ID: id, Tool: "bash", Action: "test", Command: "go test ./..."})
			w.Write(&trajectory.Event{Step: s, Type: "result", ID: id, Error: !passed, ErrorLine: "--- FAIL: TestTTL (N.Ns)", Text: "--- FAIL: TestTTL (0.00s)\nFAIL\tstore\t0.01s"})
			w.Write(&trajectory.Event{Step: s, Type: "test_run", Command: "go test ./...", Passed: &passed})
		default:
			w.Write(&trajectory.Event{Step: s, Type: "tool_call", ID: id, Tool: "bash", Action: "run", Command: fmt.Sprintf("python3 tools/check%d.py", s%4)})
			w.Write(&trajectory.Event{Step: s, Type: "result", ID: id, Error: s%4 == 0, ErrorLine: "Error: no module", Text: "Error: no module named yaml"})
		}
	}
	w.Write(&trajectory.Event{Step: 200, Type: "message", Source: "agent", Text: "I have implemented the TTL support."})
	w.Flush()
	return buf.Bytes()
}

// BenchmarkAnalyze10kTrajectories analyzes 10,000 failed attempts of 200
// steps each, rule-based modes only (no LLM), as analyze streams them:
// one results row at a time from results.jsonl, its events decoded and
// checked by the 18 predicates and the signals, attributed and written. The events come
// from memory (eight variants) rather than 10,000 files on disk. One
// operation is the 10,000 trajectories; peak-heap-MB is the largest heap
// seen, sampled every 500 attempts, which stays flat as attempts grow.
func BenchmarkAnalyze10kTrajectories(b *testing.B) {
	const n = 10_000
	var variants [][]byte
	for v := 0; v < 8; v++ {
		variants = append(variants, benchTrajectory(v))
	}
	dir := b.TempDir()
	results := filepath.Join(dir, ResultsFile)
	var rb bytes.Buffer
	enc := json.NewEncoder(&rb)
	ref := &Scopes{Files: []string{"store/store.go", "server/server.go", "store/ttl.go"}}
	for i := 0; i < n; i++ {
		enc.Encode(&Row{Agent: "bench__m", Task: fmt.Sprintf("task-%04d", i%500), Candidate: "c", Variant: Plain, Attempt: 1 + i/500 + i%8*100, Reference: ref,
			Verdict: "failed", Trajectory: eventsName("t", i)})
	}
	os.WriteFile(results, rb.Bytes(), 0o644)
	tx := taxonomy.Default()
	b.ResetTimer()
	var peak uint64
	var mu sync.Mutex
	for it := 0; it < b.N; it++ {
		z := &analyzer{tx: tx, tally: NewTally(tx), summary: &JudgeSummary{Dropped: map[string]int{}}, signals: map[string]int{}, enc: json.NewEncoder(io.Discard)}
		var k atomic.Int64
		load := func(r *Row, buf []trajectory.Event) ([]trajectory.Event, error) {
			events := buf[:0]
			i := k.Add(1)
			if i%500 == 0 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				mu.Lock()
				peak = max(peak, ms.HeapAlloc)
				mu.Unlock()
			}
			err := trajectory.ReadJSONL(bytes.NewReader(variants[r.Attempt%len(variants)]), "bench", func(e *trajectory.Event) error {
				events = append(events, *e)
				return nil
			})
			return events, err
		}
		if err := z.run(context.Background(), results, runtime.GOMAXPROCS(0), load, func(*Row) {}); err != nil {
			b.Fatal(err)
		}
		if z.tally.n+z.tally.unattributed != n {
			b.Fatalf("%d attempts", z.tally.n+z.tally.unattributed)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
