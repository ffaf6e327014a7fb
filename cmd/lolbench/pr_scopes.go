package main

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/syntax"
)

// PRScopesOptions are the flags of `lolbench pr scopes`.
type PRScopesOptions struct {
	PROptions
	Workers      int
	MaxFileSize  int64
	ParseTimeout time.Duration
}

func newCmdPRScopes(f *Factory) *cobra.Command {
	opts := &PRScopesOptions{}
	cmd := &cobra.Command{
		Use:   "scopes",
		Short: "Resolve changed lines to the classes and functions they belong to",
		Long: `Resolve every changed line of every changed source file to its (class,
function) scope with tree-sitter: deleted lines on the tree before the change,
added lines on the tree after it (rule 27). Python, Go, Java, Rust, C, C++
(headers too), TypeScript, JavaScript and C# are supported; other source files,
binary changes, files over --max-file-size and parses over --parse-timeout are
skipped and listed on stderr. Tests, documentation and other non-source files
are not listed.

Class is the innermost type-like container (class, struct, interface, enum,
record, trait, impl, Go receiver type), dotted from the outside in
(Outer.Inner); function is the innermost named function, method or
constructor (outer.inner when nested). Lines in a class body outside every
function (fields, enum constants, class attributes, and the comments and
blank lines between them) are the class's own scope: the class and an empty
function, shown as Class (issue 12 §1; rule 27 asks for a Class | - row, or
one Class | member row per changed member). A comment or blank line before
a method is file-level. Lines outside every function and class are
file-level: empty class and function. A scope is new when its class and
function exist only after the change. The package documentation of
pipeline/syntax gives the naming rules of each language.

The table has one line per scope: file, Class.function (Class for a class
body, "-" for file level), the number of deleted and added lines, "(new)",
and for a class body the members its lines change (a comment or blank line
counts for the member after it).

--json prints an array sorted by file, class and function:

  [{"file":"svc/api.py","class":"Api","function":"post","pre_lines":[],
    "post_lines":[4,5],"new":true,"members":[]},
   {"file":"svc/api.py","class":"Api","function":"","pre_lines":[],
    "post_lines":[2],"new":true,"members":[{"name":"timeout",
    "pre_lines":[],"post_lines":[2]}]}]`,
		Example: `  lolbench pr scopes --repo ./work/repos/cpython --base 3f1c2a9 --head 8e0d7b1

  # as JSON, with a larger size limit for generated parsers
  lolbench pr scopes --base main~1 --head main --json --max-file-size 8388608`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Workers < 0 {
				return fmt.Errorf("--workers %d: want 0 (one per CPU) or more", opts.Workers)
			}
			c, err := opts.change(cmd)
			if err != nil {
				return err
			}
			res, err := syntax.Resolve(cmd.Context(), opts.Repo, c, syntax.Options{
				Workers:      opts.Workers,
				MaxFileSize:  opts.MaxFileSize,
				ParseTimeout: opts.ParseTimeout,
			})
			if err != nil {
				return err
			}
			for _, s := range res.Skipped {
				fmt.Fprintf(f.IO.ErrOut, "skipped %s: %s (%s)\n", displayPath(s.File), s.Reason, s.Detail)
			}
			if opts.JSON {
				return writePRJSON(f.IO.Out, scopesJSON(res.Scopes))
			}
			writeScopesTable(f.IO.Out, res.Scopes)
			return nil
		},
	}
	opts.addFlags(cmd)
	cmd.Flags().IntVar(&opts.Workers, "workers", 0, "files parsed at once (0: one per CPU)")
	cmd.Flags().Int64Var(&opts.MaxFileSize, "max-file-size", syntax.DefaultMaxFileSize, "skip files larger than this many bytes on either side (negative: no limit)")
	cmd.Flags().DurationVar(&opts.ParseTimeout, "parse-timeout", syntax.DefaultParseTimeout, "skip files whose parse takes longer (negative: no limit)")
	return cmd
}

// scopeJSON is the stable schema of `pr scopes --json`.
type scopeJSON struct {
	File      string `json:"file"`
	Class     string `json:"class"`
	Function  string `json:"function"`
	PreLines  []int  `json:"pre_lines"`
	PostLines []int  `json:"post_lines"`
	New       bool   `json:"new"`
	// Members are a class body's changed members (syntax.Scope.Members).
	Members []syntax.MemberLines `json:"members"`
}

func scopesJSON(scopes []syntax.Scope) []scopeJSON {
	out := make([]scopeJSON, 0, len(scopes))
	for _, s := range scopes {
		j := scopeJSON{File: s.File, Class: s.Class, Function: s.Function, PreLines: s.PreLines, PostLines: s.PostLines, New: s.New, Members: s.Members}
		// [] rather than null: the schema does not change with the data.
		if j.PreLines == nil {
			j.PreLines = []int{}
		}
		if j.PostLines == nil {
			j.PostLines = []int{}
		}
		if j.Members == nil {
			j.Members = []syntax.MemberLines{}
		}
		out = append(out, j)
	}
	return out
}

// writeScopesTable prints "file  Class.function  -3 +5  (new)" per scope,
// the first two columns padded, and a class body's changed members
// ("members: license_expression, license_files").
func writeScopesTable(w io.Writer, scopes []syntax.Scope) {
	type row struct{ file, name, counts string }
	rows := make([]row, len(scopes))
	var wFile, wName, wCounts int
	for i, s := range scopes {
		name := s.Function
		if s.Class != "" {
			name = strings.TrimSuffix(s.Class+"."+s.Function, ".")
		}
		if name == "" {
			name = "-"
		}
		rows[i] = row{displayPath(s.File), displayPath(name), fmt.Sprintf("-%d +%d", len(s.PreLines), len(s.PostLines))}
		wFile = max(wFile, utf8.RuneCountInString(rows[i].file))
		wName = max(wName, utf8.RuneCountInString(rows[i].name))
		wCounts = max(wCounts, len(rows[i].counts))
	}
	for i, r := range rows {
		line := scopePad(r.file, wFile) + "  " + scopePad(r.name, wName) + "  " + r.counts
		if scopes[i].New {
			line = scopePad(line, wFile+wName+wCounts+4) + "  (new)"
		}
		if ms := scopes[i].Members; len(ms) > 0 {
			names := make([]string, len(ms))
			for j, m := range ms {
				names[j] = displayPath(m.Name)
			}
			line = scopePad(line, wFile+wName+wCounts+4) + "  members: " + strings.Join(names, ", ")
		}
		fmt.Fprintln(w, line)
	}
}

// scopePad right-pads s with spaces to width runes.
func scopePad(s string, width int) string {
	if n := utf8.RuneCountInString(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}
