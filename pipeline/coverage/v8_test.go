package coverage

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/recipe"
)

// vlqEncode writes source map segments for the tests: each is genCol,
// srcLine, srcCol (source 0), relative as the format wants, per line.
func vlqEncode(lines [][][3]int) string {
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	enc := func(v int) string {
		u := v << 1
		if v < 0 {
			u = (-v)<<1 | 1
		}
		var s strings.Builder
		for {
			d := u & 31
			u >>= 5
			if u > 0 {
				d |= 32
			}
			s.WriteByte(b64[d])
			if u == 0 {
				return s.String()
			}
		}
	}
	var out []string
	srcLine, srcCol := 0, 0
	for _, segs := range lines {
		var parts []string
		genCol := 0
		for _, s := range segs {
			parts = append(parts, enc(s[0]-genCol)+enc(0)+enc(s[1]-srcLine)+enc(s[2]-srcCol))
			genCol, srcLine, srcCol = s[0], s[1], s[2]
		}
		out = append(out, strings.Join(parts, ","))
	}
	return strings.Join(out, ";")
}

func writeV8(t *testing.T, dir string, rep any) {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "coverage-1-2-0.json"), data, 0o644)
}

// TestV8 reads one test's V8 coverage of a JavaScript file (offsets into
// the file) and of a TypeScript file (offsets into ts-node's output,
// mapped back through the source map node kept): the innermost range
// decides, a module's top level is setup, and a test that left no
// coverage is a note.
func TestV8(t *testing.T) {
	js := "'use strict';\nconst K = 2;\nfunction f(a) {\n  if (a > K) {\n    return 1;\n  }\n  return 0;\n}\nmodule.exports = { f };\n"
	ts := "export function g(x: number): number {\n  const y = x * 2;\n  return y;\n}\n"
	rc := recipe.Recipe{Test: recipe.Test{Command: "lolbench-node-test {tests}", Suite: []string{"test"}}, Limits: recipe.Limits{TimeoutSec: 60, CPUs: 2}}
	tests := []string{"test/a.test.js::f › small", "test/b.test.ts::g doubles", "test/a.test.js::f › never"}
	p := NewPlan(context.Background(), Spec{Recipe: rc, Language: "TypeScript",
		Sources: []SourceFile{
			{Path: "src/f.js", Language: "JavaScript", Content: []byte(js), Added: []int{2, 3, 4, 5, 6, 7, 8, 9}},
			{Path: "src/g.ts", Language: "TypeScript", Content: []byte(ts), Added: []int{1, 2, 3, 4}},
		},
		Suites: []SuiteSpec{{Name: F2P, Tests: tests}},
	})
	if got := p.Target.Lines(); !reflect.DeepEqual(got, Lines{"src/f.js": {2, 4, 5, 7, 9}, "src/g.ts": {2, 3}}) {
		t.Fatalf("executable lines %v", got)
	}
	s, err := v8Adapter{}.Script(p)
	if err != nil {
		t.Fatal(err)
	}
	// p.Tests is sorted: t0 is "f › never", t1 "f › small", t2 "g doubles".
	for _, want := range []string{
		`NODE_V8_COVERAGE="$cov/t1" LOLBENCH_NODE_REPORT="$cov/t1.xml" timeout -k 10 60 sh -c 'lolbench-node-test '\''--test-name-pattern=^small$'\'' test/a.test.js'`,
		`lolbench-node-test '\''--test-name-pattern=^g doubles$'\'' test/b.test.ts'`,
		"wait\nlolbench_done 2\n", "wait\nlolbench_done 3\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("script:\n%s\nwant it to hold\n%s", s, want)
		}
	}
	sel, ok := v8Adapter{}.Select(p, []string{"test/b.test.ts::g doubles", "test/a.test.js::f › small (x.y)"})
	if want := []string{`--test-name-pattern=^g doubles$`, `--test-name-pattern=^small \(x\.y\)$`, "test/a.test.js", "test/b.test.ts"}; !ok || !reflect.DeepEqual(sel, want) {
		t.Errorf("select %q, want %q", sel, want)
	}

	dir := t.TempDir()
	off := func(sub string) int64 { return int64(strings.Index(js, sub)) }
	fStart, fEnd := off("function f"), off("module.exports")
	// t1: f(1): the if's block did not run.
	writeV8(t, filepath.Join(dir, "t1"), map[string]any{"result": []any{
		map[string]any{"url": "file:///testbed/src/f.js", "functions": []any{
			map[string]any{"functionName": "", "ranges": []any{map[string]any{"startOffset": 0, "endOffset": len(js), "count": 1}}},
			map[string]any{"functionName": "f", "ranges": []any{
				map[string]any{"startOffset": fStart, "endOffset": fEnd, "count": 1},
				map[string]any{"startOffset": off("{\n    return 1"), "endOffset": off("\n  return 0"), "count": 0}}},
		}},
		map[string]any{"url": "file:///usr/share/nodejs/x.js", "functions": []any{}},
		map[string]any{"url": "file:///testbed/../etc/f.js", "functions": []any{}},
	}})
	// t2: ts-node's output, one generated line per source line, indented
	// by four where the source is by two.
	gen := []string{"function g(x) {", "    const y = x * 2;", "    return y;", "}", "exports.g = g;"}
	var lens []int
	genText := strings.Join(gen, "\n")
	for _, l := range gen {
		lens = append(lens, len(l))
	}
	maps := vlqEncode([][][3]int{{{0, 0, 0}}, {{4, 1, 2}}, {{4, 2, 2}}, {{0, 3, 0}}})
	gStart := int64(strings.Index(genText, "function g"))
	writeV8(t, filepath.Join(dir, "t2"), map[string]any{
		"result": []any{map[string]any{"url": "file:///testbed/src/g.ts", "functions": []any{
			map[string]any{"functionName": "", "ranges": []any{map[string]any{"startOffset": 0, "endOffset": len(genText), "count": 1}}},
			map[string]any{"functionName": "g", "ranges": []any{map[string]any{"startOffset": gStart, "endOffset": strings.Index(genText, "exports"), "count": 1}}},
		}}},
		"source-map-cache": map[string]any{"file:///testbed/src/g.ts": map[string]any{
			"lineLengths": lens, "data": map[string]any{"version": 3, "sources": []string{"file:///testbed/src/g.ts"}, "mappings": maps}}},
	})
	raw, err := v8Adapter{}.Read(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Lines{"test/a.test.js::f › small": {"src/f.js": {4, 7}}, "test/b.test.ts::g doubles": {"src/g.ts": {2, 3}}}
	if !reflect.DeepEqual(raw.PerTest, want) || !reflect.DeepEqual(raw.Setup.Normalize(), Lines{"src/f.js": {2, 9}}) {
		t.Errorf("per test %v, setup %v; want %v, setup src/f.js 2 and 9", raw.PerTest, raw.Setup, want)
	}
	if len(raw.Notes) != 1 || !strings.Contains(raw.Notes[0], "1 test(s) left no V8 coverage, e.g. test/a.test.js::f › never") {
		t.Errorf("notes %q", raw.Notes)
	}

	// Hostile: a mapping that is no VLQ, a line length out of range, a run
	// that timed out, a report that is no JSON.
	for name, c := range map[string]struct {
		rep  any
		exit string
		want string
	}{
		"bad mapping":     {map[string]any{"result": []any{map[string]any{"url": "file:///testbed/src/g.ts", "functions": []any{}}}, "source-map-cache": map[string]any{"file:///testbed/src/g.ts": map[string]any{"lineLengths": []int{3}, "data": map[string]any{"sources": []string{"x"}, "mappings": "A!"}}}}, "", "bad mapping character"},
		"bad line length": {map[string]any{"result": []any{map[string]any{"url": "file:///testbed/src/g.ts", "functions": []any{}}}, "source-map-cache": map[string]any{"file:///testbed/src/g.ts": map[string]any{"lineLengths": []int{-1}, "data": map[string]any{"sources": []string{"x"}, "mappings": "AAAA"}}}}, "", "bad line length -1"},
		"timed out":       {map[string]any{}, "124\n", "timed out after 60 s"},
		"not JSON":        {"{", "", "cannot unmarshal string"},
	} {
		d := t.TempDir()
		writeV8(t, filepath.Join(d, "t2"), c.rep)
		if c.exit != "" {
			os.WriteFile(filepath.Join(d, "t2.exit"), []byte(c.exit), 0o644)
		}
		if _, err := (v8Adapter{}).Read(d, p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
	if a, err := AdapterFor(recipe.Recipe{}, "JavaScript"); err != nil || a.Name() != "v8" {
		t.Errorf("JavaScript's adapter: %v %v", a, err)
	}
	if got := (v8Adapter{}).BuildCheck([]string{"src/a.ts", "lib/b.mjs"}); got != "node --check lib/b.mjs && { [ ! -f tsconfig.json ] || tsc --noEmit -p .; }" {
		t.Errorf("build check %q", got)
	}
}
