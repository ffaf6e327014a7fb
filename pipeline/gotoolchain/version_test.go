package gotoolchain

import (
	"context"
	"errors"
	"testing"
)

// TestFromGoMod: the toolchain line wins, else the go line; a go line of
// 1.21 or later without a patch means its .0 release, an earlier one the
// newest patch (not exact); malformed lines are errors naming go.mod and
// the line.
func TestFromGoMod(t *testing.T) {
	tests := []struct {
		name, gomod string
		want        Request
		err         string
	}{
		{"go 1.22", "module m\n\ngo 1.22\n", Request{Version: "1.22.0", Exact: true, Source: "go.mod:3 (go 1.22)"}, ""},
		{"go 1.21", "module m\ngo 1.21\n", Request{Version: "1.21.0", Exact: true, Source: "go.mod:2 (go 1.21)"}, ""},
		{"go 1.17", "module m\n\ngo 1.17\n", Request{Version: "1.17", Source: "go.mod:3 (go 1.17)"}, ""},
		{"go 1.20", "module m\ngo 1.20\n", Request{Version: "1.20", Source: "go.mod:2 (go 1.20)"}, ""},
		{"go with patch", "module m\ngo 1.22.4\n", Request{Version: "1.22.4", Exact: true, Source: "go.mod:2 (go 1.22.4)"}, ""},
		{"release candidate", "module m\ngo 1.21rc2\n", Request{Version: "1.21rc2", Exact: true, Source: "go.mod:2 (go 1.21rc2)"}, ""},
		{"toolchain wins", "module m\n\ngo 1.21.3\n\ntoolchain go1.22.4\n\nrequire example.com/x v1.0.0\n",
			Request{Version: "1.22.4", Exact: true, Source: "go.mod:5 (toolchain go1.22.4)"}, ""},
		{"comments", "// m is a module\nmodule m\n\ngo 1.22 // range over int\ntoolchain go1.22.4 // pinned\n",
			Request{Version: "1.22.4", Exact: true, Source: "go.mod:5 (toolchain go1.22.4)"}, ""},
		{"toolchain default", "module m\ngo 1.22.1\ntoolchain default\n", Request{Version: "1.22.1", Exact: true, Source: "go.mod:2 (go 1.22.1)"}, ""},
		{"toolchain older than go", "module m\ngo 1.23.0\ntoolchain go1.22.4\n", Request{Version: "1.23.0", Exact: true, Source: "go.mod:2 (go 1.23.0)"}, ""},
		{"malformed go line", "module m\n\ngo 1.2x\n", Request{},
			`go.mod:3: go line "1.2x" is not a Go version (1.22, 1.22.4, 1.21rc2); fix go.mod at the base commit, or set go: in the recipe`},
		{"go line with go prefix", "module m\ngo go1.22\n", Request{},
			`go.mod:2: invalid go version 'go1.22': must match format 1.23.0; fix go.mod at the base commit, or set go: in the recipe`},
		{"go line with two words", "module m\ngo 1.22 1.23\n", Request{},
			`go.mod:2: go directive expects exactly one argument; fix go.mod at the base commit, or set go: in the recipe`},
		{"custom toolchain", "module m\ngo 1.22\ntoolchain go1.22.4-custom\n", Request{},
			`go.mod:3: toolchain "go1.22.4-custom" is not a Go release the module proxy has (go1.22.4, go1.21rc2); set go: in the recipe to the release to use`},
		{"toolchain without go", "module m\ngo 1.22\ntoolchain 1.22.4\n", Request{},
			`go.mod:3: toolchain line "1.22.4" is not a Go toolchain name (go1.22.4); fix go.mod at the base commit, or set go: in the recipe`},
		{"no go line", "module m\n", Request{},
			`go.mod has no go line, so it names no Go version: set go: in the recipe (a version such as "1.22.4", or system for the image's Go)`},
		{"syntax error", "module m\nrequire (\n", Request{},
			`go.mod:3: syntax error (unterminated block started at go.mod:2:1); fix go.mod at the base commit, or set go: in the recipe`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FromGoMod("go.mod", []byte(tt.gomod))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v\nwant %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestParseSpec: the recipe's go: field.
func TestParseSpec(t *testing.T) {
	for in, want := range map[string]Request{
		"1.22.4":  {Version: "1.22.4", Exact: true, Source: "recipe"},
		"go1.22":  {Version: "1.22.0", Exact: true, Source: "recipe"},
		"1.19":    {Version: "1.19", Source: "recipe"},
		"1.18rc1": {Version: "1.18rc1", Exact: true, Source: "recipe"},
	} {
		if got, err := ParseSpec(in, "recipe"); err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "1", "1.2x", "2.0.0", "1.22.", "1.022", "system"} {
		if _, err := ParseSpec(bad, "recipe"); err == nil || err.Error() != `"`+bad+`" is not a Go version (1.22, 1.22.4, 1.21rc2)` {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestCompare(t *testing.T) {
	order := []string{"1.9", "1.17", "1.17.13", "1.20", "1.20.1", "1.21", "1.21beta1", "1.21rc1", "1.21rc2", "1.21.0", "1.21.10", "1.22.0", "go1.22.4"}
	for i := range order {
		for j := range order {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if order[i] == "1.20" && order[j] == "1.20" {
				want = 0
			}
			if got := Compare(order[i], order[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", order[i], order[j], got, want)
			}
		}
	}
}

type listed []string

func (l listed) Versions(context.Context) ([]string, error) { return l, nil }

type failList struct{}

func (failList) Versions(context.Context) ([]string, error) { return nil, errors.New("proxy down") }

// TestResolve: go 1.17 is the newest 1.17.x the proxy lists for the
// architecture (release candidates and other platforms aside); an exact
// version needs no list.
func TestResolve(t *testing.T) {
	list := listed{"v0.0.1-go1.17.1.linux-amd64", "v0.0.1-go1.17.13.linux-amd64", "v0.0.1-go1.17.6.linux-amd64",
		"v0.0.1-go1.17.14.linux-arm64", "v0.0.1-go1.17.14.darwin-amd64", "v0.0.1-go1.17rc2.linux-amd64", "v0.0.1-go1.18.linux-amd64",
		"v0.0.1-go1.20.linux-amd64", "v0.0.1-go1.171.linux-amd64", "garbage"}
	tests := []struct {
		req           Request
		arch          string
		l             Lister
		version, note string
		err           string
	}{
		{Request{Version: "1.17", Source: "go.mod:3 (go 1.17)"}, "amd64", list, "1.17.13",
			"go.mod:3 (go 1.17): Go 1.17 had no 1.17.0 release; using go1.17.13, the newest 1.17 release the Go module proxy lists for linux/amd64", ""},
		{Request{Version: "1.17", Source: "recipe go: 1.17"}, "arm64", list, "1.17.14",
			"recipe go: 1.17: Go 1.17 had no 1.17.0 release; using go1.17.14, the newest 1.17 release the Go module proxy lists for linux/arm64", ""},
		{Request{Version: "1.18", Source: "s"}, "amd64", list, "1.18", "s: Go 1.18 had no 1.18.0 release; using go1.18, the newest 1.18 release the Go module proxy lists for linux/amd64", ""},
		{Request{Version: "1.22.0", Exact: true, Source: "s"}, "amd64", failList{}, "1.22.0", "", ""},
		{Request{Version: "1.19", Source: "go.mod:3 (go 1.19)"}, "amd64", list, "", "",
			"go.mod:3 (go 1.19): the Go module proxy lists no go1.19 release for linux/amd64 (golang.org/toolchain@v0.0.1-go1.19*.linux-amd64); set go: in the recipe to a release it has"},
		{Request{Version: "1.17", Source: "s"}, "amd64", failList{}, "", "", "s: list the Go releases of the module proxy: proxy down"},
	}
	for _, tt := range tests {
		v, note, err := Resolve(context.Background(), tt.req, tt.arch, tt.l)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%+v: err = %v\nwant %s", tt.req, err, tt.err)
			}
			continue
		}
		if err != nil || v != tt.version || note != tt.note {
			t.Errorf("%+v: got %q, %q, %v\nwant %q, %q", tt.req, v, note, err, tt.version, tt.note)
		}
	}
}
