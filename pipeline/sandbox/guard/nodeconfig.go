package guard

import (
	"encoding/json"
	"path"
	"reflect"
	"strings"
)

// Sections of node's configuration files in the language table (issue 23).
const (
	// PackageJSONTestSection is package.json's test configuration: its
	// scripts (npm test runs them, with any --require they name) and the
	// keys test runners read their options from.
	PackageJSONTestSection = "test-config"
	// TSConfigTSNodeSection is a tsconfig's ts-node options: ts-node reads
	// "require" (modules preloaded into the tests' process) and its
	// compiler choice there, and "extends" can bring them from another
	// file.
	TSConfigTSNodeSection = "ts-node"
)

var nodeConfigKeys = map[string][]string{
	PackageJSONTestSection: {"scripts", "jest", "mocha", "ava", "c8", "nyc", "tap"},
	TSConfigTSNodeSection:  {"ts-node", "extends"},
}

// nodeConfigFile reports whether a path is a JSON file whose sections
// resetNodeConfig handles.
func nodeConfigFile(name string) bool {
	b := path.Base(name)
	return b == "package.json" || strings.HasPrefix(b, "tsconfig") && strings.HasSuffix(b, ".json")
}

// resetNodeConfig compares the keys of the named sections in two JSON
// files (tsconfig's comments and trailing commas allowed) and returns base
// whole when any differs, as resetPOM does: a file that changes how the
// tests run loses its other changes too. A file that does not parse is
// reset whole.
func resetNodeConfig(cur, base []byte, sections []string) ([]byte, bool) {
	var c, b map[string]any
	if json.Unmarshal(jsonc(cur), &c) != nil || c == nil {
		return base, true
	}
	if json.Unmarshal(jsonc(base), &b) != nil {
		b = nil
	}
	for _, s := range sections {
		keys, ok := nodeConfigKeys[s]
		if !ok {
			return base, true
		}
		for _, k := range keys {
			if !reflect.DeepEqual(c[k], b[k]) {
				return base, true
			}
		}
	}
	return cur, false
}

// jsonc turns JSON with comments and trailing commas (tsconfig.json's
// syntax) into JSON: comments become blanks, and a comma before a closing
// bracket goes.
func jsonc(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case ch == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(data) {
				return append(out, data[i:]...)
			}
			out = append(out, data[i:j+1]...)
			i = j
		case ch == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case ch == '/' && i+1 < len(data) && data[i+1] == '*':
			end := strings.Index(string(data[i+2:]), "*/")
			if end < 0 {
				return out
			}
			i += end + 3
			out = append(out, ' ')
		case ch == ']' || ch == '}':
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out = append(out[:k], out[k+1:]...)
			}
			out = append(out, ch)
		default:
			out = append(out, ch)
		}
	}
	return out
}
