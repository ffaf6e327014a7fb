package envfile

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	entries, err := ParseString("HOST=db\nURL=\"postgres://${HOST}:${PORT}/${HOST}\"\nHOST=cache\nTWICE=${HOST}${HOST}\nOPEN=${HOST\n")
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) (string, bool) {
		if name == "PORT" || name == "HOST" {
			return "from-env", true
		}
		return "", false
	}
	got, err := Expand(entries, lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{Key: "HOST", Value: "db", Line: 1},
		{Key: "URL", Value: "postgres://db:from-env/db", Line: 2},
		{Key: "HOST", Value: "cache", Line: 3},
		{Key: "TWICE", Value: "cachecache", Line: 4},
		{Key: "OPEN", Value: "${HOST", Line: 5},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Expand (-want +got):\n%s", diff)
	}
}

func TestExpandUndefined(t *testing.T) {
	entries := []Entry{{Key: "A", Value: "1", Line: 1}, {Key: "B", Value: "${A}${MISSING}", Line: 7}}
	_, err := Expand(entries, nil)
	var ue *UndefinedError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v, want an UndefinedError", err)
	}
	if diff := cmp.Diff(UndefinedError{Line: 7, Name: "MISSING"}, *ue); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err.Error() != "line 7: undefined variable MISSING" {
		t.Errorf("message %q", err.Error())
	}
}
