package testaudit

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"
)

// Rules of a finding.
const (
	// Internal: the test touches a symbol that is not part of the public
	// interface (per language, see the package documentation).
	Internal = "internal-symbol"
	// Undocumented: the test uses a symbol the PR introduces whose exact
	// name is absent from the EP text.
	Undocumented = "undocumented-new-symbol"
	// Syntax: the test does not parse; it cannot be audited.
	Syntax = "syntax"
)

// Use says how a test touches a symbol.
type Use string

// The uses, from the most specific to the least: a reference inside an
// assertion that is neither a call nor a construction is an assertion.
const (
	UseImport    Use = "import"
	UseConstruct Use = "construct"
	UseCall      Use = "call"
	UseAssert    Use = "assert"
	UseReference Use = "reference"
)

var useRank = map[Use]int{UseImport: 0, UseConstruct: 1, UseCall: 2, UseAssert: 3, UseReference: 4}

var useVerb = map[Use]string{
	UseImport: "imports", UseConstruct: "constructs", UseCall: "calls",
	UseAssert: "asserts on", UseReference: "uses",
}

// Limits on hostile input.
const (
	// MaxSource caps a file the audit parses (a test, a helper or a
	// product file); a bigger file is an error (test) or ignored (others).
	MaxSource = 1 << 20
	// ParseTimeout bounds one parse.
	ParseTimeout = 10 * time.Second
	// maxName caps a symbol name in a finding.
	maxName = 200
)

// File is one source file: a slash path relative to the repository root
// and its content.
type File struct {
	Path   string
	Source []byte
}

// Input is one generated test and what it is audited against.
type Input struct {
	// Language is a pipeline/lang name: "Go", "Python", "Java", "Rust",
	// "JavaScript", "TypeScript", "C", "C++" or "C/C++ Header".
	Language string
	// Test is the generated test file.
	Test File
	// Helpers are the task's other test files the test may share
	// declarations with (the other _test.go files of its Go package,
	// conftest.py, test base classes): their names are the test's own.
	Helpers []File
	// Product are the project's source files the test exercises, after
	// the PR (for Java, Rust, JavaScript, TypeScript, C and C++, whose
	// visibility is declared, not named; Go and Python decide by name alone).
	Product []File
	// NewSymbols are the names the PR introduces (classes, functions,
	// methods, constants, fields), last name component only.
	NewSymbols []string
	// EP is the proposal's text.
	EP []byte
}

// Finding is one reason to reject a test.
type Finding struct {
	Rule   string `json:"rule"`
	Symbol string `json:"symbol"`
	Use    Use    `json:"use,omitempty"`
	Line   int    `json:"line"`
	// Message says it in words, for the report and the model's rewrite.
	Message string `json:"message"`
}

// String is the finding as the rewrite prompt and the report show it.
func (f Finding) String() string { return fmt.Sprintf("line %d: %s", f.Line, f.Message) }

// Report is the verdict on one test file.
type Report struct {
	File     string    `json:"file"`
	Language string    `json:"language"`
	Findings []Finding `json:"findings"`
}

// OK reports whether the test passed the audit.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

// Reason is the verdict in one line ("" when the test passed): the
// overly narrow uses, each with its line.
func (r *Report) Reason() string {
	if r.OK() {
		return ""
	}
	parts := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		parts[i] = f.String()
	}
	return "overly narrow test: " + strings.Join(parts, "; ")
}

// Language is one language's audit rule: what is internal there and how
// a file's declarations and references are read. One file per language.
type Language struct {
	// Name is the pipeline/lang name.
	Name string
	// Doc says what counts as internal, for reports and docs.
	Doc     string
	grammar func() *sitter.Language
	// pathGrammar, when set, picks another grammar by file name (nil:
	// grammar): TypeScript's .tsx files are TSX.
	pathGrammar func(path string) *sitter.Language
	// scan reads a parsed file's declarations, references and tests.
	scan func(f *parsed) *scan
	// internal decides whether a reference not declared by the test is
	// internal, and with which word ("unexported", "private", ...).
	internal func(r ref, a *auditor) (bool, string)
	// product builds the symbol table of the product files, when the
	// language needs one (nil otherwise).
	product func(files []*scan) *symtab
}

// Languages lists the audited languages, one rule file each.
var Languages = []*Language{Go, Python, Java, Rust, JavaScript, TypeScript, C, Cpp, CHeader}

// Lookup returns the rule of a language, or nil when it is not audited.
func Lookup(name string) *Language {
	for _, l := range Languages {
		if strings.EqualFold(l.Name, name) {
			return l
		}
	}
	return nil
}

// ErrUnsupported is returned for a language without an audit rule.
var ErrUnsupported = errors.New("no test audit for this language")

// ref is one use of a name by the test.
type ref struct {
	name string
	kind refKind
	use  Use
	line int
	// recvType is the declared type of a Java call's or field access's
	// receiver, when the test declares it; "" when unknown.
	recvType string
	// word overrides the internal phrase ("private module").
	word string
	// forced marks a reference that is internal whatever the tables
	// say (reflection, a private module path).
	forced bool
}

type refKind uint8

const (
	kindName   refKind = iota // a bare identifier
	kindMember                // a field, method or attribute after a dot
	kindType                  // a type name
	kindImport                // an imported name or module
	kindString                // a name spelled in a string (getattr, reflection)
)

// Decl is one name a file declares.
type Decl struct {
	Name string `json:"name"`
	// Kind is "type", "func", "method", "field", "var", "const" or
	// "ctor".
	Kind string `json:"kind"`
	// Class is the enclosing class or receiver type, "" at file level.
	Class string `json:"class,omitempty"`
	// Exported reports whether the name is public by the language's rule.
	Exported bool `json:"exported"`
	// Visibility is the declared visibility where the language declares
	// one (Java: "public", "protected", "private", "package-private").
	Visibility string `json:"visibility,omitempty"`
	Line       int    `json:"line"`
	// local marks a parameter, a local variable or an import binding:
	// Declarations returns only file-level and class-member names.
	local bool
}

// TestFunc is one test function of a file.
type TestFunc struct {
	Name string `json:"name"`
	// Class is the enclosing test class (Python, Java), "" otherwise.
	Class string `json:"class,omitempty"`
	Line  int    `json:"line"`
	// Fingerprint hashes the function's tokens without comments, layout
	// and its own name: two tests with the same fingerprint are the same
	// test.
	Fingerprint string `json:"fingerprint"`
}

// scan is what one pass over a file yields.
type scan struct {
	decls []Decl
	refs  []ref
	tests []TestFunc
	// imports are names a file binds to packages (Go), never internal.
	imports map[string]bool
	// syntaxLine is the first line with a parse error, 0 when none.
	syntaxLine int
	// path is the file's path (C and C++ tell headers from sources).
	path string
}

// symtab is a product's symbols by name.
type symtab struct {
	types, methods, fields map[string]*sym
	// ctors maps a class to whether every constructor it declares is
	// internal (absent: no constructor declared); ctorSyms holds their
	// words.
	ctors    map[string]bool
	ctorSyms map[string]*sym
}

// sym aggregates every declaration of a name: it is internal only when
// no declaration of it is exported (overloads and same-named members of
// other classes make a name public as soon as one of them is).
type sym struct {
	exported bool
	words    map[string]bool
}

func (s *symtab) add(table map[string]*sym, name string, exported bool, word string) {
	x := table[name]
	if x == nil {
		x = &sym{words: map[string]bool{}}
		table[name] = x
	}
	x.exported = x.exported || exported
	if !exported {
		x.words[word] = true
	}
}

// lookup returns whether name is internal-only in table, with its word.
func (s *symtab) lookup(table map[string]*sym, name string) (bool, string) {
	x := table[name]
	if x == nil || x.exported {
		return false, ""
	}
	if len(x.words) == 1 {
		for w := range x.words {
			return true, w
		}
	}
	return true, "non-public"
}

// auditor holds what one audit resolves references against: the names
// the test (and its helpers) declare, in two namespaces, since a local
// variable named like a field does not make the field the test's own.
type auditor struct {
	names   map[string]bool // functions, types, variables, parameters
	members map[string]bool // fields, methods, attributes
	imports map[string]bool
	product *symtab
}

// isMember reports whether a declaration kind lives in the member
// namespace.
func isMember(kind string) bool { return kind == "field" || kind == "method" || kind == "ctor" }

func (a *auditor) declare(d Decl) {
	if isMember(d.Kind) {
		a.members[d.Name] = true
		return
	}
	a.names[d.Name] = true
}

// declared reports whether the test declares r's name in r's namespace.
func (a *auditor) declared(r ref) bool {
	switch r.kind {
	case kindImport, kindString:
		return false
	case kindMember:
		// A member of another object's type (Java: a receiver declared
		// as a product class) is not the test's own, however the test
		// names its own methods.
		if t := r.recvType; t != "" && t != "this" && t != "super" {
			return false
		}
		return a.members[r.name]
	}
	return a.names[r.name]
}

// Audit checks one generated test. The error is for input that cannot be
// audited at all (no rule for the language, a test over MaxSource); a test
// that does not parse is a Syntax finding, a verdict like the others.
func Audit(ctx context.Context, in Input) (*Report, error) {
	l := Lookup(in.Language)
	if l == nil {
		return nil, fmt.Errorf("audit %s: %w %q", in.Test.Path, ErrUnsupported, in.Language)
	}
	rep := &Report{File: in.Test.Path, Language: l.Name, Findings: []Finding{}}
	p := newParser()
	defer p.close()
	test, err := p.scanFile(ctx, l, in.Test)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", in.Test.Path, err)
	}
	if test.syntaxLine > 0 {
		rep.Findings = append(rep.Findings, Finding{Rule: Syntax, Line: test.syntaxLine,
			Message: "the test does not parse; write syntactically valid " + l.Name})
		return rep, nil
	}
	a := &auditor{names: map[string]bool{}, members: map[string]bool{}, imports: map[string]bool{}}
	for _, d := range test.decls {
		a.declare(d)
	}
	for n := range test.imports {
		a.imports[n] = true
	}
	for _, h := range in.Helpers {
		s, err := p.scanFile(ctx, l, h)
		if err != nil {
			continue // an unreadable helper declares nothing
		}
		for _, d := range s.decls {
			a.declare(d)
		}
	}
	if l.product != nil {
		var scans []*scan
		for _, f := range in.Product {
			if s, err := p.scanFile(ctx, l, f); err == nil {
				scans = append(scans, s)
			}
		}
		a.product = l.product(scans)
	}
	newSyms := map[string]bool{}
	for _, s := range in.NewSymbols {
		newSyms[lastName(s)] = true
	}
	epWords := identifiers(in.EP)
	type key struct {
		rule, symbol string
		use          Use
	}
	seen := map[key]bool{}
	add := func(f Finding) {
		k := key{f.Rule, f.Symbol, f.Use}
		if !seen[k] {
			seen[k] = true
			rep.Findings = append(rep.Findings, f)
		}
	}
	for _, r := range test.refs {
		if r.name == "" {
			continue
		}
		declared := a.declared(r)
		if !declared || r.forced {
			if bad, word := l.internal(r, a); bad {
				if r.word != "" {
					word = r.word
				}
				add(Finding{Rule: Internal, Symbol: clip(r.name), Use: r.use, Line: r.line,
					Message: fmt.Sprintf("%s the %s `%s`", useVerb[r.use], word, clip(r.name))})
				continue
			}
		}
		if r.kind == kindString || declared {
			continue
		}
		if newSyms[r.name] && !epWords[r.name] {
			add(Finding{Rule: Undocumented, Symbol: clip(r.name), Use: r.use, Line: r.line,
				Message: fmt.Sprintf("%s `%s`, which the PR introduces and the EP never names", useVerb[r.use], clip(r.name))})
		}
	}
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		x, y := rep.Findings[i], rep.Findings[j]
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Symbol != y.Symbol {
			return x.Symbol < y.Symbol
		}
		return useRank[x.Use] < useRank[y.Use]
	})
	return rep, nil
}

// TestFuncs returns the test functions of a test file, in line order.
func TestFuncs(ctx context.Context, language string, f File) ([]TestFunc, error) {
	l := Lookup(language)
	if l == nil {
		return nil, fmt.Errorf("%s: %w %q", f.Path, ErrUnsupported, language)
	}
	p := newParser()
	defer p.close()
	s, err := p.scanFile(ctx, l, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if s.syntaxLine > 0 {
		return nil, fmt.Errorf("%s:%d: syntax error", f.Path, s.syntaxLine)
	}
	out := append([]TestFunc{}, s.tests...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

// Declarations returns the file-level and class-member names a file
// declares (not parameters or locals), in line order. A file that does not
// parse yields what its parsed parts declare.
func Declarations(ctx context.Context, language string, f File) ([]Decl, error) {
	l := Lookup(language)
	if l == nil {
		return nil, fmt.Errorf("%s: %w %q", f.Path, ErrUnsupported, language)
	}
	p := newParser()
	defer p.close()
	s, err := p.scanFile(ctx, l, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	var out []Decl
	for _, d := range s.decls {
		if !d.local {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, nil
}

// NewSymbols returns the names declared after a change and not before it
// (file-level and class members), sorted and without duplicates: the
// constants, fields and variables a PR adds, which pipeline/syntax's new
// entities (classes and functions) do not list.
func NewSymbols(ctx context.Context, language string, before, after File) ([]string, error) {
	old := map[string]bool{}
	if len(before.Source) > 0 {
		ds, err := Declarations(ctx, language, before)
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			old[d.Name] = true
		}
	}
	ds, err := Declarations(ctx, language, after)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, d := range ds {
		if !old[d.Name] {
			set[d.Name] = true
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// lastName is the last component of a dotted name.
func lastName(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func clip(s string) string {
	if len(s) <= maxName {
		return s
	}
	cut := maxName
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// identifiers is the set of identifier-like words of text: a name is
// named by the EP when it occurs with no letter, digit or underscore
// on either side ("TTL" in "`TTL(key)`", not "New" in "Newer").
func identifiers(text []byte) map[string]bool {
	out := map[string]bool{}
	start := -1
	for i := 0; i <= len(text); i++ {
		word := false
		if i < len(text) {
			c := text[i]
			word = c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			if w := string(text[start:i]); len(w) <= maxName {
				out[w] = true
			}
			start = -1
		}
	}
	return out
}
