package mapping

import "strings"

// ImplementableIDs are the ids of the sections the Section Classification
// Summary marks implementable, in its order and each once: Completed's
// denominator (paper §4.1), tested or not, mapped or not.
func (m *Mapping) ImplementableIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range m.SCS.Rows {
		id := strings.TrimSpace(r.Section)
		if impl, ok := ParseYesNo(r.Implementable); ok && impl && id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
