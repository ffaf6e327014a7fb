package diff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Diff reads two outputs of git. The first, `git diff --raw --numstat
// -z`, is one raw record per file pair (":OLDMODE NEWMODE OLDSHA NEWSHA
// STATUS\0" and one path, or two for a rename, each ending in NUL), then
// one numstat record per pair in the same order ("INS\tDEL\tPATH\0", or
// "INS\tDEL\t\0OLD\0NEW\0" for a rename). The second, `git diff --raw
// --patch -U0 -z`, repeats the raw records (which must be the same: the
// two runs are matched by them), then a NUL, then the patch text. The patch
// has one "diff --git" section per pair, except for a type change (file to
// symbolic link, file to submodule), which git prints as a deletion section
// followed by an addition section. Parsing streams: only line numbers are
// kept, never the changed text.
//
// The counts cannot come from the -U0 run: with zero context git trims the
// files' common tail before diffing (xdiff-interface.c, trim_common_tail),
// which can align lines differently from the default three-line context
// that numstat and GitHub use. So a file's counts and its line lists
// usually agree but need not.

// maxField bounds one NUL-terminated record (a path), maxLine the part of
// a patch line that is kept (hunk headers are short; content is skipped).
const (
	maxField = 1 << 20
	maxLine  = 512
)

var errTruncated = errors.New("unexpected end of git output")

// rawEntry is one raw record: modes, status letter and paths.
type rawEntry struct {
	oldMode, newMode uint64
	status           byte
	paths            string // the path, or old NUL new for a rename
}

// split reports whether git prints the pair as a deletion and an addition:
// when both sides exist and the file type (regular, link, submodule)
// changes.
func (e rawEntry) split() bool {
	return e.oldMode != 0 && e.newMode != 0 && e.oldMode&0o170000 != e.newMode&0o170000
}

// readRawRecords reads raw records while they last. empty is true when the
// output ends before any record: no change at all.
func readRawRecords(br *bufio.Reader) (raws []rawEntry, files []File, err error) {
	for {
		c, err := br.Peek(1)
		if err == io.EOF {
			if len(raws) == 0 {
				return nil, nil, nil
			}
			return nil, nil, errTruncated
		}
		if err != nil {
			return nil, nil, err
		}
		if c[0] != ':' {
			return raws, files, nil
		}
		e, f, err := readRaw(br)
		if err != nil {
			return nil, nil, err
		}
		raws = append(raws, e)
		files = append(files, f)
	}
}

// parseNumstat reads the output of `git diff --raw --numstat -z`.
func parseNumstat(in io.Reader) ([]rawEntry, []File, error) {
	br := bufio.NewReaderSize(in, 64<<10)
	raws, files, err := readRawRecords(br)
	if err != nil || len(raws) == 0 {
		return nil, nil, err
	}
	for i := range files {
		if err := readNumstat(br, &files[i]); err != nil {
			return nil, nil, err
		}
	}
	if _, err := br.Peek(1); err != io.EOF {
		return nil, nil, errors.New("git output: more numstat records than files")
	}
	return raws, files, nil
}

// parsePatch reads the output of `git diff --raw --patch -U0 -z` into the
// hunks and line numbers of files, whose raw records (from parseNumstat)
// it must repeat.
func parsePatch(in io.Reader, raws []rawEntry, files []File) error {
	br := bufio.NewReaderSize(in, 64<<10)
	again, _, err := readRawRecords(br)
	if err != nil {
		return err
	}
	if len(again) != len(raws) {
		return fmt.Errorf("git output: %d files with -U0, %d with --numstat", len(again), len(raws))
	}
	for i := range raws {
		if again[i] != raws[i] {
			return fmt.Errorf("git output: file %d differs between the -U0 and the --numstat run: %s", i+1, strconv.Quote(files[i].Path()))
		}
	}
	if len(raws) == 0 {
		return nil
	}
	if b, err := br.ReadByte(); err != nil || b != 0 {
		return fmt.Errorf("git output: no separator before the patch: %w", orTruncated(err))
	}
	// Which file each patch section belongs to.
	var owner []int
	for i, e := range raws {
		owner = append(owner, i)
		if e.split() {
			owner = append(owner, i)
		}
	}
	if err := readPatch(br, files, owner); err != nil {
		return err
	}
	for i := range files {
		if f := &files[i]; f.Binary {
			f.OldLines, f.NewLines, f.Hunks = nil, nil, nil
		}
	}
	return nil
}

func orTruncated(err error) error {
	if err == nil || err == io.EOF {
		return errTruncated
	}
	return err
}

// readField reads one NUL-terminated record, without the NUL.
func readField(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice(0)
		buf = append(buf, chunk...)
		if len(buf) > maxField {
			return "", fmt.Errorf("git output: record longer than %d bytes", maxField)
		}
		switch err {
		case nil:
			return string(buf[:len(buf)-1]), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			return "", errTruncated
		default:
			return "", err
		}
	}
}

// readRaw reads one raw record and the path or paths that follow it.
func readRaw(br *bufio.Reader) (rawEntry, File, error) {
	var e rawEntry
	var f File
	head, err := readField(br)
	if err != nil {
		return e, f, err
	}
	fields := strings.Fields(strings.TrimPrefix(head, ":"))
	if len(fields) != 5 || fields[4] == "" {
		return e, f, fmt.Errorf("git output: bad raw record %s", strconv.Quote(head))
	}
	if e.oldMode, err = strconv.ParseUint(fields[0], 8, 32); err != nil {
		return e, f, fmt.Errorf("git output: bad mode in %s", strconv.Quote(head))
	}
	if e.newMode, err = strconv.ParseUint(fields[1], 8, 32); err != nil {
		return e, f, fmt.Errorf("git output: bad mode in %s", strconv.Quote(head))
	}
	e.status = fields[4][0]
	p, err := readField(br)
	if err != nil {
		return e, f, err
	}
	e.paths = p
	switch e.status {
	case 'A':
		f.NewPath, f.Status = p, Added
	case 'D':
		f.OldPath, f.Status = p, Deleted
	case 'M', 'T':
		f.OldPath, f.NewPath, f.Status = p, p, Modified
	case 'R':
		q, err := readField(br)
		if err != nil {
			return e, f, err
		}
		f.OldPath, f.NewPath, f.Status = p, q, Renamed
		e.paths = p + "\x00" + q
	default:
		return e, f, fmt.Errorf("git output: unexpected status %s for %s", strconv.Quote(fields[4]), strconv.Quote(p))
	}
	return e, f, nil
}

// readNumstat reads the numstat record of f and checks that it names the
// same paths as the raw record.
func readNumstat(br *bufio.Reader, f *File) error {
	rec, err := readField(br)
	if err != nil {
		return err
	}
	parts := strings.SplitN(rec, "\t", 3)
	if len(parts) != 3 {
		return fmt.Errorf("git output: bad numstat record %s", strconv.Quote(rec))
	}
	oldP, newP := parts[2], parts[2]
	if parts[2] == "" { // a rename: the two paths follow
		if oldP, err = readField(br); err != nil {
			return err
		}
		if newP, err = readField(br); err != nil {
			return err
		}
	}
	wantOld, wantNew := f.OldPath, f.NewPath
	if f.Status != Renamed {
		wantOld, wantNew = f.Path(), f.Path()
	}
	if oldP != wantOld || newP != wantNew {
		return fmt.Errorf("git output: numstat record for %s does not follow the raw records", strconv.Quote(f.Path()))
	}
	if parts[0] == "-" && parts[1] == "-" {
		f.Binary = true
		return nil
	}
	if f.Inserted, err = count(parts[0]); err != nil {
		return fmt.Errorf("git output: bad numstat record %s", strconv.Quote(rec))
	}
	if f.Deleted, err = count(parts[1]); err != nil {
		return fmt.Errorf("git output: bad numstat record %s", strconv.Quote(rec))
	}
	return nil
}

// count parses a decimal count: digits only, at most nine of them.
func count(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, fmt.Errorf("bad count %s", strconv.Quote(s))
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("bad count %s", strconv.Quote(s))
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, nil
}

// readLine returns the first maxLine bytes of the next line, without the
// newline; the rest of a long line is skipped. ok is false at the end.
func readLine(br *bufio.Reader) (line []byte, ok bool, err error) {
	chunk, err := br.ReadSlice('\n')
	if err == io.EOF && len(chunk) == 0 {
		return nil, false, nil
	}
	line = append(line, chunk[:min(len(chunk), maxLine)]...)
	for err == bufio.ErrBufferFull {
		_, err = br.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	return bytes.TrimSuffix(line, []byte("\n")), true, nil
}

// readPatch reads the -U0 patch: hunk headers give the hunks, and the
// counted '-' and '+' lines under them the changed line numbers. owner maps
// each "diff --git" section to its file.
func readPatch(br *bufio.Reader, files []File, owner []int) error {
	var cur *File
	sec := -1
	oldEnd, newEnd := 0, 0 // hunks of a section come in line order
	for {
		line, ok, err := readLine(br)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			sec++
			if sec >= len(owner) {
				return fmt.Errorf("git output: more patch sections than files (%d)", len(files))
			}
			cur = &files[owner[sec]]
			oldEnd, newEnd = 0, 0
		case cur == nil:
			return fmt.Errorf("git output: patch does not start with a diff --git line: %s", strconv.Quote(string(line)))
		case bytes.HasPrefix(line, []byte("@@ ")):
			h, err := parseHunkHeader(line)
			if err != nil {
				return fmt.Errorf("git output for %s: %w", strconv.Quote(cur.Path()), err)
			}
			if h.OldStart < oldEnd || h.NewStart < newEnd {
				return fmt.Errorf("git output for %s: hunk %s out of order", strconv.Quote(cur.Path()), strconv.Quote(string(line)))
			}
			oldEnd, newEnd = h.OldStart+h.OldLines, h.NewStart+h.NewLines
			if err := readHunk(br, cur, h); err != nil {
				return fmt.Errorf("git output for %s: %w", strconv.Quote(cur.Path()), err)
			}
			cur.Hunks = append(cur.Hunks, h)
		default:
			// An extended header line (mode, index, rename, ---/+++,
			// "Binary files ... differ") or "\ No newline at end of file".
		}
	}
	if sec+1 != len(owner) {
		return fmt.Errorf("git output: %d patch sections for %d files: %w", sec+1, len(files), errTruncated)
	}
	return nil
}

// readHunk consumes the lines of one -U0 hunk: OldLines lines starting
// with '-', then NewLines starting with '+', any of them followed by
// "\ No newline at end of file".
func readHunk(br *bufio.Reader, f *File, h Hunk) error {
	oldSeen, newSeen := 0, 0
	for oldSeen < h.OldLines || newSeen < h.NewLines {
		line, ok, err := readLine(br)
		if err != nil {
			return err
		}
		if !ok {
			return errTruncated
		}
		switch {
		case len(line) > 0 && line[0] == '-' && oldSeen < h.OldLines && newSeen == 0:
			f.OldLines = append(f.OldLines, h.OldStart+oldSeen)
			oldSeen++
		case len(line) > 0 && line[0] == '+' && newSeen < h.NewLines && oldSeen == h.OldLines:
			f.NewLines = append(f.NewLines, h.NewStart+newSeen)
			newSeen++
		case len(line) > 0 && line[0] == '\\':
		default:
			return fmt.Errorf("hunk -%d,%d +%d,%d: unexpected line %s", h.OldStart, h.OldLines, h.NewStart, h.NewLines, strconv.Quote(string(line)))
		}
	}
	return nil
}

// parseHunkHeader reads "@@ -OLD[,N] +NEW[,N] @@"; an omitted count is 1.
func parseHunkHeader(line []byte) (Hunk, error) {
	var h Hunk
	s := string(line)
	rest, ok := strings.CutPrefix(s, "@@ -")
	end := strings.Index(rest, " @@")
	if !ok || end < 0 {
		return h, fmt.Errorf("bad hunk header %s", strconv.Quote(s))
	}
	oldR, newR, ok := strings.Cut(rest[:end], " +")
	if !ok {
		return h, fmt.Errorf("bad hunk header %s", strconv.Quote(s))
	}
	var err1, err2 error
	h.OldStart, h.OldLines, err1 = parseRange(oldR)
	h.NewStart, h.NewLines, err2 = parseRange(newR)
	if err1 != nil || err2 != nil {
		return h, fmt.Errorf("bad hunk header %s", strconv.Quote(s))
	}
	// A side with lines starts at line 1 or later.
	if h.OldLines > 0 && h.OldStart == 0 || h.NewLines > 0 && h.NewStart == 0 {
		return h, fmt.Errorf("bad hunk header %s", strconv.Quote(s))
	}
	return h, nil
}

func parseRange(s string) (start, n int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = count(a); err != nil {
		return 0, 0, err
	}
	n = 1
	if hasCount {
		if n, err = count(b); err != nil {
			return 0, 0, err
		}
	}
	return start, n, nil
}
