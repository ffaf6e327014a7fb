package mutation

import (
	"fmt"
	"go/ast"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// goRefs are uses by name: name -> the referrers (see referrer).
type goRefs map[string]map[string]bool

func (r goRefs) add(name, ref string) {
	if r[name] == nil {
		r[name] = map[string]bool{}
	}
	r[name][ref] = true
}

// goUses are the uses one file makes.
type goUses struct {
	idents  goRefs // unqualified names
	members goRefs // selected names (x.name) and struct literal keys
	quals   goRefs // "importpath name" for pkg.name
	pkgs    goRefs // qualifiers: the X of every x.name
	ifaces  map[string]bool
}

// uses walks the file's declarations, each a referrer, except the bodies
// of the functions skip says are stubs: a stub uses only its signature.
func (s *goSrc) uses(skip func(*ast.FuncDecl) bool, referrer func(key string) string) *goUses {
	u := &goUses{idents: goRefs{}, members: goRefs{}, quals: goRefs{}, pkgs: goRefs{}, ifaces: map[string]bool{}}
	imports := map[string]string{}
	for _, is := range s.file.Imports {
		if n := importName(is); n != "_" && n != "." {
			imports[n], _ = strconv.Unquote(is.Path.Value)
		}
	}
	ref := ""
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					u.idents.add(x.Name, ref)
					// Any qualifier: it may name an import the revert
					// removed.
					u.pkgs.add(x.Name, ref)
					if p, ok := imports[x.Name]; ok {
						u.quals.add(p+" "+n.Sel.Name, ref)
					}
				} else {
					visit(n.X)
				}
				u.members.add(n.Sel.Name, ref)
				return false
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok {
					// A struct literal's field, or a constant as a map key.
					u.members.add(k.Name, ref)
					u.idents.add(k.Name, ref)
				} else {
					visit(n.Key)
				}
				visit(n.Value)
				return false
			case *ast.InterfaceType:
				for _, m := range n.Methods.List {
					for _, name := range m.Names {
						u.ifaces[name.Name] = true
					}
				}
			case *ast.Field:
				visit(n.Type) // names declare: parameters, fields, methods
				return false
			case *ast.ValueSpec:
				if n.Type != nil {
					visit(n.Type)
				}
				for _, v := range n.Values {
					visit(v)
				}
				return false
			case *ast.TypeSpec:
				if n.TypeParams != nil {
					visit(n.TypeParams)
				}
				visit(n.Type)
				return false
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					for _, e := range n.Rhs {
						visit(e)
					}
					return false
				}
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					visit(n.X)
					visit(n.Body)
					return false
				}
			case *ast.LabeledStmt:
				visit(n.Stmt)
				return false
			case *ast.BranchStmt:
				return false
			case *ast.Ident:
				u.idents.add(n.Name, ref)
			}
			return true
		})
	}
	for _, d := range s.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			ref = referrer(funcKey(d))
			if d.Recv != nil {
				visit(d.Recv)
			}
			visit(d.Type)
			if d.Body != nil && !skip(d) {
				visit(d.Body)
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					ref = referrer("type " + sp.Name.Name)
				case *ast.ValueSpec:
					ref = referrer(d.Tok.String() + " " + sp.Names[0].Name)
				}
				visit(sp)
			}
		}
	}
	return u
}

// keepUsed finds the declarations the revert removes that the code left
// after it uses, adds their lines to keep and their functions to the
// stubs, and reports whether it found any. It fails when a Go file does
// not parse after the revert.
func (g *goReverter) keepUsed(id string, edit Edit, keep lineSet, st *goKeep) (bool, error) {
	after := map[string]*goSrc{}
	for i := range g.sol.Files {
		f := &g.sol.Files[i]
		if !isGo(f) {
			continue
		}
		src, edited := edit[f.Path]
		switch {
		case !edited && g.ref[f.Path] != nil:
			after[f.Path] = g.ref[f.Path]
		case edited && src != nil:
			s, err := parseGoSrc(f.Path, src)
			if err != nil {
				return false, fmt.Errorf("%v (after the revert of section %s)", err, id)
			}
			after[f.Path] = s
		}
	}
	// What is declared after the revert, and what the reference declares,
	// by package folder.
	present, declared := map[string]map[string]bool{}, map[string]map[string]bool{}
	note := func(m map[string]map[string]bool, dir, key string) {
		if m[dir] == nil {
			m[dir] = map[string]bool{}
		}
		m[dir][key] = true
	}
	imported := map[string]map[string]bool{} // file -> import keys after the revert
	for p, s := range after {
		imported[p] = map[string]bool{}
		for _, d := range s.decls() {
			if d.kind == "import" {
				imported[p][d.key()] = true
			} else {
				note(present, path.Dir(p), d.key())
			}
		}
	}
	for p, ds := range g.decls {
		for _, d := range ds {
			note(declared, path.Dir(p), d.key())
		}
	}
	// A type declared outside the solution's files is unchanged: it stays.
	stays := func(dir, key string) bool { return present[dir][key] || !declared[dir][key] }

	// Uses, with who makes them.
	idents := map[string]goRefs{} // folder + " " + package -> names
	members, quals, ifaces := goRefs{}, map[string]goRefs{}, map[string]map[string]bool{}
	pkgs := map[string]goRefs{} // file -> import names
	merge := func(dir, pkg, file string, u *goUses) {
		k := dir + " " + pkg
		if idents[k] == nil {
			idents[k] = goRefs{}
		}
		for n, rs := range u.idents {
			for r := range rs {
				idents[k].add(n, r)
			}
		}
		for n, rs := range u.members {
			for r := range rs {
				members.add(n, r)
			}
		}
		for q, rs := range u.quals {
			imp, name, _ := strings.Cut(q, " ")
			if quals[imp] == nil {
				quals[imp] = goRefs{}
			}
			for r := range rs {
				quals[imp].add(name, r)
			}
		}
		if file != "" {
			pkgs[file] = u.pkgs
		}
		if ifaces[dir] == nil {
			ifaces[dir] = map[string]bool{}
		}
		for m := range u.ifaces {
			ifaces[dir][m] = true
		}
	}
	for _, p := range sortedKeys(after) {
		s := after[p]
		skip := func(fd *ast.FuncDecl) bool { return st.stubs[p][funcKey(fd)] || isStubPlaceholder(fd, id) }
		merge(path.Dir(p), s.file.Name.Name, p, s.uses(skip, g.referrer(id, p, st)))
	}
	for _, s := range g.tests {
		u := s.uses(func(*ast.FuncDecl) bool { return false }, func(string) string { return "the tests" })
		merge(path.Dir(s.path), s.file.Name.Name, "", u)
	}

	more := false
	for _, p := range sortedKeys(g.decls) {
		src, edited := edit[p]
		if !edited {
			continue // the revert leaves the file as the reference has it
		}
		dir, pkg := path.Dir(p), g.ref[p].file.Name.Name
		for _, d := range g.decls[p] {
			if st.seen[p+" "+d.key()] {
				continue
			}
			if d.name == "_" {
				continue
			}
			var refs map[string]bool
			switch d.kind {
			case "import":
				if src == nil || imported[p][d.key()] {
					continue
				}
				refs = pkgs[p][d.name]
			case "func", "type", "var", "const":
				if present[dir][d.key()] {
					continue
				}
				refs = union(nil, idents[dir+" "+pkg][d.name])
				if d.exported {
					for imp, r := range quals {
						if path.Base(imp) == path.Base(dir) {
							refs = union(refs, r[d.name])
						}
					}
				}
			case "method", "field":
				if present[dir][d.key()] || !stays(dir, "type "+d.recv) {
					continue
				}
				refs = union(nil, members[d.name])
				switch {
				case d.embedded:
					refs = union(refs, map[string]bool{"embedded " + d.recv: true})
				case d.kind == "method" && len(refs) == 0 && (d.exported || ifaces[dir][d.name]):
					refs = map[string]bool{"interface " + d.recv: true}
				}
			}
			if len(refs) == 0 {
				continue
			}
			st.seen[p+" "+d.key()] = true
			more = true
			switch {
			case d.kind == "import":
				st.imports[p] = append(st.imports[p], d)
				continue
			case d.kind == "field" || !g.restoresAny(g.sol.File(p), id, d.lines, st.hold):
				keep.add(p, d.lines...)
			default:
				st.moved[p] = append(st.moved[p], d)
			}
			verb := "kept"
			if d.kind == "func" || d.kind == "method" {
				verb = "stubbed"
				if st.stubs[p] == nil {
					st.stubs[p] = map[string]bool{}
				}
				st.stubs[p][d.key()] = true
			}
			if d.kind == "type" {
				note(present, dir, d.key()) // its methods may stay now
				for _, m := range g.decls[p] {
					if m.kind == "field" && m.recv == d.name {
						st.seen[p+" "+m.key()] = true // kept with it
					}
				}
			}
			st.notes = append(st.notes, goNote{p, d.body[0], fmt.Sprintf("%s %s (%s): %s", verb, d.label(), p, g.why(refs))})
		}
	}
	return more, nil
}

func union(a, b map[string]bool) map[string]bool {
	if a == nil {
		a = map[string]bool{}
	}
	for k := range b {
		a[k] = true
	}
	return a
}

// referrer names who makes the uses of a declaration of file p after the
// revert: "section X" for another section's code, "kept name" for what
// the revert keeps of section id, "" for code no section owns (unchanged
// code, or the base's code the revert puts back).
func (g *goReverter) referrer(id, p string, st *goKeep) func(key string) string {
	f := g.sol.File(p)
	added := map[int]bool{}
	for _, l := range f.Added {
		added[l] = true
	}
	return func(key string) string {
		for _, d := range g.decls[p] {
			if d.key() != key {
				continue
			}
			if st.seen[p+" "+key] {
				return "kept " + d.label()
			}
			for _, l := range d.body {
				if x := g.o.Added(p, l); added[l] && x != "" && x != id {
					return "section " + x
				}
			}
			return ""
		}
		return ""
	}
}

// why says why a declaration was kept, from its referrers.
func (g *goReverter) why(refs map[string]bool) string {
	var secs, others []string
	for r := range refs {
		if x, ok := strings.CutPrefix(r, "section "); ok {
			secs = append(secs, x)
		}
	}
	order := map[string]int{}
	for i, s := range g.o.Sections {
		order[s.ID] = i
	}
	sort.Slice(secs, func(i, j int) bool { return order[secs[i]] < order[secs[j]] })
	switch len(secs) {
	case 0:
	case 1:
		others = append(others, "section "+secs[0]+"'s code")
	default:
		others = append(others, "sections "+strings.Join(secs[:len(secs)-1], ", ")+" and "+secs[len(secs)-1]+"'s code")
	}
	var rest []string
	for r := range refs {
		switch {
		case strings.HasPrefix(r, "section "), strings.HasPrefix(r, "embedded "), strings.HasPrefix(r, "interface "):
		case r == "":
			rest = append(rest, "code no section owns")
		default:
			rest = append(rest, r)
		}
	}
	sort.Strings(rest)
	others = append(others, rest...)
	var out []string
	if len(others) > 0 {
		out = append(out, "used by "+strings.Join(others, ", "))
	}
	for r := range refs {
		if t, ok := strings.CutPrefix(r, "embedded "); ok {
			out = append(out, t+" stays and may use its promoted fields and methods")
		}
		if t, ok := strings.CutPrefix(r, "interface "); ok {
			out = append(out, t+" stays and may need it to implement an interface")
		}
	}
	return strings.Join(out, "; ")
}
