package collect

import (
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/registry"
)

func TestParseEP(t *testing.T) {
	date := func(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }
	pep := "PEP: 617\nTitle: New PEG parser for CPython\nAuthor: Guido van Rossum <guido@python.org>,\n        Pablo Galindo\nStatus: Final\nType: Standards Track\nCreated: 24-Mar-2020\n\n========\nOverview\n========\n\nText.\n"
	kep := "title: In-place Update of Pod Resources\nkep-number: 1287\nauthors:\n  - \"@kgolab\"\nstatus: implementable\ncreation-date: 2018-11-06\nmilestone:\n  alpha: \"v1.27\"\n"
	rust := "- Feature Name: `ptr-meta`\n- Start Date: 2018-10-26\n- RFC PR: https://github.com/rust-lang/rfcs/pull/2580\n- Rust Issue: https://github.com/rust-lang/rust/issues/81513\n\n# Summary\n"
	front := "---\ntkep: 2\ntitle: Key expiry\nstatus: Accepted\ncreated: 2026-03-02\n---\n\n## Abstract\n\nText.\n"
	prom := "# UTF-8 Support for Metric and Label names\n\n* **Owners:**\n  * someone\n\n## Why\n"
	tests := []struct {
		name   string
		src    registry.EPSource
		raw    rawEP
		want   EP // Text and Path are not compared
		reason string
	}{
		{"pep", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "peps/pep-0617.rst", content: []byte(pep)},
			EP{Number: "617", ID: "PEP 617", Title: "New PEG parser for CPython", Status: "Final", Created: date("2020-03-24"), CreatedFrom: "metadata", Format: ep.RST}, ""},
		{"pep as .txt without header: number from the name", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "pep-0008.txt", content: []byte("Style\n=====\n\nText.\n")},
			EP{Number: "8", ID: "PEP 8", Title: "Style", Format: ep.RST}, ""},
		{"kep", registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP},
			rawEP{path: "keps/sig-node/1287-in-place-update-pod-resources/kep.yaml", content: []byte(kep), text: []byte("# KEP-1287\n")},
			EP{Number: "1287", ID: "KEP-1287", Title: "In-place Update of Pod Resources", Status: "implementable", Created: date("2018-11-06"), CreatedFrom: "metadata", Format: ep.Markdown}, ""},
		{"rust rfc", registry.EPSource{Name: "RFC {n}", Format: registry.FormatRustRFC}, rawEP{path: "text/2580-ptr-meta.md", content: []byte(rust)},
			EP{Number: "2580", ID: "RFC 2580", Title: "ptr-meta", Created: date("2018-10-26"), CreatedFrom: "metadata", Format: ep.Markdown}, ""},
		{"front matter with an id key", registry.EPSource{Name: "TKEP-{n}", IDKey: "tkep"}, rawEP{path: "ep.md", content: []byte(front)},
			EP{Number: "2", ID: "TKEP-2", Title: "Key expiry", Status: "Accepted", Created: date("2026-03-02"), CreatedFrom: "metadata", Format: ep.Markdown}, ""},
		{"markdown without front matter", registry.EPSource{Name: "proposal {n}", Format: registry.FormatMarkdown}, rawEP{path: "proposals/0028-utf8.md", content: []byte(prom)},
			EP{Number: "28", ID: "proposal 28", Title: "UTF-8 Support for Metric and Label names", Format: ep.Markdown}, ""},
		{"no number anywhere", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "peps/template.rst", content: []byte("Title\n=====\n")},
			EP{}, "no proposal number in the metadata or the file name of peps/template.rst"},
		{"bad date", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "pep-1.rst", content: []byte("PEP: 1\nCreated: someday\n\nText\n")},
			EP{}, `created date: "someday" is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z)`},
		{"invalid UTF-8", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "pep-1.rst", content: []byte("PEP: 1\n\n\xff\xfe\n")},
			EP{}, "line 3: invalid UTF-8 encoding (EP documents must be UTF-8)"},
		{"kep without its text", registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP},
			rawEP{path: "keps/x/1-a/kep.yaml", content: []byte(kep), textErr: "keps/x/1-a/README.md: file not found"},
			EP{}, "unreadable: keps/x/1-a/README.md: file not found"},
		{"unknown extension", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "pep-1.docx", content: []byte("x")},
			EP{}, "cannot tell the format of pep-1.docx; set eps.format"},
		{"kep yaml that is a list", registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP}, rawEP{path: "k/1/kep.yaml", content: []byte("- a\n")},
			EP{}, "yaml: not a mapping"},
		{"kep yaml alias is not expanded", registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP},
			rawEP{path: "k/7-x/kep.yaml", content: []byte("a: &x 1\ntitle: *x\n"), text: []byte("t")},
			EP{Number: "7", ID: "KEP-7", Title: "x", Format: ep.Markdown}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := parseEP(&tt.src, tt.raw)
			if reason != tt.reason {
				t.Fatalf("reason = %q, want %q", reason, tt.reason)
			}
			if reason != "" {
				return
			}
			got.Text, got.Path = nil, ""
			if got.Number != tt.want.Number || got.ID != tt.want.ID || got.Title != tt.want.Title || got.Status != tt.want.Status ||
				!got.Created.Equal(tt.want.Created) || got.CreatedFrom != tt.want.CreatedFrom || got.Format != tt.want.Format {
				t.Fatalf("got %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}
