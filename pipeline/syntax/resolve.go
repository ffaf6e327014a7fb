package syntax

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// Defaults of Options.
const (
	DefaultMaxFileSize  = 2 << 20 // bytes per side; larger files are mostly generated
	DefaultParseTimeout = 30 * time.Second
)

// Options tune Resolve. The zero value means the defaults.
type Options struct {
	// Workers is the number of files resolved at once, each with its own
	// parser and repository handle; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// MaxFileSize skips a file when either side is larger, in bytes; 0
	// means DefaultMaxFileSize, negative means no limit.
	MaxFileSize int64
	// ParseTimeout skips a file whose parse takes longer; 0 means
	// DefaultParseTimeout, negative means no limit.
	ParseTimeout time.Duration
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

func (o Options) maxFileSize() int64 {
	if o.MaxFileSize == 0 {
		return DefaultMaxFileSize
	}
	return o.MaxFileSize
}

func (o Options) parseTimeout() time.Duration {
	if o.ParseTimeout == 0 {
		return DefaultParseTimeout
	}
	return max(o.ParseTimeout, 0)
}

// Scope is one (file, class, function) tuple touched by the change, with
// its changed lines on each side (paper, section 3.2; rule 27: deleted
// lines are resolved on the pre-change tree, added lines on the
// post-change tree). Function is empty for a class body's lines outside
// every function (class-body scope); both are empty for file-level lines.
type Scope struct {
	File      string `json:"file"`
	Class     string `json:"class"`
	Function  string `json:"function"`
	PreLines  []int  `json:"pre_lines"`
	PostLines []int  `json:"post_lines"`
	// New is true when the (class, function) scope exists only after the
	// change: one of the file's NewEntities has this class and function
	// (for a class-body scope, the class is new).
	New bool `json:"new"`
	// Members are, for a class-body scope, the class's members (Members:
	// fields, constants, class attributes, enum constants) that hold its
	// changed lines, in the order they are met (deleted lines first,
	// then added ones; issue 25 §3: a mapping may give each member of a
	// shared class body to its own section). A blank or comment line of
	// the body counts for the member it stands before, a Python attribute
	// docstring (PEP 257) for the member it follows. Lines outside every
	// member (the class's header, its docstring) are in no member.
	Members []MemberLines `json:"members,omitempty"`
}

// MemberLines are the changed lines of one class-body member.
type MemberLines struct {
	Name      string `json:"name"`
	PreLines  []int  `json:"pre_lines"`
	PostLines []int  `json:"post_lines"`
}

// Member returns the scope's member of that name, or nil.
func (s *Scope) Member(name string) *MemberLines {
	for i := range s.Members {
		if s.Members[i].Name == name {
			return &s.Members[i]
		}
	}
	return nil
}

// FileResult is what Resolve learned about one resolved source file.
type FileResult struct {
	File string `json:"file"`
	// NewEntities are the classes and functions present after the change
	// and absent before it, by qualified name, in line order. Impl blocks
	// are not listed: they introduce no symbol.
	NewEntities []Entity `json:"new_entities"`
}

// Skip reasons, a closed vocabulary.
const (
	SkipTooLarge    = "too large"
	SkipBinary      = "binary"
	SkipUnsupported = "unsupported language"
	SkipTimeout     = "parse timeout"
	SkipUnreadable  = "unreadable"
)

// Skip is a changed source file that was not resolved, and why.
type Skip struct {
	File   string `json:"file"`
	Reason string `json:"reason"` // one of the Skip* constants
	Detail string `json:"detail"` // for people: sizes, language, side
}

// Result is the outcome of Resolve; every slice is sorted by file.
type Result struct {
	Scopes  []Scope      `json:"scopes"`
	Files   []FileResult `json:"files"`
	Skipped []Skip       `json:"skipped"`
}

// fileOutcome is one worker's answer for one file.
type fileOutcome struct {
	scopes []Scope
	file   *FileResult
	skip   *Skip
}

// Resolve maps every changed line of every changed source file of ch to
// its (class, function) scope and finds each file's new entities. Files of
// other categories (tests, docs, generated, vendored) are ignored. Work is
// spread over Options.Workers goroutines, each with its own diff.Repo
// opened on repoDir (a Repo is not safe for concurrent use) and its own
// Parser.
func Resolve(ctx context.Context, repoDir string, ch *diff.Change, opt Options) (*Result, error) {
	if ch == nil {
		return nil, errors.New("resolve scopes: no change")
	}
	var todo []int
	for i := range ch.Files {
		if ch.Files[i].Category == lang.Source {
			todo = append(todo, i)
		}
	}
	res := &Result{Scopes: []Scope{}, Files: []FileResult{}, Skipped: []Skip{}}
	if len(todo) == 0 {
		return res, ctx.Err()
	}
	outcomes := make([]fileOutcome, len(ch.Files))
	err := eachFile(ctx, repoDir, todo, opt, "resolve scopes", func(ctx context.Context, br *blobReader, p *Parser, i int) error {
		out, err := resolveFile(ctx, br, p, ch, &ch.Files[i], opt)
		outcomes[i] = out
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, o := range outcomes {
		res.Scopes = append(res.Scopes, o.scopes...)
		if o.file != nil {
			res.Files = append(res.Files, *o.file)
		}
		if o.skip != nil {
			res.Skipped = append(res.Skipped, *o.skip)
		}
	}
	slices.SortStableFunc(res.Scopes, func(a, b Scope) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Class, b.Class), cmp.Compare(a.Function, b.Function))
	})
	slices.SortStableFunc(res.Files, func(a, b FileResult) int { return cmp.Compare(a.File, b.File) })
	slices.SortStableFunc(res.Skipped, func(a, b Skip) int { return cmp.Compare(a.File, b.File) })
	return res, nil
}

// side is one version of a file.
type side struct {
	rev, path string
	language  string // grammar name
}

// resolveFile resolves one file. A returned error means the repository is
// unusable; problems of the file itself become a Skip.
func resolveFile(ctx context.Context, r *blobReader, p *Parser, ch *diff.Change, f *diff.File, opt Options) (fileOutcome, error) {
	path := f.Path()
	skip := func(reason, format string, args ...any) (fileOutcome, error) {
		return fileOutcome{skip: &Skip{File: path, Reason: reason, Detail: fmt.Sprintf(format, args...)}}, nil
	}
	if f.Binary {
		return skip(SkipBinary, "git reports a binary change")
	}
	var sides [2]*side // pre, post
	if f.OldPath != "" {
		sides[0] = &side{rev: ch.Base, path: f.OldPath}
	}
	if f.NewPath != "" {
		sides[1] = &side{rev: ch.Head, path: f.NewPath}
	}
	for _, s := range sides {
		if s == nil {
			continue
		}
		name := ""
		if l := lang.ForPath(s.path); l != nil {
			name = l.Name
		}
		s.language = ParseLanguage(s.path, name)
		if !Supported(s.language) {
			if s.language == "" {
				s.language = "unknown"
			}
			return skip(SkipUnsupported, "%s: no syntax scopes for %s", s.path, s.language)
		}
	}
	var ents [2][]Entity
	var srcs [2][]byte
	var trees [2]*parsed // kept for the members of class bodies
	defer func() {
		for _, t := range trees {
			if t != nil {
				t.tree.Close()
			}
		}
	}()
	for i, s := range sides {
		if s == nil {
			continue
		}
		limit := opt.maxFileSize()
		src, err := r.read(s.rev, s.path, limit)
		if size, ok := isTooLarge(err); ok {
			return skip(SkipTooLarge, "%s at %s is %d bytes (limit %d)", s.path, short(s.rev), size, limit)
		}
		if errors.Is(err, diff.ErrNoSuchFile) {
			return skip(SkipUnreadable, "%v", err)
		}
		if err != nil {
			return fileOutcome{}, fmt.Errorf("resolve scopes: %w", err)
		}
		srcs[i] = src
		trees[i], err = p.parseFile(ctx, s.language, src)
		if err == nil {
			ents[i] = p.extract(trees[i].g, trees[i].tree, src)
		}
		switch {
		case errors.Is(err, ErrTimeout):
			return skip(SkipTimeout, "%s at %s: %v", s.path, short(s.rev), err)
		case err != nil:
			return fileOutcome{}, fmt.Errorf("resolve scopes: %s at %s: %w", s.path, short(s.rev), err)
		}
	}
	fresh := newEntities(ents[0], ents[1])
	freshKeys := make(map[key]bool, len(fresh))
	for _, e := range fresh {
		freshKeys[e.key()] = true
	}
	out := fileOutcome{}
	if sides[1] != nil {
		out.file = &FileResult{File: path, NewEntities: fresh}
	}
	byKey := map[key]*Scope{}
	var order []key
	add := func(entities []Entity, lines []int, post bool, sd *side, src []byte, tree *parsed) error {
		idx := enclosingAll(entities, lines)
		text := lineIndex(src)
		body, next := bodyTrivia(entities, lines, idx, sd.language, text)
		var members *memberIndex
		for li, line := range lines {
			k := key{}
			if i := idx[li]; i >= 0 && (entities[i].IsFunction() || body[li] || !trivia(sd.language, text(line))) {
				k = entities[i].scopeKey()
			}
			s := byKey[k]
			if s == nil {
				s = &Scope{File: path, Class: k.class, Function: k.function, PreLines: []int{}, PostLines: []int{}, New: k != (key{}) && freshKeys[k]}
				byKey[k] = s
				order = append(order, k)
			}
			if post {
				s.PostLines = append(s.PostLines, line)
			} else {
				s.PreLines = append(s.PreLines, line)
			}
			if k.class == "" || k.function != "" || !HasMembers(sd.language) {
				continue
			}
			if members == nil {
				// The members come from the tree already parsed: a query
				// walk, not a second parse.
				ms, docEnd, err := p.membersOf(tree, src)
				if err != nil {
					return err
				}
				members = newMemberIndex(ms, docEnd)
			}
			at := line
			if next[li] > 0 {
				at = next[li] // a blank or comment line goes with the member after it
			}
			if name := members.at(k.class, at); name != "" {
				s.addMemberLine(name, line, post)
			}
		}
		return nil
	}
	for i, lines := range [][]int{f.OldLines, f.NewLines} {
		if sides[i] == nil {
			continue
		}
		if err := add(ents[i], sortedLines(lines), i == 1, sides[i], srcs[i], trees[i]); err != nil {
			return fileOutcome{}, fmt.Errorf("resolve scopes: %s at %s: %w", sides[i].path, short(sides[i].rev), err)
		}
	}
	for _, k := range order {
		out.scopes = append(out.scopes, *byKey[k])
	}
	return out, nil
}

// lineIndex returns a function that gives 1-based line n of src.
func lineIndex(src []byte) func(n int) []byte {
	var starts []int
	return func(n int) []byte {
		if starts == nil {
			starts = append(starts, 0)
			for i, c := range src {
				if c == '\n' {
					starts = append(starts, i+1)
				}
			}
		}
		if n < 1 || n > len(starts) {
			return nil
		}
		end := len(src)
		if n < len(starts) {
			end = starts[n] - 1
		}
		return src[starts[n-1]:end]
	}
}

// bodyTrivia reports, for each of lines (ascending; idx from
// enclosingAll), whether it is a blank or comment line of a class body
// that belongs to the body: the next line with code in the class is a line
// of the body itself (a comment between fields, such as "# Metadata 2.4 -
// PEP 639" in a TypedDict; issue 25 §3), or there is none. Before a
// method or a nested class such a line stays file-level, so that the
// blank line and the doc comment of a new method do not count as a change
// of its class's body. A run of trivia lines is scanned once. next gives,
// for a trivia line of the body, the body's code line after it (0: none).
func bodyTrivia(entities []Entity, lines, idx []int, language string, text func(int) []byte) (in []bool, next []int) {
	out := make([]bool, len(lines))
	next = make([]int, len(lines)) // the next code line in the class, 0 for none
	var probe []int
	// The last scan: in class scannedIn, from line scanned, the next code
	// line found (past the class's end: none).
	scannedIn, scanned, found := -1, 0, 0
	for li, line := range lines {
		i := idx[li]
		if i < 0 || entities[i].IsFunction() || !trivia(language, text(line)) {
			continue
		}
		end := entities[i].End
		if i != scannedIn || line <= scanned || line >= found {
			// Else the lines between the last scan's start and its find
			// are all trivia, and its answer holds for this one.
			scannedIn, scanned, found = i, line, end+1
			for n := line + 1; n <= end; n++ {
				t := text(n)
				if t == nil {
					break
				}
				if !trivia(language, t) {
					found = n
					break
				}
			}
		}
		if found > end {
			out[li] = true
			continue
		}
		next[li] = found
		if len(probe) == 0 || probe[len(probe)-1] != found {
			probe = append(probe, found)
		}
	}
	if len(probe) == 0 {
		return out, next
	}
	at := enclosingAll(entities, probe)
	of := make(map[int]int, len(probe))
	for pi, n := range probe {
		of[n] = at[pi]
	}
	for li, n := range next {
		if n > 0 {
			out[li] = of[n] == idx[li]
			if !out[li] {
				next[li] = 0
			}
		}
	}
	return out, next
}

// memberIndex finds the member a line of a class body declares or
// documents.
type memberIndex struct {
	ms []spanMember // by start line
}

// spanMember is a member and the last line it holds: its declaration's,
// or its attribute docstring's.
type spanMember struct {
	Member
	last int
}

func newMemberIndex(ms []Member, docEnd []int) *memberIndex {
	x := &memberIndex{ms: make([]spanMember, len(ms))}
	for i, m := range ms {
		x.ms[i] = spanMember{m, max(m.End, docEnd[i])}
	}
	slices.SortStableFunc(x.ms, func(a, b spanMember) int { return cmp.Compare(a.Start, b.Start) })
	return x
}

// at names the member of class whose declaration, or attribute docstring,
// holds line, "" for none; of names declared together (A = B = 1), the
// first. Members do not nest, so the holder, if any, is among those with
// the greatest start at or before line.
func (x *memberIndex) at(class string, line int) string {
	i, _ := slices.BinarySearchFunc(x.ms, line+1, func(m spanMember, l int) int { return cmp.Compare(m.Start, l) })
	if i == 0 {
		return ""
	}
	j := i - 1
	for j > 0 && x.ms[j-1].Start == x.ms[i-1].Start {
		j--
	}
	for _, m := range x.ms[j:i] {
		if m.Class == class && line <= m.last {
			return m.Name
		}
	}
	return ""
}

// addMemberLine records a changed line of one of the scope's members.
func (s *Scope) addMemberLine(name string, line int, post bool) {
	m := s.Member(name)
	if m == nil {
		s.Members = append(s.Members, MemberLines{Name: name, PreLines: []int{}, PostLines: []int{}})
		m = &s.Members[len(s.Members)-1]
	}
	if post {
		m.PostLines = append(m.PostLines, line)
	} else {
		m.PreLines = append(m.PreLines, line)
	}
}

// trivia reports whether a line carries no code: blank, or a comment
// line (bodyTrivia decides where such a line of a class body goes).
func trivia(language string, line []byte) bool {
	t := bytes.TrimSpace(line)
	if len(t) == 0 {
		return true
	}
	if language == "Python" {
		return t[0] == '#'
	}
	return bytes.HasPrefix(t, []byte("//")) || bytes.HasPrefix(t, []byte("/*")) || t[0] == '*'
}

// newEntities lists the entities of post whose qualified name is not in
// pre, impl blocks excepted.
func newEntities(pre, post []Entity) []Entity {
	old := make(map[key]bool, len(pre))
	for _, e := range pre {
		old[e.key()] = true
	}
	fresh := []Entity{}
	for _, e := range post {
		if e.Kind != "impl" && !old[e.key()] {
			fresh = append(fresh, e)
		}
	}
	return fresh
}

// sortedLines returns the lines ascending without duplicates; the diff
// already gives them so, and this keeps the sweep correct if it did not.
func sortedLines(lines []int) []int {
	if slices.IsSorted(lines) {
		return lines
	}
	s := slices.Clone(lines)
	slices.Sort(s)
	return slices.Compact(s)
}

// short abbreviates a commit for messages.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
