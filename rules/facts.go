package rules

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// ScopeKey is a (class, function) pair of one file; both empty is
// file-level.
type ScopeKey struct{ Class, Function string }

func (k ScopeKey) String() string {
	switch {
	case k.Class == "" && k.Function == "":
		return "(file level)"
	case k.Class == "":
		return k.Function
	case k.Function == "":
		return k.Class
	}
	return k.Class + "." + k.Function
}

// FileUse is one row of a block table naming a file.
type FileUse struct {
	Block *mapping.Block
	Row   *mapping.CodeRow
}

// Facts are indexes derived once from the Input and shared by the rules,
// the way analysis passes share ResultOf.
type Facts struct {
	// SectionByID indexes the EP's sections; SectionPos gives each id's
	// position in document order.
	SectionByID map[string]*ep.Section
	SectionPos  map[string]int
	// PRFile indexes the PR's files by path (Path(): the new path, or the
	// old one for a deletion); OldPath indexes renamed files by old path.
	PRFile  map[string]*diff.File
	OldPath map[string]*diff.File
	// SCS indexes Section Classification Summary rows by section id.
	SCS map[string][]*mapping.SCSRow
	// Blocks indexes mapped-section blocks by section id.
	Blocks map[string][]*mapping.Block
	// Direct and Associated index block table rows by file.
	Direct     map[string][]FileUse
	Associated map[string][]FileUse
	// Resolved holds the PR files that tree-sitter resolved (a supported
	// language, not skipped), and Touched, per resolved file, every
	// (class, function) scope its changed lines fall in, file-level
	// excluded (rule 27).
	Resolved map[string]bool
	Touched  map[string]map[ScopeKey]bool
	// Bodies indexes, per resolved file, the changed class bodies by
	// class: their lines and the members they change, which member rows
	// (Class | member) name (rules 27 and 28).
	Bodies map[string]map[string]*syntax.Scope
}

// NewFacts derives the shared indexes.
func NewFacts(in *Input) *Facts {
	f := &Facts{
		SectionByID: map[string]*ep.Section{},
		SectionPos:  map[string]int{},
		PRFile:      map[string]*diff.File{},
		OldPath:     map[string]*diff.File{},
		SCS:         map[string][]*mapping.SCSRow{},
		Blocks:      map[string][]*mapping.Block{},
		Direct:      map[string][]FileUse{},
		Associated:  map[string][]FileUse{},
		Resolved:    map[string]bool{},
		Touched:     map[string]map[ScopeKey]bool{},
		Bodies:      map[string]map[string]*syntax.Scope{},
	}
	if in.EP != nil {
		for i, s := range in.EP.Sections {
			f.SectionByID[s.ID] = s
			f.SectionPos[s.ID] = i
		}
	}
	if in.Change != nil {
		for i := range in.Change.Files {
			file := &in.Change.Files[i]
			f.PRFile[file.Path()] = file
			if file.Status == diff.Renamed {
				f.OldPath[file.OldPath] = file
			}
		}
	}
	m := in.Mapping
	for i := range m.SCS.Rows {
		r := &m.SCS.Rows[i]
		id := strings.TrimSpace(r.Section)
		f.SCS[id] = append(f.SCS[id], r)
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		f.Blocks[b.Section] = append(f.Blocks[b.Section], b)
		for j := range b.Direct.Rows {
			r := &b.Direct.Rows[j]
			f.Direct[r.Path] = append(f.Direct[r.Path], FileUse{b, r})
		}
		for j := range b.Associated.Rows {
			r := &b.Associated.Rows[j]
			f.Associated[r.Path] = append(f.Associated[r.Path], FileUse{b, r})
		}
	}
	if in.Scopes != nil {
		for _, r := range in.Scopes.Files {
			f.Resolved[r.File] = true
		}
		for i, s := range in.Scopes.Scopes {
			f.Resolved[s.File] = true
			if s.Class == "" && s.Function == "" {
				continue
			}
			if s.Function == "" {
				if f.Bodies[s.File] == nil {
					f.Bodies[s.File] = map[string]*syntax.Scope{}
				}
				f.Bodies[s.File][s.Class] = &in.Scopes.Scopes[i]
			}
			if f.Touched[s.File] == nil {
				f.Touched[s.File] = map[ScopeKey]bool{}
			}
			f.Touched[s.File][ScopeKey{s.Class, s.Function}] = true
		}
	}
	return f
}

// Member returns the changed class-body member a row's scope names (Class
// | member: a field, constant, class attribute or enum constant whose
// lines the PR changes), or nil. A name that is also a method of the class
// names both.
func (f *Facts) Member(file string, k ScopeKey) *syntax.MemberLines {
	if k.Class == "" || k.Function == "" {
		return nil
	}
	if body := f.Bodies[file][k.Class]; body != nil {
		return body.Member(k.Function)
	}
	return nil
}

// RowScope is the scope a block table row names, with "-" read as none.
func RowScope(r *mapping.CodeRow) ScopeKey {
	k := ScopeKey{Class: strings.TrimSpace(r.Class), Function: strings.TrimSpace(r.Function)}
	if mapping.IsNone(k.Class) {
		k.Class = ""
	}
	if mapping.IsNone(k.Function) {
		k.Function = ""
	}
	return k
}

// BlockWhere names a block in a violation.
func BlockWhere(b *mapping.Block) string {
	return "section " + b.Section
}

// FileWhere names a file in a violation.
func FileWhere(path string) string { return "file `" + path + "`" }
