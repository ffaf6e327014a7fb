package mutation

import (
	"fmt"
	"io"
	"strings"
)

// Row is one row of Table 8 (paper): a method's mutants through the
// filters. Each count is included in the one before it.
type Row struct {
	Method Method `json:"method"`
	// Generated counts every mutant the method produced, duplicates
	// included.
	Generated int `json:"generated"`
	// Valid counts those that were not duplicates, applied and built.
	Valid int `json:"valid"`
	// SurvivedP2P counts those that passed every P2P test.
	SurvivedP2P int `json:"survived_p2p"`
	// Killed counts those that an original F2P test kills.
	Killed int `json:"killed"`
	// Score is the mutation score, Killed / SurvivedP2P; 0 when nothing
	// passed the P2P filter (Scored is then false).
	Score  float64 `json:"mutation_score"`
	Scored bool    `json:"scored"`
}

// add counts one mutant.
func (r *Row) add(m *Mutant) {
	r.Generated++
	if m.Valid() {
		r.Valid++
	}
	if m.PassedP2P() {
		r.SurvivedP2P++
	}
	if m.Status == Killed {
		r.Killed++
	}
}

func (r *Row) plus(o Row) {
	r.Generated += o.Generated
	r.Valid += o.Valid
	r.SurvivedP2P += o.SurvivedP2P
	r.Killed += o.Killed
}

func (r *Row) score() {
	r.Scored = r.SurvivedP2P > 0
	r.Score = 0
	if r.Scored {
		r.Score = float64(r.Killed) / float64(r.SurvivedP2P)
	}
}

// Runs says what the kill-matrix runs cost and what per-test coverage
// saved (PIT's test selection).
type Runs struct {
	// Jobs is the number of sandbox jobs run for mutants (one per
	// non-duplicate mutant: apply, build check, tests).
	Jobs int `json:"jobs"`
	// Full is the number of test executions without selection: for every
	// job, every P2P and F2P test.
	Full int `json:"full"`
	// Executed is the number of tests the jobs actually selected.
	Executed int `json:"executed"`
	// Saved is Full - Executed.
	Saved int `json:"saved"`
	// Selective reports whether per-test coverage was available to select
	// tests; without it every job runs the whole selection.
	Selective bool `json:"selective"`
}

// Report is a task's mutation report, mutants/report.json: Table 8 for one
// task.
type Report struct {
	Candidate string `json:"candidate"`
	// Methods are the rows of the methods that ran, in Methods order.
	Methods []Row `json:"methods"`
	// Total sums the rows.
	Total Row `json:"total"`
	// Drops counts dropped mutants per filter.
	Drops map[Drop]int `json:"drops"`
	// Skipped are the families that did not run and why ("llm: no LLM
	// endpoint configured; set LOLBENCH_LLM_BASE_URL ...").
	Skipped []string `json:"skipped,omitempty"`
	Runs    Runs     `json:"runs"`
}

// NewReport counts mutants into a report. ran lists the methods that ran,
// so that a method that ran and made nothing still has its row.
func NewReport(candidate string, ran []Method, mutants []*Mutant) *Report {
	rep := &Report{Candidate: candidate, Methods: []Row{}, Drops: map[Drop]int{}}
	rows := map[Method]*Row{}
	did := map[Method]bool{}
	for _, m := range ran {
		did[m] = true
	}
	for _, m := range mutants {
		did[m.Method] = true
	}
	for _, m := range Methods {
		if did[m] {
			rep.Methods = append(rep.Methods, Row{Method: m})
		}
	}
	for i := range rep.Methods {
		rows[rep.Methods[i].Method] = &rep.Methods[i]
	}
	for _, m := range mutants {
		if r := rows[m.Method]; r != nil {
			r.add(m)
		}
		if m.Status == Dropped {
			rep.Drops[m.Drop]++
		}
	}
	rep.Total = Row{Method: "total"}
	for i := range rep.Methods {
		rep.Methods[i].score()
		rep.Total.plus(rep.Methods[i])
	}
	rep.Total.score()
	return rep
}

// Summary is Table 8 over a dataset: the rows of every task summed per
// method, and the mean of the per-task scores.
type Summary struct {
	Tasks   int   `json:"tasks"`
	Methods []Row `json:"methods"`
	Total   Row   `json:"total"`
	// MeanTaskScore is the mean of the tasks' total scores over the tasks
	// that have one (the paper's per-task figure); Scored counts them.
	MeanTaskScore float64 `json:"mean_task_score"`
	ScoredTasks   int     `json:"scored_tasks"`
	Runs          Runs    `json:"runs"`
}

// Summarize adds up task reports.
func Summarize(reps []*Report) *Summary {
	s := &Summary{Tasks: len(reps), Methods: []Row{}, Total: Row{Method: "total"}}
	rows := map[Method]*Row{}
	for _, m := range Methods {
		for _, rep := range reps {
			if rep.row(m) != nil {
				s.Methods = append(s.Methods, Row{Method: m})
				break
			}
		}
	}
	for i := range s.Methods {
		rows[s.Methods[i].Method] = &s.Methods[i]
	}
	sum := 0.0
	for _, rep := range reps {
		for _, r := range rep.Methods {
			if t := rows[r.Method]; t != nil {
				t.plus(r)
			}
		}
		if rep.Total.Scored {
			sum += rep.Total.Score
			s.ScoredTasks++
		}
		s.Runs.Jobs += rep.Runs.Jobs
		s.Runs.Full += rep.Runs.Full
		s.Runs.Executed += rep.Runs.Executed
		s.Runs.Saved += rep.Runs.Saved
		s.Runs.Selective = s.Runs.Selective || rep.Runs.Selective
	}
	for i := range s.Methods {
		s.Methods[i].score()
		s.Total.plus(s.Methods[i])
	}
	s.Total.score()
	if s.ScoredTasks > 0 {
		s.MeanTaskScore = sum / float64(s.ScoredTasks)
	}
	return s
}

func (rep *Report) row(m Method) *Row {
	for i := range rep.Methods {
		if rep.Methods[i].Method == m {
			return &rep.Methods[i]
		}
	}
	return nil
}

// WriteTable writes rows in the layout of Table 8: one row per method, then
// the total; columns generated, compiled/valid, survived P2P filter, killed
// by original F2P, mutation score. The method column is left-aligned, the
// figures right-aligned under their headings.
func WriteTable(w io.Writer, rows []Row, total Row) error {
	heads := []string{"Method", "Generated", "Compiled/valid", "Survived P2P", "Killed by F2P", "Mutation score"}
	var lines [][]string
	line := func(name string, r Row) {
		score := "-"
		if r.Scored {
			score = fmt.Sprintf("%.1f%%", 100*r.Score)
		}
		lines = append(lines, []string{name, fmt.Sprint(r.Generated), fmt.Sprint(r.Valid), fmt.Sprint(r.SurvivedP2P), fmt.Sprint(r.Killed), score})
	}
	for _, r := range rows {
		line(r.Method.Title(), r)
	}
	line("Total", total)
	width := make([]int, len(heads))
	for _, l := range append([][]string{heads}, lines...) {
		for i, c := range l {
			width[i] = max(width[i], len(c))
		}
	}
	var b strings.Builder
	for _, l := range append([][]string{heads}, lines...) {
		for i, c := range l {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				fmt.Fprintf(&b, "  %*s", width[i], c)
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String is the runs line of a report: "12 of 40 test runs (28 saved by
// per-test coverage)".
func (r Runs) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d job(s), %d of %d test runs", r.Jobs, r.Executed, r.Full)
	if r.Selective {
		fmt.Fprintf(&b, " (%d saved by per-test coverage)", r.Saved)
	} else {
		b.WriteString(" (no per-test coverage: every job ran every test)")
	}
	return b.String()
}
