package testaudit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// parser wraps one tree-sitter parser; not safe for concurrent use.
type parser struct{ p *sitter.Parser }

func newParser() *parser {
	p := sitter.NewParser()
	p.SetOperationLimit(int(ParseTimeout.Microseconds()))
	return &parser{p: p}
}

func (p *parser) close() {
	if p.p != nil {
		p.p.Close()
		p.p = nil
	}
}

// parsed is one parsed file during a scan.
type parsed struct {
	src  []byte
	root *sitter.Node
}

// text is a node's source text.
func (f *parsed) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s, e := n.StartByte(), n.EndByte()
	if int(e) > len(f.src) || s > e {
		return ""
	}
	return string(f.src[s:e])
}

func line(n *sitter.Node) int { return int(n.StartPoint().Row) + 1 }

// scanFile parses f and runs the language's scan over it.
func (p *parser) scanFile(ctx context.Context, l *Language, f File) (*scan, error) {
	if len(f.Source) > MaxSource {
		return nil, fmt.Errorf("%d bytes, more than the %d the audit reads", len(f.Source), MaxSource)
	}
	g := l.grammar()
	if l.pathGrammar != nil {
		if pg := l.pathGrammar(f.Path); pg != nil {
			g = pg
		}
	}
	p.p.SetLanguage(g)
	tree, err := p.p.ParseCtx(ctx, nil, f.Source)
	if err != nil {
		p.p.Reset()
		if errors.Is(err, sitter.ErrOperationLimit) {
			return nil, fmt.Errorf("parse took longer than %s", ParseTimeout)
		}
		return nil, err
	}
	defer tree.Close()
	pf := &parsed{src: f.Source, root: tree.RootNode()}
	s := l.scan(pf)
	if s.imports == nil {
		s.imports = map[string]bool{}
	}
	s.syntaxLine = firstError(pf.root)
	s.path = f.Path
	return s, nil
}

// frame is one node on the walk's stack, with the context the language
// carries down to it.
type frame struct {
	n     *sitter.Node
	typ   string
	field string
	// assert is set inside an assertion (an assert statement, the
	// condition of a Go if, the arguments of an assertion call).
	assert bool
	// scope is a language's context value (Python: inside a class body;
	// Java: the innermost class), inherited unless the visit changes it.
	scope string
	// local is set inside a function body, where declarations are
	// parameters and locals.
	local bool
}

// walk visits every node of the tree in document order with the stack of
// its ancestors (the node itself last). It uses a tree cursor and an
// explicit stack, so nesting depth costs memory, not Go stack. visit may
// set the context fields of the top frame; children inherit them.
func walk(root *sitter.Node, visit func(st []frame)) {
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	st := []frame{{n: root, typ: root.Type()}}
	visit(st)
	push := func() {
		parent := st[len(st)-1]
		n := c.CurrentNode()
		st = append(st, frame{n: n, typ: n.Type(), field: c.CurrentFieldName(),
			assert: parent.assert, scope: parent.scope, local: parent.local})
		visit(st)
	}
	for {
		if c.GoToFirstChild() {
			push()
			continue
		}
		for {
			if c.GoToNextSibling() {
				st = st[:len(st)-1]
				push()
				break
			}
			if !c.GoToParent() {
				return
			}
			st = st[:len(st)-1]
			if len(st) == 1 {
				// Back at the root: its siblings are not ours.
				return
			}
		}
	}
}

// parent returns the frame k levels above the top (1: the parent), or a
// zero frame.
func parent(st []frame, k int) frame {
	if i := len(st) - 1 - k; i >= 0 {
		return st[i]
	}
	return frame{}
}

// fingerprint hashes a node's leaf tokens, without comments and without
// the token at skip (a test's own name): layout and comments never make
// two tests different.
func fingerprint(f *parsed, n *sitter.Node, skip *sitter.Node) string {
	h := sha256.New()
	var skipStart uint32 = ^uint32(0)
	if skip != nil {
		skipStart = skip.StartByte()
	}
	walk(n, func(st []frame) {
		top := st[len(st)-1]
		if top.n.ChildCount() != 0 || strings.Contains(top.typ, "comment") {
			return
		}
		if top.n.StartByte() == skipStart {
			return
		}
		// Statement terminators: a newline and a ";" end a Go statement
		// alike.
		tok := strings.TrimSpace(f.text(top.n))
		if tok == "" || tok == ";" {
			return
		}
		h.Write([]byte(tok))
		h.Write([]byte{0})
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// firstError returns the line of the first ERROR or missing node, 0 when
// the tree parsed cleanly.
func firstError(root *sitter.Node) int {
	if !root.HasError() {
		return 0
	}
	first := 0
	walk(root, func(st []frame) {
		top := st[len(st)-1]
		if first == 0 && (top.n.IsError() || top.n.IsMissing() || top.typ == "ERROR") {
			first = line(top.n)
		}
	})
	if first == 0 {
		first = 1
	}
	return first
}

// hasAssertPrefix reports whether a callee name reads as an assertion:
// assertEqual, assert_called_with, assertThat, require.NoError's "NoError"
// is handled by the caller, which knows the receiver.
func hasAssertPrefix(name string) bool {
	l := strings.ToLower(name)
	return strings.HasPrefix(l, "assert") || strings.HasPrefix(l, "expect") || l == "raises" || l == "verify"
}
