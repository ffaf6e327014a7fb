package trajectory

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// What a tool call does is read from its name and arguments. The tables
// below cover the tools of the scaffolds Harbor converts to ATIF
// (Terminus-2, OpenHands, mini-swe-agent, Claude Code, Codex, Gemini CLI:
// shells, str_replace editors, read/write/edit tools, apply_patch, grep and
// glob) by their usual names; a tool they do not know is ActOther and
// still counts as a turn. docs/evaluation.md lists the rules.

// call is a classified tool call.
type call struct {
	action  string
	command string
	read    []string
	written []string
	ops     map[string]string // written path -> edit op
	// ranges are the lines shown of read files (none: shown whole);
	// whole are the files some part of the call showed whole.
	ranges []Range
	whole  map[string]bool
	// revert is set when the call undoes earlier edits.
	revert bool
}

var (
	readTools   = []string{"read", "read_file", "readfile", "view", "view_file", "open", "open_file", "cat", "read_many_files", "notebookread"}
	createTools = []string{"write", "write_file", "create", "create_file", "writefile", "new_file"}
	editTools   = []string{"edit", "multiedit", "multi_edit", "edit_file", "replace", "str_replace", "apply_edit", "search_replace", "replace_in_file", "notebookedit", "insert", "edit_block"}
	searchTools = []string{"grep", "glob", "search", "find", "ls", "list", "list_dir", "list_directory", "list_files", "search_files", "find_file", "find_files", "search_dir", "search_file", "codebase_search", "rg", "file_search", "read_folder", "todo_read"}
	shellWords  = []string{"bash", "shell", "sh", "zsh", "terminal", "exec", "execute", "run", "command", "cmd", "cli", "powershell"}
	pathKeys    = []string{"path", "file_path", "filepath", "filename", "file", "target_file", "notebook_path", "absolute_path"}
	// The verbs of str_replace_editor-style tools (OpenHands, SWE-agent).
	editorVerbs = map[string]string{"view": ActRead, "create": OpCreate, "str_replace": OpModify, "insert": OpModify, "undo_edit": OpModify, "write": OpCreate, "append": OpModify}
)

// classifyCall reads what a tool call does.
func classifyCall(name string, args map[string]any) call {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "functions.")
	paths := pathArgs(args)
	c := call{ops: map[string]string{}}
	if verb, ok := args["command"].(string); ok {
		if v, isVerb := editorVerbs[verb]; isVerb && len(paths) > 0 {
			if v == ActRead {
				c.action, c.read = ActRead, paths
				c.rangeArgs(args)
			} else {
				c.action = ActWrite
				c.write(paths, v)
				c.revert = verb == "undo_edit"
			}
			return c
		}
	}
	switch {
	case slices.Contains(readTools, n):
		c.action, c.read = ActRead, paths
		c.rangeArgs(args)
	case slices.Contains(createTools, n):
		c.action = ActWrite
		c.write(paths, OpCreate)
	case slices.Contains(editTools, n):
		c.action = ActWrite
		c.write(paths, OpModify)
	case n == "apply_patch" || n == "patch":
		c.action = ActWrite
		for _, k := range []string{"input", "patch", "diff", "content"} {
			if s, ok := args[k].(string); ok {
				for _, po := range patchPaths(s) {
					c.write([]string{po[0]}, po[1])
				}
			}
		}
	case slices.Contains(searchTools, n):
		c.action = ActSearch
	default:
		cmd := commandArg(args)
		shell := isShell(n)
		if s, ok := args["input"].(string); ok && cmd == "" && shell {
			cmd = strings.TrimSpace(s)
		}
		if cmd == "" && !shell {
			c.action = ActOther
			return c
		}
		cc := classifyCommand(cmd)
		cc.command = cmd
		return cc
	}
	slices.Sort(c.read)
	c.read = slices.Compact(c.read)
	return c
}

// rangeArgs reads the line range a read tool's arguments ask for:
// view_range [from, to] (to -1: the end), offset and limit, or
// start_line/end_line. It applies to a call that reads one file.
func (c *call) rangeArgs(args map[string]any) {
	if len(c.read) != 1 {
		return
	}
	num := func(keys ...string) int {
		for _, k := range keys {
			if f, ok := args[k].(float64); ok && f == float64(int(f)) {
				return int(f)
			}
		}
		return 0
	}
	from, to := 0, 0
	if vr, ok := args["view_range"].([]any); ok && len(vr) == 2 {
		a, ok1 := vr[0].(float64)
		b, ok2 := vr[1].(float64)
		if ok1 && ok2 {
			from, to = int(a), int(b)
			if to < 0 {
				to = 0
			}
		}
	} else if off, lim := num("offset"), num("limit"); off > 0 || lim > 0 {
		from = max(off, 1)
		if lim > 0 {
			to = from + lim - 1
		}
	} else {
		from, to = num("start_line", "line_start"), num("end_line", "line_end")
	}
	if from >= 1 && (to == 0 || to >= from) && (from > 1 || to > 0) {
		c.ranges = append(c.ranges, Range{Path: c.read[0], From: from, To: to})
	}
}

func (c *call) write(paths []string, op string) {
	for _, p := range paths {
		if _, seen := c.ops[p]; !seen {
			c.written = append(c.written, p)
		}
		c.ops[p] = op
	}
}

// isShell reports whether a tool's name says it runs commands: it contains
// "bash", "shell" or "terminal", or one of its words (split at _ - . and
// space) is a shell word ("run_command", "execute", "cmd").
func isShell(n string) bool {
	if strings.Contains(n, "bash") || strings.Contains(n, "shell") || strings.Contains(n, "terminal") {
		return true
	}
	for _, w := range strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }) {
		if slices.Contains(shellWords, w) {
			return true
		}
	}
	return false
}

// pathArgs returns the file paths among a tool call's arguments,
// normalized.
func pathArgs(args map[string]any) []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok && s != "" {
			if p := NormPath(s); p != "" {
				out = append(out, p)
			}
		}
	}
	for _, k := range pathKeys {
		add(args[k])
	}
	for _, k := range []string{"paths", "file_paths", "files"} {
		if l, ok := args[k].([]any); ok {
			for _, v := range l {
				add(v)
			}
		}
	}
	return out
}

// commandArg is a shell tool's command: "command", "cmd", "script" or
// "keystrokes", a string or an argv list (["bash", "-lc", "..."], whose
// last element is the script).
func commandArg(args map[string]any) string {
	for _, k := range []string{"command", "cmd", "script", "keystrokes", "code"} {
		switch v := args[k].(type) {
		case string:
			return strings.TrimSpace(v)
		case []any:
			var parts []string
			for _, x := range v {
				if s, ok := x.(string); ok {
					parts = append(parts, s)
				}
			}
			if len(parts) >= 3 && (parts[1] == "-c" || parts[1] == "-lc") {
				return strings.TrimSpace(parts[len(parts)-1])
			}
			return strings.TrimSpace(strings.Join(parts, " "))
		}
	}
	return ""
}

// patchPaths reads the files an apply_patch envelope ("*** Update File:
// p") or a unified diff ("+++ b/p") changes, in order, as (path, op).
func patchPaths(s string) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	add := func(p, op string) {
		if q := NormPath(p); q != "" && !seen[q] {
			seen[q] = true
			out = append(out, [2]string{q, op})
		}
	}
	prefixes := [][2]string{{"*** Update File: ", OpModify}, {"*** Add File: ", OpCreate}, {"*** Delete File: ", OpDelete}, {"*** Move to: ", OpCreate}}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		for _, pr := range prefixes {
			if p, ok := strings.CutPrefix(line, pr[0]); ok {
				add(p, pr[1])
			}
		}
		if p, ok := strings.CutPrefix(line, "+++ "); ok && p != "/dev/null" {
			add(strings.TrimPrefix(p, "b/"), OpModify)
		}
	}
	return out
}

// Roots are the folders a task's repository is mounted at in the
// container; paths below them are made repository-relative.
var Roots = []string{"/testbed", "/app", "/workspace", "/repo", "/src"}

// NormPath makes a path from a tool call repository-relative: it strips a
// root (Roots) or a leading "./", and cleans it. A path outside the roots
// stays absolute (it cannot match a repository file); "" and "." become "".
func NormPath(p string) string {
	p = strings.TrimSpace(strings.Trim(p, `"'`))
	if p == "" || strings.ContainsRune(p, 0) || len(p) > 4096 {
		return ""
	}
	p = path.Clean(p)
	for _, r := range Roots {
		if p == r {
			return ""
		}
		if rest, ok := strings.CutPrefix(p, r+"/"); ok {
			return rest
		}
	}
	if p == "." || p == "/" {
		return ""
	}
	return p
}

var (
	// verifyCmd matches a command that runs tests, a build or a compile
	// check.
	verifyCmd = regexp.MustCompile(`^(?:(?:uv|poetry|pipenv|hatch|pdm|npx|bundle\s+exec)\s+(?:run\s+)?)?(?:` + strings.Join([]string{
		`pytest`, `py\.test`, `tox`, `nox`,
		`python[0-9.]*\s+(?:-[a-zA-Z]+\s+)*-m\s+(?:pytest|unittest|py_compile|compileall|nose2?)`,
		`python[0-9.]*\s+\S*test\S*\.py`,
		`go\s+(?:test|build|vet)`,
		`cargo\s+(?:test|build|check|nextest|clippy)`,
		`(?:npm|pnpm|yarn)\s+(?:run\s+)?(?:test|build|check|typecheck)`,
		`npx\s+(?:jest|vitest|mocha|tsc)`, `jest`, `vitest`, `mocha`, `tsc`,
		`mvn\b[^;&|]*\b(?:test|verify|compile|package)`,
		`(?:gradle|\./gradlew)\b[^;&|]*\b(?:test|build|check|compile\w*)`,
		`make(?:\s+(?:test|check|build|all))?`, `ctest`, `dotnet\s+(?:test|build)`,
		`rspec`, `phpunit`, `bazel\s+(?:test|build)`, `\S*run_?tests?\S*`, `(?:ba)?sh\s+\S*test\S*`,
	}, "|") + `)(?:$|[\s;&|)])`)
	readCmds   = []string{"cat", "less", "more", "nl", "bat", "view", "batcat"}
	searchCmds = []string{"grep", "egrep", "rg", "ag", "ack", "find", "ls", "tree", "fd", "locate", "wc", "file", "stat"}
	stmtSplit  = regexp.MustCompile(`&&|\|\||[;\n]`)
	redirect   = regexp.MustCompile(`(?:^|[^0-9&<>])>>?\s*([^\s;&|<>]+)`)
)

// classifyCommand reads what a shell command does: it runs tests or a
// build (ActTest), writes files (ActWrite: sed -i, redirections, tee, rm,
// touch, mv, cp, git apply, patch), reads them (ActRead: cat, head, tail,
// nl, sed -n), searches (ActSearch: grep, find, ls) or runs something else
// (ActRun). The first that applies, in that order, names the action; files
// are gathered from every part of a compound command.
func classifyCommand(cmd string) call {
	c := call{ops: map[string]string{}, whole: map[string]bool{}}
	test, write, read, search := false, false, false, false
	for _, m := range redirect.FindAllStringSubmatch(cmd, -1) {
		t := m[1]
		if strings.HasPrefix(t, "/dev/") || strings.HasPrefix(t, "&") {
			continue
		}
		if p := NormPath(t); p != "" {
			c.write([]string{p}, OpModify)
			write = true
		}
	}
	for _, stmt := range stmtSplit.Split(cmd, -1) {
		// piped are the files the previous part of a pipeline read: a
		// head, tail or sed -n reading its input shows only their lines.
		var piped []string
		for _, seg := range strings.Split(stmt, "|") {
			f := shellFields(seg)
			// Skip env assignments and sudo/timeout wrappers.
			for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "env" || f[0] == "timeout" || f[0] == "time") {
				f = f[1:]
				if len(f) > 0 && isNumber(f[0]) {
					f = f[1:]
				}
			}
			if len(f) == 0 {
				piped = nil
				continue
			}
			bin := path.Base(f[0])
			args := operands(f[1:])
			var readNow []string
			switch {
			case verifyCmd.MatchString(bin + " " + strings.Join(f[1:], " ")):
				test = true
			case bin == "sed" && hasFlag(f[1:], "-i"):
				if len(args) > 0 {
					c.write(norm(args[len(args)-1:]), OpModify)
				}
				write = true
			case bin == "sed":
				files := []string{}
				if len(args) > 1 {
					files = norm(args[len(args)-1:])
				}
				readNow = c.showLines(files, piped, sedRange(args))
				read = true
			case bin == "head" || bin == "tail":
				readNow = c.showLines(norm(countOperands(f[1:])), piped, headTailRange(bin, f[1:]))
				read = true
			case bin == "tee":
				c.write(norm(args), OpModify)
				write = true
			case bin == "rm":
				c.write(norm(args), OpDelete)
				write = true
			case bin == "touch" || bin == "mkdir":
				if bin == "touch" {
					c.write(norm(args), OpCreate)
				}
				write = true
			case (bin == "mv" || bin == "cp") && len(args) == 2:
				if bin == "mv" {
					c.write(norm(args[:1]), OpDelete)
				}
				c.write(norm(args[1:]), OpCreate)
				write = true
			case bin == "git" && len(f) > 1 && (f[1] == "checkout" || f[1] == "restore"):
				// Restoring files undoes edits; a checkout of a branch is
				// a write of files not known here.
				c.write(restoredPaths(f[2:]), OpModify)
				c.revert, write = true, true
			case bin == "git" && len(f) > 1 && f[1] == "stash":
				c.revert, write = true, true
			case bin == "patch" || (bin == "git" && len(f) > 1 && f[1] == "apply"):
				c.revert = c.revert || hasFlag(f[1:], "-R") || slices.Contains(f[1:], "--reverse")
				write = true
			case slices.Contains(readCmds, bin):
				readNow = norm(args)
				for _, p := range readNow {
					c.whole[p] = true
				}
				c.read = append(c.read, readNow...)
				read = true
			case slices.Contains(searchCmds, bin) || (bin == "git" && len(f) > 1 && slices.Contains([]string{"grep", "ls-files", "log", "show", "diff", "status", "blame"}, f[1])):
				search = true
			}
			piped = readNow
		}
	}
	switch {
	case test:
		c.action = ActTest
	case write:
		c.action = ActWrite
	case read:
		c.action = ActRead
	case search:
		c.action = ActSearch
	default:
		c.action = ActRun
	}
	slices.Sort(c.read)
	c.read = slices.Compact(c.read)
	// A file some part showed whole was seen whole.
	c.ranges = slices.DeleteFunc(c.ranges, func(r Range) bool { return c.whole[r.Path] })
	return c
}

// showLines records a head, tail or sed -n read: of its own files, or
// else of the files the previous part of the pipeline read (which then
// showed only these lines); r is nil when the lines are not known. It
// returns the files read.
func (c *call) showLines(files, piped []string, r *Range) []string {
	if len(files) == 0 {
		if r != nil {
			for _, p := range piped {
				delete(c.whole, p)
			}
		}
		files = piped
	} else {
		c.read = append(c.read, files...)
	}
	for _, p := range files {
		if r == nil {
			c.whole[p] = true
		} else {
			c.ranges = append(c.ranges, Range{Path: p, From: r.From, To: r.To})
		}
	}
	return files
}

var sedPrint = regexp.MustCompile(`^(\d+)(?:,(\d+|\$))?p$`)

// sedRange is the lines `sed -n 'A,Bp'` prints, or nil.
func sedRange(args []string) *Range {
	if len(args) == 0 {
		return nil
	}
	m := sedPrint.FindStringSubmatch(args[0])
	if m == nil {
		return nil
	}
	from, _ := strconv.Atoi(m[1])
	to := from
	switch m[2] {
	case "$":
		to = 0
	case "":
	default:
		to, _ = strconv.Atoi(m[2])
	}
	if from < 1 || (to != 0 && to < from) {
		return nil
	}
	return &Range{From: from, To: to}
}

// headTailRange is the lines head or tail shows: -n N, -N or 10; tail
// -n +N shows from line N to the end.
func headTailRange(bin string, f []string) *Range {
	n, fromStart := 10, false
	count := func(w string) bool {
		fromStart = strings.HasPrefix(w, "+")
		k, err := strconv.Atoi(strings.TrimPrefix(w, "+"))
		n = k
		return err == nil
	}
	for i, w := range f {
		switch {
		case w == "-n" && i+1 < len(f):
			if !count(f[i+1]) {
				return nil
			}
		case strings.HasPrefix(w, "-n"):
			if !count(w[2:]) {
				return nil
			}
		case len(w) > 1 && w[0] == '-' && isDigits(w[1:]):
			n, _ = strconv.Atoi(w[1:])
		}
	}
	switch {
	case n < 1:
		return nil
	case bin == "tail" && fromStart:
		return &Range{From: n}
	case bin == "tail":
		return &Range{From: -n}
	}
	return &Range{From: 1, To: n}
}

// countOperands are head's or tail's file operands: the operands but the
// count after -n or -c.
func countOperands(f []string) []string {
	var out []string
	for i := 0; i < len(f); i++ {
		switch w := f[i]; {
		case w == "-n" || w == "-c":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			out = append(out, w)
		}
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// restoredPaths are the files `git checkout`/`git restore` name: the words
// after "--", else the operands that look like paths (a branch name has
// no "/" nor ".").
func restoredPaths(f []string) []string {
	if i := slices.Index(f, "--"); i >= 0 {
		return norm(f[i+1:])
	}
	var out []string
	for _, w := range operands(f) {
		if strings.ContainsAny(w, "/.") && w != "." {
			out = append(out, w)
		}
	}
	return norm(out)
}

// shellFields splits a command segment into words, dropping quotes (a
// simplification: no expansion, no escapes).
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	quote := rune(0)
	in := false
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// operands are the words that are not options nor redirections.
func operands(f []string) []string {
	var out []string
	skip := false
	for _, w := range f {
		switch {
		case skip:
			skip = false
		case w == ">" || w == ">>" || w == "<" || w == "2>" || w == "2>&1":
			skip = w != "2>&1"
		case strings.HasPrefix(w, "-") || strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "2>"):
		default:
			out = append(out, w)
		}
	}
	return out
}

func hasFlag(f []string, flag string) bool {
	for _, w := range f {
		if w == flag || (strings.HasPrefix(w, flag) && !strings.HasPrefix(w, "--")) {
			return true
		}
	}
	return false
}

func norm(ps []string) []string {
	var out []string
	for _, p := range ps {
		if q := NormPath(p); q != "" && !strings.ContainsAny(q, "*?[$`") {
			out = append(out, q)
		}
	}
	return out
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimRight(s, "smh"), 64)
	return err == nil
}

// What outputs say. The patterns are deliberately plain; the docs list
// them.
var (
	exitCodeRe   = regexp.MustCompile(`(?i)(?:exit(?:ed)?[ _](?:code|status)|return ?code)["']?\s*[:=]?\s*(-?\d+)|<returncode>\s*(-?\d+)\s*</returncode>|"returncode"\s*:\s*(-?\d+)`)
	missingRe    = regexp.MustCompile(`(?i)no such file or directory|does not exist|doesn't exist|file not found|path not found|cannot find the (?:file|path)|FileNotFoundError|cannot access|not a valid path`)
	invalidRe    = regexp.MustCompile(`(?i)unknown tool|no such tool|tool \S+ (?:is )?not (?:found|available)|invalid (?:tool|function) call|invalid arguments?\b|missing (?:a )?required (?:argument|parameter)|(?:could not|failed to|unable to) parse (?:the )?(?:tool|function|action|arguments?)|malformed (?:tool|function|action)`)
	editFailRe   = regexp.MustCompile(`(?i)no replacement was performed|did not appear verbatim|old_str .*(?:not found|is not unique)|string to replace (?:was )?not found|no match(?:es)? found for|multiple occurrences|patch does not apply|could not apply|failed to (?:edit|apply|write)|permission denied`)
	errorLineRe  = regexp.MustCompile(`(?i)\b(?:error|exception|traceback|fatal|panic|fail(?:ed|ure)?|not found|no such file|denied)\b`)
	errorMarkRe  = regexp.MustCompile(`(?m)^(?:Error|ERROR|error|fatal|Fatal|FATAL)\b|Traceback \(most recent call last\)|command not found|\bpanic:`)
	buildErrRe   = regexp.MustCompile(`SyntaxError|IndentationError|TabError|ImportError|ModuleNotFoundError|NameError: name|\[build failed\]|cannot find package|\bundefined: |syntax error|expected '[^']+', found|error\[E\d+\]|could not compile|cannot find symbol|COMPILATION ERROR|[Cc]ompilation failed|error TS\d+|imported and not used|declared and not used|no required module provides`)
	testFailRe   = regexp.MustCompile(`(?m)^--- FAIL|^FAIL\b|\bFAILED\b|\b[1-9]\d* (?:failed|errors?|failures?)\b|Tests? failed|BUILD FAILURE|test result: FAILED|Traceback \(most recent call last\)`)
	testPassRe   = regexp.MustCompile(`(?m)\b\d+ passed\b|^ok\s|^PASS$|^OK(?: \(|$)|test result: ok|BUILD SUCCESS|Tests:\s+\d+ passed`)
	digitsRe     = regexp.MustCompile(`\d+`)
	claimDoneRe  = regexp.MustCompile(`(?i)\b(?:i have|i've|has been|have been|is now|are now|successfully|now)\s+(?:\w+\s+){0,3}(?:implemented|completed|added|fixed|done|finished|resolved)\b|\b(?:implementation|task|work|change|feature)s? (?:is|are) (?:now )?(?:complete|done|finished)\b|\ball (?:the )?tests (?:now )?pass|\bsuccessfully\b`)
	whitespaceRe = regexp.MustCompile(`\s+`)
)

// exitCodeOf returns the last exit code an output reports, or nil.
func exitCodeOf(out string) *int {
	ms := exitCodeRe.FindAllStringSubmatch(out, -1)
	if len(ms) == 0 {
		return nil
	}
	m := ms[len(ms)-1]
	for _, g := range m[1:] {
		if g != "" {
			if n, err := strconv.Atoi(g); err == nil {
				return &n
			}
		}
	}
	return nil
}

// errorLine is the first line of out that names an error, with numbers
// replaced by N and white space folded.
func errorLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if errorLineRe.MatchString(line) {
			l := digitsRe.ReplaceAllString(strings.TrimSpace(line), "N")
			l = whitespaceRe.ReplaceAllString(l, " ")
			if len(l) > 200 {
				l = l[:200]
			}
			return validUTF8(l)
		}
	}
	return ""
}

// ClaimsDone reports whether an agent's message says the work is done.
// Most messages have none of the words a claim needs, and the test on
// them is cheaper than the pattern (analyze asks it of many messages).
func ClaimsDone(text string) bool {
	return HasAnyWord(text, claimWords) && claimDoneRe.MatchString(text)
}

// claimWords are words every claim claimDoneRe matches holds one of.
var claimWords = []string{"implemented", "complete", "added", "fixed", "done", "finished", "resolved", "pass", "successfully"}

// HasAnyWord reports whether text holds one of the lower-case words,
// ignoring case.
func HasAnyWord(text string, words []string) bool {
	lower := strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}
