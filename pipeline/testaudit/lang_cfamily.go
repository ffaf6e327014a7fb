package testaudit

import (
	"path"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
)

// The C and C++ rules read the product's declarations (Input.Product):
// neither language names its internals, it declares them.
//
//   - C: a static function or variable of a file has file-local linkage,
//     and a name a source file declares that no product header declares is
//     not part of the interface (the rule applies only when the product
//     holds a header, else it cannot tell). A test that #includes a .c
//     file to reach its static names is narrow by that include alone.
//   - C++: also private and protected class members (class members default
//     to private, struct members to public), and names of anonymous
//     namespaces and of namespaces named detail (Boost, fmt, nlohmann/json)
//     or internal (Abseil, GoogleTest, protobuf), the two usual spellings
//     of "not part of the API". `#define private public` (or protected, or
//     class as struct) is narrow by itself; a product's friend grant to a
//     test class (friend class FooTest, FRIEND_TEST) does not make the
//     members it opens public, so reaching them stays a finding.
//
// As in Java, a name is internal only when no product declaration of it
// is public, and a member reached through a variable whose declared type
// is not a product type (std::string s; s.clear()) is never internal;
// other member accesses are looked up by name.
//
// Tests are GoogleTest macros (TEST, TEST_F, TEST_P, TYPED_TEST,
// TYPED_TEST_P: suite and name) and cmocka's cmocka_unit_test(fn) family
// (the function fn, when the file defines it).
var (
	C = &Language{
		Name:     "C",
		Doc:      "static functions and variables of the product, names declared in a source file and in no header, and #include of a .c file",
		grammar:  c.GetLanguage,
		scan:     scanCfamily,
		internal: internalCfamily,
		product:  productCfamily,
	}
	Cpp = &Language{
		Name:     "C++",
		Doc:      "private and protected class members, names in anonymous, detail and internal namespaces, static and source-only names of the product, #include of a source file and #define private public",
		grammar:  cpp.GetLanguage,
		scan:     scanCfamily,
		internal: internalCfamily,
		product:  productCfamily,
	}
	// CHeader is read as C++, as the rest of the pipeline reads headers.
	CHeader = &Language{
		Name:     "C/C++ Header",
		Doc:      Cpp.Doc + " (headers are read as C++)",
		grammar:  cpp.GetLanguage,
		scan:     scanCfamily,
		internal: internalCfamily,
		product:  productCfamily,
	}
)

// cfamilyTestMacros are GoogleTest's test definitions.
var cfamilyTestMacros = map[string]bool{"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true}

// cmockaTests are cmocka's test table entries; the first argument is the
// test function.
var cmockaTests = map[string]bool{
	"cmocka_unit_test": true, "cmocka_unit_test_setup_teardown": true, "cmocka_unit_test_prestate": true,
	"cmocka_unit_test_prestate_setup_teardown": true, "cmocka_unit_test_setup": true, "cmocka_unit_test_teardown": true,
	"unit_test": true, "unit_test_setup_teardown": true,
}

// isCHeader reports whether a product path is a header.
func isCHeader(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp":
		return true
	}
	return false
}

// isCSource reports whether an included path is a source file.
func isCSource(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".c", ".cc", ".cpp", ".cxx", ".c++":
		return true
	}
	return false
}

// cScope is the scan's context, kept in frame.scope as "class\x1fword":
// the innermost class and the word that hides everything inside ("" when
// nothing does).
func cScope(s string) (class, word string) {
	class, word, _ = strings.Cut(s, "\x1f")
	return class, word
}

// cDeclName is the name a declarator declares: x for x, *x, x[3], x = 1,
// x(...); "" for a qualified name (Foo::bar is defined, not declared, here),
// an operator or a destructor.
func cDeclName(f *parsed, d *sitter.Node) (name string, fn bool) {
	for d != nil {
		switch d.Type() {
		case "identifier", "field_identifier", "type_identifier":
			return f.text(d), fn
		case "function_declarator":
			fn = true
		case "pointer_declarator", "reference_declarator", "array_declarator", "init_declarator",
			"parenthesized_declarator", "attributed_declarator":
		default:
			return "", fn
		}
		next := d.ChildByFieldName("declarator")
		if next == nil && d.NamedChildCount() > 0 {
			next = d.NamedChild(0)
		}
		d = next
	}
	return "", fn
}

// cStatic reports whether a declaration carries the static storage class.
func cStatic(f *parsed, n *sitter.Node) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if c := n.NamedChild(i); c.Type() == "storage_class_specifier" && f.text(c) == "static" {
			return true
		}
	}
	return false
}

// cCallee is the name a call's function expression ends with, and the
// kind of reference it is.
func cCallee(f *parsed, fn *sitter.Node) (string, refKind, string) {
	switch fn.Type() {
	case "identifier":
		return f.text(fn), kindName, ""
	case "field_expression":
		return f.text(fn.ChildByFieldName("field")), kindMember, ""
	case "qualified_identifier":
		name, scope := cQualified(f, fn)
		return name, kindMember, scope
	case "template_function":
		if n := fn.ChildByFieldName("name"); n != nil {
			return cCallee(f, n)
		}
	}
	return "", kindName, ""
}

// cQualified splits a::b::c into its last name and its scope.
func cQualified(f *parsed, q *sitter.Node) (name, scope string) {
	t := f.text(q)
	if i := strings.IndexByte(t, '<'); i >= 0 {
		t = t[:i]
	}
	i := strings.LastIndex(t, "::")
	if i < 0 {
		return strings.TrimSpace(t), ""
	}
	scope = strings.TrimSpace(t[:i])
	if scope == "" {
		scope = "::"
	}
	return strings.TrimSpace(t[i+2:]), scope
}

func scanCfamily(f *parsed) *scan {
	s := &scan{}
	access := map[uint32]string{} // class body start -> current access
	defs := map[string]*sitter.Node{}
	var cmocka []ref
	macroParams := map[uint32]bool{} // a TEST macro's parameter list
	varTypes := map[string]string{}  // variable -> declared type ("?" when ambiguous)
	type pending struct {
		i    int
		recv string
	}
	var recvs []pending
	setType := func(name, typ string) {
		if old, ok := varTypes[name]; ok && old != typ {
			typ = "?"
		}
		varTypes[name] = typ
	}
	// receiver records the variable a member access goes through.
	receiver := func(fe *sitter.Node) {
		if a := fe.ChildByFieldName("argument"); a != nil && (a.Type() == "identifier" || a.Type() == "this") {
			recvs = append(recvs, pending{len(s.refs) - 1, f.text(a)})
		}
	}
	declare := func(name, kind, word string, n *sitter.Node, local bool, class string) {
		if name == "" {
			return
		}
		s.decls = append(s.decls, Decl{Name: name, Kind: kind, Class: class, Exported: word == "", Visibility: word, Line: line(n), local: local})
	}
	use := func(top *frame, u Use) Use {
		if u == UseReference && top.assert {
			return UseAssert
		}
		return u
	}
	// member reports a class member's class and hiding word: the access
	// of its section, or the word of its scope.
	member := func(st []frame) (class, word string, ok bool) {
		p := parent(st, 1)
		if p.typ == "template_declaration" {
			p = parent(st, 2)
		}
		if p.typ != "field_declaration_list" {
			return "", "", false
		}
		class, word = cScope(st[len(st)-1].scope)
		if word == "" {
			if a := access[p.n.StartByte()]; a != "public" {
				word = a
			}
		}
		return class, word, true
	}
	walk(f.root, func(st []frame) {
		top := &st[len(st)-1]
		par := parent(st, 1)
		n := top.n
		class, hidden := cScope(top.scope)
		switch top.typ {
		case "compound_statement", "parameter_list", "lambda_expression":
			top.local = true
		case "namespace_definition":
			name := n.ChildByFieldName("name")
			switch {
			case name == nil:
				hidden = "anonymous-namespace"
			default:
				last := f.text(name)
				if i := strings.LastIndex(last, "::"); i >= 0 {
					last = last[i+2:]
				}
				if last == "detail" || last == "internal" {
					hidden = last + "-namespace"
				}
			}
			top.scope = class + "\x1f" + hidden
		case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
			body := n.ChildByFieldName("body")
			name := f.text(n.ChildByFieldName("name"))
			if i := strings.LastIndex(name, "::"); i >= 0 {
				name = name[i+2:]
			}
			if body == nil && name != "" && top.field != "name" {
				switch {
				case par.typ == "translation_unit" || par.typ == "declaration_list" || par.typ == "field_declaration_list" ||
					par.typ == "template_declaration" || strings.HasPrefix(par.typ, "preproc_"):
					// struct store;: a forward declaration (an opaque
					// type of a header is public).
					declare(name, "type", hidden, n, top.local, class)
				default:
					// struct bucket b: a use of the type.
					s.refs = append(s.refs, ref{name: name, kind: kindType, use: use(top, UseReference), line: line(n)})
				}
			}
			if body == nil || name == "" {
				if body != nil && top.typ != "enum_specifier" {
					def := "public"
					if top.typ == "class_specifier" {
						def = "private"
					}
					access[body.StartByte()] = def
				}
				return
			}
			word := hidden
			if _, w, ok := member(st[:len(st)-1]); ok && word == "" {
				// A nested type: the declaration holding it is the member.
				word = w
			}
			declare(name, "type", word, n, top.local, class)
			if top.typ == "enum_specifier" {
				top.scope = class + "\x1f" + word
				return
			}
			def := "public"
			if top.typ == "class_specifier" {
				def = "private"
			}
			access[body.StartByte()] = def
			top.scope = name + "\x1f" + word
		case "access_specifier":
			if par.typ == "field_declaration_list" {
				access[par.n.StartByte()] = strings.TrimSpace(f.text(n))
			}
		case "enumerator":
			declare(f.text(n.ChildByFieldName("name")), "const", hidden, n, top.local, "")
		case "type_definition", "alias_declaration":
			word := hidden
			if cl, w, ok := member(st); ok {
				class, word = cl, w
			}
			if top.typ == "alias_declaration" {
				declare(f.text(n.ChildByFieldName("name")), "type", word, n, top.local, class)
				return
			}
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.FieldNameForChild(i) == "declarator" {
					name, _ := cDeclName(f, n.Child(i))
					declare(name, "type", word, n, top.local, class)
				}
			}
		case "preproc_def", "preproc_function_def":
			name := f.text(n.ChildByFieldName("name"))
			val := strings.TrimSpace(f.text(n.ChildByFieldName("value")))
			if top.typ == "preproc_def" && (name == "private" || name == "protected" || name == "class") {
				s.refs = append(s.refs, ref{name: clip("#define " + name + " " + val), kind: kindString, use: UseReference,
					line: line(n), forced: true, word: "access-breaking macro"})
				return
			}
			declare(name, "const", hidden, n, false, "")
		case "preproc_include":
			p := n.ChildByFieldName("path")
			if p == nil {
				return
			}
			inc := strings.Trim(f.text(p), `"<> `)
			if isCSource(inc) {
				s.refs = append(s.refs, ref{name: clip(inc), kind: kindString, use: UseImport, line: line(n), forced: true,
					word: "source file (included to reach its internals)"})
			}
		case "function_definition":
			d := n.ChildByFieldName("declarator")
			if fd := d; fd != nil && fd.Type() == "function_declarator" && !top.local {
				callee := fd.ChildByFieldName("declarator")
				params := fd.ChildByFieldName("parameters")
				if callee != nil && params != nil && callee.Type() == "identifier" && cfamilyTestMacros[f.text(callee)] && params.NamedChildCount() == 2 {
					macroParams[params.StartByte()] = true
					suite, name := params.NamedChild(0), params.NamedChild(1)
					s.tests = append(s.tests, TestFunc{Name: strings.TrimSpace(f.text(name)), Class: strings.TrimSpace(f.text(suite)),
						Line: line(n), Fingerprint: fingerprint(f, n, name)})
					return
				}
			}
			name, _ := cDeclName(f, d)
			if cl, w, ok := member(st); ok {
				kind := "method"
				if name == cl {
					kind = "ctor"
				}
				declare(name, kind, w, n, top.local, cl)
				return
			}
			word := hidden
			if cStatic(f, n) && word == "" {
				word = "static"
			}
			declare(name, "func", word, n, top.local, "")
			if name != "" && !top.local {
				defs[name] = n
			}
		case "field_declaration", "declaration":
			cl, word, isMember := member(st)
			static := cStatic(f, n)
			if !isMember {
				word = hidden
				if static && word == "" && !top.local {
					word = "static"
				}
			}
			for i := 0; i < int(n.ChildCount()); i++ {
				if n.FieldNameForChild(i) != "declarator" {
					continue
				}
				name, fn := cDeclName(f, n.Child(i))
				if !fn && name != "" {
					setType(name, cTypeName(f, n.ChildByFieldName("type")))
				}
				kind := "var"
				switch {
				case isMember && fn && name == cl:
					kind = "ctor"
				case isMember && fn:
					kind = "method"
				case isMember:
					kind = "field"
				case fn:
					kind = "func"
				}
				declare(name, kind, word, n, top.local, cl)
			}
		case "parameter_declaration", "optional_parameter_declaration":
			name, _ := cDeclName(f, n.ChildByFieldName("declarator"))
			declare(name, "var", "", n, true, "")
			if name != "" {
				setType(name, cTypeName(f, n.ChildByFieldName("type")))
			}
		case "for_range_loop":
			name, _ := cDeclName(f, n.ChildByFieldName("declarator"))
			declare(name, "var", "", n, true, "")
		case "argument_list":
			if par.typ == "call_expression" {
				if fn := par.n.ChildByFieldName("function"); fn != nil {
					name, _, _ := cCallee(f, fn)
					if hasAssertPrefix(name) {
						top.assert = true
					}
				}
			}
		case "call_expression":
			fn := n.ChildByFieldName("function")
			if fn == nil {
				return
			}
			name, kind, scope := cCallee(f, fn)
			if cmockaTests[name] {
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() > 0 && args.NamedChild(0).Type() == "identifier" {
					cmocka = append(cmocka, ref{name: f.text(args.NamedChild(0)), line: line(n)})
				}
			}
			s.refs = append(s.refs, ref{name: name, kind: kind, use: UseCall, line: line(n), recvType: scope})
			if fn.Type() == "field_expression" {
				receiver(fn)
			}
		case "new_expression":
			if t := n.ChildByFieldName("type"); t != nil {
				name := f.text(t)
				if t.Type() == "qualified_identifier" {
					name, _ = cQualified(f, t)
				}
				s.refs = append(s.refs, ref{name: name, kind: kindType, use: UseConstruct, line: line(n)})
			}
		case "field_expression":
			if par.typ == "call_expression" && top.field == "function" {
				return
			}
			s.refs = append(s.refs, ref{name: f.text(n.ChildByFieldName("field")), kind: kindMember, use: use(top, UseReference), line: line(n)})
			receiver(n)
		case "qualified_identifier":
			if par.typ == "qualified_identifier" || par.typ == "new_expression" || top.field == "declarator" ||
				(par.typ == "call_expression" && top.field == "function") || (par.typ == "template_function" && top.field == "name") {
				return
			}
			name, scope := cQualified(f, n)
			kind := kindMember
			last := n
			for last != nil && last.Type() == "qualified_identifier" {
				last = last.ChildByFieldName("name")
			}
			if last != nil && (last.Type() == "type_identifier" || last.Type() == "template_type") {
				kind, scope = kindType, ""
			}
			s.refs = append(s.refs, ref{name: name, kind: kind, use: use(top, UseReference), line: line(n), recvType: scope})
		case "identifier":
			switch {
			case top.field == "declarator" || top.field == "name" || top.field == "label":
				return
			case par.typ == "call_expression" && top.field == "function":
				return
			case par.typ == "template_function" || par.typ == "qualified_identifier" || strings.HasPrefix(par.typ, "preproc_") ||
				par.typ == "goto_statement" || par.typ == "labeled_statement":
				return
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kindName, use: use(top, UseReference), line: line(n)})
		case "type_identifier":
			if top.field == "name" || (par.typ == "type_definition" && top.field == "declarator") || par.typ == "new_expression" || par.typ == "qualified_identifier" {
				return
			}
			if par.typ == "parameter_declaration" && macroParams[parent(st, 2).n.StartByte()] {
				return // TEST(Suite, Name): names of the test, not types
			}
			s.refs = append(s.refs, ref{name: f.text(n), kind: kindType, use: use(top, UseReference), line: line(n)})
		}
	})
	// A member reached through a variable of a known type carries the
	// type as ".Type" (a qualified name's scope has no leading dot).
	for _, p := range recvs {
		if t := varTypes[p.recv]; t != "" && t != "?" {
			s.refs[p.i].recvType = "." + t
		}
	}
	for _, r := range cmocka {
		if d := defs[r.name]; d != nil {
			s.tests = append(s.tests, TestFunc{Name: r.name, Line: line(d), Fingerprint: fingerprint(f, d, d.ChildByFieldName("declarator"))})
		}
	}
	return s
}

func productCfamily(files []*scan) *symtab {
	st := &symtab{types: map[string]*sym{}, methods: map[string]*sym{}, fields: map[string]*sym{}, ctors: map[string]bool{}}
	headers := false
	for _, s := range files {
		headers = headers || isCHeader(s.path)
	}
	for _, s := range files {
		header := isCHeader(s.path)
		for _, d := range s.decls {
			if d.local {
				continue
			}
			exported, word := d.Exported, d.Visibility
			if header && word == "static" {
				// static inline in a header: every includer gets its
				// copy, it is the header's interface.
				exported, word = true, ""
			}
			if exported && !header && headers && d.Class == "" {
				// Declared in a source file: public only if a header
				// declares it too (the other declaration makes it so).
				exported, word = false, "source-only"
			}
			switch {
			case d.Kind == "type":
				st.add(st.types, d.Name, exported, word)
			case isMember(d.Kind):
				st.add(st.fields, d.Name, exported, word)
			default:
				st.add(st.methods, d.Name, exported, word)
			}
		}
	}
	return st
}

func internalCfamily(r ref, a *auditor) (bool, string) {
	if r.forced {
		return true, r.word
	}
	p := a.product
	if p == nil {
		return false, ""
	}
	// either is internal when one table holds it as internal and the
	// other holds no public declaration of it.
	either := func(x, y map[string]*sym) (bool, string) {
		if bad, w := p.lookup(x, r.name); bad && (y[r.name] == nil || !y[r.name].exported) {
			return true, w
		}
		if bad, w := p.lookup(y, r.name); bad && (x[r.name] == nil || !x[r.name].exported) {
			return true, w
		}
		return false, ""
	}
	switch r.kind {
	case kindType:
		return p.lookup(p.types, r.name)
	case kindMember:
		if strings.HasPrefix(r.recvType, ".") {
			if p.types[r.recvType[1:]] == nil {
				return false, "" // a library type's member: std::string::clear
			}
			return p.lookup(p.fields, r.name)
		}
		if r.recvType != "" {
			// Foo::bar, ns::detail::f: a static member or a namespace's name.
			return either(p.fields, p.methods)
		}
		return p.lookup(p.fields, r.name)
	default:
		if bad, w := either(p.methods, p.types); bad {
			return true, w
		}
	}
	return false, ""
}

// cTypeName is the simple name of a declared type: Cache for Cache,
// cache::Cache, const Cache&, std::vector<int>'s vector, struct store's
// store; "" for a primitive type or auto.
func cTypeName(f *parsed, t *sitter.Node) string {
	for k := 0; t != nil && k < 8; k++ {
		switch t.Type() {
		case "type_identifier":
			return f.text(t)
		case "qualified_identifier", "template_type", "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
			t = t.ChildByFieldName("name")
		default:
			return ""
		}
	}
	return ""
}
