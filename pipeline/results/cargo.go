package results

import (
	"bytes"
	"io"
	"path"
	"strings"
)

// Cargo parses `cargo test` output (libtest's pretty format, as printed for
// every test binary and for Doc-tests). A verdict line "test NAME ... ok" is
// passed, "... FAILED" (also "FAILED (time limit exceeded)") failed,
// "... ignored[, reason]" skipped, "... bench: …" passed. Names in the
// closing "failures:" list are failed too, which also covers `cargo test -q`.
//
// Errors, so that a run that tested nothing never reads as clean:
//   - "error: could not compile `crate` ..." gives "crate [build]";
//   - a test whose line was started and never finished (the binary aborted
//     under --test-threads=1) is an error;
//   - "error: test failed, to rerun pass ..." after a binary that reported
//     no failing test (it crashed, or was killed) gives "binary [binary]".
//
// Names are prefixed with the test binary ("Running … (target/debug/deps/
// NAME-HASH)", hash dropped) or the crate of a "Doc-tests CRATE" section and
// "::", so that tests::it_works in two crates stay apart. The " - should
// panic", " - compile fail" and " - compile" suffixes libtest prints after a
// name are not part of it.
type Cargo struct{}

// Name implements Parser.
func (Cargo) Name() string { return "cargo" }

// Parse implements Parser.
func (c Cargo) Parse(data []byte) ([]Result, error) { return c.ParseReader(bytes.NewReader(data)) }

// BuildMarker and BinaryMarker name the error entries of a crate that did
// not compile and of a test binary that failed without a failing test
// (cargo).
const (
	BuildMarker  = " [build]"
	BinaryMarker = " [binary]"
)

// cargoModes are what libtest prints between a test's name and " ... "
// (library/test/src/types.rs, TestDesc::test_mode).
var cargoModes = []string{" - should panic", " - compile fail", " - compile"}

// ParseReader implements Parser.
func (Cargo) ParseReader(r io.Reader) ([]Result, error) {
	var (
		c        = collector{oneVerdict: true} // libtest prints one verdict per test
		binary   string                        // current test binary, "" before the first header
		pending  = map[string]bool{}           // started, unfinished tests of this binary
		last     string                        // the most recently started unfinished test
		sawBad   bool                          // this binary reported a failing test
		failList bool                          // inside a "failures:" name list
		listed   int                           // names read in that list
	)
	full := func(name string) string {
		if binary == "" {
			return name
		}
		return binary + "::" + name
	}
	record := func(name string, s Status) {
		c.add(full(name), s)
		if bad(s) {
			sawBad = true
		}
	}
	// finish closes a binary's section: tests left unfinished are errors.
	finish := func() {
		for name := range pending {
			record(name, Error)
		}
		clear(pending)
		last = ""
	}
	err := eachLine(r, func(raw []byte) {
		if !failList && last == "" && !cargoRelevant(raw) {
			return // most of a big log is captured output: no allocation for it
		}
		line := string(raw)
		trimmed := strings.TrimSpace(line)

		if failList {
			switch {
			case strings.HasPrefix(line, "    ") && trimmed != "" && !strings.HasPrefix(line, "     "):
				record(trimmed, Failed)
				listed++
				return
			case trimmed == "" && listed == 0:
				return
			default:
				failList = false
			}
		}

		switch {
		case trimmed == "failures:":
			failList, listed = true, 0
		case strings.HasPrefix(trimmed, "Running "):
			finish()
			binary, sawBad = cargoBinary(strings.TrimPrefix(trimmed, "Running ")), false
		case strings.HasPrefix(trimmed, "Doc-tests "):
			finish()
			binary, sawBad = strings.TrimSpace(strings.TrimPrefix(trimmed, "Doc-tests ")), false
		case strings.HasPrefix(line, "test ") && strings.Contains(line, " ... "):
			name, verdict, _ := strings.Cut(strings.TrimPrefix(line, "test "), " ... ")
			name = strings.TrimSpace(name)
			for _, m := range cargoModes {
				name = strings.TrimSuffix(name, m)
			}
			if name == "" {
				return
			}
			if s, ok := cargoVerdict(verdict); ok {
				record(name, s)
				delete(pending, name)
				if last == name {
					last = ""
				}
				return
			}
			// A name without a verdict yet: a serial run prints the name
			// first, and captured output or a crash may come before the
			// verdict, if any.
			pending[name] = true
			last = name
		case last != "" && isCargoVerdictOnly(trimmed):
			s, _ := cargoVerdict(trimmed)
			record(last, s)
			delete(pending, last)
			last = ""
		case strings.HasPrefix(trimmed, "error: could not compile `"):
			rest := strings.TrimPrefix(trimmed, "error: could not compile `")
			if crate, _, ok := strings.Cut(rest, "`"); ok && crate != "" {
				c.add(crate+BuildMarker, Error)
			}
		case strings.HasPrefix(trimmed, "error: test failed, to rerun pass"),
			strings.HasPrefix(trimmed, "error: doctest failed, to rerun pass"):
			finish()
			if !sawBad {
				name := binary
				if name == "" {
					name = "(unknown test binary)"
				}
				c.add(name+BinaryMarker, Error)
				sawBad = true
			}
		}
	})
	finish()
	return c.results(), err
}

// cargoRelevant is a cheap first look at a line: could it matter at all?
func cargoRelevant(raw []byte) bool {
	if bytes.HasPrefix(raw, []byte("test ")) {
		return true
	}
	t := bytes.TrimLeft(raw, " \t")
	for _, p := range [][]byte{[]byte("failures:"), []byte("Running "), []byte("Doc-tests "), []byte("error: ")} {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// cargoBinary names a test binary from the rest of a "Running" header:
// "unittests src/lib.rs (target/debug/deps/tinycrate-d96dbbd9744765d8)", or
// "target/debug/deps/tinycrate-d96dbbd9744765d8" from older cargo.
func cargoBinary(rest string) string {
	exe := rest
	if strings.HasSuffix(rest, ")") {
		if i := strings.LastIndex(rest, "("); i >= 0 {
			exe = rest[i+1 : len(rest)-1]
		}
	} else if f := strings.Fields(rest); len(f) > 0 {
		exe = f[len(f)-1]
	}
	exe = path.Base(strings.ReplaceAll(exe, `\`, "/"))
	exe = strings.TrimSuffix(exe, ".exe")
	if i := strings.LastIndexByte(exe, '-'); i > 0 && isHex(exe[i+1:]) {
		exe = exe[:i]
	}
	return exe
}

func isHex(s string) bool {
	if len(s) < 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// cargoVerdict reads what follows " ... " on a test line.
func cargoVerdict(v string) (Status, bool) {
	v = strings.TrimSpace(v)
	word := v
	if i := strings.IndexAny(v, " ,:<"); i >= 0 {
		word = v[:i]
	}
	switch word {
	case "ok":
		return Passed, true
	case "FAILED":
		return Failed, true
	case "ignored":
		return Skipped, true
	case "bench":
		return Passed, true
	}
	return "", false
}

// isCargoVerdictOnly reports a line that is a bare verdict, which follows
// captured output printed after "test NAME ... " in a serial run.
func isCargoVerdictOnly(s string) bool {
	switch {
	case s == "ok", s == "FAILED", s == "ignored",
		strings.HasPrefix(s, "ignored, "), strings.HasPrefix(s, "FAILED ("):
		return true
	}
	return false
}
