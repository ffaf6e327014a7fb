package syntax

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// benchLang is a template for generated source files of one language: a
// header, classes of methods, and a footer.
type benchLang struct {
	ext                     string
	header, footer          string
	classOpen, classClose   string // %[1]d is the class number
	methodOpen, methodClose string // %[1]d class, %[2]d method
	stmt                    string // %[1]d a constant
}

var benchLangs = []benchLang{
	{ext: ".py", header: "import os\n\n", classOpen: "class C%[1]d:\n", methodOpen: "    def m%[2]d(self, x):\n", stmt: "        x = x + %[1]d\n", methodClose: "        return x\n"},
	{ext: ".go", header: "package p\n\n", classOpen: "type C%[1]d struct {\n\tv int\n}\n\n", methodOpen: "func (c *C%[1]d) M%[2]d(x int) int {\n", stmt: "\tx = x + %[1]d\n", methodClose: "\treturn x\n}\n\n"},
	{ext: ".java", header: "package p;\n\npublic class F {\n", footer: "}\n", classOpen: "  public static class C%[1]d {\n", classClose: "  }\n", methodOpen: "    public int m%[2]d(int x) {\n", stmt: "      x = x + %[1]d;\n", methodClose: "      return x;\n    }\n"},
	{ext: ".rs", classOpen: "pub struct C%[1]d { v: i32 }\n\nimpl C%[1]d {\n", classClose: "}\n", methodOpen: "    pub fn m%[2]d(&self, x: i32) -> i32 {\n", stmt: "        let x = x + %[1]d;\n", methodClose: "        x\n    }\n"},
	{ext: ".c", header: "#include <stdio.h>\n\n", classOpen: "struct s%[1]d { int v; };\n\n", methodOpen: "int f%[1]d_%[2]d(int x) {\n", stmt: "    x = x + %[1]d;\n", methodClose: "    return x;\n}\n\n"},
	{ext: ".cc", header: "#include <string>\n\nnamespace n {\n", footer: "}  // namespace n\n", classOpen: "class C%[1]d {\n public:\n", classClose: "};\n", methodOpen: "  int m%[2]d(int x) {\n", stmt: "    x = x + %[1]d;\n", methodClose: "    return x;\n  }\n"},
	{ext: ".ts", header: "import { y } from \"./y\";\n\n", classOpen: "export class C%[1]d {\n", classClose: "}\n", methodOpen: "  m%[2]d(x: number): number {\n", stmt: "    x = x + %[1]d;\n", methodClose: "    return x;\n  }\n"},
	{ext: ".js", header: "const y = require(\"./y\");\n\n", classOpen: "class C%[1]d {\n", classClose: "}\n", methodOpen: "  m%[2]d(x) {\n", stmt: "    x = x + %[1]d;\n", methodClose: "    return x;\n  }\n"},
	{ext: ".cs", header: "using System;\n\nnamespace N\n{\n", footer: "}\n", classOpen: "public class C%[1]d\n{\n", classClose: "}\n", methodOpen: "    public int M%[2]d(int x)\n    {\n", stmt: "        x = x + %[1]d;\n", methodClose: "        return x;\n    }\n"},
}

// benchMethod is one generated method: its statements' constants.
type benchMethod struct {
	id     int
	consts []int
}

// render writes a file of classes of methods in language l.
func (l benchLang) render(classes [][]benchMethod) string {
	var b strings.Builder
	b.WriteString(l.header)
	for c, methods := range classes {
		b.WriteString(expand(l.classOpen, c))
		for _, m := range methods {
			b.WriteString(expand(l.methodOpen, c, m.id))
			for _, k := range m.consts {
				b.WriteString(expand(l.stmt, k))
			}
			b.WriteString(expand(l.methodClose, c, m.id))
		}
		b.WriteString(expand(l.classClose, c))
	}
	b.WriteString(l.footer)
	return b.String()
}

// expand formats a template; one without verbs is kept as it is (Sprintf
// would append "%!(EXTRA ...)" for the unused arguments).
func expand(format string, args ...any) string {
	if !strings.Contains(format, "%") {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// generateScopesChange builds a repository whose head commit changes
// nFiles source files of nine languages, about 100 changed lines each: in
// each file, 3 classes of 10 methods of 6 statements (about 250 lines);
// the change edits 4 statements in each of 6 methods, deletes 2 methods and
// adds 4.
func generateScopesChange(tb testing.TB, nFiles int) (dir string, ch *diff.Change) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	r := newTestRepo(tb)
	before, after := map[string]string{}, map[string]string{}
	for i := range nFiles {
		l := benchLangs[i%len(benchLangs)]
		path := fmt.Sprintf("src/d%02d/file%04d%s", i%31, i, l.ext)
		var pre, post [][]benchMethod
		next := 100
		for range 3 {
			var ms []benchMethod
			for m := range 10 {
				consts := make([]int, 6)
				for k := range consts {
					consts[k] = rng.IntN(1_000_000)
				}
				ms = append(ms, benchMethod{id: m, consts: consts})
			}
			pre = append(pre, ms)
		}
		for _, ms := range pre {
			var out []benchMethod
			for j, m := range ms {
				switch {
				case j == 3 && len(post) < 2: // delete 2 methods per file
					continue
				case j%5 == 1: // edit 4 statements of 6 methods
					consts := append([]int(nil), m.consts...)
					for k := 1; k < 5; k++ {
						consts[k] = rng.IntN(1_000_000)
					}
					m.consts = consts
				}
				out = append(out, m)
			}
			post = append(post, out)
		}
		for k := range 4 { // add 4 methods
			c := k % len(post)
			consts := make([]int, 6)
			for j := range consts {
				consts[j] = rng.IntN(1_000_000)
			}
			post[c] = append(post[c], benchMethod{id: next, consts: consts})
			next++
		}
		before[path] = l.render(pre)
		after[path] = l.render(post)
	}
	base := r.commit(before)
	head := r.commit(after, base)
	repo, err := diff.Open(r.dir)
	if err != nil {
		tb.Fatal(err)
	}
	ch, err = repo.Diff(context.Background(), base.String(), head.String())
	if err != nil {
		tb.Fatal(err)
	}
	return r.dir, ch
}

// changedLines sums the inserted and deleted lines of a change.
func changedLines(ch *diff.Change) (files, lines int) {
	for _, f := range ch.Files {
		if f.Category == lang.Source {
			files++
			lines += len(f.OldLines) + len(f.NewLines)
		}
	}
	return files, lines
}

// BenchmarkResolve is target (a): Resolve on a generated change of 1,000
// source files and about 100,000 changed lines. Compare with
// BenchmarkBareParse, which parses the same blobs with the same number of
// workers and does nothing else; the target is at most twice its time.
func BenchmarkResolve(b *testing.B) {
	dir, ch := generateScopesChange(b, 1000)
	files, lines := changedLines(ch)
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		res, err := Resolve(context.Background(), dir, ch, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Skipped) != 0 || len(res.Files) != files {
			b.Fatalf("resolved %d files, skipped %v", len(res.Files), res.Skipped)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(files), "files")
	b.ReportMetric(float64(lines), "changed-lines")
}

// BenchmarkResolveWithDiff adds the diff itself, as `lolbench pr scopes`
// runs it.
func BenchmarkResolveWithDiff(b *testing.B) {
	dir, ch := generateScopesChange(b, 1000)
	repo, err := diff.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		c, err := repo.Diff(context.Background(), ch.Base, ch.Head)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Resolve(context.Background(), dir, c, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// reportCPU adds the process CPU time per iteration since start, which on
// a loaded machine compares more fairly than wall time. It includes the
// git child processes only once they are waited for (Diff waits).
func reportCPU(b *testing.B, start time.Duration) {
	if d := processCPU() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkBareParse parses the pre- and post-change blobs of the same
// change, already in memory, with runtime.GOMAXPROCS workers of one
// tree-sitter parser each: the floor Resolve is measured against.
func BenchmarkBareParse(b *testing.B) {
	dir, ch := generateScopesChange(b, 1000)
	repo, err := diff.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	type blob struct {
		lang *sitter.Language
		src  []byte
	}
	var blobs []blob
	for _, f := range ch.Files {
		for _, s := range []struct{ rev, path string }{{ch.Base, f.OldPath}, {ch.Head, f.NewPath}} {
			if s.path == "" {
				continue
			}
			src, err := repo.ReadFile(s.rev, s.path)
			if err != nil {
				b.Fatal(err)
			}
			g, err := grammarFor(ParseLanguage(s.path, lang.ForPath(s.path).Name))
			if err != nil {
				b.Fatal(err)
			}
			blobs = append(blobs, blob{g.lang, src})
		}
	}
	workers := runtime.GOMAXPROCS(0)
	b.ResetTimer()
	cpu := processCPU()
	for b.Loop() {
		jobs := make(chan int)
		var wg sync.WaitGroup
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := sitter.NewParser()
				defer p.Close()
				for i := range jobs {
					p.SetLanguage(blobs[i].lang)
					t, err := p.ParseCtx(context.Background(), nil, blobs[i].src)
					if err != nil {
						b.Error(err)
						continue
					}
					t.Close()
				}
			}()
		}
		for i := range blobs {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(blobs)), "blobs")
}
