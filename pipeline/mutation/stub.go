package mutation

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// StubRevert is a mapped-section revert that keeps the section's module
// surface (issue 12 §7): when the plain revert breaks the build or the
// imports because other sections use what the section adds, the section
// is reverted function by function instead:
//
//   - each function it adds keeps its signature, with a body that fails
//     when called (a stub);
//   - each existing function it changes is put back as it was at the base
//     commit when its signature did not change (rule 28 gives a function
//     one owner, so this reverts exactly the section's lines in it), and
//     stubbed like a new one when it did, since the kept code calls the
//     new signature;
//   - its file-level and class-level lines (imports, constants, types,
//     class attributes) stay, so the other sections still import and
//     build;
//   - but the class-body members it owns through member rows (Class |
//     member: the mapping says each is this section's own, issue 25 §3)
//     are reverted as the plain revert reverts them, so that a shared
//     class body loses exactly this section's members.
//
// A stub raises or throws in Python, Java, JavaScript and TypeScript,
// whose test runners fail the one test; in Rust unimplemented!() panics,
// which libtest catches per test; in C it traps, ending its test
// process (one per test under ctest). In Go a panic, and runtime.Goexit
// on a test's goroutine, end the whole test binary and fail every later
// test of the package, so Go stubs return an error when the function
// returns one and otherwise end only a goroutine that is not a test's
// (goStubBody, goExitHelper). Go files also lose the imports left unused
// and gain those the stubs need.
type StubRevert struct {
	Revert
	// Stubbed and Restored name the functions stubbed and put back, as
	// "path:line name" (after the reference solution); Members the
	// members reverted, as "path Class.member".
	Stubbed, Restored, Members []string
}

// StubReverts returns the stub revert of a section, and false when it
// changes nothing or equals the plain revert. Go files go through the Go
// pass (gorevert.go): the placeholder bodies become stubs that fail the
// calling test without ending the test binary, the imports they need are
// added and those left unused dropped, and a member the section owns that
// the code left after it uses is kept.
func StubReverts(ctx context.Context, sol *Solution, o *Owners, sec Section) (StubRevert, bool, error) {
	g := newGoReverter(sol, o)
	keep := lineSet{}
	st := newGoKeep()
	var out StubRevert
	for {
		var err error
		if out, err = stubEdit(ctx, sol, o, sec, keep); err != nil {
			return StubRevert{}, false, err
		}
		applyKept(out.Edit, st)
		more, err := g.keepUsed(sec.ID, out.Edit, keep, st)
		if err != nil {
			out.Invalid = err.Error()
			break
		}
		if !more {
			break
		}
	}
	out.Kept = st.list()
	if out.Invalid == "" {
		out.Invalid = g.finish(sec.ID, out.Edit, st.stubs)
	}
	if len(out.Edit) == 0 {
		return StubRevert{}, false, nil
	}
	plain := g.revert(sec).Edit
	same := len(plain) == len(out.Edit)
	for p, b := range out.Edit {
		pb, ok := plain[p]
		same = same && ok && pb != nil && bytes.Equal(pb, b)
	}
	if same {
		return StubRevert{}, false, nil
	}
	return out, true, nil
}

// stubEdit makes the stub revert's edit, file by file, before the Go pass:
// Go stubs are placeholders, panic(message). Member lines in keep stay.
func stubEdit(ctx context.Context, sol *Solution, o *Owners, sec Section, keep lineSet) (StubRevert, error) {
	out := StubRevert{Revert: Revert{Section: sec, Edit: Edit{}}}
	msg := strconv.Quote(stubMessage(sec.ID))
	for i := range sol.Files {
		f := &sol.Files[i]
		syn := syntaxes[f.Language]
		if f.Skip != "" || f.After == nil || syn == nil || syn.Defs == nil {
			continue
		}
		src, stubbed, restored, members, err := stubFile(ctx, f, o, sec.ID, fmt.Sprintf(syn.Stub, msg), keep[f.Path])
		if err != nil {
			return StubRevert{}, err
		}
		if len(stubbed)+len(restored)+len(members) == 0 {
			continue
		}
		out.Edit[f.Path] = src
		out.Files = append(out.Files, f.Path)
		out.Stubbed = append(out.Stubbed, stubbed...)
		out.Restored = append(out.Restored, restored...)
		out.Members = append(out.Members, members...)
		out.Lines += countOwned(f, o, sec.ID)
	}
	sort.Strings(out.Files)
	return out, nil
}

// countOwned counts the changed lines of a file that the section owns.
func countOwned(f *File, o *Owners, id string) int {
	n := 0
	for _, l := range f.Added {
		if o.Added(f.Path, l) == id {
			n++
		}
	}
	for _, l := range f.Deleted {
		if o.Deleted(f.Path, l) == id {
			n++
		}
	}
	return n
}

// stubFile stubs or restores the functions of one file that the section
// owns: the functions holding an added line of one of its function
// scopes, and those whose base version holds a deleted one; and it
// reverts the members it owns through member rows.
func stubFile(ctx context.Context, f *File, o *Owners, id, stub string, keep map[int]bool) (src []byte, stubbed, restored, members []string, err error) {
	after, tree, err := Parse(ctx, f.Path, f.Language, f.After)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	defer tree.Close()
	afterDefs := nodes(after, after.Syntax.Defs)
	baseDefs := map[string]*sitter.Node{}
	var base *Source
	if f.Base != nil {
		b, btree, err := Parse(ctx, f.Path, f.Language, f.Base)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		defer btree.Close()
		base = b
		for _, d := range nodes(base, base.Syntax.Defs) {
			if k := qualifiedName(base, d); baseDefs[k] == nil {
				baseDefs[k] = d
			}
		}
	}
	fresh := map[*sitter.Node]bool{}
	target := map[*sitter.Node]bool{}
	for _, l := range f.Added {
		k, ok := o.post[f.Path][l]
		if !ok || k.function == "" || o.scope[k] != id {
			continue
		}
		if d := innermostDef(afterDefs, l); d != nil {
			target[d] = true
			fresh[d] = fresh[d] || o.fresh[k]
		}
	}
	if base != nil {
		var bdefs []*sitter.Node
		for _, d := range baseDefs {
			bdefs = append(bdefs, d)
		}
		sort.Slice(bdefs, func(i, j int) bool { return bdefs[i].StartByte() < bdefs[j].StartByte() })
		owned := map[string]bool{}
		for _, l := range f.Deleted {
			k, ok := o.pre[f.Path][l]
			if !ok || k.function == "" || o.scope[k] != id {
				continue
			}
			if d := innermostDef(bdefs, l); d != nil {
				owned[qualifiedName(base, d)] = true
			}
		}
		for _, d := range afterDefs {
			if owned[qualifiedName(after, d)] {
				target[d] = true
			}
		}
	}
	rs, members := memberReverts(f, o, id, keep)
	var last uint32
	for _, d := range afterDefs {
		if !target[d] || d.StartByte() < last {
			continue // not the section's, or inside one already handled
		}
		last = d.EndByte()
		where := fmt.Sprintf("%s:%d %s", f.Path, int(d.StartPoint().Row)+1, defName(after, d))
		if b := baseDefs[qualifiedName(after, d)]; b != nil && !fresh[d] && header(base, b) == header(after, d) {
			rs = append(rs, Replace{Start: d.StartByte(), End: d.EndByte(), Text: base.Text(b)})
			restored = append(restored, where)
			continue
		}
		body := d.ChildByFieldName("body")
		if body == nil {
			continue // an abstract or interface method: nothing to stub
		}
		rs = append(rs, Replace{Start: body.StartByte(), End: body.EndByte(), Text: stub})
		stubbed = append(stubbed, where)
	}
	if len(rs) == 0 {
		return f.After, nil, nil, nil, nil
	}
	return Site{Replace: rs}.Apply(f.After), stubbed, restored, members, nil
}

// memberReverts reverts, as replacements of the file after the change, the
// changed lines the section owns through member rows: in each hunk its
// added lines are dropped and its deleted lines put back where the first
// dropped line was, or at the hunk's start, as revertSection does. It
// names the members, "path Class.member". Members are outside every
// function, so these never meet a stub's replacement. Added lines in keep
// stay (a Go field other code uses).
func memberReverts(f *File, o *Owners, id string, keep map[int]bool) ([]Replace, []string) {
	after, base := splitLines(f.After), splitLines(f.Base)
	starts := make([]uint32, len(after)+1) // starts[i]: offset of line i+1
	for i, l := range after {
		starts[i+1] = starts[i] + uint32(len(l))
	}
	var rs []Replace
	var names []string
	note := func(line int, post bool, m string) {
		k := o.pre[f.Path][line]
		if post {
			k = o.post[f.Path][line]
		}
		if n := f.Path + " " + k.class + "." + m; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, h := range f.Hunks {
		var restored []byte
		for l := h.OldStart; h.OldLines > 0 && l < h.OldStart+h.OldLines && l-1 < len(base); l++ {
			if sec, m := o.DeletedMember(f.Path, l); sec == id {
				restored = append(restored, base[l-1]...)
				note(l, false, m)
			}
		}
		placed := false
		for l := h.NewStart; h.NewLines > 0 && l < h.NewStart+h.NewLines && l-1 < len(after); l++ {
			if sec, m := o.AddedMember(f.Path, l); sec == id && !keep[l] {
				r := Replace{Start: starts[l-1], End: starts[l]}
				if !placed {
					r.Text, placed = string(restored), true
				}
				rs = append(rs, r)
				note(l, true, m)
			}
		}
		if !placed && len(restored) > 0 {
			first := h.NewStart
			if h.NewLines == 0 {
				first = h.NewStart + 1
			}
			at := starts[min(max(first-1, 0), len(after))]
			rs = append(rs, Replace{Start: at, End: at, Text: string(restored)})
		}
	}
	return rs, names
}

// header is a definition's text before its body, white space folded: its
// signature.
func header(s *Source, d *sitter.Node) string {
	end := d.EndByte()
	if b := d.ChildByFieldName("body"); b != nil {
		end = b.StartByte()
	}
	return strings.Join(strings.Fields(string(s.Src[d.StartByte():end])), " ")
}

// innermostDef returns the innermost definition (defs in document order)
// whose lines include line, or nil.
func innermostDef(defs []*sitter.Node, line int) *sitter.Node {
	var in *sitter.Node
	for _, d := range defs {
		a, b := lines(d)
		if a > line {
			break
		}
		if line <= b {
			in = d
		}
	}
	return in
}

// classTypes are the node types whose name qualifies a definition inside
// them.
var classTypes = set("class_definition", "class_declaration", "interface_declaration", "enum_declaration", "record_declaration")

// qualifiedName names a definition by its enclosing classes and
// definitions, and for a Go method its receiver type, so that a function
// can be found again in the other version of its file.
func qualifiedName(s *Source, d *sitter.Node) string {
	parts := []string{defName(s, d)}
	for p := d.Parent(); p != nil; p = p.Parent() {
		if s.Syntax.Defs[p.Type()] || classTypes[p.Type()] {
			parts = append([]string{defName(s, p)}, parts...)
		}
	}
	if r := d.ChildByFieldName("receiver"); r != nil && d.Type() == "method_declaration" && s.Language == "Go" {
		fields := strings.Fields(strings.Trim(s.Text(r), "()"))
		if len(fields) > 0 {
			parts = append([]string{strings.TrimLeft(fields[len(fields)-1], "*")}, parts...)
		}
	}
	return strings.Join(parts, ".")
}

func defName(s *Source, d *sitter.Node) string {
	if n := d.ChildByFieldName("name"); n != nil {
		return s.Text(n)
	}
	if d.Type() == "function_definition" {
		if n := cDeclaratorName(d); n != nil {
			return s.Text(n) // C and C++ (syntax_cfamily.go)
		}
	}
	return d.Type()
}

// importName is the name an import binds: its alias, or the name the
// path suggests (the last element, skipping a /vN major-version element,
// without a go- prefix, up to the first character that cannot be in an
// identifier), as goimports assumes.
func importName(is *ast.ImportSpec) string {
	if is.Name != nil {
		return is.Name.Name
	}
	p, err := strconv.Unquote(is.Path.Value)
	if err != nil {
		return ""
	}
	base := path.Base(p)
	if strings.HasPrefix(base, "v") {
		if _, err := strconv.Atoi(base[1:]); err == nil && path.Dir(p) != "." {
			base = path.Base(path.Dir(p))
		}
	}
	base = strings.TrimPrefix(base, "go-")
	if i := strings.IndexFunc(base, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }); i >= 0 {
		base = base[:i]
	}
	return base
}

// StubCandidate makes the mutant of a stub revert. It takes the id of the
// plain revert it replaces, and retry says why that one was dropped.
func StubCandidate(r StubRevert, id, retry string) Candidate {
	sec := r.Section
	m := &Mutant{ID: id, Method: MappedRevert, Variant: StubVariant, Section: sec.ID, SectionTitle: sec.Title,
		Requirement: sec.Requirement, Status: Pending, Retry: retry}
	m.Reference = fmt.Sprintf("the reference solution implements section %s (%s): %s", sec.ID, sec.Title, orDash(sec.Requirement))
	list := func(names []string) string {
		if len(names) == 0 {
			return "none"
		}
		return strings.Join(names, ", ")
	}
	m.Mutated = fmt.Sprintf("the functions section %s adds keep their signatures but fail when called (%s), the existing functions it changes are as they were at the base commit (%s), and its module-level lines stay, so the other sections still import and build",
		sec.ID, list(r.Stubbed), list(r.Restored))
	if len(r.Members) > 0 {
		m.Mutated += fmt.Sprintf("; the class-body members the mapping gives it alone are reverted (%s)", list(r.Members))
	}
	if len(r.Kept) > 0 {
		m.Mutated += "; what the code left after it uses is kept (" + strings.Join(r.Kept, "; ") + ")"
	}
	m.Scenario = fmt.Sprintf("any use of what section %s requires, as its text says: %s", sec.ID, orDash(firstSentence(sec.Quote)))
	m.Rationale = fmt.Sprintf("Section %s's behaviour is gone (its new functions fail when called, its changes to existing ones are undone) while every name other sections use is still defined.", sec.ID)
	if r.Invalid != "" {
		// The last resort for the section: nothing would retry it.
		m.Status, m.Drop, m.Reason = Dropped, DropCompile, "a Go file does not parse: "+r.Invalid
	}
	return Candidate{Mutant: m, Edit: r.Edit}
}

// StubVariant marks a revert that leaves part of the section in place
// (Mutant.Variant), so a test that survives it may still assert the
// section: a stub revert, which keeps the section's module- and
// class-level lines, and a Go plain revert that kept declarations of the
// section the code left after it uses (Revert.Kept).
const StubVariant = "stubs"
