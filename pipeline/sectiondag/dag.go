// Package sectiondag recovers the prerequisite graph between a task's
// sections (issue 35): an edge u → v says that section v builds on
// section u, so an agent must do u before v, and it is admitted only with
// evidence, each edge naming its own (docs/section-dag.md):
//
//   - structural reuse: v's change edits a scope that u's change
//     introduces (a scope new in the PR that u owns: v's rows name it, or
//     a scope nested in it, or a scope of a file u adds);
//   - producer–consumer: v's added lines use a name that u's change
//     defines (a class or function new in the PR, in a scope u owns),
//     read with tree-sitter;
//   - composition: a class v declares extends or implements a class u
//     declares (its name is in the new class's declaration);
//   - test evidence: a revert of u fails an F2P test that the
//     test-to-section map gives to v and not to u.
//
// The graph is a lower bound on the real prerequisites: a dependency that
// leaves none of these traces (a protocol both sides follow, a name that
// two sections define) is not found. Cycles are broken by dropping the
// edge with the weakest evidence, and each dropped edge says why.
package sectiondag

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lolbench/lolbench/pipeline"
)

// File is the graph in the candidate folder (lolbench dag writes it).
const File = "dag.json"

// Result is dag.json: the graph and what it was computed from.
type Result struct {
	Candidate string `json:"candidate"`
	*Graph
	// Titles are the sections' titles; Files the source files each
	// section's Direct modifications own (eval reads an agent's edits
	// of them as its work on the section).
	Titles map[string]string   `json:"titles"`
	Files  map[string][]string `json:"files"`
	// Sources are the kinds of evidence that could be read; Missing says
	// which could not, and what to run for them.
	Sources []string `json:"sources"`
	Missing []string `json:"missing"`
	// Checks are the discriminativeness checks (lolbench dag --check):
	// per section, whether the reference solution restricted to its
	// ancestors still fails one of its tests. NotDiscriminative are the
	// sections whose tests all pass without their own code.
	Checks            []Check  `json:"checks,omitempty"`
	NotDiscriminative []string `json:"not_discriminative,omitempty"`
}

// Check is one section's discriminativeness check.
type Check struct {
	Section   string   `json:"section"`
	Ancestors []string `json:"ancestors"`
	// Tests counts the section's F2P tests; Failing those the restricted
	// reference fails (all, when it cannot run them: Why), Examples the
	// first five of them.
	Tests    int      `json:"tests"`
	Failing  int      `json:"failing"`
	Examples []string `json:"examples"`
	// Discriminative: at least one of the section's tests fails.
	// Undetermined: the restricted reference could not run them (it does
	// not build); the section is then neither passed nor flagged.
	Discriminative bool   `json:"discriminative"`
	Undetermined   bool   `json:"undetermined,omitempty"`
	Why            string `json:"why"`
}

// OrderMarkdown is the sections in an order that does each after the
// sections it builds on: layer by layer, each layer in document order.
// lolbench export --section-order appends it to a task's instruction.
func (r *Result) OrderMarkdown() []byte {
	var b strings.Builder
	b.WriteString("## Order of the sections\n\nThe proposal's sections that this task grades, in an order that takes each after the sections it builds on:\n\n")
	n := 0
	for _, layer := range r.Layers {
		for _, s := range layer {
			n++
			line := s
			if t := r.Titles[s]; t != "" {
				line += " " + t
			}
			fmt.Fprintf(&b, "%d. %s\n", n, line)
		}
	}
	return []byte(b.String())
}

// Load reads a candidate's dag.json; the error wraps fs.ErrNotExist when
// lolbench dag has not run on it.
func Load(c *pipeline.Candidate) (*Result, error) {
	r, err := pipeline.ReadArtifact[Result](c, File)
	if err == nil && r.Graph == nil {
		return nil, fmt.Errorf("candidate %s: %s has no graph", c.ID, File)
	}
	return r, err
}

// Evidence kinds, strongest first: a cycle drops the edge whose strongest
// evidence is weakest.
const (
	StructuralReuse  = "structural-reuse"
	Composition      = "composition"
	ProducerConsumer = "producer-consumer"
	TestEvidence     = "test"
)

var strength = map[string]int{StructuralReuse: 4, Composition: 3, ProducerConsumer: 2, TestEvidence: 1}

// Scope is a (file, class, function) scope, as mapping rows name it;
// empty Class and Function is the file level.
type Scope struct {
	File     string `json:"file"`
	Class    string `json:"class,omitempty"`
	Function string `json:"function,omitempty"`
}

func (s Scope) String() string {
	name := strings.Trim(s.Class+"."+s.Function, ".")
	if name == "" {
		return s.File
	}
	return s.File + ":" + name
}

// Contains reports whether t is s or nested in s (a member of a class, a
// function nested in a function, anything in a file).
func (s Scope) Contains(t Scope) bool {
	if s.File != t.File {
		return false
	}
	if s.Class == "" && s.Function == "" {
		return true
	}
	if s.Function == "" {
		return t.Class == s.Class || strings.HasPrefix(t.Class, s.Class+".")
	}
	return t.Class == s.Class && (t.Function == s.Function || strings.HasPrefix(t.Function, s.Function+"."))
}

// Def is a name a section's change defines: a class or function new in
// the PR, in a scope the section owns.
type Def struct {
	Name  string `json:"name"`
	Scope Scope  `json:"scope"`
	Class bool   `json:"class,omitempty"`
	// Family is the language family of its file: a name is evidence
	// only in files of its family ("Go", "Python", "C/C++", "ECMAScript").
	Family string `json:"family"`
}

// Use is a name a section's added lines use.
type Use struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Family string `json:"family"`
}

// Input is what the graph is computed from; every map is keyed by
// section id.
type Input struct {
	// Sections are the task's sections, in mapping order.
	Sections []string
	// Owned are the scopes each section's Direct modifications own;
	// Named the scopes its Associated changes name.
	Owned, Named map[string][]Scope
	// New are the scopes that exist only after the change: new classes
	// and functions, and the file level of an added file.
	New map[Scope]bool
	// Defines are the names each section's change defines.
	Defines map[string][]Def
	// Uses are the identifiers each section's added lines use.
	Uses map[string][]Use
	// Names are, per file that Uses name, every identifier the file uses
	// after the change: a method is evidence only where its class is
	// named (x.Error() is any Error method, not the new one's).
	Names map[string]map[string]bool
	// Extends are the names in the declarations of the classes each
	// section adds (what they extend or implement), their own name left
	// out.
	Extends map[string][]Use
	// Tests are the F2P tests the test-to-section map gives each section;
	// Kills the tests each section's revert mutants fail.
	Tests, Kills map[string][]string
}

// Evidence is one reason for an edge.
type Evidence struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// Edge is u → v: v builds on u.
type Edge struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Evidence []Evidence `json:"evidence"`
}

// Dropped is an edge left out to keep the graph acyclic.
type Dropped struct {
	Edge
	Why string `json:"why"`
}

// Node is one section and its layer (0: no prerequisite).
type Node struct {
	ID    string `json:"id"`
	Layer int    `json:"layer"`
}

// Graph is a task's section dependency DAG.
type Graph struct {
	Nodes   []Node    `json:"nodes"`
	Edges   []Edge    `json:"edges"`
	Dropped []Dropped `json:"dropped"`
	// Layers are the sections by layer: a section's layer is one more
	// than its deepest prerequisite's. Depth is their number, Width the
	// size of the largest.
	Layers [][]string `json:"layers"`
	Depth  int        `json:"depth"`
	Width  int        `json:"width"`
}

// Compute builds the graph.
func Compute(in Input) *Graph {
	order := map[string]int{}
	for i, s := range in.Sections {
		order[s] = i
	}
	ev := map[[2]string][]Evidence{}
	add := func(u, v, kind, detail string) {
		if u == v {
			return
		}
		k := [2]string{u, v}
		e := Evidence{kind, detail}
		if !slices.Contains(ev[k], e) {
			ev[k] = append(ev[k], e)
		}
	}
	owner := map[Scope]string{}
	for _, u := range in.Sections {
		for _, s := range in.Owned[u] {
			if _, ok := owner[s]; !ok {
				owner[s] = u
			}
		}
	}
	// Structural reuse: v edits or names a scope that u introduces; the
	// innermost such scope is the evidence.
	for _, v := range in.Sections {
		for _, sv := range append(append([]Scope{}, in.Owned[v]...), in.Named[v]...) {
			var from string
			var inner Scope
			depth := -1
			for _, u := range in.Sections {
				for _, su := range in.Owned[u] {
					if u != v && in.New[su] && su.Contains(sv) && len(su.Class)+len(su.Function) > depth {
						from, inner, depth = u, su, len(su.Class)+len(su.Function)
					}
				}
			}
			if from != "" {
				add(from, v, StructuralReuse, fmt.Sprintf("%s changes %s, in %s, which %s introduces", v, sv, inner, from))
			}
		}
	}
	// A name defined by one section only is evidence; one that two define
	// is ambiguous and left out.
	definer := map[string][]Def{}
	defSections := map[string]map[string]bool{}
	for _, u := range in.Sections {
		for _, d := range in.Defines[u] {
			if defSections[d.Name] == nil {
				defSections[d.Name] = map[string]bool{}
			}
			if !defSections[d.Name][u] {
				definer[d.Name] = append(definer[d.Name], d)
			}
			defSections[d.Name][u] = true
		}
	}
	soleDefiner := func(name string) (string, Def, bool) {
		if len(defSections[name]) != 1 {
			return "", Def{}, false
		}
		d := definer[name][0]
		for u := range defSections[name] {
			return u, d, true
		}
		return "", Def{}, false
	}
	for _, v := range in.Sections {
		for _, x := range in.Extends[v] {
			if u, d, ok := soleDefiner(x.Name); ok && d.Class && d.Family == x.Family {
				add(u, v, Composition, fmt.Sprintf("%s declares a type that extends or implements %s (%s:%d), which %s declares in %s", v, x.Name, x.File, x.Line, u, d.Scope))
			}
		}
		// One piece of evidence per name used: its first use, and how many.
		first := map[string]Use{}
		count := map[string]int{}
		var names []string
		for _, x := range in.Uses[v] {
			if u, d, ok := soleDefiner(x.Name); !ok || u == v || d.Family != x.Family || !seesMethod(in, d, x.File) {
				continue
			}
			if count[x.Name] == 0 {
				first[x.Name] = x
				names = append(names, x.Name)
			}
			count[x.Name]++
		}
		for _, n := range names {
			u, d, _ := soleDefiner(n)
			x := first[n]
			more := ""
			if count[n] > 1 {
				more = fmt.Sprintf(", %d uses", count[n])
			}
			add(u, v, ProducerConsumer, fmt.Sprintf("%s uses %s (%s:%d%s), which %s defines in %s", v, n, x.File, x.Line, more, u, d.Scope))
		}
	}
	// Test evidence: u's revert fails a test mapped to v and not to u.
	for _, u := range in.Sections {
		for _, t := range in.Kills[u] {
			if slices.Contains(in.Tests[u], t) {
				continue
			}
			for _, v := range in.Sections {
				if slices.Contains(in.Tests[v], t) {
					add(u, v, TestEvidence, fmt.Sprintf("reverting %s fails %s, a test of %s", u, t, v))
				}
			}
		}
	}
	var edges []Edge
	for k, e := range ev {
		edges = append(edges, Edge{From: k[0], To: k[1], Evidence: e})
	}
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if order[a.From] != order[b.From] {
			return order[a.From] < order[b.From]
		}
		return order[a.To] < order[b.To]
	})
	g := &Graph{Nodes: []Node{}, Edges: []Edge{}, Dropped: []Dropped{}, Layers: [][]string{}}
	g.Edges, g.Dropped = acyclic(edges, order)
	g.layer(in.Sections)
	return g
}

// seesMethod reports whether a use in file can mean d: d is no method,
// or file is d's own, or file names d's class.
func seesMethod(in Input, d Def, file string) bool {
	if d.Scope.Class == "" || d.Scope.Function == "" || file == d.Scope.File {
		return true
	}
	class := d.Scope.Class[strings.LastIndex(d.Scope.Class, ".")+1:]
	return in.Names[file][class]
}

// best is the strength of an edge's strongest evidence.
func best(e Edge) int {
	b := 0
	for _, x := range e.Evidence {
		b = max(b, strength[x.Kind])
	}
	return b
}

// acyclic drops edges until no cycle is left: in each cycle found, the
// edge with the weakest strongest evidence, then the fewest pieces of
// evidence, then the one that points furthest back in document order.
func acyclic(edges []Edge, order map[string]int) ([]Edge, []Dropped) {
	edges = append([]Edge{}, edges...)
	dropped := []Dropped{}
	for {
		cycle := findCycle(edges, order)
		if cycle == nil {
			return edges, dropped
		}
		weakest := cycle[0]
		for _, i := range cycle[1:] {
			a, b := edges[i], edges[weakest]
			switch {
			case best(a) != best(b):
				if best(a) < best(b) {
					weakest = i
				}
			case len(a.Evidence) != len(b.Evidence):
				if len(a.Evidence) < len(b.Evidence) {
					weakest = i
				}
			case order[a.To]-order[a.From] < order[b.To]-order[b.From]:
				weakest = i
			}
		}
		path := make([]string, 0, len(cycle)+1)
		for _, i := range cycle {
			path = append(path, edges[i].From)
		}
		path = append(path, edges[cycle[0]].From)
		dropped = append(dropped, Dropped{Edge: edges[weakest], Why: fmt.Sprintf("breaks the cycle %s: its evidence is the weakest of the cycle's edges", strings.Join(path, " → "))})
		edges = slices.Delete(slices.Clone(edges), weakest, weakest+1)
	}
}

// findCycle returns the indexes of the edges of one cycle, in path
// order, or nil; it starts from the first section in document order.
func findCycle(edges []Edge, order map[string]int) []int {
	out := map[string][]int{}
	for i, e := range edges {
		out[e.From] = append(out[e.From], i)
	}
	nodes := make([]string, 0, len(order))
	for s := range order {
		nodes = append(nodes, s)
	}
	sort.Slice(nodes, func(i, j int) bool { return order[nodes[i]] < order[nodes[j]] })
	state := map[string]int{} // 1 on the stack, 2 done
	var stack []int           // edge indexes
	var found []int
	var visit func(n string) bool
	visit = func(n string) bool {
		state[n] = 1
		for _, i := range out[n] {
			to := edges[i].To
			stack = append(stack, i)
			if state[to] == 1 {
				for j, k := range stack {
					if edges[k].From == to {
						found = slices.Clone(stack[j:])
						return true
					}
				}
			}
			if state[to] == 0 && visit(to) {
				return true
			}
			stack = stack[:len(stack)-1]
		}
		state[n] = 2
		return false
	}
	for _, n := range nodes {
		if state[n] == 0 && visit(n) {
			return found
		}
	}
	return nil
}

// layer sets the nodes' layers, the layers, depth and width.
func (g *Graph) layer(sections []string) {
	preds := map[string][]string{}
	for _, e := range g.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	layer := map[string]int{}
	var depth func(s string) int
	depth = func(s string) int {
		if l, ok := layer[s]; ok {
			return l
		}
		l := 0
		for _, p := range preds[s] {
			l = max(l, depth(p)+1)
		}
		layer[s] = l
		return l
	}
	for _, s := range sections {
		l := depth(s)
		g.Nodes = append(g.Nodes, Node{ID: s, Layer: l})
		for len(g.Layers) <= l {
			g.Layers = append(g.Layers, []string{})
		}
		g.Layers[l] = append(g.Layers[l], s)
	}
	g.Depth = len(g.Layers)
	for _, l := range g.Layers {
		g.Width = max(g.Width, len(l))
	}
}

// Ancestors are the sections v builds on, directly or not, in the order
// of g.Nodes.
func (g *Graph) Ancestors(v string) []string {
	preds := map[string][]string{}
	for _, e := range g.Edges {
		preds[e.To] = append(preds[e.To], e.From)
	}
	seen := map[string]bool{}
	var walk func(s string)
	walk = func(s string) {
		for _, p := range preds[s] {
			if !seen[p] {
				seen[p] = true
				walk(p)
			}
		}
	}
	walk(v)
	var out []string
	for _, n := range g.Nodes {
		if seen[n.ID] {
			out = append(out, n.ID)
		}
	}
	return out
}
