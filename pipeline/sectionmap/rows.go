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
// blocks; the rows read are those of one column, Associated changes, or
// Direct modifications for a test file with direct sections only (a test
// plan's rows list its test files under Direct modifications). Every test
// also carries the sections its file's PR File Summary row gives, in the
// same column. The test file is read off the id in the recipe's result
// format (pytest ids with classes and parameters, JUnit classnames, Go
// packages and subtests, Java, Rust, jest); a test whose file is not
// found, or whose file the summary gives no section, has no rows. A
// Python test whose class inherits its method is named by the rows that
// name the method on the base class of its file that defines it
// (inherit.go: unittest ids name the class the test ran in).
func RowsOf(repo *diff.Repo, head string, m *mapping.Mapping, format string, testFiles, tests []string) map[string]Rows {
	fileSecs := map[string][]string{}
	directOnly := map[string]bool{}
	for _, row := range m.PFS.Rows {
		cell := row.AssociatedSections
		if mapping.IsNone(cell) {
			cell, directOnly[row.Path] = row.DirectSections, true
		}
		if ids, err := mapping.SectionIDs(cell); err == nil && len(ids) > 0 {
			fileSecs[row.Path] = ids
		}
	}
	type scope struct {
		direct                bool
		file, class, function string
	}
	named := map[scope]map[string]int{}
	name := func(b *mapping.Block, direct bool, rows []mapping.CodeRow) {
		for _, row := range rows {
			if mapping.IsNone(row.Function) {
				continue
			}
			class := row.Class
			if mapping.IsNone(class) {
				class = ""
			}
			k := scope{direct, row.Path, class, row.Function}
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
		name(b, false, b.Associated.Rows)
		name(b, true, b.Direct.Rows)
	}
	declares := Declares(repo, head) // one file cache for every test
	sources := map[string]string{}
	out := map[string]Rows{}
	for _, id := range tests {
		ref, ok := testid.Locate(format, id, testFiles, declares)
		if !ok || len(fileSecs[ref.File]) == 0 {
			continue
		}
		rows := named[scope{directOnly[ref.File], ref.File, ref.Class, ref.Func}]
		if rows == nil && ref.Class != "" && strings.HasSuffix(ref.File, ".py") && repo != nil {
			// A method the test's class inherits: the rows that name it
			// on the base class of the file that defines it.
			src, ok := sources[ref.File]
			if !ok {
				data, _ := repo.ReadFile(head, ref.File)
				src = string(data)
				sources[ref.File] = src
			}
			if c, ok := pythonDefiner(src, ref.Class, ref.Func); ok && c != ref.Class {
				rows = named[scope{directOnly[ref.File], ref.File, c, ref.Func}]
			}
		}
		out[id] = Rows{Named: rows, File: fileSecs[ref.File], FilePath: ref.File}
	}
	return out
}

// Declares tells testid.Locate whether a file at rev declares a test: its
// name as a word, or a test title in quotes. A nil repo declares nothing.
func Declares(repo *diff.Repo, rev string) testid.Declares {
	cache := map[string][]byte{}
	return func(file, name string) bool {
		data, ok := cache[file]
		if !ok && repo != nil {
			data, _ = repo.ReadFile(rev, file)
			cache[file] = data
		}
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
