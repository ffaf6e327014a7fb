package envfile

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestQuotedValues(t *testing.T) {
	got, err := ParseString(`A="hello world"
B='single $HOME'
C="tab\tnew\nline \"q\" \\ \$HOME"
D='${NOT_EXPANDED} \n'
E=bare value # comment
F="x" # comment
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "A", Value: "hello world", Line: 1},
		{Key: "B", Value: "single $HOME", Line: 2},
		{Key: "C", Value: "tab\tnew\nline \"q\" \\ $HOME", Line: 3},
		{Key: "D", Value: `${NOT_EXPANDED} \n`, Line: 4},
		{Key: "E", Value: "bare value", Line: 5},
		{Key: "F", Value: "x", Line: 6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse (-want +got):\n%s", diff)
	}
}

func TestQuoteErrors(t *testing.T) {
	for in, want := range map[string]SyntaxError{
		`A="open`:     {Line: 1, Msg: "unterminated double quote"},
		`A='open`:     {Line: 1, Msg: "unterminated single quote"},
		`A="x" y`:     {Line: 1, Msg: "text after closing quote"},
		`A="bad \q"`:  {Line: 1, Msg: `unknown escape \q`},
		"A=1\nB=\"\\": {Line: 2, Msg: "unterminated double quote"},
	} {
		_, err := ParseString(in)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: error %v, want a SyntaxError", in, err)
		}
		if diff := cmp.Diff(want, *se); diff != "" {
			t.Errorf("%q (-want +got):\n%s", in, diff)
		}
	}
}
