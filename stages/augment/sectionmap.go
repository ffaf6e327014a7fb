package augment

import "github.com/lolbench/lolbench/pipeline/sectionmap"

// mapInput gathers the evidence of the task's F2P tests for the
// test-to-section map (pipeline/sectionmap): the mapping's rows, the kill
// matrix and per-test coverage of mutate, and for each added test the
// mutants it killed and the lines it ran, as its record keeps them.
func (t *task) mapInput(f2p []string, added []*Candidate) sectionmap.Input {
	in := sectionmap.Input{Tests: f2p, Sections: t.sections,
		Rows: sectionmap.RowsOf(t.repo, t.head, t.mapping, t.format, t.rec.TestFiles, f2p)}
	in.AddMutants(t.mutants, t.cov, t.owners)
	for _, c := range added {
		for _, id := range c.Tests {
			in.AddTest(id, c.Kills, c.Covered)
		}
	}
	return in
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
