package guard

import (
	"bytes"
	"fmt"
	"path"
	"reflect"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"golang.org/x/mod/modfile"
)

// resetSections returns cur with the named sections as they are in base
// (absent when base lacks them), the rest of cur untouched. name is the
// file's path, which picks the syntax: go.mod's replace directives, a
// pom.xml's test configuration (resetPOM, always whole), TOML
// tables (a section "tool.pytest" is that table and its subtables), else
// INI sections. When the section cannot be reset on its own (cur does not
// parse, or its TOML reaches the table through dotted keys or inline
// tables) the whole base file is returned and whole is set: a file that
// hides test configuration loses its other changes too.
func resetSections(name string, cur, base []byte, sections []string) (out []byte, whole bool) {
	switch {
	case path.Base(name) == "go.mod":
		return resetGoModReplace(cur, base)
	case path.Base(name) == "pom.xml":
		return resetPOM(cur, base)
	case nodeConfigFile(name):
		return resetNodeConfig(cur, base, sections)
	case strings.HasSuffix(name, ".toml"):
		return resetTOML(cur, base, sections)
	}
	return resetINI(cur, base, sections), false
}

// resetGoModReplace sets cur's replace directives to base's.
func resetGoModReplace(cur, base []byte) ([]byte, bool) {
	cf, err := modfile.Parse("go.mod", cur, nil)
	if err != nil {
		return base, true
	}
	bf, err := modfile.Parse("go.mod", base, nil)
	if err != nil {
		return base, true
	}
	if replacesEqual(cf.Replace, bf.Replace) {
		return cur, false
	}
	for _, r := range append([]*modfile.Replace(nil), cf.Replace...) {
		if err := cf.DropReplace(r.Old.Path, r.Old.Version); err != nil {
			return base, true
		}
	}
	for _, r := range bf.Replace {
		if err := cf.AddReplace(r.Old.Path, r.Old.Version, r.New.Path, r.New.Version); err != nil {
			return base, true
		}
	}
	cf.Cleanup()
	out, err := cf.Format()
	if err != nil {
		return base, true
	}
	return out, false
}

func replacesEqual(a, b []*modfile.Replace) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Old != b[i].Old || a[i].New != b[i].New {
			return false
		}
	}
	return true
}

// block is a run of lines that starts with a section header (or the lines
// before the first header, with an empty key).
type block struct {
	key   string
	lines []string
}

// splitBlocks cuts a file into header-led blocks. header returns a line's
// section key, or false when the line is not a header.
func splitBlocks(data []byte, header func(string) (string, bool)) []block {
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	blocks := []block{{}}
	for _, l := range lines {
		if k, ok := header(l); ok {
			blocks = append(blocks, block{key: k})
		}
		b := &blocks[len(blocks)-1]
		b.lines = append(b.lines, l)
	}
	return blocks
}

// replaceBlocks drops cur's blocks that belong to a section and puts
// base's in their place: where the first dropped one was, else at the end.
func replaceBlocks(cur, base []block, belongs func(key string) bool) []byte {
	var want []string
	for _, b := range base[1:] {
		if belongs(b.key) {
			want = append(want, b.lines...)
		}
	}
	var out bytes.Buffer
	placed := false
	put := func() {
		if placed || len(want) == 0 {
			placed = true
			return
		}
		if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
			out.WriteByte('\n')
		}
		for _, l := range want {
			out.WriteString(l)
		}
		if !strings.HasSuffix(want[len(want)-1], "\n") {
			out.WriteByte('\n')
		}
		placed = true
	}
	for i, b := range cur {
		if i > 0 && belongs(b.key) {
			put()
			continue
		}
		for _, l := range b.lines {
			out.WriteString(l)
		}
	}
	put()
	return out.Bytes()
}

// iniHeader recognises "[section]".
func iniHeader(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return "", false
	}
	return strings.TrimSpace(t[1 : len(t)-1]), true
}

func resetINI(cur, base []byte, sections []string) []byte {
	return replaceBlocks(splitBlocks(cur, iniHeader), splitBlocks(base, iniHeader), func(k string) bool {
		for _, s := range sections {
			if k == s {
				return true
			}
		}
		return false
	})
}

// tomlHeader recognises "[a.b]" and "[[a.b]]" with the key's quotes and
// spaces taken out ("[ tool . \"pytest\" ]" is tool.pytest).
func tomlHeader(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if i := strings.Index(t, "#"); i >= 0 && !strings.ContainsAny(t[:i], `"'`) {
		t = strings.TrimSpace(t[:i])
	}
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return "", false
	}
	k := strings.Trim(t, "[]")
	k = strings.NewReplacer(`"`, "", `'`, "", " ", "", "\t", "").Replace(k)
	return k, true
}

func resetTOML(cur, base []byte, sections []string) ([]byte, bool) {
	belongs := func(k string) bool {
		for _, s := range sections {
			if k == s || strings.HasPrefix(k, s+".") {
				return true
			}
		}
		return false
	}
	out := replaceBlocks(splitBlocks(cur, tomlHeader), splitBlocks(base, tomlHeader), belongs)
	// Headers are not the only way to a table: dotted keys and inline
	// tables reach it too. The result must hold exactly base's tables.
	var got, want map[string]any
	if toml.Unmarshal(out, &got) != nil {
		return base, true
	}
	if toml.Unmarshal(base, &want) != nil {
		want = nil
	}
	for _, s := range sections {
		if !reflect.DeepEqual(lookup(got, s), lookup(want, s)) {
			return base, true
		}
	}
	return out, false
}

// lookup returns the value at a dotted key path, or nil.
func lookup(m map[string]any, key string) any {
	var v any = m
	for _, k := range strings.Split(key, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

// describeSections is a short account of a section reset for reset.json.
func describeSections(sections []string, whole bool) string {
	if whole {
		return fmt.Sprintf("whole file (its %s could not be reset on its own)", strings.Join(sections, ", "))
	}
	return strings.Join(sections, ", ")
}
