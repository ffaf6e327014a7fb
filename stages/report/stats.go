package report

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/loc"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// statsVersion enters every cache key: a change of what the statistics
// mean recomputes them all.
const statsVersion = "report-stats/2"

// StatsDir is the cache of computed statistics, under the site's folder:
// one <id>.json per candidate, reused while the key is unchanged.
const StatsDir = "stats"

// Stats are one candidate's figures for the dataset table (Table 1 of the
// paper). The reference solution is the PR minus its test files (test and
// test-data categories), as stages/build splits it.
type Stats struct {
	// Key hashes what the figures depend on: the two commits and the EP
	// text. A cached file with another key is recomputed.
	Key  string `json:"key"`
	Base string `json:"base"`
	Head string `json:"head"`
	// RepoLoC is the software source LoC of the repository at the base
	// commit (loc.CountRev, Result.SourceCode).
	RepoLoC int64 `json:"repo_loc"`
	// SolutionFiles and SolutionLoC count the reference solution's files
	// and changed lines (inserted plus deleted, git's numstat).
	SolutionFiles int `json:"solution_files"`
	SolutionLoC   int `json:"solution_loc"`
	// Classes and Functions are the modified classes and functions of the
	// solution's source files, "file: Class" and "file: Class.function":
	// the scopes of changed lines (syntax.Resolve) and the entities the PR
	// adds.
	Classes   []string `json:"classes"`
	Functions []string `json:"functions"`
	// Members are the public data members the solution adds, "file:
	// Class.name" or "file: NAME" (syntax.NewMembers): fields, constants,
	// class attributes and module-level constants and variables are
	// public API like classes and functions (issue 12 §1), and the class
	// of each is a modified class.
	Members []string `json:"members"`
	// ClassNames are the distinct modified class names; Mentioned those
	// of them that the EP text names (the target-class-mentioned share).
	ClassNames []string `json:"class_names"`
	Mentioned  []string `json:"mentioned"`
}

// statsKey hashes the inputs of the statistics.
func statsKey(base, head string, epText []byte) string {
	h := sha256.New()
	ep := sha256.Sum256(epText)
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%x", statsVersion, base, head, ep)
	return hex.EncodeToString(h.Sum(nil))
}

// StatsSource names what one candidate's statistics are computed from.
type StatsSource struct {
	Repo       string // local git repository
	Base, Head string // revisions
	EPText     []byte
}

// CachedStats returns the statistics of a candidate, from cacheFile when
// its key matches and computed (then written to cacheFile) otherwise. The
// revisions are resolved first, so that a moved ref is not served stale.
func CachedStats(ctx context.Context, src StatsSource, cacheFile string) (st *Stats, cached bool, err error) {
	repo, err := diff.Open(src.Repo)
	if err != nil {
		return nil, false, err
	}
	base, err := repo.Resolve(src.Base)
	if err != nil {
		return nil, false, fmt.Errorf("base %q: %w", src.Base, err)
	}
	head, err := repo.Resolve(src.Head)
	if err != nil {
		return nil, false, fmt.Errorf("head %q: %w", src.Head, err)
	}
	key := statsKey(base, head, src.EPText)
	// A missing, damaged or stale cache file is recomputed.
	var old Stats
	if err := workspace.ReadJSON(cacheFile, &old); err == nil && old.Key == key {
		return &old, true, nil
	}
	st, err = ComputeStats(ctx, repo, base, head, src.EPText)
	if err != nil {
		return nil, false, err
	}
	st.Key = key
	if err := os.MkdirAll(filepath.Dir(cacheFile), 0o755); err != nil {
		return nil, false, fmt.Errorf("stats cache: %w", err)
	}
	if err := workspace.WriteJSON(cacheFile, st); err != nil {
		return nil, false, err
	}
	return st, false, nil
}

// ComputeStats measures one candidate: the repository's source LoC at
// base, the reference solution's files and lines between base and head,
// its modified classes and functions, the public members it adds, and
// which class names the EP text mentions.
func ComputeStats(ctx context.Context, repo *diff.Repo, base, head string, epText []byte) (*Stats, error) {
	st := &Stats{Base: base, Head: head, Classes: []string{}, Functions: []string{}, Members: []string{}, ClassNames: []string{}, Mentioned: []string{}}
	res, err := loc.CountRev(ctx, repo.Dir(), base, loc.Options{SoftwareOnly: true})
	if err != nil {
		return nil, fmt.Errorf("count lines at %s: %w", base, err)
	}
	st.RepoLoC = res.SourceCode()
	ch, err := repo.Diff(ctx, base, head)
	if err != nil {
		return nil, err
	}
	for _, f := range ch.Files {
		if f.Category == lang.Test || f.Category == lang.TestData {
			continue
		}
		st.SolutionFiles++
		st.SolutionLoC += f.Inserted + f.Deleted
	}
	scopes, err := syntax.Resolve(ctx, repo.Dir(), ch, syntax.Options{})
	if err != nil {
		return nil, fmt.Errorf("resolve scopes %s..%s: %w", base, head, err)
	}
	classes, functions, names := map[string]bool{}, map[string]bool{}, map[string]bool{}
	add := func(file, class, function string) {
		if class != "" {
			classes[file+": "+class] = true
			names[class] = true
		}
		if function != "" {
			functions[file+": "+qualified(class, function)] = true
		}
	}
	for _, s := range scopes.Scopes {
		add(s.File, s.Class, s.Function)
	}
	for _, f := range scopes.Files {
		for _, e := range f.NewEntities {
			add(f.File, e.Class, e.Function)
		}
	}
	// Members come from the same source files as the scopes; the files
	// NewMembers skips are the ones Resolve skips.
	news, err := syntax.NewMembers(ctx, repo.Dir(), ch, syntax.Options{})
	if err != nil {
		return nil, fmt.Errorf("new members %s..%s: %w", base, head, err)
	}
	members := map[string]bool{}
	for _, f := range news.Files {
		for _, m := range f.Members {
			members[f.File+": "+m.Qualified()] = true
			add(f.File, m.Class, "")
		}
	}
	st.Classes = sortedKeys(classes)
	st.Functions = sortedKeys(functions)
	st.Members = sortedKeys(members)
	st.ClassNames = sortedKeys(names)
	text := string(epText)
	for _, n := range st.ClassNames {
		if Mentions(text, n) {
			st.Mentioned = append(st.Mentioned, n)
		}
	}
	return st, nil
}

func qualified(class, function string) string {
	if class == "" {
		return function
	}
	return class + "." + function
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Mentions reports whether text names the class: its own name (the last
// segment of a dotted "Outer.Inner") appears as a whole identifier, so
// that "Table" is found in "the Table type" but not in "Tables" or
// "TableRow".
func Mentions(text, class string) bool {
	name := class
	if i := strings.LastIndexAny(name, ".:"); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		return false
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		start := i + j
		end := start + len(name)
		if (start == 0 || !identByte(text[start-1])) && (end == len(text) || !identByte(text[end])) {
			return true
		}
		i = start + 1
	}
	return false
}

func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// Summary is the mean and median of one column.
type Summary struct {
	N      int
	Mean   float64
	Median float64
}

// Summarize computes the mean and the median (the mean of the two middle
// values for an even count).
func Summarize(values []float64) Summary {
	if len(values) == 0 {
		return Summary{}
	}
	vs := slices.Clone(values)
	slices.Sort(vs)
	sum := 0.0
	for _, v := range vs {
		sum += v
	}
	med := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		med = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return Summary{N: len(vs), Mean: sum / float64(len(vs)), Median: med}
}

// Format writes "mean (median)" with the given decimals, thousands
// separated, or "–" without values.
func (s Summary) Format(decimals int) string {
	if s.N == 0 {
		return "–"
	}
	return formatNumber(s.Mean, decimals) + " (" + formatNumber(s.Median, decimals) + ")"
}

// formatNumber rounds half away from zero to the decimals and separates
// thousands: 12345.67 with 1 decimal is "12,345.7".
func formatNumber(v float64, decimals int) string {
	p := math.Pow(10, float64(decimals))
	v = math.Round(v*p) / p
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// TableRow is one row of the dataset statistics table, laid out like
// Table 1 of the paper: tasks and languages, repository size in kLoC,
// solution size in LoC, modified files, classes and functions and the new
// public members (issue 12 §1; each mean and median), and the
// target-class-mentioned share.
type TableRow struct {
	Label     string
	Tasks     int
	Languages []string
	// Measured is the number of tasks with statistics; the others had no
	// readable repository.
	Measured    int
	RepoKLoC    Summary
	SolutionLoC Summary
	Files       Summary
	Classes     Summary
	Functions   Summary
	Members     Summary
	// ClassNames and Mentioned are pooled over the row's tasks.
	ClassNames int
	Mentioned  int
}

// MentionedPercent is the pooled share of modified class names that the
// EPs mention, "66.7%", or "–" when no class was modified.
func (r TableRow) MentionedPercent() string {
	if r.ClassNames == 0 {
		return "–"
	}
	return mapping.FormatPercent(r.Mentioned, r.ClassNames)
}

// statsEntry is one candidate's input to the table.
type statsEntry struct {
	Language string
	Stats    *Stats // nil when it could not be computed
}

// NewTableRow aggregates the entries into one row.
func newTableRow(label string, entries []statsEntry) TableRow {
	r := TableRow{Label: label, Tasks: len(entries)}
	langs := map[string]bool{}
	var kloc, sol, files, classes, funcs, members []float64
	for _, e := range entries {
		if e.Language != "" {
			langs[e.Language] = true
		}
		if e.Stats == nil {
			continue
		}
		s := e.Stats
		r.Measured++
		kloc = append(kloc, float64(s.RepoLoC)/1000)
		sol = append(sol, float64(s.SolutionLoC))
		files = append(files, float64(s.SolutionFiles))
		classes = append(classes, float64(len(s.Classes)))
		funcs = append(funcs, float64(len(s.Functions)))
		members = append(members, float64(len(s.Members)))
		r.ClassNames += len(s.ClassNames)
		r.Mentioned += len(s.Mentioned)
	}
	r.Languages = sortedKeys(langs)
	r.RepoKLoC, r.SolutionLoC = Summarize(kloc), Summarize(sol)
	r.Files, r.Classes, r.Functions, r.Members = Summarize(files), Summarize(classes), Summarize(funcs), Summarize(members)
	return r
}

// byLabel sorts rows by label.
func byLabel(a, b TableRow) int { return cmp.Compare(a.Label, b.Label) }
