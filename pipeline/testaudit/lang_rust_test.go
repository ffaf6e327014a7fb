package testaudit

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// versoProduct is the verso sample's source after its PR.
func versoProduct(t *testing.T) []File {
	t.Helper()
	var out []File
	for _, f := range []string{"error.rs", "identifier.rs", "lib.rs", "req.rs", "version.rs"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "verso", "pr", "src", f))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Path: "src/" + f, Source: b})
	}
	return out
}

// TestRustAudit: a generated test that calls pub(crate) and private
// functions inside the crate, or reads a private method, is narrow; one
// that goes through the public API (pub items, trait methods, enum
// variants, public fields) is not; a PR symbol the EP never names is
// undocumented.
func TestRustAudit(t *testing.T) {
	ep, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "verso", "ep.md"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, src string
		want      []string
	}{
		{"public API", `use verso::{Matches, Version, VersionReq};

#[test]
fn caret() {
    let req: VersionReq = "^1.2.3".parse().unwrap();
    let v = Version::parse("1.9.0").unwrap();
    assert!(req.matches(&v));
    assert_eq!(v.pre, vec![]);
    assert!(!v.is_prerelease());
}
`, []string{}},
		{"crate internals", `use super::*;

#[test]
fn internals() {
    assert_eq!(split_op(">=1.0.0").unwrap().0, Op::GreaterEq);
    let c = Comparator::parse("~1.2.3").unwrap();
    assert_eq!(c.upper().to_string(), "1.3.0");
    assert!(Version::new(1, 0, 0).same_release(&Version::new(1, 0, 0)));
}
`, []string{
			"line 5: calls the private `split_op`",
			"line 7: calls the private `upper`",
			"line 8: calls the pub(crate) `same_release`",
		}},
		{"undocumented", `#[test]
fn numeric() {
    assert!(verso::Identifier::Numeric(1).is_numeric());
}
`, []string{"line 3: calls `is_numeric`, which the PR introduces and the EP never names"}},
	}
	for _, c := range cases {
		rep, err := Audit(context.Background(), Input{Language: "Rust", Test: File{Path: "tests/gen.rs", Source: []byte(c.src)},
			Product: versoProduct(t), NewSymbols: []string{"Identifier", "is_numeric", "VersionReq", "Matches", "matches", "split_op", "upper", "same_release", "is_prerelease"}, EP: ep})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := []string{}
		for _, f := range rep.Findings {
			got = append(got, f.String())
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
	}
	tests, err := TestFuncs(context.Background(), "Rust", File{Path: "tests/x.rs", Source: []byte("#[test]\nfn a() {}\n#[tokio::test]\nasync fn b() {}\nfn helper() {}\n#[test]\n#[should_panic]\nfn c() {}\n")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tf := range tests {
		names = append(names, tf.Name)
	}
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(names, want) {
		t.Errorf("tests %q, want %q", names, want)
	}
}
