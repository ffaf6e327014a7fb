package augment

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
)

// Report is augment/augment.json: one task's augmentation.
type Report struct {
	Candidate string `json:"candidate"`
	// Loops says, per requested loop, whether it ran and why not.
	Loops []LoopReport `json:"loops"`
	// OriginalF2P are the task's F2P tests from the build; Added the ids
	// the retained tests add; FailToPass both, the task's new list.
	OriginalF2P []string `json:"original_f2p"`
	Added       []string `json:"added_f2p"`
	FailToPass  []string `json:"FAIL_TO_PASS"`
	// AddedBy counts the retained tests (files) per loop.
	AddedBy map[string]int `json:"added_by_loop"`
	// TestPatch is the added tests' patch in the candidate folder, ""
	// when none was added.
	TestPatch string `json:"test_patch,omitempty"`
	// AddedFiles are the files the added test patch creates.
	AddedFiles []string    `json:"added_files,omitempty"`
	Mutants    MutantStats `json:"mutants"`
	Coverage   CovStats    `json:"coverage"`
	// Candidates are every generated test with its fate.
	Candidates []*Candidate `json:"candidates"`
	// Map is the test-to-section map of the task's F2P tests, original
	// and added (also the candidate's sections.json).
	Map *sectionmap.Map `json:"section_map"`
	// Jobs and Runs count the sandbox jobs and test-command runs.
	Jobs  int      `json:"jobs"`
	Runs  int      `json:"runs"`
	Notes []string `json:"notes,omitempty"`
}

// LoopReport is one generation loop of a task.
type LoopReport struct {
	Loop string `json:"loop"`
	Ran  bool   `json:"ran"`
	// Skipped says why the loop did not run.
	Skipped string `json:"skipped,omitempty"`
	// Prompts counts the conversations; Generated the tests the model
	// wrote (rewrites included); Retained, Rejected and Dropped their
	// fates.
	Prompts   int `json:"prompts"`
	Generated int `json:"generated"`
	Retained  int `json:"retained"`
	Rejected  int `json:"rejected"`
	Dropped   int `json:"dropped"`
}

// MutantStats are the task's mutants before and after augmentation.
type MutantStats struct {
	// Available is false when the mutate stage has not run.
	Available bool `json:"available"`
	// SurvivedP2P counts the mutants past the P2P filter (the kill
	// matrix's rows); KilledOriginal those the original F2P tests kill,
	// KilledOverall those the original or the added tests kill.
	SurvivedP2P    int     `json:"survived_p2p"`
	KilledOriginal int     `json:"killed_original"`
	KilledOverall  int     `json:"killed_overall"`
	ScoreOriginal  float64 `json:"score_original"`
	ScoreOverall   float64 `json:"score_overall"`
	// Survivors are the mutants no test kills after augmentation.
	Survivors []string `json:"survivors"`
}

// CovStats are the F2P coverage of the reference solution's executable
// added lines before and after augmentation, in percent.
type CovStats struct {
	Available   bool    `json:"available"`
	Executable  int     `json:"executable"`
	F2POriginal float64 `json:"f2p_original"`
	F2POverall  float64 `json:"f2p_overall"`
	// UnionOriginal is F2P ∪ P2P before augmentation: the coverage loop
	// runs when it is below the threshold.
	UnionOriginal float64 `json:"union_original"`
	UnionOverall  float64 `json:"union_overall"`
}

// LoadReport reads a candidate's augment/augment.json.
func LoadReport(c *pipeline.Candidate) (*Report, error) {
	return pipeline.ReadArtifact[Report](c, ReportFile)
}

func score(killed, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(killed) / float64(total)
}

// Summary is the dataset summary in the layout of Table 9: the tasks'
// F2P tests, mutants and coverage before and after augmentation.
type Summary struct {
	Tasks int `json:"tasks"`
	// OriginalF2P and OverallF2P sum the F2P test ids.
	OriginalF2P int `json:"original_f2p"`
	OverallF2P  int `json:"overall_f2p"`
	// AddedMutation and AddedCoverage sum the retained tests per loop.
	AddedMutation int `json:"added_mutation"`
	AddedCoverage int `json:"added_coverage"`
	// MutantTasks count the tasks with mutants; the mutant figures sum
	// over them, and the scores are pooled (killed / survived P2P).
	MutantTasks    int     `json:"mutant_tasks"`
	SurvivedP2P    int     `json:"survived_p2p"`
	KilledOriginal int     `json:"killed_original"`
	KilledOverall  int     `json:"killed_overall"`
	ScoreOriginal  float64 `json:"score_original"`
	ScoreOverall   float64 `json:"score_overall"`
	// CoverageTasks count the tasks with coverage; the means are over
	// them.
	CoverageTasks       int     `json:"coverage_tasks"`
	MeanF2POriginal     float64 `json:"mean_f2p_coverage_original"`
	MeanF2POverall      float64 `json:"mean_f2p_coverage_overall"`
	PossiblyOverlyBroad int     `json:"possibly_overly_broad"`
}

// Summarize adds up task reports.
func Summarize(reps []*Report) *Summary {
	s := &Summary{}
	for _, r := range reps {
		s.Tasks++
		s.OriginalF2P += len(r.OriginalF2P)
		s.OverallF2P += len(r.FailToPass)
		s.AddedMutation += r.AddedBy[LoopMutation]
		s.AddedCoverage += r.AddedBy[LoopCoverage]
		if r.Mutants.Available {
			s.MutantTasks++
			s.SurvivedP2P += r.Mutants.SurvivedP2P
			s.KilledOriginal += r.Mutants.KilledOriginal
			s.KilledOverall += r.Mutants.KilledOverall
		}
		if r.Coverage.Available {
			s.CoverageTasks++
			s.MeanF2POriginal += r.Coverage.F2POriginal
			s.MeanF2POverall += r.Coverage.F2POverall
		}
		if r.Map != nil {
			s.PossiblyOverlyBroad += len(r.Map.Broad)
		}
	}
	s.ScoreOriginal = score(s.KilledOriginal, s.SurvivedP2P)
	s.ScoreOverall = score(s.KilledOverall, s.SurvivedP2P)
	if s.CoverageTasks > 0 {
		s.MeanF2POriginal /= float64(s.CoverageTasks)
		s.MeanF2POverall /= float64(s.CoverageTasks)
	}
	return s
}

// WriteTable writes a summary in the layout of Table 9: one row per
// figure, the original suite's value beside the augmented one. A figure
// that does not apply to a column is "-"; a figure no task measured is
// "n/a". Labels are left-aligned, figures right-aligned under their
// headings.
func WriteTable(w io.Writer, s *Summary) error {
	pct := func(v float64, ok bool) string {
		if !ok {
			return "n/a"
		}
		return fmt.Sprintf("%.1f%%", v)
	}
	rows := [][3]string{
		{"", "Original", "Augmented"},
		{"Tasks", fmt.Sprint(s.Tasks), fmt.Sprint(s.Tasks)},
		{"F2P tests", fmt.Sprint(s.OriginalF2P), fmt.Sprint(s.OverallF2P)},
		{"  added by the mutation-guided loop", "-", fmt.Sprint(s.AddedMutation)},
		{"  added by the coverage-guided loop", "-", fmt.Sprint(s.AddedCoverage)},
		{fmt.Sprintf("Mutants killed (of %d past the P2P filter)", s.SurvivedP2P), fmt.Sprint(s.KilledOriginal), fmt.Sprint(s.KilledOverall)},
		{"Mutation score", pct(s.ScoreOriginal, s.SurvivedP2P > 0), pct(s.ScoreOverall, s.SurvivedP2P > 0)},
		{fmt.Sprintf("Mean F2P coverage (%d task%s)", s.CoverageTasks, plural(s.CoverageTasks)), pct(s.MeanF2POriginal, s.CoverageTasks > 0), pct(s.MeanF2POverall, s.CoverageTasks > 0)},
	}
	var width [3]int
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		line := fmt.Sprintf("%-*s  %*s  %*s", width[0], r[0], width[1], r[1], width[2], r[2])
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	return nil
}
