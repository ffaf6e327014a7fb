package rules

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lolbench/lolbench/pipeline/ep"
)

// TestR09TestSections pins which sections rule 9 takes for test sections:
// a title that names tests is enough; validation or verification needs a
// test section around it or a text that speaks of tests.
func TestR09TestSections(t *testing.T) {
	src := `# Specification

## API Validation

GreetIn rejects an empty name and validates the language code.

## Signature verification

The signature is checked before the table is read.

## Validation

The change is validated by unit tests of every table entry.

## Contest entries

Attestation of the greetings is not required.

# Test Plan

## Verification

Maintainers check the greetings by hand.

## Test vectors

One greeting per language.

# Testing

Nothing more.

# Verifying the table

It is tested in CI.
`
	doc, err := ep.Parse([]byte(src), ep.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for s, ok := range r09TestSections(doc) {
		if ok {
			got = append(got, s.ID+" "+s.Title)
		}
	}
	slices.Sort(got)
	want := []string{"1.3 Validation", "2 Test Plan", "2.1 Verification", "2.2 Test vectors", "3 Testing", "4 Verifying the table"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("test sections %q, want %q", got, want)
	}
}

// TestCodeFragments: a Markdown heading is never a code fragment, whatever
// code its title holds; a "#" comment of a code block is, with its inline
// code read as rule 22 reads it, unless a heading has its title.
func TestCodeFragments(t *testing.T) {
	src := "# The `Locales` table\n\nText.\n\n```sh\n# Fill the ``Locales`` table\n# The Locales table\n  #   Run   *greet*  \ngreet\n```\n\n## Two\n\n    # Indented code\n"
	doc, err := ep.Parse([]byte(src), ep.Markdown)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"fill the locales table": true, "run greet": true, "indented code": true}
	if got := codeFragments(doc); !reflect.DeepEqual(got, want) {
		t.Errorf("codeFragments = %v, want %v", got, want)
	}
	if got := codeFragments(nil); len(got) != 0 {
		t.Errorf("codeFragments(nil) = %v", got)
	}
}

// TestSameHeading compares summary-row titles with the plain heading
// titles pipeline/ep gives for either format.
func TestSameHeading(t *testing.T) {
	tests := []struct {
		heading, row string
		want         bool
	}{
		{"The Locales table", "The `Locales` table", true},
		{"The Locales table", "The ``Locales`` table", true},
		{"The Locales table", "the  LOCALES table", true},
		{"The Locales table", "The *Locales* table", true},
		{"The Locales table", "The `Locale` table", false},
		{"The __init__ method", "The `__init__` method", true},
		{"The __init__ method", "The __init__ method", true},
		{"SET_EX flag", "SETEX flag", false},
		{"a_b_ option", "a_b_ option", true}, // the plain title as written
		{"Core Metadata", ":term:`Core Metadata`", true},
	}
	for _, tt := range tests {
		if got := sameHeading(tt.heading, tt.row); got != tt.want {
			t.Errorf("sameHeading(%q, %q) = %v, want %v", tt.heading, tt.row, got, tt.want)
		}
	}
}
