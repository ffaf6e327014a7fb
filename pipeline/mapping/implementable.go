package mapping

import "strings"

// TaskSection is one section a task grades: Completed counts it (paper
// §4.1), and the test-to-section map (pipeline/sectionmap) gives it its
// F2P tests.
type TaskSection struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Requirement is the requirement of the section's first block.
	Requirement string `json:"requirement,omitempty"`
}

// TaskSections are the implementable sections a task grades, in the
// Section Classification Summary's order and each once: those marked
// implementable and mapped, except the evaluation category. Completed's
// denominator is these (paper §4.1: completed implementable sections over
// implementable sections) and no more, because the reference solution must
// be able to complete every one of them (issue 25): an implementable
// section left unmapped (deferred, out of scope, an external dependency)
// owns no code of the pull request, and a test plan (evaluation) is
// carried out by the task's own tests, which the agent never writes. Both
// stay visible in the mapping's Unmapped Implementable Sections and its
// EP-section coverage.
func (m *Mapping) TaskSections() []TaskSection {
	req := map[string]string{}
	for _, b := range m.Blocks {
		if id := strings.TrimSpace(b.Section); req[id] == "" {
			req[id] = strings.TrimSpace(b.Requirement.Text)
		}
	}
	var out []TaskSection
	seen := map[string]bool{}
	for _, r := range m.SCS.Rows {
		id := strings.TrimSpace(r.Section)
		impl, ok1 := ParseYesNo(r.Implementable)
		mapped, ok2 := ParseYesNo(r.Mapped)
		if id == "" || !ok1 || !ok2 || !impl || !mapped || strings.TrimSpace(r.Category) == string(Evaluation) || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, TaskSection{ID: id, Title: strings.TrimSpace(r.Title), Requirement: req[id]})
	}
	return out
}

// TaskSectionIDs are the ids of TaskSections.
func (m *Mapping) TaskSectionIDs() []string {
	var out []string
	for _, s := range m.TaskSections() {
		out = append(out, s.ID)
	}
	return out
}
