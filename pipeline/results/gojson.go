package results

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// GoJSON parses `go test -json` output (test2json events, one JSON object a
// line). A test's status comes from its terminal events (pass, fail, skip);
// should a test report more than one (-count=2, a line forged by a test that
// writes to stdout), the worst wins. A test that started ("run") and never
// finished — the binary panicked, timed out or was killed — is an error.
//
// A package that failed without any failing test in it is an error entry
// "importpath [package]": a build failure (the "fail" event with FailedBuild
// since Go 1.24, or the plain "FAIL\tpkg [build failed]" line older go
// commands print outside JSON), a TestMain that exited non-zero, a panic in
// init. Without it a build failure would read as "no failures". Any other
// line that is not a JSON object is ignored.
type GoJSON struct{}

// Name implements Parser.
func (GoJSON) Name() string { return "go-json" }

// Parse implements Parser.
func (g GoJSON) Parse(data []byte) ([]Result, error) { return g.ParseReader(bytes.NewReader(data)) }

// goEvent is the part of a test2json event the parser needs; Output is left
// out on purpose so that captured output is never decoded into memory.
type goEvent struct {
	Action  string
	Package string
	Test    string
}

// PackageMarker is appended to an import path to name a package-level
// failure (go-json), as in "example.com/m/pkg [package]".
const PackageMarker = " [package]"

// ParseReader implements Parser.
func (GoJSON) ParseReader(r io.Reader) ([]Result, error) {
	var (
		c         collector
		started   = map[string]string{} // test id -> package, while unfinished
		pkgFailed = map[string]bool{}
		pkgOrder  []string
		pkgBad    = map[string]bool{}
	)
	failPkg := func(pkg string) {
		if pkg == "" {
			return
		}
		if !pkgFailed[pkg] {
			pkgFailed[pkg] = true
			pkgOrder = append(pkgOrder, pkg)
		}
	}
	err := eachLine(r, func(line []byte) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] != '{' {
			// go versions before 1.24 print build failures outside JSON.
			if !bytes.HasPrefix(line, []byte("FAIL")) {
				return
			}
			if pkg, ok := plainGoFailure(line); ok {
				failPkg(pkg)
			}
			return
		}
		if bytes.Contains(line, []byte(`"Action":"output"`)) {
			// Captured output, the bulk of any log: skipped undecoded.
			// The text cannot occur inside a JSON string (its quotes
			// would be escaped), so only an output event matches.
			return
		}
		var ev goEvent
		if json.Unmarshal(line, &ev) != nil {
			return
		}
		if ev.Test == "" {
			// A build failure ends in a package "fail" event too (with
			// FailedBuild set), so "build-fail" needs no case of its own.
			if ev.Action == "fail" {
				failPkg(ev.Package)
			}
			return
		}
		id := ev.Test
		if ev.Package != "" {
			id = ev.Package + "." + ev.Test
		}
		var s Status
		switch ev.Action {
		case "run":
			started[id] = ev.Package
			return
		case "pass":
			s = Passed
		case "fail":
			s = Failed
		case "skip":
			s = Skipped
		default: // output, pause, cont, bench, start
			return
		}
		delete(started, id)
		c.add(id, s)
		if s == Failed {
			pkgBad[ev.Package] = true
		}
	})
	for id, pkg := range started {
		c.add(id, Error)
		pkgBad[pkg] = true
	}
	for _, pkg := range pkgOrder {
		if !pkgBad[pkg] {
			c.add(pkg+PackageMarker, Error)
		}
	}
	return c.results(), err
}

// plainGoFailure recognises "FAIL\tpkg [build failed]" and "FAIL\tpkg [setup
// failed]", the non-JSON lines go test prints for a package it could not
// build.
func plainGoFailure(line []byte) (string, bool) {
	s, ok := strings.CutPrefix(string(line), "FAIL")
	if !ok {
		return "", false
	}
	s = strings.TrimSpace(s)
	for _, suffix := range []string{" [build failed]", " [setup failed]"} {
		if pkg, ok := strings.CutSuffix(s, suffix); ok && pkg != "" && !strings.ContainsAny(pkg, " \t") {
			return pkg, true
		}
	}
	return "", false
}
