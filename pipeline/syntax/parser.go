package syntax

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// ErrTimeout is returned when a parse exceeds the parser's time limit.
var ErrTimeout = errors.New("parse timeout")

// ErrUnsupported is returned for a language without a grammar here.
var ErrUnsupported = errors.New("unsupported language")

// Parser wraps one tree-sitter parser and one query cursor. It is not safe
// for concurrent use: a worker pool holds one Parser per goroutine. Close
// frees its C memory; finalizers would do it only at some later GC.
type Parser struct {
	p       *sitter.Parser
	qc      *sitter.QueryCursor
	timeout time.Duration
}

// NewParser returns a parser with no time limit.
func NewParser() *Parser {
	return &Parser{p: sitter.NewParser(), qc: sitter.NewQueryCursor()}
}

// SetTimeout limits each parse to d of parser time; zero means no limit.
// A parse over the limit fails with ErrTimeout.
func (p *Parser) SetTimeout(d time.Duration) {
	p.timeout = d
	p.p.SetOperationLimit(int(d.Microseconds()))
}

// Close frees the parser. It is safe to call more than once.
func (p *Parser) Close() {
	if p.p != nil {
		p.qc.Close()
		p.p.Close()
		p.p, p.qc = nil, nil
	}
}

// Entities parses src as language (a pipeline/lang name, or "TSX") and
// returns its class and function entities ordered by start line.
func (p *Parser) Entities(language string, src []byte) ([]Entity, error) {
	return p.EntitiesContext(context.Background(), language, src)
}

// EntitiesContext is Entities with cancellation.
func (p *Parser) EntitiesContext(ctx context.Context, language string, src []byte) ([]Entity, error) {
	t, err := p.parseFile(ctx, language, src)
	if err != nil {
		return nil, err
	}
	defer t.tree.Close()
	return p.extract(t.g, t.tree, src), nil
}

// parsed is a file's tree with its grammar, for more than one walk.
type parsed struct {
	language string
	g        *grammar
	tree     *sitter.Tree
}

// parseFile parses src as language; the caller closes the tree.
func (p *Parser) parseFile(ctx context.Context, language string, src []byte) (*parsed, error) {
	g, err := grammarFor(language)
	if err != nil {
		return nil, err
	}
	tree, err := p.parse(ctx, g, src)
	if err != nil {
		return nil, err
	}
	return &parsed{language: language, g: g, tree: tree}, nil
}

// parse runs the parser and maps its failures to package errors.
func (p *Parser) parse(ctx context.Context, g *grammar, src []byte) (*sitter.Tree, error) {
	if p.p == nil {
		return nil, errors.New("parser is closed")
	}
	p.p.SetLanguage(g.lang)
	tree, err := p.p.ParseCtx(ctx, nil, src)
	if err != nil {
		// A timed-out parse may leave state behind; the next parse must
		// start afresh rather than resume it.
		p.p.Reset()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, sitter.ErrOperationLimit) {
			return nil, fmt.Errorf("%w after %s", ErrTimeout, p.timeout)
		}
		return nil, err
	}
	return tree, nil
}

// Supported reports whether language has a grammar here.
func Supported(language string) bool {
	_, ok := grammarNames[language]
	return ok
}

// ParseLanguage returns the grammar name for a file: the pipeline/lang
// name, except "TSX" for .tsx files, which need their own grammar. The
// result is empty when the file's language is unknown.
func ParseLanguage(path, language string) string {
	if language == "TypeScript" && strings.HasSuffix(strings.ToLower(path), ".tsx") {
		return "TSX"
	}
	return language
}

// grammarNames maps language names to grammar constructors. "C/C++ Header"
// is parsed as C++: C headers parse as C++ almost always, C++ headers never
// as C.
var grammarNames = map[string]func() *grammar{
	"Python":       pythonGrammar,
	"Go":           goGrammar,
	"Java":         javaGrammar,
	"Rust":         rustGrammar,
	"C":            cGrammar,
	"C++":          cppGrammar,
	"C/C++ Header": cppGrammar,
	"TypeScript":   typescriptGrammar,
	"TSX":          tsxGrammar,
	"JavaScript":   javascriptGrammar,
	"C#":           csharpGrammar,
}

var (
	grammarMu    sync.Mutex
	grammarCache = map[string]*grammar{}
)

// grammarFor returns the compiled grammar of a language; queries compile
// once per process and are shared read-only by all parsers.
func grammarFor(language string) (*grammar, error) {
	mk, ok := grammarNames[language]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnsupported, language)
	}
	grammarMu.Lock()
	defer grammarMu.Unlock()
	if g := grammarCache[language]; g != nil {
		return g, nil
	}
	g := mk()
	q, err := sitter.NewQuery([]byte(g.source), g.lang)
	if err != nil {
		// The queries are constants of this package; a failure is a bug
		// caught by the tests, never an input problem.
		return nil, fmt.Errorf("compile %s query: %w", language, err)
	}
	g.query = q
	g.names = make([]string, g.lang.SymbolCount())
	for i := range g.names {
		g.names[i] = g.lang.SymbolName(sitter.Symbol(i))
	}
	g.roles = make([]role, q.CaptureCount())
	for i := range g.roles {
		g.roles[i] = roleNames[q.CaptureNameForId(uint32(i))]
	}
	grammarCache[language] = g
	return g, nil
}

// role is what a query capture contributes.
type role uint8

// The capture roles; a query names its captures with these names. Every
// pattern is one node, or a short run of siblings (decorators before a
// method): a pattern that waits for a child after a deep sibling keeps a
// cursor state open per nesting level, and deeply nested input would make
// the query quadratic. Context that needs a parent or child is read by the
// grammar's hook in Go instead.
const (
	roleNone   role = iota
	roleDef         // @def: a definition
	roleOuter       // @outer: widens the definition of its match (decorators, attributes)
	roleAnon        // @anon: an anonymous class body; definitions inside are not named
	roleAccess      // @access: a C++ access specifier
	roleObject      // @object: an object literal; its direct methods are never exported
	roleHook        // @hook: a node the grammar's hook inspects
)

var roleNames = map[string]role{
	"def": roleDef, "outer": roleOuter, "anon": roleAnon, "access": roleAccess,
	"object": roleObject, "hook": roleHook,
}

// grammar is one language: its tree-sitter grammar, the query that finds
// definitions, and the function that names them.
type grammar struct {
	lang   *sitter.Language
	source string
	query  *sitter.Query
	roles  []role
	// names are the node type names by symbol: Node.Type allocates a Go
	// string per call, a symbol lookup does not.
	names []string
	// bodyFields name the fields where a definition's body starts; the
	// signature is the text before it.
	bodyFields []string
	// describe fills in a definition's kind and name; it returns false to
	// drop the node.
	describe func(x *extraction, d *def) bool
	// hook inspects @hook nodes: it finds definitions under them and
	// names, widens or exports them (x.def, def.widen, ...).
	// It returns the definition a sibling pattern's @outer should widen,
	// or nil.
	hook func(x *extraction, n *sitter.Node) *def
	// bodilessTypes are node types that declare without a body; inside a
	// function they are never entities (C and C++ "declaration").
	bodilessTypes map[string]bool
	// ctorByName marks a function named like its class as a constructor
	// (C++ "A();" inside class A).
	ctorByName bool
}

// visibility is a definition's own visibility before its containers count.
type visibility uint8

const (
	visPrivate visibility = iota
	visPublic
	visInherit // public when the container's members are (interfaces, traits)
	visAccess  // C++: the access specifier in effect in the class body
)

// nodeKey identifies a node across query matches.
type nodeKey struct {
	start, end uint32
	sym        sitter.Symbol
}

// def is a definition found by the query, before naming.
type def struct {
	node       *sitter.Node
	start, end uint32 // the node's bytes, for nesting
	item       role   // roleDef, roleAnon, roleAccess or roleObject
	lineStart  uint32 // widened first line (0-based)
	lineEnd    uint32 // widened last byte position's row
	endColumn  uint32
	sigStart   uint32 // widened signature start byte
	nameNode   *sitter.Node
	ownerNode  *sitter.Node
	local      bool
	exportWrap bool
	private    bool // a private or protected modifier on the wrapper

	// Filled by describe.
	kind    string
	isClass bool
	name    string
	qual    []string // explicit class path (Go receiver, C++ A::B::f)
	hasQual bool
	vis     visibility
	decl    bool   // a declaration without body (prototype, interface method)
	anon    bool   // an unnamed class: its members are not named
	sig     string // explicit signature, when the generic one does not fit
	members bool   // members with visInherit are public
	access  string // C++: the default access of members ("public"/"private")
	static  bool   // C/C++: internal linkage, when not a class member
}

// extraction holds the state of one Entities call.
type extraction struct {
	g          *grammar
	src        []byte
	defs       map[nodeKey]*def
	order      []*def
	namespaces map[string]bool // C++ namespace names declared in the file
}

// typ returns a node's type name, "" for nil.
func (x *extraction) typ(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	if s := int(n.Symbol()); s < len(x.g.names) {
		return x.g.names[s]
	}
	return ""
}

// text returns a node's source text.
func (x *extraction) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s, e := n.StartByte(), n.EndByte()
	if e > uint32(len(x.src)) || s > e {
		return ""
	}
	return string(x.src[s:e])
}

// maxName bounds names and signatures taken from hostile sources.
const (
	maxName      = 256
	maxPath      = 1024
	maxSignature = 1024
)

// extract runs the grammar's query over the tree and names the matches.
func (p *Parser) extract(g *grammar, tree *sitter.Tree, src []byte) []Entity {
	x := &extraction{g: g, src: src, defs: map[nodeKey]*def{}}
	p.qc.Exec(g.query, tree.RootNode())
	for {
		m, ok := p.qc.NextMatch()
		if !ok {
			break
		}
		var main *def
		for _, c := range m.Captures {
			switch r := g.roles[c.Index]; r {
			case roleDef, roleAnon, roleAccess, roleObject:
				main = x.item(c.Node, r)
			case roleHook:
				if d := g.hook(x, c.Node); d != nil {
					main = d
				}
			}
		}
		if main == nil {
			continue
		}
		for _, c := range m.Captures {
			if g.roles[c.Index] == roleOuter {
				main.widen(c.Node)
			}
		}
	}
	slices.SortFunc(x.order, func(a, b *def) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		return cmp.Compare(b.end, a.end)
	})
	return x.name(g, x.order)
}

// def returns the definition item of node n, creating it on first sight;
// a query match and a hook may both reach the same node.
func (x *extraction) def(n *sitter.Node) *def { return x.item(n, roleDef) }

// item returns the item of node n, creating it with role r on first sight.
func (x *extraction) item(n *sitter.Node, r role) *def {
	k := nodeKey{n.StartByte(), n.EndByte(), n.Symbol()}
	if d := x.defs[k]; d != nil {
		return d
	}
	ep := n.EndPoint()
	d := &def{node: n, start: k.start, end: k.end, item: r, sigStart: k.start,
		lineStart: n.StartPoint().Row, lineEnd: ep.Row, endColumn: ep.Column}
	x.defs[k] = d
	x.order = append(x.order, d)
	return d
}

// setName sets the name a definition gets from outside it (const foo =
// ...), unless one is set already.
func (d *def) setName(n *sitter.Node) {
	if d.nameNode == nil && n != nil {
		d.nameNode = n
	}
}

// wrap widens d to a wrapper that also starts its signature (export,
// template<...>, const x =).
func (d *def) wrap(n *sitter.Node) {
	d.widen(n)
	d.sigStart = min(d.sigStart, n.StartByte())
}

// widen extends the definition's lines to cover n.
func (d *def) widen(n *sitter.Node) {
	if r := n.StartPoint().Row; r < d.lineStart {
		d.lineStart = r
	}
	ep := n.EndPoint()
	if ep.Row > d.lineEnd || (ep.Row == d.lineEnd && ep.Column > d.endColumn) {
		d.lineEnd, d.endColumn = ep.Row, ep.Column
	}
}

// frame is one open container during naming.
type frame struct {
	end      uint32
	anon     bool
	object   bool   // an object literal
	class    string // class path inside this frame
	function string // function path inside this frame, since the class
	exported bool   // whether public members inside are exported
	members  bool   // visInherit members are public
	kind     string
	access   string // C++ access in effect for direct members
	isClass  bool
}

// name walks the definitions in document order with a stack of open
// containers (no recursion, so nesting depth is bounded only by memory) and
// builds the entities.
func (x *extraction) name(g *grammar, defs []*def) []Entity {
	var out []Entity
	stack := []frame{{end: ^uint32(0), exported: true}}
	anonDepth := 0
	for _, d := range defs {
		for len(stack) > 1 && (stack[len(stack)-1].end <= d.start || stack[len(stack)-1].end < d.end) {
			if stack[len(stack)-1].anon {
				anonDepth--
			}
			stack = stack[:len(stack)-1]
		}
		top := &stack[len(stack)-1]
		switch d.item {
		case roleAccess:
			if top.isClass {
				top.access = strings.TrimSuffix(strings.TrimSpace(x.text(d.node)), ":")
			}
			continue
		case roleAnon:
			stack = append(stack, frame{end: d.end, anon: true})
			anonDepth++
			continue
		case roleObject:
			// An object literal is no container: names go on as around
			// it, but its direct methods are never exported.
			f := *top
			f.end, f.object, f.anon = d.end, true, false
			stack = append(stack, f)
			continue
		}
		if top.object {
			d.local = true
		}
		if anonDepth > 0 || top.function != "" && g.bodilessTypes[x.typ(d.node)] {
			// Bodiless declarations inside a function are dropped below
			// anyway; most are local variables, so do not describe them.
			continue
		}
		if !g.describe(x, d) {
			continue
		}
		if d.anon {
			stack = append(stack, frame{end: d.end, anon: true})
			anonDepth++
			continue
		}
		if d.decl && top.function != "" {
			// A bodiless declaration inside a function is a local
			// prototype or, in C++, a variable the grammar took for one.
			continue
		}
		name := cleanName(d.name)
		if name == "" {
			continue
		}
		exported := false
		switch d.vis {
		case visPublic:
			exported = top.exported
		case visInherit:
			exported = top.exported && top.members
		case visAccess:
			if top.isClass {
				exported = top.exported && top.access == "public"
			} else {
				exported = top.exported && !d.static
			}
		}
		if d.local {
			exported = false
		}
		e := Entity{
			Kind:      d.kind,
			Start:     int(d.lineStart) + 1,
			End:       endLine(d.lineStart, d.lineEnd, d.endColumn),
			Exported:  exported,
			Signature: x.signature(g, d),
		}
		f := frame{end: d.end, kind: d.kind, isClass: d.isClass}
		if d.isClass {
			path := top.class
			if d.hasQual {
				path = qualPath(d.qual)
			}
			e.Class = join(path, name)
			f.class, f.exported, f.members = e.Class, exported, d.members
			f.access = d.access
		} else {
			e.Class = top.class
			fn := join(top.function, name)
			if d.hasQual {
				e.Class = qualPath(d.qual)
				fn = name
			}
			e.Function = fn
			if g.ctorByName && e.Kind == "function" && e.Class != "" && lastSegment(e.Class) == name {
				e.Kind = "constructor"
			}
			switch {
			case e.Kind == "function" && e.Class != "" && top.function == "":
				e.Kind = "method"
			case e.Kind == "method" && e.Class == "":
				e.Kind = "function" // an object literal's method
			}
			f.class, f.function = e.Class, fn
		}
		out = append(out, e)
		stack = append(stack, f)
	}
	return out
}

// qualPath dots an explicit class path (a Go receiver, C++ A::B::).
func qualPath(parts []string) string {
	clean := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = cleanName(p); p != "" {
			clean = append(clean, p)
		}
	}
	return clip(strings.Join(clean, "."), maxPath)
}

// endLine converts a node's end point to a 1-based last line: a node that
// ends at column 0 ends on the line before.
func endLine(startRow, endRow, endColumn uint32) int {
	if endColumn == 0 && endRow > startRow {
		return int(endRow)
	}
	return int(endRow) + 1
}

// lastSegment returns the part of a dotted path after the last dot.
func lastSegment(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}

// join dots a path and a name. Paths are clipped: on hostile nesting
// thousands deep, unbounded paths would cost memory quadratic in the depth.
func join(a, b string) string {
	if a == "" {
		return b
	}
	return clip(a+"."+b, maxPath)
}

// signature is the definition's text from its (widened) start to its body,
// whitespace collapsed.
func (x *extraction) signature(g *grammar, d *def) string {
	if d.sig != "" {
		return clip(collapse(d.sig), maxSignature)
	}
	end := d.end
	for _, f := range g.bodyFields {
		if b := d.node.ChildByFieldName(f); b != nil {
			end = b.StartByte()
			break
		}
	}
	start := d.sigStart
	if end > uint32(len(x.src)) || start > end {
		return ""
	}
	if end-start > 4*maxSignature {
		end = start + 4*maxSignature
	}
	s := collapse(string(x.src[start:end]))
	s = strings.TrimRight(s, " {;:")
	return clip(s, maxSignature)
}

// collapse replaces runs of white space by one space and makes the text
// valid UTF-8, so that signatures are one line of JSON-safe text.
func collapse(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Join(strings.Fields(s), " ")
}

// cleanName makes a name single-line valid UTF-8 of bounded length.
func cleanName(s string) string {
	return clip(collapse(s), maxName)
}

// clip cuts s to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// maxChildren bounds the children scanned for modifiers and the like; a
// definition node has a handful, and hostile input must not make it more.
const maxChildren = 64

// childOfType returns the first child of n (named or not) of type typ.
func (x *extraction) childOfType(n *sitter.Node, typ string) *sitter.Node {
	if n == nil {
		return nil
	}
	count := int(n.ChildCount())
	for i := 0; i < count && i < maxChildren; i++ {
		if c := n.Child(i); c != nil && x.typ(c) == typ {
			return c
		}
	}
	return nil
}
