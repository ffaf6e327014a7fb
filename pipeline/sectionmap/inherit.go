package sectionmap

import (
	"regexp"
	"strings"
)

// A unittest id names the class the test ran in, which may inherit the
// method from a base class of the same file: CPython's test_tarfile runs
// MiscReadTestBase.test_extract_directory as Bz2MiscReadTest's, Gzip's,
// Lzma's and MiscReadTest's, and NoneInfoExtractTests' methods as four
// subclasses'. The mapping's rows name the method where it is defined,
// the scope the PR changed; pythonAncestors lets such a row name the
// tests its subclasses run.

// pyClassRE matches a top-level class statement up to its bases' opening
// parenthesis, if any.
var pyClassRE = regexp.MustCompile(`(?m)^class[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*(\(?)`)

// pythonBases reads the top-level classes of a Python file and the names
// of their bases (the last part of a dotted base: TestCase of
// unittest.TestCase); keyword arguments (metaclass=...) are left out.
func pythonBases(src string) map[string][]string {
	out := map[string][]string{}
	for _, m := range pyClassRE.FindAllStringSubmatchIndex(src, -1) {
		name := src[m[2]:m[3]]
		if _, seen := out[name]; seen {
			continue // a redefinition: the first one's bases
		}
		out[name] = nil
		if m[4] == m[5] {
			continue // no bases
		}
		depth, end := 1, -1
		for i := m[5]; i < len(src) && i < m[5]+4096; i++ {
			switch src[i] {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			}
			if depth == 0 {
				end = i
				break
			}
		}
		if end < 0 {
			continue
		}
		for _, b := range strings.Split(src[m[5]:end], ",") {
			b = strings.TrimSpace(b)
			if b == "" || strings.ContainsAny(b, "=*([") {
				continue
			}
			if i := strings.LastIndexByte(b, '.'); i >= 0 {
				b = b[i+1:]
			}
			out[name] = append(out[name], b)
		}
	}
	return out
}

// pyDefRE matches a function statement and its indentation.
var pyDefRE = regexp.MustCompile(`(?m)^([ \t]+)(?:async[ \t]+)?def[ \t]+([A-Za-z_][A-Za-z0-9_]*)`)

// pyTopRE matches a line that ends a top-level class body: one that starts
// with neither a blank nor a comment.
var pyTopRE = regexp.MustCompile(`(?m)^[^ \t\r\n#]`)

// pythonMethods reads the methods each top-level class of a Python file
// defines in its own body (at the body's first indentation level).
func pythonMethods(src string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	ms := pyClassRE.FindAllStringSubmatchIndex(src, -1)
	for _, m := range ms {
		name := src[m[2]:m[3]]
		if out[name] != nil {
			continue
		}
		out[name] = map[string]bool{}
		body := src[m[1]:]
		if nl := strings.IndexByte(body, '\n'); nl >= 0 {
			body = body[nl+1:]
		} else {
			continue
		}
		if loc := pyTopRE.FindStringIndex(body); loc != nil {
			body = body[:loc[0]]
		}
		indent := ""
		for _, d := range pyDefRE.FindAllStringSubmatch(body, -1) {
			if indent == "" {
				indent = d[1]
			}
			if d[1] == indent {
				out[name][d[2]] = true
			}
		}
	}
	return out
}

// pythonDefiner is the class whose method a test of class runs: class
// itself or its nearest base of the file that defines method; false when
// none does (the method comes from outside the file).
func pythonDefiner(src, class, method string) (string, bool) {
	methods := pythonMethods(src)
	for _, c := range append([]string{class}, pythonAncestors(src, class)...) {
		if methods[c][method] {
			return c, true
		}
	}
	return "", false
}

// pythonAncestors lists the base classes of class in src, transitively,
// nearest first (breadth first, each once): the order in which a method's
// definition is looked for, as Python's method resolution order does for
// the single and simple multiple inheritance of test classes.
func pythonAncestors(src, class string) []string {
	bases := pythonBases(src)
	seen := map[string]bool{class: true}
	var out []string
	queue := []string{class}
	for len(queue) > 0 && len(out) < 64 {
		c := queue[0]
		queue = queue[1:]
		for _, b := range bases[c] {
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
				queue = append(queue, b)
			}
		}
	}
	return out
}
