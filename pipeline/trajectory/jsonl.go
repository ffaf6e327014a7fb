package trajectory

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// ReadJSONL reads lolbench's own event format from r: one JSON Event per
// line, blank lines ignored. name is the file's name for errors. Decoding
// is strict (an unknown field is an error, so a typo is not silently
// dropped), every event is checked, steps may not go backwards, and texts
// are cut to MaxText. Events are passed to emit one at a time; an error
// from emit stops the read and is returned as is. One decoder reads the
// whole stream (a decoder per line costs twice as much); lines are told
// apart by where each value ends.
func ReadJSONL(r io.Reader, name string, emit func(*Event) error) error {
	lr := &lineReader{r: r}
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	last, lastLine := 0, 0
	for {
		var e Event
		err := dec.Decode(&e)
		if err == io.EOF {
			if lr.err != nil && lr.err != io.EOF {
				return fmt.Errorf("%s:%d: %w", name, lr.lineAt(lr.n), lr.err)
			}
			return nil
		}
		end := dec.InputOffset()
		line := lr.lineAt(end - 1)
		if err != nil {
			if lr.err != nil && lr.err != io.EOF {
				return fmt.Errorf("%s:%d: %w", name, lr.lineAt(lr.n), lr.err)
			}
			return fmt.Errorf("%s:%d: not an event: %w", name, line, err)
		}
		if line == lastLine {
			return fmt.Errorf("%s:%d: more than one JSON value on the line", name, line)
		}
		lastLine = line
		if err := e.Check(); err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if e.Step < last {
			return fmt.Errorf("%s:%d: step %d comes after step %d", name, line, e.Step, last)
		}
		last = e.Step
		e.clip()
		if err := emit(&e); err != nil {
			return err
		}
		lr.forget(end)
	}
}

// lineReader passes r through, remembering where its lines end so that an
// input offset can be told as a line number, and fails a line longer than
// MaxLine before the decoder buffers it.
type lineReader struct {
	r     io.Reader
	n     int64   // bytes read
	run   int64   // bytes since the last newline
	ends  []int64 // offsets of the newlines not yet forgotten
	lines int     // newlines forgotten
	err   error
}

func (l *lineReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	k, err := l.r.Read(p)
	for i, c := range p[:k] {
		if c == '\n' {
			l.ends = append(l.ends, l.n+int64(i))
			l.run = 0
		} else if l.run++; l.run > MaxLine {
			l.err = fmt.Errorf("line longer than %d bytes", MaxLine)
			l.n += int64(i)
			return 0, l.err
		}
	}
	l.n += int64(k)
	if err != nil {
		l.err = err
	}
	return k, err
}

// lineAt is the 1-based line of the byte at offset off.
func (l *lineReader) lineAt(off int64) int {
	i, _ := slices.BinarySearch(l.ends, off)
	return l.lines + i + 1
}

// forget drops the newlines before offset off, keeping their count.
func (l *lineReader) forget(off int64) {
	i, _ := slices.BinarySearch(l.ends, off)
	if i > 64 {
		l.lines += i
		l.ends = append(l.ends[:0], l.ends[i:]...)
	}
}

// clip bounds an event's texts.
func (e *Event) clip() {
	e.Text = Cut(e.Text, MaxText)
	e.Reasoning = Cut(e.Reasoning, MaxText)
	e.Args = Cut(e.Args, MaxArgs)
	e.Command = Cut(e.Command, MaxArgs)
	e.ErrorLine = Cut(e.ErrorLine, 200)
}

// Writer writes events in lolbench's JSONL format.
type Writer struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

// NewWriter returns a writer to w; Flush it when done.
func NewWriter(w io.Writer) *Writer {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &Writer{bw: bw, enc: enc}
}

// Write writes one event on its own line.
func (w *Writer) Write(e *Event) error { return w.enc.Encode(e) }

// Flush writes what is buffered.
func (w *Writer) Flush() error { return w.bw.Flush() }

// Trajectory formats.
const (
	FormatATIF  = "atif"
	FormatJSONL = "jsonl"
)

// FormatOf tells a trajectory file's format by its name: *.jsonl is
// lolbench's event format, *.json ATIF.
func FormatOf(path string) (string, error) {
	switch {
	case strings.HasSuffix(path, ".jsonl"):
		return FormatJSONL, nil
	case strings.HasSuffix(path, ".json"):
		return FormatATIF, nil
	}
	return "", fmt.Errorf("trajectory %s: unknown format (want ATIF .json or lolbench events .jsonl)", path)
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "")
}
