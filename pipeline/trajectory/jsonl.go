package trajectory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// ReadJSONL reads lolbench's own event format from r: one JSON Event per
// line, blank lines ignored. name is the file's name for errors. Decoding
// is strict (an unknown field is an error, so a typo is not silently
// dropped), every event is checked, steps may not go backwards, and texts
// are cut to MaxText. Events are passed to emit one at a time; an error
// from emit stops the read and is returned as is.
func ReadJSONL(r io.Reader, name string, emit func(*Event) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	n, last := 0, 0
	for {
		line, err := readLine(br)
		if err == io.EOF {
			return nil
		}
		n++
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e Event
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("%s:%d: not an event: %w", name, n, err)
		}
		if dec.More() {
			return fmt.Errorf("%s:%d: more than one JSON value on the line", name, n)
		}
		if err := e.Check(); err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if e.Step < last {
			return fmt.Errorf("%s:%d: step %d comes after step %d", name, n, e.Step, last)
		}
		last = e.Step
		e.clip()
		if err := emit(&e); err != nil {
			return err
		}
	}
}

// readLine reads one line of at most MaxLine bytes, without its newline.
func readLine(br *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		part, err := br.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > MaxLine {
			return nil, fmt.Errorf("line longer than %d bytes", MaxLine)
		}
		switch {
		case err == nil:
			return bytes.TrimRight(buf, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(buf) > 0:
			return buf, nil
		default:
			return nil, err
		}
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

// Format names of ReadFile.
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

// ReadFile reads a trajectory file of either format (FormatOf) and passes
// its events to emit. For ATIF the returned Info describes the
// trajectory; for JSONL it is empty but for the format.
func ReadFile(path string, emit func(*Event) error) (*Info, error) {
	format, err := FormatOf(path)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("trajectory %s: not a regular file", path)
	}
	if format == FormatJSONL {
		return &Info{Format: FormatJSONL}, ReadJSONL(f, path, emit)
	}
	return ReadATIF(f, path, emit)
}

func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "")
}
