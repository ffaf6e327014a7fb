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
// to the one block whose Direct modifications list it, and a class's lines
// outside its methods to the block with its (file, class, -) row; a
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
}

// NewOwners indexes the mapping's Direct rows and the changed scopes
// (syntax.Resolve over the PR).
func NewOwners(m *mapping.Mapping, scopes *syntax.Result) *Owners {
	o := &Owners{scope: map[scopeKey]string{}, file: map[string]string{},
		post: map[string]map[int]scopeKey{}, pre: map[string]map[int]scopeKey{}, fresh: map[scopeKey]bool{}}
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
				k := scopeKey{path, class, fn}
				if _, taken := o.scope[k]; !taken {
					o.scope[k] = id // rule 28: the first block owns it
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

func (o *Owners) owner(k scopeKey, ok bool) string {
	if !ok {
		return ""
	}
	if k.function == "" {
		if id, ok := o.scope[k]; ok && k.class != "" {
			return id
		}
		return o.file[k.file]
	}
	return o.scope[k]
}

// Added returns the section owning an added line of file (post-change
// numbering), or "".
func (o *Owners) Added(file string, line int) string {
	k, ok := o.post[file][line]
	return o.owner(k, ok)
}

// Deleted returns the section owning a deleted line of file (pre-change
// numbering; file is the path before the change), or "".
func (o *Owners) Deleted(file string, line int) string {
	k, ok := o.pre[file][line]
	return o.owner(k, ok)
}
