package registry

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

const webEntry = `projects:
  - name: jdk
    repo: openjdk/jdk
    language: Java
    domain: language runtime
    eps:
      kind: web
      url: "https://openjdk.org/jeps/{n}"
      profile: jep
      pages:
        - ep: 444
        - {ep: "0453", url: "https://example.org/jep-453.html", created: 2023-03-06}
      name: "JEP {n}"
    links: {search: {patterns: ["JEP {n}"]}}
`

// A web source lists its pages; each has an address, its own or the
// pattern's, and may carry the curator's created date.
func TestWebSource(t *testing.T) {
	r, err := Parse("p.yaml", "/reg", []byte(webEntry))
	if err != nil {
		t.Fatal(err)
	}
	e := &r.Projects[0].EPs
	if got := []string{e.PageURL(e.Pages[0]), e.PageURL(e.Pages[1])}; !reflect.DeepEqual(got, []string{"https://openjdk.org/jeps/444", "https://example.org/jep-453.html"}) {
		t.Errorf("page URLs %v", got)
	}
	if !e.Pages[0].CreatedAt.IsZero() || !e.Pages[1].CreatedAt.Equal(time.Date(2023, 3, 6, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("created %v, %v", e.Pages[0].CreatedAt, e.Pages[1].CreatedAt)
	}
	dir, err := r.WebDir(r.Projects[0])
	if err != nil || dir != "/reg/web/jdk" {
		t.Errorf("WebDir = %s, %v", dir, err)
	}
}

func TestMetadataErrors(t *testing.T) {
	entry := func(eps string) string {
		return "projects:\n  - name: x\n    repo: o/r\n    language: Go\n    domain: d\n    eps:\n" + eps + "    links: {search: {patterns: [\"X {n}\"]}}\n"
	}
	tests := []struct{ name, src, want string }{
		{"web problems", entry("      kind: web\n      url: ftp://x/{n}\n      glob: \"*\"\n      format: rst\n      name: \"X {n}\"\n      pages:\n        - {ep: 1, url: \"https://a b\"}\n        - {ep: \"01\", created: soon}\n        - {url: \"https://x\"}\n"), strings.Join([]string{
			`p.yaml:8: projects[0].eps.url: "ftp://x/{n}": want an http:// or https:// address`,
			`p.yaml:9: projects[0].eps.glob: kind web reads the pages it lists; drop glob`,
			`p.yaml:10: projects[0].eps.format: "rst": kind web reads html or dokuwiki pages`,
			`p.yaml:13: projects[0].eps.pages[0].url: "https://a b": an address has no blanks or line breaks`,
			`p.yaml:14: projects[0].eps.pages[1].ep: proposal 01 is already listed by pages[0]`,
			`p.yaml:14: projects[0].eps.pages[1].created: "soon" is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z)`,
			`p.yaml:15: projects[0].eps.pages[2].ep: required: the proposal number`,
		}, "\n")},
		{"web without pages", entry("      kind: web\n      name: \"X {n}\"\n"), "p.yaml:6: projects[0].eps.pages: required for kind web: the proposals' numbers (and addresses, without url)"},
		{"a page without an address", entry("      kind: web\n      name: \"X {n}\"\n      pages: [{ep: 1}]\n"), "p.yaml:9: projects[0].eps.pages[0].url: required without eps.url"},
		{"pages elsewhere", entry("      kind: git\n      path: r\n      glob: \"*\"\n      url: \"https://x/{n}\"\n      name: \"X {n}\"\n"), "p.yaml:10: projects[0].eps.url: only kind web lists pages"},
		{"profiles", entry("      kind: local\n      dir: e\n      glob: \"*\"\n      format: markdown\n      profile: jep\n      name: \"X {n}\"\n"), "p.yaml:11: projects[0].eps.profile: only format html has profiles"},
		{"unknown profile", entry("      kind: local\n      dir: e\n      glob: \"*\"\n      format: html\n      profile: wiki\n      name: \"X {n}\"\n"), `p.yaml:11: projects[0].eps.profile: "wiki": want one of jep, confluence, generic (or leave it out to pick it per page)`},
		{"places", entry("      kind: local\n      dir: e\n      glob: \"*\"\n      format: html\n      name: \"X {n}\"\n      id_key: x\n      metadata:\n        number: [\"path:([0-9]+\", \"bullet\"]\n        title: [\"front-matter:title\", \"field:Title\"]\n        status: [\"bullet:\"]\n        created: [\"regex:" + strings.Repeat("a", 600) + "\"]\n"), strings.Join([]string{
			`p.yaml:12: projects[0].eps.id_key: metadata.number says where the number is; drop id_key`,
			"p.yaml:14: projects[0].eps.metadata.number[0]: \"path:([0-9]+\": error parsing regexp: missing closing ): `([0-9]+`",
			`p.yaml:14: projects[0].eps.metadata.number[1]: "bullet": want kind:key, the kind one of front-matter, header, field, bullet, table, list, regex, path`,
			`p.yaml:15: projects[0].eps.metadata.title[0]: html has no front matter; use header, field, bullet, table, list or regex`,
			`p.yaml:15: projects[0].eps.metadata.title[1]: field lists are reStructuredText; html has none`,
			`p.yaml:16: projects[0].eps.metadata.status[0]: "bullet:": the key must be one line of 1 to 64 bytes`,
			`p.yaml:17: projects[0].eps.metadata.created[0]: "regex:...": a pattern of 600 bytes; at most 512`,
		}, "\n")},
		{"issues have no files", entry("      kind: github-issues\n      label: p\n      format: markdown\n      name: \"X {n}\"\n      metadata: {status: [\"bullet:Status\"]}\n"), strings.Join([]string{
			`p.yaml:9: projects[0].eps.format: kind github-issues has no files; drop format`,
			`p.yaml:11: projects[0].eps.metadata.status[0]: kind github-issues takes its metadata from the issue`,
		}, "\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("p.yaml", "/reg", []byte(tt.src))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
}

// Places are the declared ones, else the format's preset; id_key is the
// number's header key.
func TestPlaces(t *testing.T) {
	str := func(ps []Place) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.String())
		}
		return out
	}
	e := &EPSource{Metadata: Declared{Status: []string{"bullet:Status"}}}
	for _, tc := range []struct {
		src           *EPSource
		field, format string
		want          []string
	}{
		{e, "status", FormatPEP, []string{"bullet:Status"}},
		{e, "created", FormatPEP, []string{"header:Created"}},
		{e, "created", FormatRST, []string{"field:Created"}},
		{e, "number", FormatRST, []string{}},
		{e, "title", FormatRustRFC, []string{"bullet:Feature Name"}},
		{e, "status", FormatHTML, []string{"bullet:Status"}},
		{e, "status", FormatDokuWiki, []string{"bullet:Status"}},
		{&EPSource{}, "status", FormatHTML, []string{"header:Status", "header:Current state"}},
		{&EPSource{}, "created", FormatDokuWiki, []string{"header:Date"}},
		{&EPSource{IDKey: "tkep"}, "number", FormatMarkdown, []string{"header:tkep"}},
	} {
		if got := str(tc.src.Places(tc.field, tc.format)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s of %s: %v, want %v", tc.field, tc.format, got, tc.want)
		}
	}
}

func TestParseTimeProposalSpellings(t *testing.T) {
	for in, want := range map[string]string{
		"2024\u201102\u201107": "2024-02-07T00:00:00Z", // a DEP's non-breaking hyphens
		"2019-04":              "2019-04-01T00:00:00Z", // a SLEP's
		"2024/01/15 10:30":     "2024-01-15T10:30:00Z", // a JEP's
		"Mar 04, 2025":         "2025-03-04T00:00:00Z", // Confluence's
		"20241206":             "2024-12-06T00:00:00Z", // an OpenTofu file name's
		"(2016-06-17)":         "2016-06-17T00:00:00Z", // a Rust RFC's
		"2023-10-3":            "2023-10-03T00:00:00Z",
		"July 2021":            "2021-07-01T00:00:00Z", // pandas PDEP-7's
		"3 August 2022":        "2022-08-03T00:00:00Z", // pandas PDEP-1's
	} {
		got, err := ParseTime(in)
		if err != nil || got.Format(time.RFC3339) != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"2014-19-19", "yyyy-mm-dd", "(fill me in with today's date, YYYY-MM-DD)"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}
