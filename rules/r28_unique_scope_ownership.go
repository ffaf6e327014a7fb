package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// R28 checks unique scope ownership.
var R28 = &Rule{
	ID:    28,
	Name:  "unique-scope-ownership",
	Doc:   `Each changed (file, class, function) scope, class-body scopes (Class | -) included, has exactly one canonical owner across the Direct modifications and Associated changes of all blocks, even when its file serves several sections (paper: a unique semantic owner). The owner is the block that lists it under Direct modifications: at most one block may, at most once, and not also under its own Associated changes; other blocks may refer to it under Associated changes. A scope listed only under Associated changes must be so in one block alone, which then owns it. File-level rows (- | -) are exempt: a file's imports may serve several sections. A class body that several sections change is mapped member by member, not given to a parent section: each changed member as its own row, Class | member, in the Direct modifications of the block it serves, so that each section owns, and its revert removes, exactly its own members (RawMetadata gains license_expression for one section and license_files for another); a member row is a scope of its own, and a Class | - row beside it owns the body's other lines. The violation for a class body in two blocks names the member rows to write. The advice names the block that holds the most of the file's other rows, where the scope most likely belongs. Tests have one owner too, the block of the section a test asserts (its rows are what the test-to-section map reads, docs/architecture.md), and the advice for a test names the test plan's block, which may own it under Direct modifications while the sections it asserts refer to it under Associated changes. A Go test is graded subtest by subtest, so its rows may name subtests: a suite method run by a runner (grpctest, testify) is a scope of its own, Recv | TestMethod, and a subtest is named by the path go test reports, - | TestX/case_name; several blocks may list different methods or subtests of one runner or table. A row naming a test names all its subtests, so a row naming TestX and another block's row naming TestX/case_name, in the same table (or both under Associated changes with no Direct owner), give case_name two owners: name TestX's subtests one by one instead. The methods a runner runs are not known to the rules: a row naming the runner (- | Test) beside rows naming its methods is not reported. Paths that are not PR files are rule 2's, and directory, glob and aggregate entries rule 20's.`,
	Check: checkR28,
}

// r28Use is one row naming a scope.
type r28Use struct {
	b    *mapping.Block
	line int
}

func checkR28(p *Pass) {
	var order []fileScope
	direct := map[fileScope][]r28Use{}
	assoc := map[fileScope][]r28Use{}
	key := func(r *mapping.CodeRow) (fileScope, bool) {
		path := strings.TrimSpace(r.Path)
		k := RowScope(r)
		if path == "" || k == (ScopeKey{}) {
			return fileScope{}, false
		}
		if p.PRFile[path] == nil && (p.Change != nil || p.AggregatePath(path) != "") {
			return fileScope{}, false // rules 2 and 20
		}
		return fileScope{path, k}, true
	}
	note := func(m map[fileScope][]r28Use, rows []mapping.CodeRow, b *mapping.Block) {
		for j := range rows {
			k, ok := key(&rows[j])
			if !ok {
				continue
			}
			if direct[k] == nil && assoc[k] == nil {
				order = append(order, k)
			}
			m[k] = append(m[k], r28Use{b, rows[j].Line})
		}
	}
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		note(direct, b.Direct.Rows, b)
		note(assoc, b.Associated.Rows, b)
	}

	for _, k := range order {
		uses := direct[k]
		if len(uses) == 0 {
			// No Direct row: the Associated rows must name one block.
			as := assoc[k]
			for i, u := range as[1:] {
				if u.b == as[0].b || r28Earlier(as[:i+1], u.b) != nil {
					continue
				}
				if test, goTest := r28TestFile(p, k.file); test {
					p.Reportf(u.line, r28Where(k), "test `%s` of `%s` is listed under Associated changes in blocks %d (section %s, line %d) and %d, and under Direct modifications in none: a test has one owner, the section it asserts; %s%s",
						k.scope, k.file, as[0].b.Number, as[0].b.Section, as[0].line, u.b.Number, r28TestOwner(p, k, as), r28Subtests(goTest, k))
					continue
				}
				p.Reportf(u.line, r28Where(k), "`%s` of `%s` is listed under Associated changes in blocks %d (section %s, line %d) and %d, and under Direct modifications in none: a scope has one owner; list it under the Direct modifications of %s",
					k.scope, k.file, as[0].b.Number, as[0].b.Section, as[0].line, u.b.Number, r28Owner(p, k, as))
			}
			continue
		}
		for i, u := range uses {
			if i == 0 {
				continue
			}
			first := uses[0]
			switch {
			case u.b == first.b:
				p.Reportf(u.line, r28Where(k), "`%s` of `%s` is listed again in the Direct modifications of block %d (first at line %d); remove this row",
					k.scope, k.file, u.b.Number, first.line)
			default:
				if prev := r28Earlier(uses[:i], u.b); prev != nil {
					continue // already reported for this block
				}
				if test, goTest := r28TestFile(p, k.file); test {
					p.Reportf(u.line, r28Where(k), "test `%s` of `%s` is also in the Direct modifications of block %d (section %s, line %d): a test has one owner; keep it in the Direct modifications of %s and list it under Associated changes in the blocks of the other sections it asserts%s",
						k.scope, k.file, first.b.Number, first.b.Section, first.line, r28TestPlan(p, k, uses), r28Subtests(goTest, k))
					continue
				}
				p.Reportf(u.line, r28Where(k), "`%s` of `%s` is also in the Direct modifications of block %d (section %s, line %d): a scope has one owner; keep it in the Direct modifications of %s and list it under Associated changes in the other blocks%s",
					k.scope, k.file, first.b.Number, first.b.Section, first.line, r28Owner(p, k, uses), r28Members(p, k))
			}
		}
		// The same scope in a block's Direct modifications and its
		// Associated changes.
		for _, a := range assoc[k] {
			for _, u := range uses {
				if u.b == a.b {
					p.Reportf(a.line, r28Where(k), "`%s` of `%s` is in both tables of block %d (Direct modifications at line %d); remove it from Associated changes",
						k.scope, k.file, a.b.Number, u.line)
					break
				}
			}
		}
	}
	r28SubtestOwners(p, order, direct, assoc)
}

// r28SubtestOwners reports the Go subtests that two blocks own: a row
// naming a test names all its subtests (the test-to-section map reads it
// so), so a block's row naming TestX and another's naming TestX/case, in
// the same table, or both under Associated changes while no block names
// either under Direct modifications, give the subtest two owners.
func r28SubtestOwners(p *Pass, order []fileScope, direct, assoc map[fileScope][]r28Use) {
	type reported struct {
		line  int
		block *mapping.Block
	}
	seen := map[reported]bool{}
	for _, k := range order {
		if _, goTest := r28TestFile(p, k.file); !goTest || !strings.Contains(k.scope.Function, "/") {
			continue
		}
		// The scopes of the tests above the subtest, nearest last.
		var above []fileScope
		for i := 0; i < len(k.scope.Function); i++ {
			if k.scope.Function[i] == '/' {
				above = append(above, fileScope{k.file, ScopeKey{k.scope.Class, k.scope.Function[:i]}})
			}
		}
		ownedDirect := len(direct[k]) > 0
		for _, a := range above {
			ownedDirect = ownedDirect || len(direct[a]) > 0
		}
		for _, a := range above {
			for _, t := range []struct {
				sub, whole []r28Use
				table      string
			}{{direct[k], direct[a], mapping.SubPartDirect}, {assoc[k], assoc[a], mapping.SubPartAssociated}} {
				if t.table == mapping.SubPartAssociated && ownedDirect {
					continue // owned under Direct modifications, referred to here
				}
				for _, u := range t.sub {
					for _, w := range t.whole {
						if w.b == u.b || seen[reported{u.line, w.b}] {
							continue
						}
						seen[reported{u.line, w.b}] = true
						p.Reportf(u.line, r28Where(k), "subtest `%s` of `%s` is listed under %s in block %d, and block %d (section %s, line %d) lists `%s`, which names all its subtests: a test has one owner; in block %d name the subtests of `%s` it asserts one by one instead (the paths go test reports, `%s/<subtest>`), or remove this row",
							k.scope, k.file, t.table, u.b.Number, w.b.Number, w.b.Section, w.line, a.scope, w.b.Number, a.scope, a.scope.Function)
					}
				}
			}
		}
	}
}

// r28TestFile reports whether a path is a test file of the PR, and a Go
// one, whose rows may name subtests.
func r28TestFile(p *Pass, path string) (test, goTest bool) {
	f := p.PRFile[path]
	if f == nil || f.Category != lang.Test {
		return false, false
	}
	return true, f.Language == "Go"
}

// r28TestOwner is the advice for a test listed under Associated changes
// in several blocks and owned by none: the test plan's block may own it,
// or one block keeps it.
func r28TestOwner(p *Pass, k fileScope, uses []r28Use) string {
	if plan := r28PlanBlock(p); plan != nil {
		return fmt.Sprintf("list it under the Direct modifications of block %d (section %s, the test plan) and keep it under Associated changes only in the blocks of the sections it asserts, or keep it in one block", plan.Number, plan.Section)
	}
	return "keep it under the Associated changes of the block of the section it asserts, " + r28Owner(p, k, uses) + ", and remove it from the others"
}

// r28TestPlan names the block that should own a test listed under Direct
// modifications in several blocks: the test plan's, when one lists it.
func r28TestPlan(p *Pass, k fileScope, uses []r28Use) string {
	if plan := r28PlanBlock(p); plan != nil {
		for _, u := range uses {
			if u.b == plan {
				return fmt.Sprintf("block %d (section %s, the test plan)", plan.Number, plan.Section)
			}
		}
	}
	return r28Owner(p, k, uses)
}

// r28PlanBlock is the block of the one evaluation section (the test
// plan), or nil when there is none or more than one.
func r28PlanBlock(p *Pass) *mapping.Block {
	var plan *mapping.Block
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		rows := p.SCS[strings.TrimSpace(b.Section)]
		if len(rows) == 0 || strings.TrimSpace(rows[0].Category) != "evaluation" {
			continue
		}
		if plan != nil {
			return nil
		}
		plan = b
	}
	return plan
}

// r28Subtests is the advice for a Go test whose parts assert different
// sections: name its subtests instead of the test.
func r28Subtests(goTest bool, k fileScope) string {
	if !goTest {
		return ""
	}
	return fmt.Sprintf("; when its subtests assert different sections, name them instead of `%s`, each in the block it serves: a suite method as `Recv | TestMethod`, another subtest by the path go test reports, `%s/<subtest>`", k.scope, k.scope.Function)
}

// r28Earlier returns an earlier use in block b other than the first use,
// so that a block repeating a scope owned elsewhere is reported once for
// owning it (its repeats are reported as repeats only in the first block).
func r28Earlier(uses []r28Use, b *mapping.Block) *r28Use {
	for i := 1; i < len(uses); i++ {
		if uses[i].b == b {
			return &uses[i]
		}
	}
	return nil
}

// r28Owner says which of the blocks that list a scope should own it: the
// one holding the most rows of the scope's file besides the scope's own,
// where the scope's neighbours are; on a tie, the block of the deepest
// section; on a further tie, none in particular.
func r28Owner(p *Pass, k fileScope, uses []r28Use) string {
	type cand struct {
		b           *mapping.Block
		rows, depth int
	}
	var cs []cand
	for _, u := range uses {
		if slices.ContainsFunc(cs, func(c cand) bool { return c.b == u.b }) {
			continue
		}
		c := cand{b: u.b, depth: strings.Count(strings.TrimSpace(u.b.Section), ".") + 1}
		if s := p.SectionByID[strings.TrimSpace(u.b.Section)]; s != nil {
			c.depth = s.Level
		}
		for _, t := range [][]mapping.CodeRow{u.b.Direct.Rows, u.b.Associated.Rows} {
			for j := range t {
				if strings.TrimSpace(t[j].Path) == k.file && RowScope(&t[j]) != k.scope {
					c.rows++
				}
			}
		}
		cs = append(cs, c)
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.rows != b.rows {
			return b.rows - a.rows
		}
		return b.depth - a.depth
	})
	switch {
	case len(cs) == 0:
		return "the block of the section that implements it"
	case len(cs) > 1 && cs[0].rows == cs[1].rows && cs[0].depth == cs[1].depth:
		return "the block of the section that implements it most specifically"
	case cs[0].rows > 0 && (len(cs) == 1 || cs[0].rows > cs[1].rows):
		return fmt.Sprintf("block %d (section %s, which holds %d other row(s) of `%s`)", cs[0].b.Number, cs[0].b.Section, cs[0].rows, k.file)
	}
	return fmt.Sprintf("block %d (section %s, the most specific)", cs[0].b.Number, cs[0].b.Section)
}

func r28Where(k fileScope) string { return fmt.Sprintf("scope %s:%s", k.file, k.scope) }

// r28Members is the advice for a class body that several sections change
// member by member (issue 25 §3: RawMetadata gains one field for 7.2.1 and
// one for 7.2.2): a member row each, in its own block, so that each
// section owns, and its revert removes, its own members; the class-body
// row stays in one block when the body changes outside every member.
func r28Members(p *Pass, k fileScope) string {
	body := p.Bodies[k.file][k.scope.Class]
	if k.scope.Function != "" || body == nil || len(body.Members) < 2 {
		return ""
	}
	rows := make([]string, len(body.Members))
	for i, m := range body.Members {
		rows[i] = fmt.Sprintf("| `%s` | `%s` | `%s` |", k.file, k.scope.Class, m.Name)
	}
	s := fmt.Sprintf("; or, when each block adds its own members to the body, list them as member rows instead, each in the Direct modifications of the block it serves: %s", strings.Join(rows, ", "))
	if pre, post := r27Outside(body); len(pre)+len(post) > 0 {
		s += fmt.Sprintf(", and keep | `%s` | `%s` | - | in one block for the %s outside every member", k.file, k.scope.Class, r27LineList(pre, post))
	}
	return s
}
