package mutation

import (
	"strings"

	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// Section is one mapped EP section as the mutation methods see it.
type Section struct {
	ID          string
	Title       string
	Requirement string
	// Quote is the block's quoted EP text.
	Quote string
}

type scopeKey struct{ file, class, function string }

// Owners says which mapped section owns each changed line of the reference
// solution (rules 27–28): a changed (file, class, function) scope belongs
// to the one block whose Direct modifications list it; a class's lines
// outside its methods to the block with a member row naming the member
// they declare (Class | member, issue 25 §3: a class body shared member by
// member), else to the block with its (file, class, -) row; a
// file-level line
// belongs to a section only when exactly one block lists its file with a
// file-level (or class-body) Direct row, since several sections may share
// a file's top level (imports, types) and rule 28 exempts it, or, when no
// block does, when every changed function of the file belongs to that one
// section.
type Owners struct {
	Sections []Section
	scope    map[scopeKey]string
	file     map[string]string
	post     map[string]map[int]scopeKey // file -> added line -> scope
	pre      map[string]map[int]scopeKey // file -> deleted line (pre-change) -> scope
	fresh    map[scopeKey]bool           // function scopes that exist only after the change
	// postMember and preMember name the class-body member a changed line
	// declares (syntax.Scope.Members); a member row owns it.
	postMember, preMember map[string]map[int]string
}

// NewOwners indexes the mapping's Direct rows and the changed scopes
// (syntax.Resolve over the PR).
func NewOwners(m *mapping.Mapping, scopes *syntax.Result) *Owners {
	o := &Owners{scope: map[scopeKey]string{}, file: map[string]string{},
		post: map[string]map[int]scopeKey{}, pre: map[string]map[int]scopeKey{}, fresh: map[scopeKey]bool{},
		postMember: map[string]map[int]string{}, preMember: map[string]map[int]string{}}
	fileLevel := map[string]map[string]bool{}
	if m != nil {
		for _, b := range m.Blocks {
			id := strings.TrimSpace(b.Section)
			o.Sections = append(o.Sections, Section{ID: id, Title: strings.TrimSpace(b.Title), Requirement: b.Requirement.Text, Quote: b.Quote.Text})
			for _, r := range b.Direct.Rows {
				path := strings.Trim(strings.TrimSpace(r.Path), "`")
				class, fn := cell(r.Class), cell(r.Function)
				if fn == "" && class != "" {
					// A class-body row (rule 27) owns the class's lines
					// outside its methods; rule 28 gives it one owner.
					k := scopeKey{path, class, ""}
					if _, taken := o.scope[k]; !taken {
						o.scope[k] = id
					}
					continue
				}
				if fn == "" {
					if fileLevel[path] == nil {
						fileLevel[path] = map[string]bool{}
					}
					fileLevel[path][id] = true
					continue
				}
				// A function row, or a member row: rule 28 gives either one
				// owner, the first block.
				k := scopeKey{path, class, fn}
				if _, taken := o.scope[k]; !taken {
					o.scope[k] = id
				}
			}
		}
	}
	for f, secs := range fileLevel {
		if len(secs) == 1 {
			for id := range secs {
				o.file[f] = id
			}
		}
	}
	// A file no block lists at file level, whose changed functions all
	// belong to one section, has its file-level lines (imports, most
	// often) serve that section: reverting the section without them would
	// leave, say, an unused Go import.
	funcOwners := map[string]map[string]bool{}
	if scopes != nil {
		for _, s := range scopes.Scopes {
			if s.Function == "" {
				continue
			}
			if funcOwners[s.File] == nil {
				funcOwners[s.File] = map[string]bool{}
			}
			funcOwners[s.File][o.scope[scopeKey{s.File, s.Class, s.Function}]] = true
		}
	}
	for f, owners := range funcOwners {
		if _, listed := fileLevel[f]; listed || len(owners) != 1 {
			continue
		}
		for id := range owners {
			if id != "" {
				o.file[f] = id
			}
		}
	}
	if scopes != nil {
		for _, s := range scopes.Scopes {
			k := scopeKey{s.File, s.Class, s.Function}
			if s.New && s.Function != "" {
				o.fresh[k] = true
			}
			for _, l := range s.PostLines {
				if o.post[s.File] == nil {
					o.post[s.File] = map[int]scopeKey{}
				}
				o.post[s.File][l] = k
			}
			for _, l := range s.PreLines {
				if o.pre[s.File] == nil {
					o.pre[s.File] = map[int]scopeKey{}
				}
				o.pre[s.File][l] = k
			}
			for _, m := range s.Members {
				for _, side := range []struct {
					lines []int
					at    map[string]map[int]string
				}{{m.PostLines, o.postMember}, {m.PreLines, o.preMember}} {
					if side.at[s.File] == nil {
						side.at[s.File] = map[int]string{}
					}
					for _, l := range side.lines {
						side.at[s.File][l] = m.Name
					}
				}
			}
		}
	}
	return o
}

func cell(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "`")
	if mapping.IsNone(s) {
		return ""
	}
	return s
}

// Section returns the mapped section with the id, or nil.
func (o *Owners) Section(id string) *Section {
	for i := range o.Sections {
		if o.Sections[i].ID == id {
			return &o.Sections[i]
		}
	}
	return nil
}

// owner is the section owning a changed line of scope k that declares
// member (or none).
func (o *Owners) owner(k scopeKey, member string, ok bool) string {
	if !ok {
		return ""
	}
	if k.function == "" {
		if id := o.memberOwner(k, member); id != "" {
			return id
		}
		if id, ok := o.scope[k]; ok && k.class != "" {
			return id
		}
		return o.file[k.file]
	}
	return o.scope[k]
}

// memberOwner is the section whose member row names member of class-body
// scope k, or "".
func (o *Owners) memberOwner(k scopeKey, member string) string {
	if member == "" || k.class == "" {
		return ""
	}
	return o.scope[scopeKey{k.file, k.class, member}]
}

// Added returns the section owning an added line of file (post-change
// numbering), or "".
func (o *Owners) Added(file string, line int) string {
	k, ok := o.post[file][line]
	return o.owner(k, o.postMember[file][line], ok)
}

// Deleted returns the section owning a deleted line of file (pre-change
// numbering; file is the path before the change), or "".
func (o *Owners) Deleted(file string, line int) string {
	k, ok := o.pre[file][line]
	return o.owner(k, o.preMember[file][line], ok)
}

// AddedMember and DeletedMember return the section owning a changed line
// through a member row, and the member, or "" (the stub revert removes
// these lines; it keeps the rest of a class body).
func (o *Owners) AddedMember(file string, line int) (section, member string) {
	m := o.postMember[file][line]
	return o.memberOwner(o.post[file][line], m), m
}

// DeletedMember is AddedMember for a deleted line (pre-change numbering).
func (o *Owners) DeletedMember(file string, line int) (section, member string) {
	m := o.preMember[file][line]
	return o.memberOwner(o.pre[file][line], m), m
}
