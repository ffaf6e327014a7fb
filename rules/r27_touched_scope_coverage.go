package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// R27 checks touched scope coverage.
var R27 = &Rule{
	ID:    27,
	Name:  "touched-scope-coverage",
	Doc:   `Every changed (class, function) scope of every source file of the PR, resolved with tree-sitter on the pre-change tree for deleted lines and on the post-change tree for added lines (pr scopes), occurs in at least one Direct modifications or Associated changes row with the same file, class and function. A change in a class body outside every method (a field, an enum constant, a class attribute, and the comments and blank lines between them) is the class's own scope, written Class | - ; only changes outside every class and function are file-level and exempt. A class body may instead be named member by member, Class | member for each changed field, constant, class attribute or enum constant (a comment or blank line counts for the member after it), when sections share the body (rule 28): the member rows must then name every changed member, and the body's changed lines outside every member (its header, a docstring) still need the Class | - row. Every row of a file that tree-sitter resolves names a changed scope, a changed member of a class body (Class | member), a class the PR changes (Class | -), or nothing (a file-level row, - | -). Add a row for each missing scope, and fix rows whose scope the PR did not change, including a Class | - row for a class that does not exist or did not change. A row whose function is right but whose class is not is reported once, at the row, with the scope to write. Files that a directory, glob or aggregate entry stands for are rule 20's until it is split.`,
	Check: checkR27,
}

// r27Row is one block-table row naming a file.
type r27Row struct {
	b     *mapping.Block
	r     *mapping.CodeRow
	table string
}

func checkR27(p *Pass) {
	if p.Scopes == nil {
		return
	}
	rows := map[string][]r27Row{}
	aggregated := map[string]bool{}
	for i := range p.Mapping.Blocks {
		b := &p.Mapping.Blocks[i]
		for _, t := range []struct {
			rows []mapping.CodeRow
			name string
		}{{b.Direct.Rows, mapping.SubPartDirect}, {b.Associated.Rows, mapping.SubPartAssociated}} {
			for j := range t.rows {
				r := &t.rows[j]
				path := strings.TrimSpace(r.Path)
				if p.PRFile[path] == nil && p.AggregatePath(path) != "" {
					for _, f := range p.aggregateFiles(path) {
						aggregated[f] = true
					}
					continue
				}
				rows[path] = append(rows[path], r27Row{b, r, t.name})
			}
		}
	}

	// Files in the resolver's order, each file's scopes in line order (of
	// the post-change file, or the pre-change one for deleted code).
	var files []string
	seenFile := map[string]bool{}
	addFile := func(f string) {
		if !seenFile[f] {
			seenFile[f] = true
			files = append(files, f)
		}
	}
	scopes := map[string][]ScopeKey{}
	first := map[fileScope]int{}
	for _, s := range p.Scopes.Scopes {
		addFile(s.File)
		k := ScopeKey{s.Class, s.Function}
		if (k == ScopeKey{}) {
			continue
		}
		fk := fileScope{s.File, k}
		lines := s.PostLines
		if len(lines) == 0 {
			lines = s.PreLines
		}
		line := 0
		if len(lines) > 0 {
			line = slices.Min(lines)
		}
		if l, ok := first[fk]; !ok {
			scopes[s.File] = append(scopes[s.File], k)
			first[fk] = line
		} else if line < l {
			first[fk] = line
		}
	}
	for f, ks := range scopes {
		slices.SortStableFunc(ks, func(a, b ScopeKey) int { return first[fileScope{f, a}] - first[fileScope{f, b}] })
	}
	for _, r := range p.Scopes.Files {
		addFile(r.File)
	}

	for _, f := range files {
		if !p.Resolved[f] {
			continue
		}
		touched := p.Touched[f]
		covered := map[ScopeKey]bool{}
		members := map[string]map[string]bool{} // class -> its member rows
		var stray []r27Row
		for _, row := range rows[f] {
			k := RowScope(row.r)
			if p.Member(f, k) != nil {
				if members[k.Class] == nil {
					members[k.Class] = map[string]bool{}
				}
				members[k.Class][k.Function] = true
			}
			switch {
			case k == ScopeKey{}:
				// a file-level row: file-level lines are exempt
			case touched[k]:
				covered[k] = true
			case p.Member(f, k) != nil:
				// a member row (Class | member): its member's lines
			case k.Function == "" && classTouched(touched, k.Class):
				// a class-body row of a class whose methods alone changed
			default:
				stray = append(stray, row)
			}
		}
		var missing []ScopeKey
		gaps := map[ScopeKey]string{} // class bodies that member rows cover in part
		for _, k := range scopes[f] {
			if covered[k] {
				continue
			}
			if body := p.Bodies[f][k.Class]; k.Function == "" && len(members[k.Class]) > 0 && body != nil {
				// Member rows name the body member by member (issue 25
				// §3): every changed line must be in a member they name.
				if gap := r27BodyGap(body, members[k.Class]); gap != "" {
					gaps[k] = gap
				}
				continue
			}
			missing = append(missing, k)
		}
		explained := map[ScopeKey]bool{}
		for _, row := range stray {
			k := RowScope(row.r)
			where := fmt.Sprintf("scope %s:%s", f, k)
			head := fmt.Sprintf("the %s row of block %d names `%s` in `%s`, a scope the PR does not change", row.table, row.b.Number, k, f)
			if k.Function == "" {
				head = fmt.Sprintf("the %s row of block %d names class `%s` in `%s`, a class the PR does not change", row.table, row.b.Number, k.Class, f)
			}
			if want, ok := r27Suggest(k, missing, explained); ok {
				explained[want] = true
				p.Reportf(row.r.Line, where, "%s; the PR changes `%s`: write class %s, function %s", head, want, r27Cell(want.Class), r27Cell(want.Function))
				continue
			}
			p.Reportf(row.r.Line, where, "%s; %s, or remove the function to make it a file-level row", head, r27Changed(f, scopes[f], p.Bodies[f]))
		}
		if aggregated[f] {
			continue // rule 20: the aggregate may stand for these rows
		}
		for _, k := range scopes[f] {
			if gap := gaps[k]; gap != "" {
				p.Reportf(0, fmt.Sprintf("scope %s:%s", f, k), "the member rows of `%s` in `%s` leave part of its changed body unnamed: %s; %s",
					k.Class, f, gap, r27BodyFix(f, k.Class, p.Bodies[f][k.Class], members[k.Class], r27Blocks(rows[f])))
			}
		}
		for _, k := range missing {
			if explained[k] {
				continue
			}
			p.Reportf(0, fmt.Sprintf("scope %s:%s", f, k), "the PR changes `%s` in `%s`, but no Direct modifications or Associated changes row names it; add the row | `%s` | %s | %s | to %s",
				k, f, f, r27Cell(k.Class), r27Cell(k.Function), r27Blocks(rows[f]))
		}
	}
}

// r27BodyGap says what of a changed class body its member rows leave
// unnamed: the changed members no row names, and the changed lines
// outside every member; "" when they name it all.
func r27BodyGap(body *syntax.Scope, listed map[string]bool) string {
	var parts []string
	if left := r27Unlisted(body, listed); len(left) > 0 {
		parts = append(parts, "member(s) "+strings.Join(left, ", "))
	}
	pre, post := r27Outside(body)
	if len(pre)+len(post) > 0 {
		parts = append(parts, r27LineList(pre, post)+" outside every member (the class's header, a docstring, a statement of its body)")
	}
	return strings.Join(parts, ", and ")
}

// r27Unlisted are the body's changed members no row names, quoted.
func r27Unlisted(body *syntax.Scope, listed map[string]bool) []string {
	var out []string
	for _, m := range body.Members {
		if !listed[m.Name] {
			out = append(out, "`"+m.Name+"`")
		}
	}
	return out
}

// r27Outside are the body's changed lines in no member, before and after
// the change.
func r27Outside(body *syntax.Scope) (pre, post []int) {
	in := [2]map[int]bool{{}, {}}
	for _, m := range body.Members {
		for _, l := range m.PreLines {
			in[0][l] = true
		}
		for _, l := range m.PostLines {
			in[1][l] = true
		}
	}
	for _, l := range body.PreLines {
		if !in[0][l] {
			pre = append(pre, l)
		}
	}
	for _, l := range body.PostLines {
		if !in[1][l] {
			post = append(post, l)
		}
	}
	return pre, post
}

// r27LineList writes "line(s) 2, 6 and deleted line(s) 8".
func r27LineList(pre, post []int) string {
	list := func(ls []int) string {
		s := make([]string, len(ls))
		for i, l := range ls {
			s[i] = fmt.Sprint(l)
		}
		return strings.Join(s, ", ")
	}
	var parts []string
	if len(post) > 0 {
		parts = append(parts, "line(s) "+list(post))
	}
	if len(pre) > 0 {
		parts = append(parts, "deleted line(s) "+list(pre))
	}
	return strings.Join(parts, " and ")
}

// r27BodyFix says how to name the rest of a class body: a member row per
// member left, or the class-body row, which alone names lines outside
// every member.
func r27BodyFix(f, class string, body *syntax.Scope, listed map[string]bool, where string) string {
	if pre, post := r27Outside(body); len(pre)+len(post) > 0 {
		return fmt.Sprintf("the class-body row | `%s` | `%s` | - | names the lines no member row can: add it to %s", f, class, where)
	}
	var rows []string
	for _, m := range r27Unlisted(body, listed) {
		rows = append(rows, fmt.Sprintf("| `%s` | `%s` | %s |", f, class, m))
	}
	return fmt.Sprintf("add %s to %s, or name the whole body with | `%s` | `%s` | - |", strings.Join(rows, ", "), where, f, class)
}

// classTouched reports whether any changed scope of a file is in class c.
func classTouched(touched map[ScopeKey]bool, c string) bool {
	for k := range touched {
		if k.Class == c {
			return true
		}
	}
	return false
}

// r27Suggest picks the changed scope a stray row most likely means: an
// uncovered scope with the same function name, or whose dotted name is
// the row's class and function run together.
func r27Suggest(k ScopeKey, missing []ScopeKey, explained map[ScopeKey]bool) (ScopeKey, bool) {
	name := k.String()
	for _, m := range missing {
		if explained[m] {
			continue
		}
		if m.Function == k.Function || m.String() == name || m.Function == name {
			return m, true
		}
	}
	for _, m := range missing {
		last := m.Function[strings.LastIndexByte(m.Function, '.')+1:]
		if !explained[m] && last == k.Function[strings.LastIndexByte(k.Function, '.')+1:] {
			return m, true
		}
	}
	return ScopeKey{}, false
}

// r27Changed lists a file's changed scopes for a fix, a class body with
// the members it changes (which member rows may name).
func r27Changed(f string, scopes []ScopeKey, bodies map[string]*syntax.Scope) string {
	if len(scopes) == 0 {
		return fmt.Sprintf("the PR changes no function of `%s` (its changes are file-level)", f)
	}
	names := make([]string, len(scopes))
	for i, k := range scopes {
		names[i] = "`" + k.String() + "`"
		if body := bodies[k.Class]; k.Function == "" && body != nil && len(body.Members) > 0 {
			ms := make([]string, len(body.Members))
			for j, m := range body.Members {
				ms[j] = "`" + m.Name + "`"
			}
			names[i] += " (members " + strings.Join(ms, ", ") + ")"
		}
	}
	return fmt.Sprintf("the PR changes %s of `%s`: name one of them", strings.Join(names, ", "), f)
}

// r27Cell writes a Class or Function cell.
func r27Cell(c string) string {
	if c == "" {
		return "-"
	}
	return "`" + c + "`"
}

// r27Blocks says where a missing scope's row could go: the blocks that
// already name its file, else the block of the section it serves.
func r27Blocks(rows []r27Row) string {
	var names []string
	for _, r := range rows {
		n := fmt.Sprintf("block %d (section %s)", r.b.Number, r.b.Section)
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	switch len(names) {
	case 0:
		return "the block of the section it serves"
	case 1:
		return names[0]
	}
	return "one of " + strings.Join(names, ", ")
}
