package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// NewCmdPR groups the commands that look at what a pull request changes:
// the files between its base and head commits in a local repository.
func NewCmdPR(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pr",
		Short: "Inspect the change between two revisions of a local repository",
		Long: `Inspect what a pull request changes: the files between its base and head
revisions in a local git repository (plain or bare; cloning is not done here).

Counts and renames are git's: 'git diff --numstat -M' for inserted and deleted
lines, 'git diff -U0 -M' for the changed line numbers, which is what GitHub
shows. Revisions are anything git would take on a command line that names one
commit: a SHA (full, or at least four digits), a branch, a tag, HEAD~1, v2^.
The git command must be on PATH.`,
		Example: `  lolbench pr stats --repo ./work/repos/cpython --base 3f1c2a9 --head 8e0d7b1
  lolbench pr files --repo . --base v1.2.0 --head HEAD --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(newCmdPRStats(f), newCmdPRFiles(f), newCmdPRScopes(f))
	return cmd
}

// PROptions are the flags every `lolbench pr` command shares.
type PROptions struct {
	Repo string
	Base string
	Head string
	JSON bool
}

// addFlags registers --repo, --base, --head and --json.
func (o *PROptions) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Repo, "repo", ".", "the local git repository (its top directory, or the git directory of a bare clone)")
	cmd.Flags().StringVar(&o.Base, "base", "", "the revision before the change: the PR's base commit (required)")
	cmd.Flags().StringVar(&o.Head, "head", "", "the revision after the change: the PR's head or merge commit (required)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print JSON instead of a table")
	_ = cmd.MarkFlagRequired("base")
	_ = cmd.MarkFlagRequired("head")
}

// change opens the repository and computes the change from Base to Head.
// Every error is bad input or environment (exit 2) and names the directory
// or the revision.
func (o *PROptions) change(cmd *cobra.Command) (*diff.Change, error) {
	r, err := diff.Open(o.Repo)
	if err != nil {
		return nil, err
	}
	return r.Diff(cmd.Context(), o.Base, o.Head)
}

func newCmdPRStats(f *Factory) *cobra.Command {
	opts := &PROptions{}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count the files and lines a change touches, per file category",
		Long: `Count the files changed and the lines inserted and deleted between two
revisions, in total and per file category (source, test, test-data, data,
build, documentation, generated, vendor), and the share of changed lines
(inserted plus deleted) that are source code: the PR-size and source-share
figures of collection (paper, section 3.2). Binary files count as files with
no lines.

--json prints one object with every category, zeros included, in a fixed
order, and source_share rounded to three decimals (0 when no line changed):

  {"files":3,"inserted":40,"deleted":12,"categories":{"source":{"files":2,
  "inserted":30,"deleted":10},"test":{...},...},"source_share":0.769}`,
		Example: `  # the change of a PR, by its base and head commits
  lolbench pr stats --repo ./work/repos/cpython --base 3f1c2a9 --head 8e0d7b1

  # the last commit of a branch, as JSON
  lolbench pr stats --repo . --base main~1 --head main --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := opts.change(cmd)
			if err != nil {
				return err
			}
			s := c.Stats()
			if opts.JSON {
				return writePRJSON(f.IO.Out, statsJSON(s))
			}
			return writeStatsTable(f.IO.Out, s)
		},
	}
	opts.addFlags(cmd)
	return cmd
}

func newCmdPRFiles(f *Factory) *cobra.Command {
	opts := &PROptions{}
	cmd := &cobra.Command{
		Use:   "files",
		Short: "List the files a change touches, with status, category and line counts",
		Long: `List every file changed between two revisions, sorted by path: its status
(added, modified, deleted, renamed; a type change such as file to symbolic
link is modified), file category, whether git treats it as binary, and the
lines inserted and deleted. A rename shows as "old -> new". In the table,
paths with control characters or invalid UTF-8 are quoted.

--json prints an array of objects with the fields old_path, new_path (empty
on the side where the file does not exist), path, status, binary, category,
language, inserted, deleted, old_lines and new_lines (the changed line
numbers before and after, as 'git diff -U0 -M' gives them).`,
		Example: `  lolbench pr files --repo ./work/repos/cpython --base 3f1c2a9 --head 8e0d7b1

  # changed line numbers of every file, for a script
  lolbench pr files --base v1.2.0 --head HEAD --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := opts.change(cmd)
			if err != nil {
				return err
			}
			if opts.JSON {
				rows := make([]fileJSON, 0, len(c.Files))
				for i := range c.Files {
					rows = append(rows, newFileJSON(&c.Files[i]))
				}
				return writePRJSON(f.IO.Out, rows)
			}
			return writeFilesTable(f.IO.Out, c.Files)
		},
	}
	opts.addFlags(cmd)
	return cmd
}

// writePRJSON writes v as one line of JSON.
func writePRJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

type categoryJSON struct {
	Files    int `json:"files"`
	Inserted int `json:"inserted"`
	Deleted  int `json:"deleted"`
}

// categoriesJSON marshals as an object whose keys keep lang.Categories
// order (a Go map would sort them).
type categoriesJSON []struct {
	name  lang.Category
	stats categoryJSON
}

func (c categoriesJSON) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, e := range c {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(string(e.name))
		v, err := json.Marshal(e.stats)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

type prStatsJSON struct {
	Files       int            `json:"files"`
	Inserted    int            `json:"inserted"`
	Deleted     int            `json:"deleted"`
	Categories  categoriesJSON `json:"categories"`
	SourceShare float64        `json:"source_share"`
}

// statsJSON is the stable schema of `pr stats --json`: all eight
// categories in lang.Categories order, zeros included.
func statsJSON(s diff.Stats) prStatsJSON {
	out := prStatsJSON{Files: s.Files, Inserted: s.Inserted, Deleted: s.Deleted, SourceShare: math.Round(s.SourceShare*1000) / 1000}
	for _, cat := range lang.Categories {
		var cj categoryJSON
		if cs := s.Categories[cat]; cs != nil {
			cj = categoryJSON{Files: cs.Files, Inserted: cs.Inserted, Deleted: cs.Deleted}
		}
		out.Categories = append(out.Categories, struct {
			name  lang.Category
			stats categoryJSON
		}{cat, cj})
	}
	return out
}

func writeStatsTable(w io.Writer, s diff.Stats) error {
	rows := [][]string{{"category", "files", "inserted", "deleted"}}
	for _, cat := range lang.Categories {
		cs := s.Categories[cat]
		if cs == nil {
			cs = &diff.CategoryStats{}
		}
		rows = append(rows, []string{string(cat), strconv.Itoa(cs.Files), strconv.Itoa(cs.Inserted), strconv.Itoa(cs.Deleted)})
	}
	rows = append(rows, []string{"total", strconv.Itoa(s.Files), strconv.Itoa(s.Inserted), strconv.Itoa(s.Deleted)})
	writeTable(w, rows, 1)
	srcLines := 0
	if src := s.Categories[lang.Source]; src != nil {
		srcLines = src.Inserted + src.Deleted
	}
	_, err := fmt.Fprintf(w, "\nsource share of changed lines: %.1f%% (%d of %d)\n",
		100*s.SourceShare, srcLines, s.Inserted+s.Deleted)
	return err
}

// writeTable prints rows in columns two spaces apart: the columns before
// rightFrom left-aligned, the rest (numbers) right-aligned. No trailing
// spaces.
func writeTable(w io.Writer, rows [][]string, rightFrom int) {
	var width []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(cell))
		}
	}
	var line []byte
	for _, row := range rows {
		line = line[:0]
		for i, cell := range row {
			pad := width[i] - utf8.RuneCountInString(cell)
			if i > 0 {
				line = append(line, "  "...)
			}
			if i >= rightFrom {
				line = append(line, bytes.Repeat([]byte(" "), pad)...)
				line = append(line, cell...)
			} else {
				line = append(line, cell...)
				if i < len(row)-1 {
					line = append(line, bytes.Repeat([]byte(" "), pad)...)
				}
			}
		}
		line = append(line, '\n')
		w.Write(line)
	}
}

type fileJSON struct {
	OldPath  string `json:"old_path"`
	NewPath  string `json:"new_path"`
	Path     string `json:"path"`
	Status   string `json:"status"`
	Binary   bool   `json:"binary"`
	Category string `json:"category"`
	Language string `json:"language"`
	Inserted int    `json:"inserted"`
	Deleted  int    `json:"deleted"`
	OldLines []int  `json:"old_lines"`
	NewLines []int  `json:"new_lines"`
}

func newFileJSON(f *diff.File) fileJSON {
	j := fileJSON{
		OldPath: f.OldPath, NewPath: f.NewPath, Path: f.Path(),
		Status: string(f.Status), Binary: f.Binary,
		Category: string(f.Category), Language: f.Language,
		Inserted: f.Inserted, Deleted: f.Deleted,
		OldLines: f.OldLines, NewLines: f.NewLines,
	}
	// [] rather than null: the schema does not change with the data.
	if j.OldLines == nil {
		j.OldLines = []int{}
	}
	if j.NewLines == nil {
		j.NewLines = []int{}
	}
	return j
}

func writeFilesTable(w io.Writer, files []diff.File) error {
	rows := [][]string{{"path", "category", "status", "binary", "inserted", "deleted"}}
	for i := range files {
		f := &files[i]
		path := displayPath(f.Path())
		if f.Status == diff.Renamed {
			path = displayPath(f.OldPath) + " -> " + displayPath(f.NewPath)
		}
		bin := "no"
		if f.Binary {
			bin = "yes"
		}
		rows = append(rows, []string{path, string(f.Category), string(f.Status), bin, strconv.Itoa(f.Inserted), strconv.Itoa(f.Deleted)})
	}
	writeTable(w, rows, 4)
	return nil
}

// displayPath quotes a path that would break a table row or a terminal:
// control characters (tab, newline, escape) or bytes that are not UTF-8.
func displayPath(p string) string {
	if !utf8.ValidString(p) {
		return strconv.Quote(p)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return strconv.Quote(p)
		}
	}
	return p
}
