package envfile

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	got, err := ParseString("# settings\nHOST=localhost\n\nexport PORT = 8080\nEMPTY=\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "HOST", Value: "localhost", Line: 2},
		{Key: "PORT", Value: "8080", Line: 4},
		{Key: "EMPTY", Value: "", Line: 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want SyntaxError
	}{
		{"A=1\nnot an assignment\n", SyntaxError{Line: 2, Msg: "missing ="}},
		{"1A=x\n", SyntaxError{Line: 1, Msg: `invalid key "1A"`}},
		{"=x\n", SyntaxError{Line: 1, Msg: `invalid key ""`}},
	} {
		_, err := ParseString(tc.in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: error %v, want a SyntaxError", tc.in, err)
		}
		if diff := cmp.Diff(tc.want, *se); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestMap(t *testing.T) {
	got := Map([]Entry{{Key: "A", Value: "1"}, {Key: "B", Value: "2"}, {Key: "A", Value: "3"}})
	if diff := cmp.Diff(map[string]string{"A": "3", "B": "2"}, got); diff != "" {
		t.Errorf("Map (-want +got):\n%s", diff)
	}
}
