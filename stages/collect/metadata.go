package collect

import (
	"regexp"
	"strings"

	"github.com/lolbench/lolbench/pipeline/registry"
)

// Where a value came from when no declared place gave it
// (docs/projects.md, "Metadata formats").
const (
	FromFileName = "file name"     // the number's digits, or the title, from the file name
	FromHeading  = "first heading" // the title
	FromGit      = "git"           // the created date: the first commit holding the file
	FromIssue    = "issue"         // a GitHub issue's number, title, state and creation
	FromRegistry = "registry"      // a web page's number, or its curated created date
)

// headLines bounds the text the bullet, table and regex places read: the
// first lines of a proposal, where its metadata is.
const (
	headLines = 100
	headBytes = 64 << 10
)

// sources is what a proposal's places read from.
type sources struct {
	path   string            // the file's path in its repository or folder
	header map[string]string // the format's header (Document.Metadata, kep.yaml)
	raw    []byte            // the file as stored: the field list is read here
	text   []byte            // the text as read: Markdown, RST, or an HTML or DokuWiki page's rendering
	fields map[string]string // the first RST field list, read on first use
}

// lookup returns the first value the places give, and the place.
func (s *sources) lookup(places []registry.Place) (value, from string) {
	for _, p := range places {
		if v := strings.TrimSpace(s.read(p)); v != "" {
			return v, p.String()
		}
	}
	return "", ""
}

func (s *sources) read(p registry.Place) string {
	switch p.Kind {
	case registry.PlaceFrontMatter, registry.PlaceHeader:
		return lookup(s.header, p.Key)
	case registry.PlaceField:
		if s.fields == nil {
			s.fields = rstFields(s.raw)
		}
		return lookup(s.fields, p.Key)
	case registry.PlaceBullet:
		return cleanLines(bulletValue(head(s.text), p.Key))
	case registry.PlaceTable:
		return cleanValue(tableValue(head(s.text), p.Key))
	case registry.PlaceList:
		return listValue(head(s.text), p.Key)
	case registry.PlaceRegex:
		return matchValue(p.Re, strings.Join(head(s.text), "\n"))
	case registry.PlacePath:
		return matchValue(p.Re, s.path)
	}
	return ""
}

// head returns the first lines of a text.
func head(text []byte) []string {
	if len(text) > headBytes {
		text = text[:headBytes]
	}
	lines := strings.SplitN(string(text), "\n", headLines+1)
	if len(lines) > headLines {
		lines = lines[:headLines]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// matchValue is a pattern's first group, else its whole match.
func matchValue(re *regexp.Regexp, s string) string {
	m := re.FindStringSubmatch(s)
	switch {
	case m == nil:
		return ""
	case len(m) > 1:
		return m[1]
	}
	return m[0]
}

var (
	bulletMarker = regexp.MustCompile(`^\s*(?:[-*+]|[0-9]{1,3}[.)])\s+`)
	fieldLine    = regexp.MustCompile(`^:([^:\s][^:]{0,63}):(?:\s+(.*))?$`)
	mdLink       = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// bulletValue finds "Key: value" among lines, as a list item or not, the
// key bold or not ("* **Implementation Status:** Implemented",
// "**Current state**: Accepted"). An empty value is read from the list
// items nested under it, one per line (Prometheus: the value, or each
// owner, one line down); then the key may stand alone, without a colon
// ("* **Owners**").
func bulletValue(lines []string, key string) string {
	for i, line := range lines {
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		item := bulletMarker.MatchString(line)
		text := bulletMarker.ReplaceAllString(line, "")
		text = strings.TrimLeft(strings.TrimSpace(text), "*_")
		k, v, ok := strings.Cut(text, ":")
		if !ok && !item {
			continue
		}
		k = strings.TrimSpace(strings.Trim(strings.TrimSpace(k), "*_"))
		if !strings.EqualFold(unescapeMD(k), key) {
			continue
		}
		v = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(v), "*_"))
		if v != "" || !item {
			return v
		}
		var nested []string
		for _, next := range lines[i+1:] {
			if strings.TrimSpace(next) == "" {
				if len(nested) > 0 {
					break
				}
				continue
			}
			if deeper := len(next) - len(strings.TrimLeft(next, " \t")); deeper <= indent || !bulletMarker.MatchString(next) {
				break
			}
			nested = append(nested, strings.TrimSpace(bulletMarker.ReplaceAllString(next, "")))
		}
		if !ok && len(nested) == 0 {
			continue // an item that only says the key, with nothing under it
		}
		return strings.Join(nested, "\n")
	}
	return ""
}

// listValue finds the list under a line that holds only key, as a
// paragraph or a heading, bold or not, with or without a colon (Presto's
// "Proposers" and "## **Proposers**"): its items, cleaned, one per line.
// Blank lines may come before the list; anything else ends it.
func listValue(lines []string, key string) string {
	for i, line := range lines {
		k := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#"))
		k = strings.TrimSuffix(strings.TrimSpace(strings.Trim(k, "*_")), ":")
		if !strings.EqualFold(strings.TrimSpace(unescapeMD(k)), key) {
			continue
		}
		var items []string
		for _, next := range lines[i+1:] {
			if strings.TrimSpace(next) == "" {
				if len(items) > 0 {
					break
				}
				continue
			}
			if !bulletMarker.MatchString(next) {
				break
			}
			items = append(items, bulletMarker.ReplaceAllString(next, ""))
		}
		return cleanLines(strings.Join(items, "\n"))
	}
	return ""
}

// tableValue finds a table row "| key | value |" among lines.
func tableValue(lines []string, key string) string {
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := splitRow(strings.Trim(line, "|"))
		if len(cells) >= 2 && strings.EqualFold(cleanValue(cells[0]), key) {
			return cells[1]
		}
	}
	return ""
}

// splitRow splits a table row at the "|" that are not escaped.
func splitRow(row string) []string {
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	return append(cells, row[start:])
}

// rstFields reads the first reStructuredText field list of a file: its
// fields, one line each, continuation lines joined.
func rstFields(raw []byte) map[string]string {
	out := map[string]string{}
	last := ""
	in := false
	for _, line := range head(raw) {
		if m := fieldLine.FindStringSubmatch(line); m != nil {
			in = true
			last = strings.TrimSpace(m[1])
			if v, seen := out[last]; seen {
				// A repeated field adds its value (NEP 21's two
				// :Author: fields).
				out[last] = v + ", " + strings.TrimSpace(m[2])
			} else {
				out[last] = strings.TrimSpace(m[2])
			}
			continue
		}
		if in && last != "" && strings.TrimSpace(line) != "" && (line[0] == ' ' || line[0] == '\t') {
			out[last] = strings.TrimSpace(out[last] + " " + strings.TrimSpace(line))
			continue
		}
		if in {
			break
		}
	}
	return out
}

// cleanLines is cleanValue of each line of a value, empty lines dropped:
// a list's items stay one per line.
func cleanLines(v string) string {
	var out []string
	for _, line := range strings.Split(v, "\n") {
		if line = cleanValue(line); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

// cleanValue reads a value as text: Markdown links as their text, code,
// bold and escapes dropped, white space collapsed.
func cleanValue(v string) string {
	v = mdLink.ReplaceAllString(v, "$1")
	v = strings.NewReplacer("`", "", "**", "", "__", "").Replace(v)
	return oneLine(unescapeMD(v))
}

// unescapeMD drops the backslash of a Markdown escape ("\*" is "*").
func unescapeMD(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>~&=", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
