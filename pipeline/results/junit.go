package results

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JUnit parses JUnit XML reports, the lingua franca of test reports: Maven
// Surefire and Failsafe, Gradle, pytest --junitxml, go-junit-report, jest-junit
// and many more. <testsuites> and <testsuite> nest freely; each <testcase
// classname name> is passed unless it has a <failure> (failed), an <error>
// (error) or a <skipped> (skipped) child. pytest's xfail is a <skipped>, as in
// the pytest-ra format; CTest's <skipped> for a test it could not start is an
// error (ctestCouldNotRun). Surefire's <flakyFailure>/<flakyError> (failed, then
// passed on a rerun) leave the test passed; a test that failed every rerun
// carries a <failure> as well.
//
// CPython's regrtest (Lib/test/support/testresult.py) writes a testcase
// with the test's unittest id as its name, no classname, and status="run":
// its id is the name alone. It names a testcase only when unittest
// reports an outcome, so a test whose subTest failed (unittest reports
// the subtest and nothing for the test) leaves a <testcase/> with no
// attribute at all in a testsuite with no name: such an element is an
// error, never a pass. Its
// expected failures carry an <output> child (skipped, as pytest's
// xfail), its unexpected successes <outcome>UNEXPECTED_SUCCESS</outcome>
// (failed, as unittest counts them).
//
// One document per call, or several concatenated; for a folder of reports,
// call it per file and Merge. Entities are never expanded beyond XML's five
// and HTML's named ones (encoding/xml has no DTD support, so no external
// entities and no billion laughs), the input is capped at MaxJUnitBytes and
// element nesting at maxJUnitDepth, and bytes that are not valid UTF-8 or not
// allowed in XML (ANSI escapes in <system-out>) are replaced by U+FFFD rather
// than failing the report.
type JUnit struct{}

// ctestCouldNotRun reports whether a <skipped> message is CTest's for a
// test it could not start (its JUnit report calls every test it did not
// run skipped): its program is missing, as when it did not build, a file
// it requires is missing, or a fixture it depends on failed. Such a test
// failed; a test the project skips (SKIP_RETURN_CODE,
// SKIP_REGULAR_EXPRESSION) or disabled stays skipped.
func ctestCouldNotRun(message string) bool {
	for _, m := range []string{"Unable to find executable", "Required files missing", "Fixture dependency failed"} {
		if strings.HasPrefix(message, m) {
			return true
		}
	}
	return false
}

// SuiteMarker is appended to a suite's name to name a suite-level failure
// (junit), as in "com.example.StoreTest [suite]".
const SuiteMarker = " [suite]"

// MaxJUnitBytes caps one JUnit report. Reports this big are almost all
// captured output; a bigger one is refused with an error rather than read.
const MaxJUnitBytes = 512 << 20

// maxJUnitDepth caps element nesting: real reports nest three or four deep.
const maxJUnitDepth = 256

// Name implements Parser.
func (JUnit) Name() string { return "junit" }

// Parse implements Parser.
func (j JUnit) Parse(data []byte) ([]Result, error) { return j.ParseReader(bytes.NewReader(data)) }

// ParseReader implements Parser.
func (JUnit) ParseReader(r io.Reader) ([]Result, error) {
	d := xml.NewDecoder(&xmlSanitizer{r: &cappedReader{r: r, left: MaxJUnitBytes}})
	d.Entity = xml.HTMLEntity
	// Bytes are already valid UTF-8 after the sanitizer; a declared legacy
	// charset (ISO-8859-1 from old Ant tasks) is read as such, its non-ASCII
	// letters having become U+FFFD.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }

	type suite struct {
		name     string
		declared int // failures + errors the suite's attributes claim
		bad      int // failing results seen inside it
	}
	type testcase struct {
		name   string
		status Status
		depth  int
		// regrtest: CPython's shape (a status attribute, no classname).
		regrtest bool
		// outcome holds the text of a regrtest <outcome> child.
		outcome *strings.Builder
	}
	var (
		c      collector
		suites []suite
		tc     *testcase
		depth  int
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return c.results(), fmt.Errorf("junit: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > maxJUnitDepth {
				return c.results(), fmt.Errorf("junit: line %d: elements nested deeper than %d", line(d), maxJUnitDepth)
			}
			switch t.Name.Local {
			case "testsuite":
				suites = append(suites, suite{
					name:     attr(t, "name"),
					declared: atoi(attr(t, "failures")) + atoi(attr(t, "errors")),
				})
			case "testcase":
				if tc != nil {
					continue // a testcase inside a testcase is not a test
				}
				name := attr(t, "name")
				class := attr(t, "classname")
				switch {
				case class == name:
					// CTest writes the test's name as both.
				case class != "" && name != "":
					name = class + "::" + name
				case name == "":
					name = class
				}
				if name == "" && len(suites) > 0 {
					name = suites[len(suites)-1].name
				}
				if name == "" {
					name = "(unnamed testcase)"
				}
				tc = &testcase{name: name, status: Passed, depth: depth, regrtest: class == "" && attr(t, "status") != ""}
				if len(t.Attr) == 0 && (len(suites) == 0 || suites[len(suites)-1].name == "") {
					// regrtest's testcase of a test that reported no
					// outcome (its subTest failed), in its nameless
					// testsuite.
					tc.status = Error
				}
			case "failure":
				if tc != nil && depth == tc.depth+1 {
					tc.status = Worse(tc.status, Failed)
				}
			case "error":
				if tc != nil && depth == tc.depth+1 {
					tc.status = Worse(tc.status, Error)
				}
			case "skipped":
				if tc != nil && depth == tc.depth+1 && tc.status == Passed {
					tc.status = Skipped
					if ctestCouldNotRun(attr(t, "message")) {
						tc.status = Error
					}
				}
			case "output":
				// regrtest's expected failure: the body failed.
				if tc != nil && tc.regrtest && depth == tc.depth+1 && tc.status == Passed {
					tc.status = Skipped
				}
			case "outcome":
				if tc != nil && tc.regrtest && depth == tc.depth+1 {
					tc.outcome = &strings.Builder{}
				}
			}
		case xml.CharData:
			if tc != nil && tc.outcome != nil && tc.outcome.Len() < 64 {
				tc.outcome.Write(t)
			}
		case xml.EndElement:
			if t.Name.Local == "outcome" && tc != nil && tc.outcome != nil && depth == tc.depth+1 {
				if strings.TrimSpace(tc.outcome.String()) == "UNEXPECTED_SUCCESS" {
					tc.status = Worse(tc.status, Failed)
				}
				tc.outcome = nil
			}
			switch {
			case t.Name.Local == "testcase" && tc != nil && depth == tc.depth:
				c.add(tc.name, tc.status)
				if bad(tc.status) && len(suites) > 0 {
					suites[len(suites)-1].bad++
				}
				tc = nil
			case t.Name.Local == "testsuite" && len(suites) > 0 && tc == nil:
				s := suites[len(suites)-1]
				suites = suites[:len(suites)-1]
				if s.declared > 0 && s.bad == 0 {
					// The suite says something failed but no test case
					// shows it (a crash in a class fixture, a truncated
					// report): never let that read as all passed.
					name := s.name
					if name == "" {
						name = "(unnamed testsuite)"
					}
					c.add(name+SuiteMarker, Error)
					s.bad++
				}
				if len(suites) > 0 {
					suites[len(suites)-1].bad += s.bad
				}
			}
			depth--
		}
	}
	if depth != 0 {
		return c.results(), fmt.Errorf("junit: line %d: unexpected end of input inside an element", line(d))
	}
	return c.results(), nil
}

// line is the decoder's current line, for error messages.
func line(d *xml.Decoder) int {
	l, _ := d.InputPos()
	return l
}

// attr returns the value of the attribute named local, or "".
func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// atoi reads a counter attribute; anything unreadable counts as zero.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// errTooLarge is returned once a report passes MaxJUnitBytes.
var errTooLarge = fmt.Errorf("report larger than %d bytes", MaxJUnitBytes)

// cappedReader fails, instead of silently stopping, once more than left bytes
// have been read: a report cut short would parse as a truncated document.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One probe byte tells a report of exactly the cap from a bigger one.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// xmlSanitizer passes its input through as UTF-8 that encoding/xml accepts:
// invalid UTF-8 and characters XML forbids (C0 controls other than tab, LF and
// CR; U+FFFE; U+FFFF) become U+FFFD. Real reports carry both in captured
// output, and one bad byte should not cost a whole report.
type xmlSanitizer struct {
	r   io.Reader
	buf [32 << 10]byte
	n   int // pending input bytes at the start of buf
	out []byte
	pos int
	err error
}

func (s *xmlSanitizer) Read(p []byte) (int, error) {
	for s.pos >= len(s.out) {
		if s.err != nil {
			return 0, s.err
		}
		m, err := s.r.Read(s.buf[s.n:])
		s.n += m
		if err != nil {
			s.err = err
		}
		s.out, s.pos = s.out[:0], 0
		i := 0
		for i < s.n {
			// Fast path: a run of printable ASCII, most of any report.
			j := i
			for j < s.n && s.buf[j] >= 0x20 && s.buf[j] < utf8.RuneSelf {
				j++
			}
			if j > i {
				s.out = append(s.out, s.buf[i:j]...)
				i = j
				continue
			}
			c := s.buf[i]
			if c < utf8.RuneSelf {
				if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
					s.out = append(s.out, "\uFFFD"...)
				} else {
					s.out = append(s.out, c)
				}
				i++
				continue
			}
			if !utf8.FullRune(s.buf[i:s.n]) && s.err == nil {
				break // the rest of this rune comes with the next read
			}
			r, size := utf8.DecodeRune(s.buf[i:s.n])
			switch {
			case r == utf8.RuneError && size <= 1, r == 0xFFFE, r == 0xFFFF:
				s.out = append(s.out, "\uFFFD"...)
				if size < 1 {
					size = 1
				}
			default:
				s.out = append(s.out, s.buf[i:i+size]...)
			}
			i += size
		}
		s.n = copy(s.buf[:], s.buf[i:s.n])
	}
	n := copy(p, s.out[s.pos:])
	s.pos += n
	return n, nil
}
