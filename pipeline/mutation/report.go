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
	// Uncovered counts the valid ones no test executes: not run, and
	// not in SurvivedP2P.
	Uncovered int `json:"uncovered"`
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
	if m.Status == Uncovered {
		r.Uncovered++
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
	r.Uncovered += o.Uncovered
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
	// EPLevel sums the rows of the paper's three EP-level methods (the
	// LLM methods), whose score is reported on its own: the deterministic
	// methods make many easy mutants that would hide it in Total.
	EPLevel Row `json:"ep_level"`
	// Total sums the rows.
	Total Row `json:"total"`
	// Drops counts dropped mutants per filter.
	Drops map[Drop]int `json:"drops"`
	// Vetted lists the LLM mutants the judge confirmed, for review.
	Vetted []Vetted `json:"vetted,omitempty"`
	// Skipped are the families that did not run and why ("llm: no LLM
	// endpoint configured; set LOLBENCH_LLM_BASE_URL ...").
	Skipped []string `json:"skipped,omitempty"`
	Runs    Runs     `json:"runs"`
}

// Vetted is an LLM mutant the judge kept, with its account.
type Vetted struct {
	Mutant  string `json:"mutant"`
	Method  Method `json:"method"`
	Section string `json:"section"`
	Judge   string `json:"judge"`
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
		if m.Method.EPLevel() && m.Judge != "" && m.Status != Dropped {
			rep.Vetted = append(rep.Vetted, Vetted{Mutant: m.ID, Method: m.Method, Section: m.Section, Judge: m.Judge})
		}
	}
	rep.Total, rep.EPLevel = sumRows(rep.Methods)
	return rep
}

// sumRows scores the rows and returns their total and the total of the
// EP-level methods' rows.
func sumRows(rows []Row) (total, ep Row) {
	total, ep = Row{Method: "total"}, Row{Method: "ep-level"}
	for i := range rows {
		rows[i].score()
		total.plus(rows[i])
		if rows[i].Method.EPLevel() {
			ep.plus(rows[i])
		}
	}
	total.score()
	ep.score()
	return total, ep
}

// Summary is Table 8 over a dataset: the rows of every task summed per
// method, and the mean of the per-task scores.
type Summary struct {
	Tasks   int   `json:"tasks"`
	Methods []Row `json:"methods"`
	EPLevel Row   `json:"ep_level"`
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
	s.Total, s.EPLevel = sumRows(s.Methods)
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

// WriteTable writes rows in the layout of Table 8: one row per method, the
// EP-level methods' sum when one of them ran, then the total; columns
// generated, compiled/valid, uncovered, survived P2P filter, killed by
// original F2P, mutation score. The method column is left-aligned, the
// figures right-aligned under their headings.
func WriteTable(w io.Writer, rows []Row, ep, total Row) error {
	heads := []string{"Method", "Generated", "Compiled/valid", "Uncovered", "Survived P2P", "Killed by F2P", "Mutation score"}
	var lines [][]string
	line := func(name string, r Row) {
		score := "-"
		if r.Scored {
			score = fmt.Sprintf("%.1f%%", 100*r.Score)
		}
		lines = append(lines, []string{name, fmt.Sprint(r.Generated), fmt.Sprint(r.Valid), fmt.Sprint(r.Uncovered), fmt.Sprint(r.SurvivedP2P), fmt.Sprint(r.Killed), score})
	}
	anyEP := false
	for _, r := range rows {
		line(r.Method.Title(), r)
		anyEP = anyEP || r.Method.EPLevel()
	}
	if anyEP {
		line(ep.Method.Title(), ep)
	}
	line(total.Method.Title(), total)
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
		b.WriteString(" (no test selection, by --all-tests or for want of per-test coverage: every job ran every test)")
	}
	return b.String()
}
