package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/rules"
)

// ValidateOptions are the parsed flags of `lolbench validate`.
type ValidateOptions struct {
	IO      *IOStreams
	Sources rules.Sources
	Rules   []int
	JSON    bool
	// Candidate, when set, names the candidate of Workspace whose
	// candidate.json gives the sources.
	Candidate string
	Workspace string
	// Fix rewrites the computed cells of the mapping before validating.
	Fix bool
}

// NewCmdValidate checks a mapping artifact against the 28 static rules.
func NewCmdValidate(f *Factory, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{IO: f.IO}
	var ruleList, format string
	cmd := &cobra.Command{
		Use:   "validate (--ep EP --repo DIR --base REV --head REV [--mapping] FILE | CANDIDATE)",
		Short: "Check a mapping artifact against the 28 static rules",
		Long: `Validate checks a candidate's mapping artifact against the 28 static rules
(lolbench rules list): the EP's sections, the PR's change between two
revisions and the tree-sitter scopes of the changed lines are read once and
shared by every rule. With CANDIDATE, the EP, repository, revisions and
mapping come from the candidate's candidate.json in --workspace. A
mapping file may be given as the argument instead of --mapping: an
argument that names an existing file, or ends in .md, is one.

Judgement cells that still hold the marker TODO (a scaffold's, see 'lolbench
mapping scaffold') are reported as unfilled, each with its line; rule
violations at lines holding the marker are their consequence and are held
back until the cells are filled.

--fix first rewrites every computed cell from the mapping's tables: the
numbering, Mapped, each file's role and section lists, the blocks' Files
lines, the rows of the two Unmapped tables (a new row's reason is TODO) and
Global Statistics (docs/mapping-format.md, "Computed cells"). It prints each
change as FILE:LINE: cell: old -> new, writes the file atomically, leaves
judgement cells, comments and every other line alone, then validates.

Exit status: 0 when no rule is violated and no cell is unfilled, 1 when any
is, 2 for bad input (unreadable files, unknown revisions, an artifact that
cannot be parsed).`,
		Example: `  lolbench validate --ep ep.md --repo repo --base base --head head --mapping mapping.md
  lolbench validate mapping.md --ep ep.md --repo repo --base base --head head
  lolbench validate ... --rules 1,5,27 --json | jq '.violations'
  lolbench validate tinykv-tkep-0002 --workspace work --fix`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && !cmd.Flags().Changed("mapping") && isMappingFile(args[0]) {
				// "validate mapping.md --ep ..." names the mapping, not a
				// candidate (issue 36: it was read as a candidate id).
				opts.Sources.Mapping, args = args[0], nil
			}
			if len(args) == 1 {
				opts.Candidate = args[0]
				for _, name := range []string{"ep", "format", "repo", "base", "head", "mapping"} {
					if cmd.Flags().Changed(name) {
						return fmt.Errorf("validate: --%s cannot be given with a candidate, whose candidate.json names it", name)
					}
				}
			} else if cmd.Flags().Changed("workspace") {
				return fmt.Errorf("validate: --workspace needs a CANDIDATE (see 'lolbench validate --help')")
			}
			for _, f := range []struct{ flag, v string }{{"--ep", opts.Sources.EP}, {"--repo", opts.Sources.Repo}, {"--base", opts.Sources.Base}, {"--head", opts.Sources.Head}, {"--mapping", opts.Sources.Mapping}} {
				if f.v == "" && opts.Candidate == "" {
					return fmt.Errorf("validate: %s is required without a CANDIDATE (see 'lolbench validate --help')", f.flag)
				}
			}
			if format != "" {
				fm, err := ep.ParseFormat(format)
				if err != nil {
					return err
				}
				opts.Sources.EPFormat = fm
			}
			ids, err := parseRuleList(ruleList)
			if err != nil {
				return err
			}
			opts.Rules = ids
			if runF != nil {
				return runF(opts)
			}
			return validateRun(cmd, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Sources.EP, "ep", "", "EP document (.md, .markdown, .rst, .txt)")
	fl.StringVar(&format, "format", "", "EP format, md or rst (default: from the extension)")
	fl.StringVar(&opts.Sources.Repo, "repo", "", "local git repository of the project")
	fl.StringVar(&opts.Sources.Base, "base", "", "the PR's base revision")
	fl.StringVar(&opts.Sources.Head, "head", "", "the PR's head revision")
	fl.StringVar(&opts.Sources.Mapping, "mapping", "", "mapping artifact (mapping.md)")
	fl.StringVar(&ruleList, "rules", "", "check only these rules, e.g. 1,5,27")
	fl.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	fl.BoolVar(&opts.Fix, "fix", false, "rewrite the mapping's computed cells first, and print the changes")
	fl.StringVar(&opts.Workspace, "workspace", "work", "the workspace folder, with a CANDIDATE")
	return cmd
}

// isMappingFile reports whether validate's argument names a mapping file
// rather than a candidate: a candidate id has no "/" and no ".md", and
// is never an existing file's name here.
func isMappingFile(arg string) bool {
	if strings.HasSuffix(strings.ToLower(arg), ".md") || strings.ContainsAny(arg, `/\`) {
		return true
	}
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

func parseRuleList(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ids []int
	for _, part := range strings.Split(s, ",") {
		id, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(part)), "R"))
		if err != nil || rules.Lookup(id) == nil {
			return nil, fmt.Errorf("--rules: no rule %q: rules are numbered 1 to %d", strings.TrimSpace(part), len(rules.All))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func validateRun(cmd *cobra.Command, opts *ValidateOptions) error {
	selected, err := rules.Select(opts.Rules)
	if err != nil {
		return err
	}
	if opts.Candidate != "" {
		if err := opts.fromCandidate(); err != nil {
			return err
		}
	}
	var fixed *[]mapping.Change
	if opts.Fix {
		changes, err := fixMapping(cmd.Context(), opts.Sources)
		if err != nil {
			return err
		}
		fixed = &changes
	}
	in, err := rules.Load(cmd.Context(), opts.Sources)
	if err != nil {
		return err
	}
	rep, err := rules.Run(in, selected)
	if err != nil {
		return err
	}
	rep.HoldBack(in.Mapping)
	res := &validateResult{Report: rep, Fixed: fixed}
	if opts.JSON {
		if err := printJSON(opts.IO.Out, res); err != nil {
			return err
		}
	} else {
		printReport(opts.IO.Out, opts.Sources.Mapping, res)
	}
	if !res.Passed() {
		return silentFindings
	}
	return nil
}

// printReport groups violations by rule, each with its artifact line,
// after the changes of --fix and the unfilled cells.
func printReport(w io.Writer, mappingPath string, res *validateResult) {
	rep := res.Report
	if res.Fixed != nil {
		printFixed(w, mappingPath, *res.Fixed)
	}
	printUnfilled(w, mappingPath, res)
	byRule := map[int][]rules.Violation{}
	for _, v := range rep.Violations {
		byRule[v.Rule] = append(byRule[v.Rule], v)
	}
	for _, res := range rep.Rules {
		vs := byRule[res.ID]
		if len(vs) == 0 {
			continue
		}
		r := rules.Lookup(res.ID)
		fmt.Fprintf(w, "R%02d %s: %d violation%s\n", r.ID, r.Name, len(vs), plural(len(vs)))
		for _, v := range vs {
			loc := mappingPath
			if v.Line > 0 {
				loc = fmt.Sprintf("%s:%d", mappingPath, v.Line)
			}
			fmt.Fprintf(w, "  %s: %s: %s\n", loc, v.Where, v.Message)
		}
	}
	for _, fw := range rep.Forwarded {
		fmt.Fprintf(w, "R%02d forwarded to %s: %s\n", fw.Rule, fw.To, fw.Reason)
	}
	passed := 0
	for _, res := range rep.Rules {
		if res.Passed {
			passed++
		}
	}
	fmt.Fprintf(w, "%d of %d rules passed, %d violation%s", passed, len(rep.Rules), len(rep.Violations), plural(len(rep.Violations)))
	if n := len(res.Unfilled); n > 0 {
		fmt.Fprintf(w, ", %d unfilled cell%s", n, plural(n))
	}
	if res.HeldBack > 0 {
		fmt.Fprintf(w, " (%d violation%s at unfilled lines held back)", res.HeldBack, plural(res.HeldBack))
	}
	fmt.Fprintln(w)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
