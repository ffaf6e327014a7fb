package loc

import (
	"bytes"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/boyter/scc/v3/processor"
)

// featurePrefix keeps the language features we register in scc's global
// LanguageFeatures map apart from scc's own entries. Another caller of
// processor.ProcessConstants rebuilds scc's entries (and would undo our
// Assembly fix); it never touches ours.
const featurePrefix = "lolbench/"

// tables is what detection needs, built once from scc's language database.
// We do not call processor.ProcessConstants: it appends to package-level
// maps without a lock, so a second call (ours or anyone's) races with
// readers and duplicates entries.
type tables struct {
	db         map[string]processor.Language
	byExt      map[string][]string // lower-case extension (no dot) -> scc names
	byFilename map[string]string   // lower-case file name -> scc name
	byShebang  map[string]string   // interpreter -> scc name
}

var (
	tablesOnce sync.Once
	tab        *tables

	// featuresMu guards loaded, the set of scc names whose features are
	// in processor.LanguageFeatures under featurePrefix.
	featuresMu sync.Mutex
	loaded     = map[string]bool{}

	// emptyTrie stands in for the complexity trie, which we never use;
	// CountStats would otherwise allocate a 2 KiB trie per file.
	emptyTrie = &processor.Trie{}
)

func getTables() *tables {
	tablesOnce.Do(func() {
		t := &tables{
			db:         processor.LanguageDatabase(),
			byExt:      map[string][]string{},
			byFilename: map[string]string{},
			byShebang:  map[string]string{},
		}
		// In name order, so that detection is deterministic: candidate
		// lists are sorted, and of two languages that claim one file
		// name or interpreter the first name wins.
		for _, name := range slices.Sorted(maps.Keys(t.db)) {
			if pseudoLanguages[name] {
				continue
			}
			l := t.db[name]
			for _, e := range l.Extensions {
				t.byExt[e] = append(t.byExt[e], name)
			}
			for _, f := range l.FileNames {
				if _, ok := t.byFilename[strings.ToLower(f)]; !ok {
					t.byFilename[strings.ToLower(f)] = name
				}
			}
			for _, s := range l.SheBangs {
				if _, ok := t.byShebang[s]; !ok {
					t.byShebang[s] = name
				}
			}
		}
		tab = t
	})
	return tab
}

// pseudoLanguages are scc entries that are not source code and that cloc
// does not count either; files of these kinds are skipped as unknown.
var pseudoLanguages = map[string]bool{
	"License":       true,
	"ignore":        true,
	"gitignore":     true,
	"Docker ignore": true,
}

// languageOverrides replace scc's definition of a language where it
// disagrees with cloc on real code.
var languageOverrides = map[string]func(processor.Language) processor.Language{
	// scc v3.7.0 knows only ";" line comments for Assembly, so the "//"
	// comments of Go (Plan 9) assembly count as code: +17% on GOROOT/src.
	// cloc's Assembly filters (cloc --explain=Assembly) drop lines that
	// start with #, ;, @, |, !, -- and C++-style comments; we use the same
	// line-comment set. cloc ignores strings in assembly; we keep only the
	// double-quoted string so that "//" inside DATA strings stays code.
	"Assembly": func(l processor.Language) processor.Language {
		l.LineComment = []string{"//", ";", "#", "@", "|", "!", "--"}
		l.MultiLine = [][]string{{"/*", "*/"}}
		l.Quotes = []processor.Quote{{Start: `"`, End: `"`}}
		return l
	},
	"Go": withRuneQuotes,
	"C":  withRuneQuotes,
}

// withRuneQuotes adds '...' as a quote to a language whose only use of
// the single quote is a character literal. Without it a rune such as '"'
// opens a string in scc that runs on over the following lines and turns
// their comment lines into code: on GOROOT/src, 4.8k Go lines and 56 C
// lines (C then equals cloc's count exactly). Not for Rust (lifetimes
// 'a) nor C++ (digit separators 1'000), where a lone ' is not a quote.
func withRuneQuotes(l processor.Language) processor.Language {
	l.Quotes = append(slices.Clone(l.Quotes), processor.Quote{Start: "'", End: "'"})
	return l
}

// ensureFeatures registers the counting features of the scc languages in
// names (once each) so that CountStats and DetermineLanguage find them.
func ensureFeatures(t *tables, names []string) {
	featuresMu.Lock()
	defer featuresMu.Unlock()
	for _, name := range names {
		if loaded[name] {
			continue
		}
		l := t.db[name]
		if fix := languageOverrides[name]; fix != nil {
			l = fix(l)
		}
		f := buildFeature(l)
		processor.LanguageFeaturesMutex.Lock()
		processor.LanguageFeatures[featurePrefix+name] = f
		processor.LanguageFeaturesMutex.Unlock()
		loaded[name] = true
	}
}

// buildFeature mirrors scc's processLanguageFeature without the
// complexity tokens, which we do not report and which cost time on every
// byte that matches them.
func buildFeature(l processor.Language) processor.LanguageFeature {
	sl, ml, str, tok := &processor.Trie{}, &processor.Trie{}, &processor.Trie{}, &processor.Trie{}
	var slMask, mlMask, strMask byte
	for _, v := range l.LineComment {
		if v == "" {
			continue
		}
		slMask |= v[0]
		sl.Insert(processor.TSlcomment, []byte(v))
		tok.Insert(processor.TSlcomment, []byte(v))
	}
	for _, v := range l.MultiLine {
		if len(v) != 2 || v[0] == "" || v[1] == "" {
			continue
		}
		mlMask |= v[0][0]
		ml.InsertClose(processor.TMlcomment, []byte(v[0]), []byte(v[1]))
		tok.InsertClose(processor.TMlcomment, []byte(v[0]), []byte(v[1]))
	}
	for _, q := range l.Quotes {
		if q.Start == "" || q.End == "" {
			continue
		}
		strMask |= q.Start[0]
		str.InsertClose(processor.TString, []byte(q.Start), []byte(q.End))
		tok.InsertClose(processor.TString, []byte(q.Start), []byte(q.End))
	}
	return processor.LanguageFeature{
		Complexity:            emptyTrie,
		MultiLineComments:     ml,
		MultiLine:             l.MultiLine,
		SingleLineComments:    sl,
		LineComment:           l.LineComment,
		Strings:               str,
		Tokens:                tok,
		Nested:                l.NestedMultiLine,
		SingleLineCommentMask: slMask,
		MultiLineCommentMask:  mlMask,
		StringCheckMask:       strMask,
		ProcessMask:           slMask | mlMask | strMask,
		Keywords:              l.Keywords,
		Quotes:                l.Quotes,
	}
}

// candidates returns the scc languages a file name may hold, following
// scc's DetectLanguage: a known file name, then the whole lower-cased
// name as an extension, then the double extension ("d.ts"), then the
// last one. needShebang is true for names without an extension, whose
// language only the first line can tell.
func (t *tables) candidates(name string) (names []string, needShebang bool) {
	lower := strings.ToLower(name)
	if l, ok := t.byFilename[lower]; ok {
		return []string{l}, false
	}
	dots := strings.Count(lower, ".")
	if dots == 0 || (lower[0] == '.' && dots == 1) {
		return nil, true
	}
	if l, ok := t.byExt[lower]; ok {
		return l, false
	}
	ext := path.Ext(lower)
	if sub := path.Ext(strings.TrimSuffix(lower, ext)); sub != "" {
		if l, ok := t.byExt[strings.TrimPrefix(sub+ext, ".")]; ok {
			return l, false
		}
	}
	return t.byExt[strings.TrimPrefix(ext, ".")], false
}

// shebang returns the scc language named by a "#!" first line, or "".
func (t *tables) shebang(content []byte) string {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return ""
	}
	line := content[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	cmd := path.Base(fields[0])
	if cmd == "env" {
		// "#!/usr/bin/env -S python3 -u": the first operand that is not
		// an option names the interpreter.
		cmd = ""
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") && !strings.Contains(f, "=") {
				cmd = path.Base(f)
				break
			}
		}
	}
	return t.byShebang[cmd]
}

// clocNames maps scc's language names to cloc's where they differ, so
// that our figures line up with cloc's table row by row. Checked against
// `cloc --show-lang` and `cloc --explain` (cloc 1.96).
var clocNames = map[string]string{
	"C Header":                 "C/C++ Header", // cloc: extensions H, h, hh, hpp, hxx
	"C++ Header":               "C/C++ Header",
	"Objective C":              "Objective-C",
	"Objective C++":            "Objective-C++",
	"BASH":                     "Bourne Again Shell",
	"Shell":                    "Bourne Shell",
	"Zsh":                      "zsh",
	"Fish":                     "Fish Shell",
	"Powershell":               "PowerShell",
	"Batch":                    "DOS Batch",
	"Makefile":                 "make",
	"TCL":                      "Tcl/Tk",
	"Cuda":                     "CUDA",
	"Emacs Lisp":               "Lisp",
	"Vim Script":               "vim script",
	"Verilog":                  "Verilog-SystemVerilog",
	"SystemVerilog":            "Verilog-SystemVerilog",
	"LaTeX":                    "TeX",
	"Vue":                      "Vuejs Component",
	"Terraform":                "HCL",
	"Plain Text":               "Text",
	"ReStructuredText":         "reStructuredText",
	"Jupyter":                  "Jupyter Notebook",
	"Properties File":          "Properties",
	"AWK":                      "awk",
	"Standard ML (SML)":        "Standard ML",
	"FORTRAN Legacy":           "Fortran 77",
	"Fortran Modern":           "Fortran 90",
	"Document Type Definition": "DTD",
	"Extensible Stylesheet Language Transformations": "XSLT",
	"XML Schema":                         "XSD",
	"JavaServer Pages":                   "JSP",
	"Jade":                               "Pug",
	"LEX":                                "lex",
	"Jinja":                              "Jinja Template",
	"Visual Basic":                       "Visual Basic .NET", // cloc: .vb
	"Visual Basic for Applications":      "VB for Applications",
	"Windows Resource-Definition Script": "Windows Resource File",
	"Module-Definition":                  "Windows Module Definition",
	"Swig":                               "SWIG",
	"MSBuild":                            "MSBuild script",
	"Dhall":                              "dhall",
	"TypeScript Typings":                 "TypeScript", // cloc counts .d.ts as TypeScript
	"Patch":                              "diff",
	"Rakefile":                           "Ruby",
	"Gemfile":                            "Ruby",
	"Scons":                              "Python",
	"Gherkin Specification":              "Cucumber",
	"Smarty Template":                    "Smarty",
	"Twig Template":                      "Twig",
	"Blade template":                     "Blade",
	"Elixir Template":                    "EEx",
	"HAML":                               "Haml",
	"CloudFormation (JSON)":              "JSON",
	"CloudFormation (YAML)":              "YAML",
}

// ClocName returns cloc's name for an scc language name.
func ClocName(scc string) string {
	if n, ok := clocNames[scc]; ok {
		return n
	}
	return scc
}

// nonSoftware lists the languages (cloc names) that SourceCode leaves
// out: data and configuration formats, markup and documentation, styles,
// and patches. The collection filter asks for "software" of at least 50k
// source LoC (paper, section 3.1); a repository's JSON fixtures, HTML
// pages or Markdown docs do not make it larger software. Build scripts
// (make, CMake, Dockerfile, shell) stay in: they are programs that the
// project maintains. Template languages that carry logic (Vue, Svelte,
// Jinja) stay in too; plain HTML and CSS do not, because generated or
// vendored pages and style sheets would otherwise dominate web projects.
var nonSoftware = map[string]bool{
	// data and configuration
	"JSON": true, "JSON5": true, "JSONC": true, "JSONL": true, "YAML": true, "TOML": true,
	"XML": true, "XSD": true, "DTD": true, "INI": true, "CSV": true, "Properties": true,
	"SVG": true, "HEX": true, "Intel HEX": true, "Jupyter Notebook": true,
	"Web Services Description Language": true, "Xcode Config": true, "Systemd": true,
	"Godot Scene": true, "Game Maker Project": true, "Ur/Web Project": true, "nuspec": true,
	"Bitbucket Pipeline": true, "Avro": true, "TOON": true, "Verilog Args File": true, "Emacs Dev Env": true,
	// markup and documentation
	"Markdown": true, "Text": true, "reStructuredText": true, "AsciiDoc": true, "TeX": true,
	"Org": true, "Textile": true, "Creole": true, "Rich Text Format": true, "MDX": true,
	"Typst": true, "TaskPaper": true, "SPDX": true, "POML": true,
	"HTML": true, "Macromedia eXtensible Markup Language": true, "XAML": true, "FXML": true,
	// style sheets
	"CSS": true, "Sass": true, "LESS": true, "Stylus": true,
	// changes, not code
	"diff": true,
}

// IsSoftware reports whether a language (cloc name) counts towards
// SourceCode: it is a programming, scripting or build language rather
// than data, markup, documentation or style.
func IsSoftware(language string) bool {
	return !nonSoftware[language]
}
