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
}

// Reverts makes the mapped-section reverts of a solution: one per mapped
// section that owns changed lines, in mapping order. A section whose
// functions other sections or the tests call will not build without them;
// the build check drops such a revert, with the compiler's reason.
func Reverts(sol *Solution, o *Owners) []Revert {
	var out []Revert
	for _, sec := range o.Sections {
		edit, n, files := revertSection(sol, o, sec.ID)
		if n > 0 {
			out = append(out, Revert{Section: sec, Edit: edit, Lines: n, Files: files})
		}
	}
	return out
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
// its first dropped line was (or at the hunk's start). It returns the edit,
// the number of reverted lines and the files touched.
func revertSection(sol *Solution, o *Owners, id string) (Edit, int, []string) {
	edit := Edit{}
	total := 0
	var files []string
	for i := range sol.Files {
		f := &sol.Files[i]
		if f.Skip != "" {
			continue
		}
		fresh := o.freshLines(f, id) // fresh.go: a new function goes whole
		owned := func(line int) bool { return o.Added(f.Path, line) == id || fresh[line] }
		restore := func(line int) bool { return o.Deleted(f.Path, line) == id }
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
				if !fresh[pos] {
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
			if !fresh[pos] {
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
