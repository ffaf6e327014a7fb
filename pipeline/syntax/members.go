package syntax

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// Member is one data member of a source file: a module-level constant or
// variable, or a field, constant, class attribute or enum constant of a
// class (issue 12: the public fields, constants and class attributes a PR
// adds are part of its public API, like its classes and functions).
type Member struct {
	// Kind says what the member is: "field" (a class or struct field, a
	// Python class attribute), "constant", "variable", "enum constant" or,
	// in Rust, "variant".
	Kind string `json:"kind"`
	// Class is the qualified class that holds the member, named as
	// Entity.Class names it; empty for a module-level member.
	Class string `json:"class"`
	// Name is the member's own name.
	Name string `json:"name"`
	// Start and End are the 1-based first and last lines of the
	// declaration (its value included).
	Start int `json:"start"`
	End   int `json:"end"`
	// Exported reports whether the member is public by its language's
	// convention, and its classes are.
	Exported bool `json:"exported"`
	// Declaration is the declaration on one line, white space collapsed,
	// with a long value (a dict literal, a composite literal) cut to its
	// opening bracket and "…", or to a short prefix and "…".
	Declaration string `json:"declaration"`
}

// Qualified is the member's qualified name: "Class.Name", or "Name" at
// module level.
func (m Member) Qualified() string {
	if m.Class == "" {
		return m.Name
	}
	return m.Class + "." + m.Name
}

// Members parses src as language (a pipeline/lang name, or "TSX") and
// returns its data members in source order; see MembersContext.
func (p *Parser) Members(language string, src []byte) ([]Member, error) {
	return p.MembersContext(context.Background(), language, src)
}

// MembersContext is Members with cancellation. Members are module-level
// constants and variables and the fields, constants, class attributes and
// enum constants declared directly in a class body; nothing declared
// inside a function, a method, an initializer block or another member's
// value is one. The rules per language are in the package documentation
// of the grammars' member queries (membersGrammars). A language without
// member rules gives ErrUnsupported.
func (p *Parser) MembersContext(ctx context.Context, language string, src []byte) ([]Member, error) {
	ms, _, err := p.membersSpans(ctx, language, src)
	return ms, err
}

// membersSpans is MembersContext with, per member, the last line its
// documentation holds (membersOf).
func (p *Parser) membersSpans(ctx context.Context, language string, src []byte) (ms []Member, docEnd []int, err error) {
	t, err := p.parseFile(ctx, language, src)
	if err != nil {
		return nil, nil, err
	}
	defer t.tree.Close()
	return p.membersOf(t, src)
}

// membersOf finds the members of a parsed file, with, per member, the last
// line its documentation holds: a Python attribute docstring (PEP 257: a
// string statement on the line after the assignment) counts for the member
// it follows when a class body's changed lines are given to members
// (Scope.Members). docEnd[i] is 0 when member i has none.
func (p *Parser) membersOf(t *parsed, src []byte) (ms []Member, docEnd []int, err error) {
	mg, err := memberGrammarFor(t.language, t.g)
	if err != nil {
		return nil, nil, err
	}
	mx := p.members(t.g, mg, t.tree, src)
	docEnd = make([]int, len(mx.out))
	for i, d := range mx.docEnd {
		docEnd[i] = d
	}
	return mx.out, docEnd, nil
}

// HasMembers reports whether language has member rules here.
func HasMembers(language string) bool {
	_, ok := memberGrammarNames[language]
	return ok
}

// mrole is what a member query capture contributes. A node captured by
// several patterns takes the highest role.
type mrole uint8

const (
	mNone   mrole = iota
	mBlock        // @block: nothing inside is a member (function bodies, anonymous types)
	mWrap         // @wrap: an export wrapper; the declaration inside is exported
	mMember       // @member: a declaration of members; nothing inside it is one
	mClass        // @class: a named class whose body declares members
)

var mroleNames = map[string]mrole{"block": mBlock, "wrap": mWrap, "member": mMember, "class": mClass}

// memberGrammar finds one language's members. As for definitions, every
// query pattern is one node (or a node and its immediate field), so that
// hostile nesting keeps the query linear; containment is decided in Go
// with a stack over the captures sorted by position.
type memberGrammar struct {
	source string
	query  *sitter.Query
	roles  []mrole
	// class opens a @class node inside top: its frame's class is the
	// class's own name (the walk dots the path), and an empty name makes
	// the node a block (an unnamed class).
	class func(x *extraction, n *sitter.Node, top *mframe) mframe
	// member adds the members a @member node declares.
	member func(mx *memberExtraction, n *sitter.Node, top *mframe)
}

// mframe is one open container while members are found.
type mframe struct {
	end   uint32
	block bool
	class string
	// exported: members public by their own modifiers are exported.
	exported bool
	// members: members without a modifier are public (interfaces, traits,
	// enums).
	members bool
	// export: inside an export statement, before any declaration.
	export bool
}

// classFrame is the frame of a class named name, exported when it is
// public (v) inside top; members says whether its members without a
// modifier are public.
func classFrame(name string, top *mframe, v visibility, members bool) mframe {
	return mframe{class: name, exported: top.public(v), members: members}
}

// memberExtraction holds the state of one Members call.
type memberExtraction struct {
	x   *extraction
	out []Member
	// docEnd gives a member (by index in out) the last line of its
	// attribute docstring (membersSpans).
	docEnd map[int]int
}

// add appends a member declared by node n; names are cleaned, and an empty
// one is dropped.
func (mx *memberExtraction) add(n *sitter.Node, kind, class, name string, exported bool, decl string) {
	name = cleanName(name)
	if name == "" {
		return
	}
	sp, ep := n.StartPoint(), n.EndPoint()
	mx.out = append(mx.out, Member{Kind: kind, Class: class, Name: name,
		Start: int(sp.Row) + 1, End: endLine(sp.Row, ep.Row, ep.Column),
		Exported: exported, Declaration: decl})
}

var (
	memberMu    sync.Mutex
	memberCache = map[string]*memberGrammar{}
)

// memberGrammarFor returns the compiled member grammar of a language.
func memberGrammarFor(language string, g *grammar) (*memberGrammar, error) {
	mk, ok := memberGrammarNames[language]
	if !ok {
		return nil, fmt.Errorf("%w %q: no member rules", ErrUnsupported, language)
	}
	memberMu.Lock()
	defer memberMu.Unlock()
	if mg := memberCache[language]; mg != nil {
		return mg, nil
	}
	mg := mk()
	q, err := sitter.NewQuery([]byte(mg.source), g.lang)
	if err != nil {
		// A constant of this package: a failure is a bug the tests catch.
		return nil, fmt.Errorf("compile %s member query: %w", language, err)
	}
	mg.query = q
	mg.roles = make([]mrole, q.CaptureCount())
	for i := range mg.roles {
		mg.roles[i] = mroleNames[q.CaptureNameForId(uint32(i))]
	}
	memberCache[language] = mg
	return mg, nil
}

// mitem is one captured node.
type mitem struct {
	n          *sitter.Node
	start, end uint32
	role       mrole
}

// members runs the member query and walks the captures in document order
// with a stack of open containers: no recursion, whatever the nesting.
func (p *Parser) members(g *grammar, mg *memberGrammar, tree *sitter.Tree, src []byte) *memberExtraction {
	x := &extraction{g: g, src: src}
	seen := map[nodeKey]int{}
	var items []mitem
	p.qc.Exec(mg.query, tree.RootNode())
	for {
		m, ok := p.qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			r := mg.roles[c.Index]
			if r == mNone {
				continue
			}
			n := c.Node
			k := nodeKey{n.StartByte(), n.EndByte(), n.Symbol()}
			if i, ok := seen[k]; ok {
				items[i].role = max(items[i].role, r)
				continue
			}
			seen[k] = len(items)
			items = append(items, mitem{n: n, start: k.start, end: k.end, role: r})
		}
	}
	slices.SortStableFunc(items, func(a, b mitem) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	mx := &memberExtraction{x: x, out: []Member{}, docEnd: map[int]int{}}
	stack := []mframe{{end: ^uint32(0), exported: true}}
	for _, it := range items {
		for len(stack) > 1 && (stack[len(stack)-1].end <= it.start || stack[len(stack)-1].end < it.end) {
			stack = stack[:len(stack)-1]
		}
		top := &stack[len(stack)-1]
		if top.block {
			continue
		}
		switch it.role {
		case mBlock:
			stack = append(stack, mframe{end: it.end, block: true})
		case mWrap:
			f := *top
			f.end, f.export = it.end, true
			stack = append(stack, f)
		case mClass:
			f := mg.class(x, it.n, top)
			if f.class = cleanName(f.class); f.class == "" || f.block {
				stack = append(stack, mframe{end: it.end, block: true})
				continue
			}
			f.end, f.class, f.export = it.end, join(top.class, f.class), false
			stack = append(stack, f)
		case mMember:
			mg.member(mx, it.n, top)
			// A member's value is part of it: a class or a function
			// inside declares nothing of the container.
			stack = append(stack, mframe{end: it.end, block: true})
		}
	}
	return mx
}

// maxValue bounds a value shown in a declaration, in bytes.
const maxValue = 60

// declaration is the source from start to end on one line: white space
// collapsed, each cut node (inside the range, in order; nil ones ignored)
// shortened by shortValue, trailing ";" and "," dropped, bounded.
func (x *extraction) declaration(start, end uint32, cuts ...*sitter.Node) string {
	if end > uint32(len(x.src)) || start > end {
		return ""
	}
	var b strings.Builder
	raw := func(s, e uint32) {
		if e-s > 4*maxSignature {
			e = s + 4*maxSignature
		}
		b.Write(x.src[s:e])
	}
	pos := start
	for _, c := range cuts {
		if c == nil {
			continue
		}
		cs, ce := c.StartByte(), c.EndByte()
		if cs < pos || ce > end || ce < cs {
			continue
		}
		raw(pos, cs)
		b.WriteString(x.shortValue(c))
		pos = ce
	}
	raw(pos, end)
	s := clip(oneLine(b.String()), maxSignature)
	return strings.TrimRight(s, " ;,")
}

// shortValue is a node's text on one line when it is short; else, when it
// ends with a bracket, the text up to the bracket that opens it, then "…"
// and the closing bracket ("{…}", "frozenset(…)"); else a prefix and "…".
func (x *extraction) shortValue(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
	if e > uint32(len(x.src)) || s > e {
		return ""
	}
	v := x.src[s:e]
	if len(v) <= 4*maxValue {
		if c := oneLine(string(v)); len(c) <= maxValue {
			return c
		}
	}
	if t := bytes.TrimRight(v, " \t\r\n"); len(t) > 0 {
		if open := matchingOpen(t); open >= 0 && open < 4*maxValue {
			if head := oneLine(string(t[:open+1])); len(head) <= maxValue {
				return head + "…" + string(t[len(t)-1])
			}
		}
	}
	return strings.TrimSpace(clip(oneLine(string(v[:min(len(v), 4*maxValue)])), maxValue)) + "…"
}

// oneLine makes text one line of valid UTF-8: a run of white space becomes
// one space, or nothing when it holds a line break right after an opening
// bracket or right before a closing one, so that a call wrapped by a
// formatter reads as written on one line: "_Validator(\n    added="2.4"\n)"
// gives "_Validator(added="2.4")". Leading and trailing space is dropped.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= utf8.RuneSelf && unicode.IsSpace(r) {
			return ' ' // U+2028 and the like break lines too
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	var b strings.Builder
	b.Grow(len(s))
	var last byte // the last byte written
	for i := 0; i < len(s); {
		if !asciiSpace(s[i]) {
			b.WriteByte(s[i])
			last = s[i]
			i++
			continue
		}
		j, nl := i, false
		for j < len(s) && asciiSpace(s[j]) {
			nl = nl || s[j] == '\n' || s[j] == '\r'
			j++
		}
		if b.Len() > 0 && j < len(s) && !(nl && (strings.IndexByte("([{", last) >= 0 || strings.IndexByte(")]}", s[j]) >= 0)) {
			b.WriteByte(' ')
			last = ' '
		}
		i = j
	}
	return b.String()
}

// asciiSpace reports the white space that oneLine joins.
func asciiSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// matchingOpen returns the index of the bracket that t's last byte closes,
// or -1. Brackets of any kind are counted alike and string literals are
// not understood: on odd input the cut is only less pretty.
func matchingOpen(t []byte) int {
	switch t[len(t)-1] {
	case ')', ']', '}':
	default:
		return -1
	}
	depth := 0
	for i := len(t) - 1; i >= 0; i-- {
		switch t[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// constantName reports whether a name is written as a constant: letters
// and no lower-case one (LICENSES, MAX_SIZE).
func constantName(name string) bool {
	letter := false
	for _, r := range name {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letter = true
		}
	}
	return letter
}

// dunder reports a Python special name (__slots__, __all__): protocol,
// not a member of the API.
func dunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// childrenOfType returns n's children of type typ (bounded by
// maxChildren).
func (x *extraction) childrenOfType(n *sitter.Node, typ string) []*sitter.Node {
	var out []*sitter.Node
	count := int(n.ChildCount())
	for i := 0; i < count && i < maxChildren; i++ {
		if c := n.Child(i); c != nil && x.typ(c) == typ {
			out = append(out, c)
		}
	}
	return out
}
