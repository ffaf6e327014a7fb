// Package gotoolchain gives a task the Go its repository asks for, offline
// (issue 31 §1). The version comes from the base commit's go.mod (its
// toolchain line, else its go line) or from the recipe's go: field; the
// toolchain is the module golang.org/toolchain@v0.0.1-go<VERSION>.linux-<arch>,
// the one GOTOOLCHAIN downloads, fetched on the host by the host's own go
// command (so GOPROXY, GOSUMDB, GONOSUMDB, GOFLAGS and .netrc apply as they
// do to go mod download, and the checksum database verifies it), unpacked
// once per version into a cache on the host, and copied from there into
// the image (pipeline/sandbox) or put first on the local executor's PATH.
package gotoolchain

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// ModulePath is the module the go command downloads toolchains as.
const ModulePath = "golang.org/toolchain"

// System is the recipe's go: value that keeps the image's own Go.
const System = "system"

// Support says which Go versions a task can have offline, for the
// language support matrix (lolbench lang list, docs/languages.md).
const Support = "any release the Go module proxy has (golang.org/toolchain, go1.2.2 on), from the base commit's go.mod (toolchain line, else go line) or the recipe's go:, downloaded on the host; go: system keeps the image's Go (Debian's 1.19.8 in the offline image)"

// releaseRE is a Go release or language version as go.mod and the
// toolchain module name them: 1.22, 1.22.4, 1.21rc2, 1.18beta1.
var releaseRE = regexp.MustCompile(`^1\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?(?:(rc|beta)([1-9][0-9]*))?$`)

// release is a parsed version: minor, patch (-1 when absent) and a
// prerelease kind ("", "beta", "rc") with its number.
type release struct {
	minor, patch int
	kind         string
	pre          int
}

func parseRelease(v string) (release, bool) {
	m := releaseRE.FindStringSubmatch(v)
	if m == nil {
		return release{}, false
	}
	r := release{patch: -1, kind: m[3]}
	r.minor, _ = strconv.Atoi(m[1])
	if m[2] != "" {
		r.patch, _ = strconv.Atoi(m[2])
	}
	if m[4] != "" {
		r.pre, _ = strconv.Atoi(m[4])
	}
	return r, true
}

// Compare orders Go versions as the go command does (1.21 < 1.21rc1 <
// 1.21.0 < 1.21.1); a version that does not parse sorts first.
func Compare(a, b string) int {
	x, okx := parseRelease(strings.TrimPrefix(a, "go"))
	y, oky := parseRelease(strings.TrimPrefix(b, "go"))
	switch {
	case !okx || !oky:
		return boolCmp(okx, oky)
	case x.minor != y.minor:
		return intCmp(x.minor, y.minor)
	}
	// Within a minor version: the language version (no patch, no
	// prerelease), then betas, then release candidates, then releases.
	rank := func(r release) int {
		switch {
		case r.patch >= 0:
			return 3
		case r.kind == "rc":
			return 2
		case r.kind == "beta":
			return 1
		}
		return 0
	}
	if rx, ry := rank(x), rank(y); rx != ry {
		return intCmp(rx, ry)
	}
	if x.patch != y.patch {
		return intCmp(x.patch, y.patch)
	}
	return intCmp(x.pre, y.pre)
}

func intCmp(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// Request is a Go version a go.mod or a recipe asks for.
type Request struct {
	// Version is a release ("1.22.0", "1.21rc2", "1.17.13", "1.20") when
	// Exact, else a minor version before 1.21 ("1.17"), whose newest
	// patch release the module proxy lists is meant: Go had no "1.17.0"
	// release, its first was "1.17".
	Version string
	Exact   bool
	// Source says where it was read, for the build's log:
	// "go.mod:3 (go 1.22)", "recipe go: 1.22.4".
	Source string
}

// ParseSpec reads a version as written in a recipe's go: field or a go.mod
// line ("1.22", "1.22.4", "go1.21rc2"): 1.21 and later without a patch
// mean the .0 release (the go command's rule: "go 1.22" needs go1.22.0);
// an earlier minor version without a patch is not exact.
func ParseSpec(v, source string) (Request, error) {
	r, ok := parseRelease(strings.TrimPrefix(v, "go"))
	if !ok {
		return Request{}, fmt.Errorf("%q is not a Go version (1.22, 1.22.4, 1.21rc2)", v)
	}
	v = strings.TrimPrefix(v, "go")
	switch {
	case r.patch >= 0 || r.kind != "":
		return Request{Version: v, Exact: true, Source: source}, nil
	case r.minor >= 21:
		return Request{Version: v + ".0", Exact: true, Source: source}, nil
	}
	return Request{Version: v, Source: source}, nil
}

// FromGoMod reads the Go version a go.mod asks for: its toolchain line
// (unless "default", or older than the go line, which the go command then
// ignores too), else its go line. name prefixes every error with the line
// ("go.mod:3: ..."), and each names the next step.
func FromGoMod(name string, data []byte) (Request, error) {
	f, err := modfile.ParseLax(name, data, nil)
	if err != nil {
		return Request{}, fmt.Errorf("%w; fix %s at the base commit, or set go: in the recipe", err, name)
	}
	// The lax parser keeps a go line's valid prefix ("1.2x" reads as
	// "1.2", in the syntax tree too) and skips the toolchain line, so both
	// are read from the file's text as written.
	var goLine, tcLine *rawLine
	var lines []*modfile.Line
	for _, st := range f.Syntax.Stmt {
		switch x := st.(type) {
		case *modfile.Line:
			lines = append(lines, x)
		case *modfile.LineBlock:
			if len(x.Token) == 1 && (x.Token[0] == "go" || x.Token[0] == "toolchain") {
				return Request{}, fmt.Errorf("%s:%d: a %s block; want one %s line; fix %s at the base commit, or set go: in the recipe",
					name, x.Start.Line, x.Token[0], x.Token[0], name)
			}
		}
	}
	for _, l := range lines {
		if len(l.Token) == 0 || l.Token[0] != "go" && l.Token[0] != "toolchain" {
			continue
		}
		words := strings.Fields(string(data[l.Start.Byte:min(l.End.Byte, len(data))]))
		if i := slices.IndexFunc(words, func(w string) bool { return strings.HasPrefix(w, "//") }); i >= 0 {
			words = words[:i]
		}
		if len(words) != 2 {
			return Request{}, fmt.Errorf("%s:%d: %s line %q: want one version; fix %s at the base commit, or set go: in the recipe",
				name, l.Start.Line, l.Token[0], strings.Join(words, " "), name)
		}
		r := &rawLine{line: l.Start.Line, value: words[1]}
		if words[0] == "go" {
			goLine = r
		} else {
			tcLine = r
		}
	}
	if goLine == nil {
		return Request{}, fmt.Errorf("%s has no go line, so it names no Go version: set go: in the recipe (a version such as \"1.22.4\", or %s for the image's Go)", name, System)
	}
	goReq, err := ParseSpec(goLine.value, fmt.Sprintf("%s:%d (go %s)", name, goLine.line, goLine.value))
	if err != nil || strings.HasPrefix(goLine.value, "go") {
		return Request{}, fmt.Errorf("%s:%d: go line %q is not a Go version (1.22, 1.22.4, 1.21rc2); fix %s at the base commit, or set go: in the recipe",
			name, goLine.line, goLine.value, name)
	}
	if tcLine == nil || tcLine.value == "default" {
		return goReq, nil
	}
	tc := tcLine.value
	if !strings.HasPrefix(tc, "go") {
		return Request{}, fmt.Errorf("%s:%d: toolchain line %q is not a Go toolchain name (go1.22.4); fix %s at the base commit, or set go: in the recipe",
			name, tcLine.line, tc, name)
	}
	tcReq, err := ParseSpec(tc, fmt.Sprintf("%s:%d (toolchain %s)", name, tcLine.line, tc))
	if err != nil {
		// go1.22.4-custom, go1.22.4+auto: no module of the proxy.
		return Request{}, fmt.Errorf("%s:%d: toolchain %q is not a Go release the module proxy has (go1.22.4, go1.21rc2); set go: in the recipe to the release to use",
			name, tcLine.line, tc)
	}
	if Compare(tcReq.Version, goReq.Version) < 0 {
		return goReq, nil
	}
	return tcReq, nil
}

// rawLine is a go or toolchain line of a go.mod as written.
type rawLine struct {
	line  int
	value string
}

// Lister lists the versions of the toolchain module the module proxy has
// ("v0.0.1-go1.17.13.linux-amd64").
type Lister interface {
	Versions(ctx context.Context) ([]string, error)
}

// ModuleVersion is the toolchain module's version of a release for
// linux/arch: "v0.0.1-go1.22.0.linux-amd64".
func ModuleVersion(version, arch string) string {
	return "v0.0.1-go" + version + ".linux-" + arch
}

// Resolve turns a request into a release of linux/arch: an exact one as it
// is; a minor version before 1.21 into its newest release that the lister
// lists for linux/arch (go 1.17 -> 1.17.13), with a note for the build's
// log that says so.
func Resolve(ctx context.Context, req Request, arch string, l Lister) (version, note string, err error) {
	if req.Exact {
		return req.Version, "", nil
	}
	want, ok := parseRelease(req.Version)
	if !ok {
		return "", "", fmt.Errorf("%s: %q is not a Go version", req.Source, req.Version)
	}
	list, err := l.Versions(ctx)
	if err != nil {
		return "", "", fmt.Errorf("%s: list the Go releases of the module proxy: %w", req.Source, err)
	}
	prefix, suffix := "v0.0.1-go", ".linux-"+arch
	best, bestPatch := "", -1
	for _, mv := range list {
		v, ok := strings.CutPrefix(mv, prefix)
		if !ok {
			continue
		}
		if v, ok = strings.CutSuffix(v, suffix); !ok {
			continue
		}
		r, ok := parseRelease(v)
		if !ok || r.minor != want.minor || r.kind != "" {
			continue
		}
		// "1.17" is the minor version's first release, before 1.17.1.
		if p := max(r.patch, 0); p > bestPatch {
			best, bestPatch = v, p
		}
	}
	if best == "" {
		return "", "", fmt.Errorf("%s: the Go module proxy lists no go%s release for linux/%s (%s@%s*%s); set go: in the recipe to a release it has",
			req.Source, req.Version, arch, ModulePath, prefix+req.Version, suffix)
	}
	return best, fmt.Sprintf("%s: Go %s had no %s.0 release; using go%s, the newest %s release the Go module proxy lists for linux/%s",
		req.Source, req.Version, req.Version, best, req.Version, arch), nil
}
