package sectionmap

import (
	"bytes"
	"strings"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/testid"
)

// RowsOf reads what the mapping's rows say of each test (the third kind of
// evidence). A test that rows of the mapped-section blocks name (file,
// class and function, as testid reads them off the id) is named by those
// blocks, under Direct modifications or Associated changes alike: rule 28
// gives a test one owner, whose Direct modifications list it, and the
// other sections it asserts refer to it under Associated changes (a test
// plan's block may own the tests; it is no task section, so it names
// none). Every test also carries the sections its file's PR File Summary
// row gives, in both columns. The test file is read off the id in the recipe's result
// format (pytest ids with classes and parameters, JUnit classnames, Go
// packages and subtests, Java, Rust, jest); a test whose file is not
// found, or whose file the summary gives no section, has no rows.
//
// Go tests are graded at subtest level (results.Leaves), and rows name
// them by any of testid's Ref.Scopes: a row naming a test function names
// all its subtests (`- | TestX`), a row may name one subtest by the path
// go test reports in the Function column (`- | TestX/case_name`), and a
// suite method is named by its receiver and name (`s | TestBalancer_One`,
// as the scaffold writes it) or by its runner (`- | Test`, naming every
// method the runner runs). A test named by several rows is named by all
// their blocks.
//
// A Python test whose class inherits its method is named by the rows that
// name the method on the base class of its file that defines it
// (inherit.go: unittest ids name the class the test ran in).
func RowsOf(repo *diff.Repo, head string, m *mapping.Mapping, format string, testFiles, tests []string) map[string]Rows {
	fileSecs := map[string][]string{}
	for _, row := range m.PFS.Rows {
		for _, cell := range []string{row.AssociatedSections, row.DirectSections} {
			if ids, err := mapping.SectionIDs(cell); err == nil {
				fileSecs[row.Path] = append(fileSecs[row.Path], ids...)
			}
		}
	}
	type scope struct{ file, class, function string }
	named := map[scope]map[string]int{}
	name := func(b *mapping.Block, rows []mapping.CodeRow) {
		for _, row := range rows {
			if mapping.IsNone(row.Function) {
				continue
			}
			class := row.Class
			if mapping.IsNone(class) {
				class = ""
			}
			k := scope{row.Path, class, row.Function}
			if named[k] == nil {
				named[k] = map[string]int{}
			}
			if _, ok := named[k][b.Section]; !ok {
				named[k][b.Section] = b.Number
			}
		}
	}
	for i := range m.Blocks {
		b := &m.Blocks[i]
		name(b, b.Direct.Rows)
		name(b, b.Associated.Rows)
	}
	src := Source(repo, head, testFiles) // one file cache for every test
	sources := map[string]string{}
	out := map[string]Rows{}
	for _, id := range tests {
		ref, ok := testid.Locate(format, id, src)
		if !ok || len(fileSecs[ref.File]) == 0 {
			continue
		}
		var secs map[string]int
		add := func(sc testid.Scope) {
			for sec, n := range named[scope{sc.File, sc.Class, sc.Func}] {
				if secs == nil {
					secs = map[string]int{}
				}
				if old, ok := secs[sec]; !ok || n < old {
					secs[sec] = n
				}
			}
		}
		for _, sc := range ref.Scopes() {
			add(sc)
		}
		if secs == nil && ref.Class != "" && strings.HasSuffix(ref.File, ".py") && repo != nil {
			// A method the test's class inherits: the rows that name it
			// on the base class of the file that defines it.
			text, ok := sources[ref.File]
			if !ok {
				data, _ := repo.ReadFile(head, ref.File)
				text = string(data)
				sources[ref.File] = text
			}
			if c, ok := pythonDefiner(text, ref.Class, ref.Func); ok && c != ref.Class {
				add(testid.Scope{File: ref.File, Class: c, Func: ref.Func})
			}
		}
		out[id] = Rows{Named: secs, File: fileSecs[ref.File], FilePath: ref.File}
	}
	return out
}

// Source is what testid.Locate reads of the repository at rev: the test
// files, which of them declares a test (its name as a word, or a test
// title in quotes) and their content, through one file cache. A nil repo
// declares nothing.
func Source(repo *diff.Repo, rev string, files []string) *testid.Source {
	cache := map[string][]byte{}
	read := func(file string) []byte {
		data, ok := cache[file]
		if !ok && repo != nil {
			data, _ = repo.ReadFile(rev, file)
			cache[file] = data
		}
		return data
	}
	return &testid.Source{Files: files, Declares: declaresIn(read), Read: read}
}

// declaresIn tells whether a file declares a test: its name as a word, or
// a test title in quotes.
func declaresIn(read func(string) []byte) testid.Declares {
	return func(file, name string) bool {
		data := read(file)
		for _, q := range []string{"'", `"`, "`"} {
			if bytes.Contains(data, []byte(q+name+q)) {
				return true
			}
		}
		for rest := data; ; {
			i := bytes.Index(rest, []byte(name))
			if i < 0 {
				return false
			}
			before := byte(' ')
			if i > 0 {
				before = rest[i-1]
			}
			after := byte(' ')
			if i+len(name) < len(rest) {
				after = rest[i+len(name)]
			}
			if !isWord(before) && !isWord(after) {
				return true
			}
			rest = rest[i+len(name):]
		}
	}
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
