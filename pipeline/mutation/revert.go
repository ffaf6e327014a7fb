package mutation

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Revert is one mapped-section revert mutant before materializing.
type Revert struct {
	Section Section
	Edit    Edit
	// Lines counts the reverted changed lines (added lines dropped plus
	// deleted lines restored); Files are the files it touches.
	Lines int
	Files []string
	// Kept says what a Go revert kept of the section's declarations
	// because the code left after it uses them, one line each: "kept
	// weightedConn (wrr/weights.go): used by section 4.1's code",
	// "stubbed newWeightedConn (wrr/weights.go): used by the tests".
	Kept []string
	// Invalid says why a Go file of the revert does not parse, "" when
	// every one does: such a revert cannot build.
	Invalid string
	// NoCode is set when the revert changes only comments and layout of
	// Go files: what the section owns is all still used (a file's
	// imports, say) or comments. It is equivalent to the reference
	// solution, so surviving it says nothing.
	NoCode bool
}

// Reverts makes the mapped-section reverts of a solution: one per mapped
// section that owns changed lines, in mapping order. In Go files the
// revert keeps what the code left after it uses (gorevert.go), so that it
// builds; in other languages a section whose functions other sections or
// the tests call will not build or import without them, and the build
// check drops such a revert, with the compiler's reason.
func Reverts(sol *Solution, o *Owners) []Revert {
	var out []Revert
	g := newGoReverter(sol, o)
	for _, sec := range o.Sections {
		if r := g.revert(sec); r.Lines > 0 {
			out = append(out, r)
		}
	}
	return out
}

// lineSet is a set of lines of the reference solution, by file.
type lineSet map[string]map[int]bool

func (s lineSet) has(file string, line int) bool { return s[file][line] }

// add adds lines and reports whether any was new.
func (s lineSet) add(file string, lines ...int) bool {
	added := false
	for _, l := range lines {
		if s[file][l] {
			continue
		}
		if s[file] == nil {
			s[file] = map[int]bool{}
		}
		s[file][l] = true
		added = true
	}
	return added
}

// splitLines splits content into lines that keep their line breaks.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	return bytes.SplitAfter(b, []byte("\n"))[:bytes.Count(b, []byte("\n"))+boolInt(b[len(b)-1] != '\n')]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// revertSection reverts, in every solution file, the changed lines section
// id owns: its added lines are dropped and its deleted lines restored where
// its first dropped line was (or at the hunk's start). Added lines in keep
// stay whoever owns them, lines in drop go as if the section owned them
// (unchanged ones too: git may align a line of a new declaration with the
// base's), and deleted lines in hold (pre-change numbering) are not put
// back (the Go pass's adjustments). It returns the edit, the number of reverted
// lines and the files touched.
func revertSection(sol *Solution, o *Owners, id string, keep, drop, hold lineSet) (Edit, int, []string) {
	edit := Edit{}
	total := 0
	var files []string
	for i := range sol.Files {
		f := &sol.Files[i]
		if f.Skip != "" {
			continue
		}
		// A function that exists only after the change goes whole (fresh.go);
		// Go's own pass (gorevert.go) does this and more for Go files.
		var fresh map[int]bool
		if f.Language != "Go" {
			fresh = o.freshLines(f, id)
		}
		owned := func(line int) bool {
			return (o.Added(f.Path, line) == id || drop.has(f.Path, line) || fresh[line]) && !keep.has(f.Path, line)
		}
		restore := func(line int) bool { return o.Deleted(f.Path, line) == id && !hold.has(f.Path, line) }
		after, base := splitLines(f.After), splitLines(f.Base)
		var out [][]byte
		n := 0
		pos := 1 // next line of after to copy
		for _, h := range f.Hunks {
			first := h.NewStart // first new line, or the line after which lines were deleted
			if h.NewLines == 0 {
				first = h.NewStart + 1
			}
			for ; pos < first && pos <= len(after); pos++ {
				if !drop.has(f.Path, pos) && !fresh[pos] {
					out = append(out, after[pos-1])
				}
			}
			var restored [][]byte
			for l := h.OldStart; l < h.OldStart+h.OldLines && h.OldLines > 0; l++ {
				if restore(l) && l-1 < len(base) {
					restored = append(restored, base[l-1])
					n++
				}
			}
			placed := false
			if len(restored) > 0 {
				placeFirst := true
				for l := h.NewStart; l < h.NewStart+h.NewLines; l++ {
					if owned(l) {
						placeFirst = false
						break
					}
				}
				if placeFirst {
					out = append(out, restored...)
					placed = true
				}
			}
			for l := h.NewStart; l < h.NewStart+h.NewLines && h.NewLines > 0; l++ {
				if l-1 >= len(after) {
					break
				}
				if owned(l) {
					if !placed {
						out = append(out, restored...)
						placed = true
					}
					n++
					continue
				}
				out = append(out, after[l-1])
			}
			if h.NewLines > 0 {
				pos = h.NewStart + h.NewLines
			}
		}
		for ; pos <= len(after); pos++ {
			if !drop.has(f.Path, pos) && !fresh[pos] {
				out = append(out, after[pos-1])
			}
		}
		if n == 0 {
			continue
		}
		total += n
		files = append(files, f.Path)
		content := bytes.Join(out, nil)
		if content == nil {
			content = []byte{}
		}
		if f.Base == nil && len(bytes.TrimSpace(content)) == 0 {
			edit[f.Path] = nil // a file the section adds goes away with it
			continue
		}
		edit[f.Path] = content
	}
	sort.Strings(files)
	return edit, total, files
}

// describeRevert fills a revert mutant's record.
func describeRevert(r Revert) (reference, mutated, scenario, rationale string) {
	sec := r.Section
	files := strings.Join(r.Files, ", ")
	reference = fmt.Sprintf("the reference solution implements section %s (%s): %s", sec.ID, sec.Title, orDash(sec.Requirement))
	mutated = fmt.Sprintf("the %d changed line(s) section %s owns in %s are reverted to the base commit: the section is not implemented", r.Lines, sec.ID, files)
	if len(r.Kept) > 0 {
		mutated += "; what the code left after it uses is kept so that it builds, functions as stubs that fail when called (" + strings.Join(r.Kept, "; ") + ")"
	}
	scenario = fmt.Sprintf("any use of what section %s requires, as its text says: %s", sec.ID, orDash(firstSentence(sec.Quote)))
	rationale = fmt.Sprintf("Every change the mapping assigns to section %s (its Direct modifications, rules 27–28) is undone, so the behaviour the section requires is missing; the other sections' changes are kept.", sec.ID)
	return
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return strings.TrimSpace(s)
}

// firstSentence cuts a quote to its first sentence (at most 300 bytes).
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > 300 {
		s = s[:297] + "..."
	}
	return s
}
