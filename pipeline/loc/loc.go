// Package loc counts source lines of code per language, in a directory
// tree or straight from the git objects of one revision.
//
// The collection stage keeps only software with at least 50k source LoC
// at the PR's base commit, and the benchmark reports a Repo Size
// statistic (paper, section 3.1 and table 1); both come from here.
//
// Lines are classified by scc's state machine (github.com/boyter/scc/v3,
// package processor), which handles block comments, nested comments where
// the language has them, strings holding comment markers and Python
// docstrings. Language names follow cloc's, so that our tables compare
// with cloc's row by row. See docs/architecture.md, "Counting rules".
package loc

import (
	"bytes"
	"cmp"
	"io"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/boyter/scc/v3/processor"

	"github.com/lolbench/lolbench/pipeline/lang"
)

// Counts are the line counts of one language, or of all of them.
type Counts struct {
	Files   int64 `json:"files"`
	Code    int64 `json:"code"`
	Comment int64 `json:"comment"`
	Blank   int64 `json:"blank"`
}

func (c *Counts) add(o Counts) {
	c.Files += o.Files
	c.Code += o.Code
	c.Comment += o.Comment
	c.Blank += o.Blank
}

// Skipped counts the files left out of a Result, by reason; each file
// under one reason. Symbolic links and other non-regular files are
// neither counted nor skipped: they are not files of the tree.
type Skipped struct {
	// Vendored files lie below a vendored directory (lang.Classify).
	Vendored int64 `json:"vendored"`
	// Generated files have a generated name (lang.Classify) or carry
	// one of scc's generated-file markers in their first 1000 bytes.
	Generated int64 `json:"generated"`
	// Unknown files are of no language we count: images, data without a
	// known extension, scripts without a known "#!" line.
	Unknown int64 `json:"unknown"`
	// Empty files have no bytes; cloc leaves them out too.
	Empty int64 `json:"empty"`
	// Large files exceed MaxFileSize.
	Large int64 `json:"large"`
	// Binary files hold a NUL byte in their first 10000 bytes.
	Binary int64 `json:"binary"`
	// Unreadable files (and directories) could not be read.
	Unreadable int64 `json:"unreadable"`
	// Problems names each large, binary or unreadable file and why,
	// sorted by path: they look like source but were not counted.
	Problems []Problem `json:"problems,omitempty"`
}

func (s *Skipped) add(o Skipped) {
	s.Vendored += o.Vendored
	s.Generated += o.Generated
	s.Unknown += o.Unknown
	s.Empty += o.Empty
	s.Large += o.Large
	s.Binary += o.Binary
	s.Unreadable += o.Unreadable
	s.Problems = append(s.Problems, o.Problems...)
}

// Problem is one file that looks like source but could not be counted.
type Problem struct {
	// Path is the file's path on disk, or "REV:path" for CountRev.
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Result is the outcome of one count.
type Result struct {
	// Languages maps cloc's language name to its counts.
	Languages map[string]*Counts `json:"languages"`
	Total     Counts             `json:"total"`
	Skipped   Skipped            `json:"skipped"`
}

func newResult() *Result {
	return &Result{Languages: map[string]*Counts{}}
}

func (r *Result) addFile(language string, c Counts) {
	l := r.Languages[language]
	if l == nil {
		l = &Counts{}
		r.Languages[language] = l
	}
	l.add(c)
	r.Total.add(c)
}

func (r *Result) merge(o *Result) {
	for name, c := range o.Languages {
		r.addFile(name, *c)
	}
	r.Skipped.add(o.Skipped)
}

func (r *Result) finish() {
	slices.SortFunc(r.Skipped.Problems, func(a, b Problem) int { return strings.Compare(a.Path, b.Path) })
}

// SourceCode returns the code lines of software languages only (see
// IsSoftware): the figure behind the collection filter "at least 50k
// source LoC" and the Repo Size statistic.
func (r *Result) SourceCode() int64 {
	var n int64
	for name, c := range r.Languages {
		if IsSoftware(name) {
			n += c.Code
		}
	}
	return n
}

// LanguageCounts is one row of a Result in table order.
type LanguageCounts struct {
	Language string
	Counts
}

// Sorted returns the languages by code lines, most first, then by name,
// the order of cloc's table.
func (r *Result) Sorted() []LanguageCounts {
	rows := make([]LanguageCounts, 0, len(r.Languages))
	for name, c := range r.Languages {
		rows = append(rows, LanguageCounts{Language: name, Counts: *c})
	}
	slices.SortFunc(rows, func(a, b LanguageCounts) int {
		if c := cmp.Compare(b.Code, a.Code); c != 0 {
			return c
		}
		return strings.Compare(a.Language, b.Language)
	})
	return rows
}

// Options tune a count.
type Options struct {
	// All counts vendored and generated files too; only .git is
	// skipped, so that figures compare with cloc's.
	All bool
	// Workers is the number of files counted at once; 0 means
	// GOMAXPROCS.
	Workers int
	// SoftwareOnly reads only files whose name allows a software language
	// (IsSoftware), or whose language only a "#!" line can tell: exactly
	// the files Result.SourceCode counts, which is all that criterion 1
	// asks. Other files are counted as Unknown, never read, so that a
	// clone lacking their blobs still gives the count (a snapshot of
	// python/cpython lacks Misc/svnmap.txt, a 2 MB text file).
	SoftwareOnly bool
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// MaxFileSize is the largest file counted, in bytes. Larger files are
// skipped as Large, as cloc does by default (--max-file-size=100).
const MaxFileSize = 100 << 20

// binaryWindow is how far into a file we look for a NUL byte. scc's own
// check looks this far, so a file that passes ours never stops scc early.
const binaryWindow = 10000

// generatedHead is how far into a file scc looks for generated markers.
const generatedHead = 1000

// generatedMarkers are scc's default --generated-markers, matched without
// regard to case. They catch Go's "Code generated ... DO NOT EDIT." line
// and the headers of most code generators.
var generatedMarkers = [][]byte{[]byte("do not edit"), []byte("<auto-generated />")}

// counter counts files one at a time. Each worker goroutine has its own,
// with its own partial Result and buffers, so workers share nothing but
// scc's read-only tables.
type counter struct {
	opt Options
	t   *tables
	res *Result
	buf []byte
	// fresh makes read return a new buffer each time, for content that
	// is handed to another goroutine.
	fresh bool
	lines []int64
	ready map[string]bool
}

func newCounter(opt Options) *counter {
	return &counter{opt: opt, t: getTables(), res: newResult(), ready: map[string]bool{}}
}

// opener opens one file's content and tells its size.
type opener func() (io.ReadCloser, int64, error)

// add counts one file. rel is its slash-separated path from the root of
// the tree; display names it in problems.
func (c *counter) add(rel, display string, open opener) {
	f, ok := c.admit(rel, display)
	if !ok {
		return
	}
	if f.content, ok = c.load(f, open); ok {
		c.addContent(f)
	}
}

// file is one file on its way through the counter.
type file struct {
	rel, display string
	// cands are the scc languages its name allows; needShebang says
	// that only a "#!" line can tell.
	cands       []string
	needShebang bool
	content     []byte
}

// admit applies the checks that need only the path, so that vendored,
// generated and unknown files are never read. It counts the reason of a
// file it turns away.
func (c *counter) admit(rel, display string) (file, bool) {
	sk := &c.res.Skipped
	if !c.opt.All {
		switch lang.Classify(rel) {
		case lang.Vendor:
			sk.Vendored++
			return file{}, false
		case lang.Generated:
			sk.Generated++
			return file{}, false
		}
	}
	cands, needShebang := c.t.candidates(path.Base(rel))
	if len(cands) == 0 && !needShebang || c.opt.SoftwareOnly && !needShebang && !anySoftware(cands) {
		sk.Unknown++
		return file{}, false
	}
	return file{rel: rel, display: display, cands: cands, needShebang: needShebang}, true
}

// anySoftware reports whether any of the scc languages cands counts
// towards SourceCode.
func anySoftware(cands []string) bool {
	for _, l := range cands {
		if IsSoftware(ClocName(l)) {
			return true
		}
	}
	return false
}

// load reads an admitted file, unless it is empty, too large or
// unreadable (counted as such).
func (c *counter) load(f file, open opener) ([]byte, bool) {
	sk := &c.res.Skipped
	rc, size, err := open()
	if err != nil {
		c.problem(&sk.Unreadable, f.display, err.Error())
		return nil, false
	}
	defer rc.Close()
	switch {
	case size == 0 && f.needShebang:
		sk.Unknown++
		return nil, false
	case size == 0:
		sk.Empty++
		return nil, false
	case size > MaxFileSize:
		c.problem(&sk.Large, f.display, "larger than 100 MiB")
		return nil, false
	}
	content, err := c.read(rc, size, f.needShebang)
	if err != nil {
		c.problem(&sk.Unreadable, f.display, err.Error())
		return nil, false
	}
	if content == nil {
		sk.Unknown++ // no "#!"
		return nil, false
	}
	return content, true
}

// addContent counts a loaded file, unless it is binary, generated or a
// script of no known interpreter.
func (c *counter) addContent(f file) {
	sk := &c.res.Skipped
	if f.needShebang {
		l := c.t.shebang(f.content)
		if l == "" {
			sk.Unknown++
			return
		}
		f.cands = []string{l}
	}
	if bytes.IndexByte(f.content[:min(len(f.content), binaryWindow)], 0) >= 0 {
		c.problem(&sk.Binary, f.display, "binary (NUL byte)")
		return
	}
	if !c.opt.All && isGenerated(f.content) {
		sk.Generated++
		return
	}
	name, counts := c.count(path.Base(f.rel), f.cands, f.content)
	c.res.addFile(ClocName(name), counts)
}

func (c *counter) problem(n *int64, display, reason string) {
	*n++
	c.res.Skipped.Problems = append(c.res.Skipped.Problems, Problem{Path: display, Reason: reason})
}

// read returns the content of a file of the given size, in a buffer that
// the next call reuses (unless c.fresh). For a file that only a "#!" line
// can identify it reads two bytes first and returns nil content when they
// are not "#!", so that extension-less binaries and documents are not
// read whole.
func (c *counter) read(r io.Reader, size int64, needShebang bool) ([]byte, error) {
	if c.fresh || int64(cap(c.buf)) < size+1 {
		c.buf = make([]byte, size+1)
	}
	buf := c.buf[:cap(c.buf)]
	n := 0
	if needShebang {
		k, err := io.ReadFull(r, buf[:2])
		if err != nil && err != io.ErrUnexpectedEOF {
			return nil, err
		}
		if k < 2 || buf[0] != '#' || buf[1] != '!' {
			return nil, nil
		}
		n = k
	}
	// Read to EOF rather than size bytes: a file that grows while we
	// read it is counted as far as the buffer holds.
	for n < len(buf) {
		k, err := r.Read(buf[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf[:n], nil
}

// count runs scc's line classifier over content.
func (c *counter) count(base string, cands []string, content []byte) (string, Counts) {
	for _, l := range cands {
		if !c.ready[l] {
			ensureFeatures(c.t, cands)
			for _, l := range cands {
				c.ready[l] = true
			}
			break
		}
	}
	name := cands[0]
	if len(cands) > 1 {
		// Ambiguous extension (.m: Objective-C or MATLAB): scc guesses
		// from keywords in the content.
		prefixed := make([]string, len(cands))
		for i, l := range cands {
			prefixed[i] = featurePrefix + l
		}
		name = strings.TrimPrefix(processor.DetermineLanguage(base, prefixed[0], prefixed, content), featurePrefix)
	}
	content = shortenEscapes(content)
	tally := lineTally{content: content}
	job := processor.FileJob{
		Language:       featurePrefix + name,
		Filename:       base,
		Content:        content,
		Bytes:          int64(len(content)),
		ComplexityLine: c.lines[:0],
		Callback:       &tally,
	}
	processor.CountStats(&job)
	c.lines = job.ComplexityLine[:0]
	// scc returns without reporting the last line when a file ends
	// inside the opening of a string or docstring (a Python file that
	// ends in """). Such lines are code, or blank.
	for tally.pos < len(content) {
		tally.ProcessLine(nil, 0, processor.LINE_CODE)
	}
	return name, Counts{Files: 1, Code: tally.code, Comment: tally.comment, Blank: tally.blank}
}

// lineTally takes scc's verdict line by line, except that a line holding
// only white space is blank wherever it is. scc calls a blank line inside
// a multi-line string code and one inside a block comment or docstring a
// comment; cloc, and the plain meaning of "non-blank lines", call both
// blank. White space is cloc's (Perl's \s), which includes form feeds.
type lineTally struct {
	content              []byte
	pos                  int
	code, comment, blank int64
}

// ProcessLine implements processor.FileJobCallback. scc calls it once per
// line, in order, so the next line starts where the previous one ended.
func (t *lineTally) ProcessLine(_ *processor.FileJob, _ int64, kind processor.LineType) bool {
	line := t.content[min(t.pos, len(t.content)):]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
		t.pos += i + 1
	} else {
		t.pos = len(t.content)
	}
	switch {
	case kind == processor.LINE_BLANK || isSpace(line):
		t.blank++
	case kind == processor.LINE_CODE:
		t.code++
	default:
		t.comment++
	}
	return true
}

func isSpace(line []byte) bool {
	for _, b := range line {
		switch b {
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// maxBackslashRun is the longest run of backslashes handed to scc. Its
// string state counts the backslashes before each byte by walking back
// over them, which is quadratic in the length of a run: 40,000 take
// seconds, a hostile megabyte would take most of an hour.
const maxBackslashRun = 64

var longBackslashRun = bytes.Repeat([]byte{'\\'}, maxBackslashRun+1)

// shortenEscapes returns content with every run of backslashes longer
// than maxBackslashRun cut to maxBackslashRun or one less, keeping its
// parity. scc looks only at that parity (is the next byte escaped?) and
// at whether the previous byte is a backslash, and a run holds no line
// break, so the counts do not change. Content without such runs is
// returned as is, without a copy.
func shortenEscapes(content []byte) []byte {
	if !bytes.Contains(content, longBackslashRun) {
		return content
	}
	out := make([]byte, 0, len(content))
	for i := 0; i < len(content); {
		if content[i] != '\\' {
			out = append(out, content[i])
			i++
			continue
		}
		j := i
		for j < len(content) && content[j] == '\\' {
			j++
		}
		n := j - i
		if n > maxBackslashRun {
			n = maxBackslashRun - (j-i-maxBackslashRun)%2
		}
		out = append(out, content[i:i+n]...)
		i = j
	}
	return out
}

// isGenerated applies scc's generated-file check: a marker within the
// first 1000 bytes.
func isGenerated(content []byte) bool {
	head := bytes.ToLower(content[:min(len(content), generatedHead)])
	for _, m := range generatedMarkers {
		if bytes.Contains(head, m) {
			return true
		}
	}
	return false
}

// CountFile counts one file's content; name (a base name or a path)
// picks the language, as in CountDir with Options.All. ok is false when
// the file is not counted: no known language, empty, or binary.
func CountFile(name string, content []byte) (language string, c Counts, ok bool) {
	cn := newCounter(Options{All: true})
	cn.add(path.Base(name), name, func() (io.ReadCloser, int64, error) {
		return io.NopCloser(bytes.NewReader(content)), int64(len(content)), nil
	})
	for l, counts := range cn.res.Languages {
		return l, *counts, true
	}
	return "", Counts{}, false
}
