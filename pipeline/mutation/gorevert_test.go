package mutation_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
	"github.com/lolbench/lolbench/pipeline/results"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// The wrr sample reproduces, small, what broke every Go section revert of
// gRFC A58 (grpc-go #6241): section 4.1 owns balancer.go's file-level
// lines (package clause, imports), its Balancer type, New and Pick, while
// 4.2's UpdateWeights sits later in the same new file; 4.2 adds the
// weightedConn type that 4.1's and 4.3's code use; 4.3's functions are the
// only users of wrr.go's "unsafe" import, a line no section owns (two
// sections change the file's functions).
var wrrBase = map[string]string{
	"go.mod": "module example.com/wrr\n\ngo 1.22\n",
	"wrr/wrr.go": `// Package wrr picks backends in proportion to their weights.
package wrr

// Name is the balancer's registered name.
const Name = "wrr"

// Version is the policy's version.
func Version() string {
	return "1"
}
`,
}

var wrrPR = map[string]string{
	"wrr/wrr.go": `// Package wrr picks backends in proportion to their weights.
package wrr

import "unsafe"

// Name is the balancer's registered name.
const Name = "wrr"

// Version is the policy's version.
func Version() string {
	return "2"
}

// sizeOf is the memory one backend takes.
func sizeOf(c *weightedConn) uintptr {
	return unsafe.Sizeof(*c)
}

// alignOf is a backend's alignment.
func alignOf(c *weightedConn) uintptr {
	return unsafe.Alignof(*c)
}
`,
	"wrr/weights.go": `package wrr

import "time"

// defaultWeight is a new backend's weight.
const defaultWeight = 1

// weightedConn is one backend and its weight.
type weightedConn struct {
	addr    string
	weight  int
	updated time.Time
}

// newWeightedConn returns a backend of the default weight.
func newWeightedConn(addr string) weightedConn {
	return weightedConn{addr: addr, weight: defaultWeight, updated: time.Now()}
}
`,
	"wrr/balancer.go": `package wrr

import (
	"errors"
	"sync"
	"time"
)

// Balancer picks a backend for each call, each as often as its weight
// says.
type Balancer struct {
	mu    sync.Mutex
	conns []weightedConn
	next  int // the next pick, counted over the weights' sum
}

// New returns a balancer over addrs.
func New(addrs []string) (*Balancer, error) {
	if len(addrs) == 0 {
		return nil, errors.New("wrr: no backends")
	}
	b := &Balancer{}
	for _, a := range addrs {
		b.conns = append(b.conns, newWeightedConn(a))
	}
	return b, nil
}

// Pick returns the next backend's address.
func (b *Balancer) Pick() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	total := 0
	for _, c := range b.conns {
		total += c.weight
	}
	if total == 0 {
		return ""
	}
	n := b.next % total
	b.next++
	for _, c := range b.conns {
		if n < c.weight {
			return c.addr
		}
		n -= c.weight
	}
	return ""
}

// UpdateWeights sets the backends' weights by address.
func (b *Balancer) UpdateWeights(w map[string]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.conns {
		if x, ok := w[b.conns[i].addr]; ok {
			b.conns[i].weight = x
			b.conns[i].updated = time.Now()
		}
	}
}
`,
	"wrr/wrr_test.go": `package wrr

import (
	"fmt"
	"testing"
)

func TestName(t *testing.T) {
	if Name != "wrr" {
		t.Errorf("Name = %q", Name)
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v != "2" {
		t.Errorf("Version() = %q, want 2", v)
	}
}

func picks(b *Balancer, n int) string {
	var got []string
	for i := 0; i < n; i++ {
		got = append(got, b.Pick())
	}
	return fmt.Sprint(got)
}

func TestPickRoundRobin(t *testing.T) {
	b, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got := picks(b, 4); got != "[a b a b]" {
		t.Errorf("picks %s", got)
	}
}

func TestPickWeighted(t *testing.T) {
	b, err := New([]string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	b.UpdateWeights(map[string]int{"a": 2})
	if got := picks(b, 6); got != "[a a b a a b]" {
		t.Errorf("picks %s", got)
	}
}

func TestNewWeightedConn(t *testing.T) {
	if c := newWeightedConn("a"); c.addr != "a" || c.weight != 1 {
		t.Errorf("newWeightedConn(a) = %+v", c)
	}
}

func TestSizeOf(t *testing.T) {
	if sizeOf(&weightedConn{}) == 0 {
		t.Error("sizeOf is 0")
	}
}
`,
}

// goTask builds a repository from base and pr, resolves the change and
// indexes the mapping's Direct rows (path, class, function; "-" for none)
// per section, in order.
func goTask(t *testing.T, base, pr map[string]string, rows [][4]string) (*mutation.Solution, *mutation.Owners) {
	t.Helper()
	dir := t.TempDir()
	if err := testrepo.Build(dir, testrepo.Step{Files: base, Tag: "base"}, testrepo.Step{Files: pr, Tag: "head"}); err != nil {
		t.Fatal(err)
	}
	repo, err := diff.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ch, err := repo.Diff(ctx, "base", "head")
	if err != nil {
		t.Fatal(err)
	}
	scopes, err := syntax.Resolve(ctx, dir, ch, syntax.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sol, err := mutation.LoadSolution(ctx, repo, ch)
	if err != nil {
		t.Fatal(err)
	}
	m := &mapping.Mapping{}
	for _, r := range rows {
		if len(m.Blocks) == 0 || m.Blocks[len(m.Blocks)-1].Section != r[0] {
			m.Blocks = append(m.Blocks, mapping.Block{Section: r[0], Title: "Section " + r[0]})
		}
		b := &m.Blocks[len(m.Blocks)-1]
		b.Direct.Rows = append(b.Direct.Rows, mapping.CodeRow{Path: r[1], Class: r[2], Function: r[3]})
	}
	return sol, mutation.NewOwners(m, scopes)
}

var wrrRows = [][4]string{
	{"4.1", "wrr/balancer.go", "-", "-"},
	{"4.1", "wrr/balancer.go", "Balancer", "-"},
	{"4.1", "wrr/balancer.go", "-", "New"},
	{"4.1", "wrr/balancer.go", "Balancer", "Pick"},
	{"4.1", "wrr/wrr.go", "-", "Version"},
	{"4.2", "wrr/weights.go", "weightedConn", "-"},
	{"4.2", "wrr/weights.go", "-", "newWeightedConn"},
	{"4.2", "wrr/balancer.go", "Balancer", "UpdateWeights"},
	{"4.3", "wrr/wrr.go", "-", "sizeOf"},
	{"4.3", "wrr/wrr.go", "-", "alignOf"},
}

// mutantTree writes the reference solution with the PR's tests, then the
// edit over it, into a new folder.
func mutantTree(t *testing.T, base, pr map[string]string, edit mutation.Edit) string {
	t.Helper()
	dir := t.TempDir()
	write := func(p string, b []byte) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range base {
		write(p, []byte(s))
	}
	for p, s := range pr {
		write(p, []byte(s))
	}
	for p, b := range edit {
		if b == nil {
			os.Remove(filepath.Join(dir, p))
			continue
		}
		write(p, b)
	}
	return dir
}

// goRun runs a go command in dir with the host's go, offline.
func goRun(t *testing.T, dir string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	return cmd.CombinedOutput()
}

// goTestStatuses runs go test -json in dir and returns "Test status" per
// test and package marker, sorted, as the go-json parser reads them.
func goTestStatuses(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command("go", "test", "-json", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	out, _ := cmd.Output()
	rs, err := results.GoJSON{}.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Name+" "+string(r.Status))
	}
	sort.Strings(got)
	return got
}

func wrrExit(file string) string {
	name := "lolbenchStubExit_" + strings.ReplaceAll(file, ".", "_")
	return `
// ` + name + ` is where this file's lolbench
// stubs stop: it ends the goroutine that reached one, running its deferred
// calls, unless the goroutine is a test's own or the main one, where
// runtime.Goexit would end the whole test binary; there it returns, and
// the stub returns zero values.
func ` + name + `() {
	pc := make([]uintptr, 4096)
	frames := runtime.CallersFrames(pc[:runtime.Callers(2, pc)])
	for {
		f, more := frames.Next()
		if f.Function == "testing.tRunner" || f.Function == "runtime.main" {
			return
		}
		if !more {
			runtime.Goexit()
		}
	}
}
`
}

// TestGoReverts: every section revert of the wrr sample builds and vets,
// and go test fails exactly the tests that assert the section. Section
// 4.1's revert keeps balancer.go's package clause and the imports 4.2's
// UpdateWeights and the kept Balancer type use, stubs New (an error) and
// Pick (the exit helper) the tests call; 4.2's keeps weightedConn, which
// 4.1's and 4.3's code use, and stubs newWeightedConn; 4.3's removes
// alignOf, stubs sizeOf the tests call, and drops the "unsafe" import no
// code uses any more.
func TestGoReverts(t *testing.T) {
	sol, o := goTask(t, wrrBase, wrrPR, wrrRows)
	got := map[string]mutation.Revert{}
	for _, r := range mutation.Reverts(sol, o) {
		got[r.Section.ID] = r
	}
	type want struct {
		kept  []string
		files map[string]string // "" for a file the revert removes
		tests []string
	}
	wants := map[string]want{
		"4.1": {
			kept: []string{
				"kept Balancer (wrr/balancer.go): used by section 4.2's code, the tests",
				"stubbed New (wrr/balancer.go): used by the tests",
				"stubbed Balancer.Pick (wrr/balancer.go): used by the tests",
			},
			files: map[string]string{
				"wrr/balancer.go": `package wrr

import (
	"errors"
	"runtime"
	"sync"
	"time"
)

// Balancer picks a backend for each call, each as often as its weight
// says.
type Balancer struct {
	mu    sync.Mutex
	conns []weightedConn
	next  int // the next pick, counted over the weights' sum
}

// New returns a balancer over addrs.
func New(addrs []string) (*Balancer, error) {
	return nil, errors.New("lolbench stub revert: section 4.1 is not implemented")
}

// Pick returns the next backend's address.
func (b *Balancer) Pick() string {
	// lolbench stub revert: section 4.1 is not implemented
	lolbenchStubExit_balancer_go()
	return ""
}

// UpdateWeights sets the backends' weights by address.
func (b *Balancer) UpdateWeights(w map[string]int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.conns {
		if x, ok := w[b.conns[i].addr]; ok {
			b.conns[i].weight = x
			b.conns[i].updated = time.Now()
		}
	}
}
` + wrrExit("balancer.go"),
				"wrr/wrr.go": strings.Replace(wrrPR["wrr/wrr.go"], `return "2"`, `return "1"`, 1),
			},
			tests: []string{
				"example.com/wrr/wrr.TestName passed",
				"example.com/wrr/wrr.TestNewWeightedConn passed",
				"example.com/wrr/wrr.TestPickRoundRobin failed",
				"example.com/wrr/wrr.TestPickWeighted failed",
				"example.com/wrr/wrr.TestSizeOf passed",
				"example.com/wrr/wrr.TestVersion failed",
			},
		},
		"4.2": {
			kept: []string{
				"stubbed Balancer.UpdateWeights (wrr/balancer.go): used by the tests",
				"kept weightedConn (wrr/weights.go): used by sections 4.1 and 4.3's code, the tests",
				"stubbed newWeightedConn (wrr/weights.go): used by section 4.1's code, the tests",
			},
			files: map[string]string{
				"wrr/weights.go": `package wrr

import (
	"runtime"
	"time"
)

// weightedConn is one backend and its weight.
type weightedConn struct {
	addr    string
	weight  int
	updated time.Time
}

// newWeightedConn returns a backend of the default weight.
func newWeightedConn(addr string) weightedConn {
	// lolbench stub revert: section 4.2 is not implemented
	lolbenchStubExit_weights_go()
	return *new(weightedConn)
}
` + wrrExit("weights.go"),
				"wrr/balancer.go": strings.Replace(strings.Replace(wrrPR["wrr/balancer.go"], `	"sync"
	"time"
`, `	"runtime"
	"sync"
`, 1), `	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range b.conns {
		if x, ok := w[b.conns[i].addr]; ok {
			b.conns[i].weight = x
			b.conns[i].updated = time.Now()
		}
	}
}
`, `	// lolbench stub revert: section 4.2 is not implemented
	lolbenchStubExit_balancer_go()
}
`+wrrExit("balancer.go"), 1),
			},
			tests: []string{
				"example.com/wrr/wrr.TestName passed",
				"example.com/wrr/wrr.TestNewWeightedConn failed",
				"example.com/wrr/wrr.TestPickRoundRobin failed",
				"example.com/wrr/wrr.TestPickWeighted failed",
				"example.com/wrr/wrr.TestSizeOf passed",
				"example.com/wrr/wrr.TestVersion passed",
			},
		},
		"4.3": {
			kept: []string{"stubbed sizeOf (wrr/wrr.go): used by the tests"},
			files: map[string]string{
				"wrr/wrr.go": `// Package wrr picks backends in proportion to their weights.
package wrr

import "runtime"

// Name is the balancer's registered name.
const Name = "wrr"

// Version is the policy's version.
func Version() string {
	return "2"
}

// sizeOf is the memory one backend takes.
func sizeOf(c *weightedConn) uintptr {
	// lolbench stub revert: section 4.3 is not implemented
	lolbenchStubExit_wrr_go()
	return 0
}
` + wrrExit("wrr.go"),
			},
			tests: []string{
				"example.com/wrr/wrr.TestName passed",
				"example.com/wrr/wrr.TestNewWeightedConn passed",
				"example.com/wrr/wrr.TestPickRoundRobin passed",
				"example.com/wrr/wrr.TestPickWeighted passed",
				"example.com/wrr/wrr.TestSizeOf failed",
				"example.com/wrr/wrr.TestVersion passed",
			},
		},
	}
	if len(got) != len(wants) {
		t.Fatalf("reverts of %d sections, want %d", len(got), len(wants))
	}
	for _, id := range []string{"4.1", "4.2", "4.3"} {
		r, w := got[id], wants[id]
		if r.Invalid != "" || r.NoCode {
			t.Errorf("%s: invalid %q, no code %v", id, r.Invalid, r.NoCode)
		}
		if !reflect.DeepEqual(r.Kept, w.kept) {
			t.Errorf("%s kept:\n got %q\nwant %q", id, r.Kept, w.kept)
		}
		if len(r.Edit) != len(w.files) {
			t.Errorf("%s edits %v, want %d files", id, sortedPaths(r.Edit), len(w.files))
		}
		for p, text := range w.files {
			if b, ok := r.Edit[p]; !ok || string(b) != text {
				t.Errorf("%s: %s:\n%s\nwant:\n%s", id, p, b, text)
			}
		}
		dir := mutantTree(t, wrrBase, wrrPR, r.Edit)
		if out, err := goRun(t, dir, "vet", "./..."); err != nil {
			t.Errorf("%s: go vet: %v\n%s", id, err, out)
			continue
		}
		if g := goTestStatuses(t, dir); !reflect.DeepEqual(g, w.tests) {
			t.Errorf("%s: go test:\n got %q\nwant %q", id, g, w.tests)
		}
	}
	// The reference passes every test.
	if g := goTestStatuses(t, mutantTree(t, wrrBase, wrrPR, nil)); len(g) != 6 || strings.Count(strings.Join(g, "\n"), " passed") != 6 {
		t.Errorf("reference: %q", g)
	}
}

func sortedPaths(e mutation.Edit) []string {
	var out []string
	for p := range e {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// The calc sample: section 2.1 adds Double, Parse and Half; 2.2 adds three
// functions that call Double on other goroutines.
var calcBase = map[string]string{
	"go.mod": "module example.com/calc\n\ngo 1.22\n",
	"calc/calc.go": `// Package calc does arithmetic.
package calc

// Triple returns 3x.
func Triple(x int) int {
	return 3 * x
}
`,
}

var calcPR = map[string]string{
	"calc/calc.go": `// Package calc does arithmetic.
package calc

import (
	"strconv"
	"sync"
)

// Triple returns 3x.
func Triple(x int) int {
	return 3 * x
}

// Double returns 2x.
func Double(x int) int {
	return 2 * x
}

// Parse reads a decimal number.
func Parse(s string) (int, error) {
	return strconv.Atoi(s)
}

// Half returns x/2.
func Half(x int) int {
	return x / 2
}

// DoubleAsync doubles x on another goroutine.
func DoubleAsync(x int) <-chan int {
	ch := make(chan int, 1)
	go func() {
		defer close(ch)
		ch <- Double(x)
	}()
	return ch
}

// SumDoubled adds the doubles of xs, each computed on its own goroutine.
func SumDoubled(xs ...int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := Double(x)
			mu.Lock()
			sum += d
			mu.Unlock()
		}()
	}
	wg.Wait()
	return sum
}

// DoubleTo sends 2x to out from another goroutine.
func DoubleTo(x int, out chan<- int) {
	go func() { out <- Double(x) }()
}
`,
	"calc/calc_test.go": `package calc_test

import (
	"testing"
	"time"

	"example.com/calc/calc"
)

func TestTriple(t *testing.T) {
	if got := calc.Triple(2); got != 6 {
		t.Errorf("Triple(2) = %d", got)
	}
}

func TestDouble(t *testing.T) {
	if got := calc.Double(2); got != 4 {
		t.Errorf("Double(2) = %d", got)
	}
}

func TestDoubleNegative(t *testing.T) {
	if got := calc.Double(-3); got != -6 {
		t.Errorf("Double(-3) = %d", got)
	}
}

func TestParse(t *testing.T) {
	n, err := calc.Parse("12")
	if err != nil {
		t.Fatal(err)
	}
	if n != 12 {
		t.Errorf("Parse(12) = %d", n)
	}
}

func TestDoubleAsync(t *testing.T) {
	if v, ok := <-calc.DoubleAsync(2); !ok || v != 4 {
		t.Errorf("DoubleAsync(2) = %d, %v", v, ok)
	}
}

func TestSumDoubled(t *testing.T) {
	if got := calc.SumDoubled(1, 2); got != 6 {
		t.Errorf("SumDoubled(1, 2) = %d", got)
	}
}

func TestDoubleTo(t *testing.T) {
	out := make(chan int)
	calc.DoubleTo(2, out)
	select {
	case v := <-out:
		if v != 4 {
			t.Errorf("DoubleTo(2) sent %d", v)
		}
	case <-time.After(200 * time.Millisecond):
		t.Fatal("DoubleTo(2) sent nothing")
	}
}

func TestTripleAgain(t *testing.T) {
	if got := calc.Triple(-1); got != -3 {
		t.Errorf("Triple(-1) = %d", got)
	}
}
`,
}

// TestGoStubsFailTheCaller runs go test -json on the stub revert of
// section 2.1: the two tests that call Double fail, so does the one that
// calls Parse (an error), and the three that reach Double from another
// goroutine (ended there: deferred calls run, so close(ch) and wg.Done
// still happen, and the test waiting on DoubleTo fails at its own
// timeout); the Triple tests pass, the last one too: the binary lives to
// the end. The control replaces the stubs' exit helper by the bare
// runtime.Goexit() the testing package turns into a panic on a test's own
// goroutine: the binary ends in the first test that calls Double.
func TestGoStubsFailTheCaller(t *testing.T) {
	sol, o := goTask(t, calcBase, calcPR, [][4]string{
		{"2.1", "calc/calc.go", "-", "Double"},
		{"2.1", "calc/calc.go", "-", "Parse"},
		{"2.1", "calc/calc.go", "-", "Half"},
		{"2.2", "calc/calc.go", "-", "DoubleAsync"},
		{"2.2", "calc/calc.go", "-", "SumDoubled"},
		{"2.2", "calc/calc.go", "-", "DoubleTo"},
	})
	sr, ok, err := mutation.StubReverts(context.Background(), sol, o, *o.Section("2.1"))
	if err != nil || !ok || sr.Invalid != "" {
		t.Fatalf("stub revert: %v %v %q", ok, err, sr.Invalid)
	}
	stubs := strings.Replace(calcPR["calc/calc.go"], `import (
	"strconv"
	"sync"
)`, `import (
	"errors"
	"runtime"
	"sync"
)`, 1)
	stubs = strings.Replace(stubs, "func Double(x int) int {\n\treturn 2 * x\n}", "func Double(x int) int {\n\t// lolbench stub revert: section 2.1 is not implemented\n\tlolbenchStubExit_calc_go()\n\treturn 0\n}", 1)
	stubs = strings.Replace(stubs, "func Parse(s string) (int, error) {\n\treturn strconv.Atoi(s)\n}", "func Parse(s string) (int, error) {\n\treturn 0, errors.New(\"lolbench stub revert: section 2.1 is not implemented\")\n}", 1)
	stubs = strings.Replace(stubs, "func Half(x int) int {\n\treturn x / 2\n}", "func Half(x int) int {\n\t// lolbench stub revert: section 2.1 is not implemented\n\tlolbenchStubExit_calc_go()\n\treturn 0\n}", 1)
	stubs += wrrExit("calc.go")
	if got := string(sr.Edit["calc/calc.go"]); got != stubs {
		t.Fatalf("stub revert:\n%s\nwant:\n%s", got, stubs)
	}
	pkg := "example.com/calc/calc."
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"the stub revert", stubs, []string{
			pkg + "TestDouble failed", pkg + "TestDoubleAsync failed", pkg + "TestDoubleNegative failed", pkg + "TestDoubleTo failed",
			pkg + "TestParse failed", pkg + "TestSumDoubled failed", pkg + "TestTriple passed", pkg + "TestTripleAgain passed"}},
		{"bare runtime.Goexit()", strings.ReplaceAll(stubs, "\tlolbenchStubExit_calc_go()\n", "\truntime.Goexit()\n"), []string{
			pkg + "TestDouble failed", pkg + "TestTriple passed"}},
	} {
		dir := mutantTree(t, calcBase, calcPR, mutation.Edit{"calc/calc.go": []byte(c.body)})
		if out, err := goRun(t, dir, "vet", "./..."); err != nil {
			t.Errorf("%s: go vet: %v\n%s", c.name, err, out)
			continue
		}
		if got := goTestStatuses(t, dir); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: go test:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestGoRevertAllStubs: a section whose every function the others call
// is reverted by its stubs alone; it used to have no revert at all (gRFC
// A58's subchannel weights: OnLoadReport from the picker, weight from the
// scheduler, so 4.5 had no mutant and no kill evidence).
func TestGoRevertAllStubs(t *testing.T) {
	base := map[string]string{"go.mod": "module example.com/w\n\ngo 1.19\n", "w/w.go": "package w\n"}
	pr := map[string]string{
		"go.mod": base["go.mod"],
		"w/w.go": "package w\n\n// Pick uses the weight.\nfunc Pick(x int) int {\n\treturn weight(x) * 2\n}\n\n// weight is the section's own.\nfunc weight(x int) int {\n\tif x > 10 {\n\t\treturn 10\n\t}\n\treturn x\n}\n",
	}
	rows := [][4]string{{"1", "w/w.go", "-", "-"}, {"1", "w/w.go", "-", "Pick"}, {"2", "w/w.go", "-", "weight"}}
	sol, o := goTask(t, base, pr, rows)
	var got *mutation.Revert
	for _, r := range mutation.Reverts(sol, o) {
		if r.Section.ID == "2" {
			r := r
			got = &r
		}
	}
	if got == nil {
		t.Fatal("section 2 has no revert")
	}
	if got.Lines != 6 || !reflect.DeepEqual(got.Kept, []string{"stubbed weight (w/w.go): used by section 1's code"}) || got.Invalid != "" {
		t.Fatalf("revert of 2: lines %d, kept %q, invalid %q", got.Lines, got.Kept, got.Invalid)
	}
	if src := string(got.Edit["w/w.go"]); !strings.Contains(src, "func weight(x int) int {\n\t// lolbench stub revert: section 2 is not implemented\n") || strings.Contains(src, "return 10") {
		t.Fatalf("w/w.go:\n%s", src)
	}
}
