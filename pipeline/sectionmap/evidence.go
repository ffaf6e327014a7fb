package sectionmap

import (
	"github.com/lolbench/lolbench/pipeline/coverage"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/mutation"
)

// AddMutants adds the mutate stage's evidence to in: the revert mutants
// that passed the P2P tests and the tests that killed them (the kill
// matrix's columns are judged on every row), and, when coverage is per
// test, what each F2P test runs and what each section owns. owners says
// which section owns each changed line (pipeline/mutation, so that the
// map and the revert mutants agree on what a section is). Any argument may
// be nil.
func (in *Input) AddMutants(set *mutation.Set, cov *coverage.Result, owners *mutation.Owners) {
	if set != nil && set.Matrix != nil {
		for _, mu := range set.Mutants {
			if (mu.Method == mutation.SectionRevert || mu.Method == mutation.MappedRevert) && mu.Section != "" && mu.PassedP2P() && set.Matrix.Row(mu.ID) != nil {
				if in.Reverts == nil {
					in.Reverts, in.Partial = map[string]string{}, map[string]bool{}
				}
				in.Reverts[mu.ID] = mu.Section
				if mu.Variant == mutation.StubVariant {
					in.Partial[mu.ID] = true
				}
			}
		}
		if len(in.Reverts) > 0 {
			for _, t := range set.Matrix.Tests {
				in.judge(t, set.Matrix.Kills(t))
			}
		}
	}
	if cov != nil && cov.PerTest {
		if in.Covered == nil {
			in.Covered = map[string]coverage.Lines{}
		}
		for _, t := range in.Tests {
			l, measured := cov.Tests[t]
			if _, done := in.Covered[t]; !done && measured {
				in.Covered[t] = l
			}
		}
		in.CoveragePartial = cov.Partial
		in.Owned = OwnedLines(owners, in.Sections, cov)
	}
}

// AddTest adds the evidence of one test that was run on every mutant
// itself (an added test): the mutants it kills and the lines it runs (nil
// when its coverage is unknown).
func (in *Input) AddTest(test string, kills []string, covered coverage.Lines) {
	if len(in.Reverts) > 0 {
		in.judge(test, kills)
	}
	if covered != nil {
		if in.Covered == nil {
			in.Covered = map[string]coverage.Lines{}
		}
		in.Covered[test] = covered
	}
}

func (in *Input) judge(test string, kills []string) {
	if in.Judged == nil {
		in.Judged, in.Kills = map[string]bool{}, map[string][]string{}
	}
	in.Judged[test] = true
	in.Kills[test] = append(in.Kills[test], kills...)
}

// OwnedLines assigns the reference solution's executable added lines to
// the sections that own them, by pipeline/mutation's owners (rules 27–28:
// the block whose Direct modifications list the line's scope, file-level
// lines by the file's one section). Lines coverage saw run outside every
// test (setup: module and class bodies at import) are left out: no test
// can be seen to reach them. Only the given sections get lines.
func OwnedLines(o *mutation.Owners, sections []mapping.TaskSection, cov *coverage.Result) map[string]coverage.Lines {
	want := map[string]bool{}
	for _, s := range sections {
		want[s.ID] = true
	}
	out := map[string]coverage.Lines{}
	if o == nil || cov == nil {
		return out
	}
	for _, f := range cov.Target.Files {
		for _, l := range f.Executable {
			sec := o.Added(f.Path, l)
			if sec == "" || !want[sec] || cov.Setup.Has(f.Path, l) {
				continue
			}
			if out[sec] == nil {
				out[sec] = coverage.Lines{}
			}
			out[sec][f.Path] = append(out[sec][f.Path], l)
		}
	}
	for _, l := range out {
		l.Normalize()
	}
	return out
}
