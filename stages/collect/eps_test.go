package collect

import (
	"maps"
	"reflect"
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
		// Listed without a date, with a warning (TestUnreadableDate).
		{"bad date", registry.EPSource{Name: "PEP {n}"}, rawEP{path: "pep-1.rst", content: []byte("PEP: 1\nCreated: someday\n\nText\n")},
			EP{Number: "1", ID: "PEP 1", Title: "pep 1", CreatedFrom: CreatedUnreadable, Format: ep.RST}, ""},
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
		t.Run(tt.name, func(t *testing.T) { checkParseEP(t, &tt.src, tt.raw, tt.want, nil, tt.reason) })
	}
}

// checkParseEP parses raw and compares the proposal's fields (Text and
// Path aside), and where the fields came from unless from is nil, or the
// reason it was dropped.
func checkParseEP(t *testing.T, src *registry.EPSource, raw rawEP, want EP, from map[string]string, wantReason string) {
	t.Helper()
	got, reason := parseEP(src, raw)
	if reason != wantReason {
		t.Fatalf("reason = %q, want %q", reason, wantReason)
	}
	if reason != "" {
		return
	}
	got.Text, got.Path = nil, ""
	if got.Number != want.Number || got.ID != want.ID || got.Title != want.Title || got.Status != want.Status ||
		!got.Created.Equal(want.Created) || got.CreatedFrom != want.CreatedFrom || got.Format != want.Format {
		t.Fatalf("got %+v\nwant %+v", *got, want)
	}
	if from != nil && !maps.Equal(got.From, from) {
		t.Fatalf("from = %v\nwant %v", got.From, from)
	}
}

// TestParseEPFamilies reads one proposal of every family the paper's
// projects use (docs/projects.md shows their registry entries), shaped
// like the real files, and checks every field and where it came from.
func TestParseEPFamilies(t *testing.T) {
	date := func(s string) time.Time { t, _ := registry.ParseTime(s); return t }
	dep := "=============================\nDEP 0014: Background workers\n=============================\n\n:DEP: 0014\n:Author: A. Author\n:Implementation Team: A. Author\n:Status: Accepted\n:Type: Feature\n:Created: 2024\u201102\u201107\n\n.. contents:: Table of Contents\n   :depth: 3\n\nAbstract\n========\n\nText.\n"
	slep := ".. _slep_006:\n\n=================\nSLEP006: Routing\n=================\n\n:Author: A. Author,\n         B. Author\n:Status: Withdrawn (superseded by :ref:`SLEP007 <slep_007>`)\n:Type: Standards Track\n:Created: 2019-04\n\nAbstract\n########\n"
	grfc := "A27: xDS-Based Global Load Balancing\n----\n* Author(s): A. Author\n* Approver: b\n* Status: Implemented\n* Implemented in: C-core, Java, Go\n* Last updated: 2021-01-20\n* Discussion at: https://groups.google.com/g/grpc-io/c/x\n\n## Abstract\n\nText.\n"
	prom := "## Proposal IDs\n\n* **Owners:**\n  * `@someone`\n\n* **Implementation Status:** `Implemented`\n\n* **Related Issues and PRs:**\n  * https://github.com/prometheus/proposals/issues/51\n\n## Why\n"
	promNested := "# Secure cluster traffic\n\n* **Owners:**\n  * Someone\n\n* **Implementation Status:**\n  * Partially implemented\n\n## Status Quo\n"
	csharp := "# Primary constructors\n\n[!INCLUDE[Specletdisclaimer](../speclet-disclaimer.md)]\n\nChampion issue: <https://github.com/dotnet/csharplang/issues/2691>\n\n## Summary\n"
	tofu := "# OpenTofu Providers and Modules from OCI Registries\n\nIssue: https://github.com/opentofu/opentofu/issues/308\n\n## Background\n"
	jep := "<html><head><title>JEP 9001: Scoped Widget Pools</title></head><body><div id=main><h1>JEP 9001: Scoped Widget Pools</h1><table class=head><tr><th>Owner</th><td>A. Author</td></tr><tr><th>Status</th><td>Closed&#8201;/&#8201;Delivered</td></tr><tr><th>Created</th><td>2024/01/15 10:30</td></tr></table><h2>Summary</h2><p>x</p></div><div id=sidebar><h2>Nav</h2></div></body></html>"
	kip := "<html><body><div id=main><h1 id=title-heading><span id=title-text>KIP-9100: Tiered Offsets</span></h1><div class=page-metadata>Created by A. Author, last modified on Mar 04, 2025</div><div id=main-content class=wiki-content><h1>Status</h1><p><strong>Current state</strong>: Accepted</p><p><strong>JIRA</strong>: <a href='https://issues.example.org/browse/KAFKA-99100'>KAFKA-99100</a></p><h1>Motivation</h1><p>x</p></div></div></body></html>"
	php := "====== PHP RFC: Sealed Enum Cases ======\n  * Version: 0.3\n  * Date: 2024-02-19\n  * Author: A. Author\n  * Status: Implemented\n\n===== Introduction =====\n\nText.\n"
	web := func(n string, created string) *registry.Page {
		pg := &registry.Page{EP: registry.Number(n)}
		pg.CreatedAt = date(created)
		return pg
	}
	tests := []struct {
		name   string
		src    registry.EPSource
		raw    rawEP
		want   EP // Text and Path are not compared
		from   map[string]string
		reason string
	}{
		{"DEP: a field list after the title, dates with non-breaking hyphens",
			registry.EPSource{Name: "DEP {n}", Format: registry.FormatRST, Metadata: registry.Declared{Number: []string{"field:DEP"}}},
			rawEP{path: "final/0014-background-workers.rst", content: []byte(dep)},
			EP{Number: "14", ID: "DEP 14", Title: "Background workers", Status: "Accepted", Created: date("2024-02-07"), CreatedFrom: "metadata", Format: ep.RST},
			map[string]string{"number": "field:DEP", "title": FromHeading, "status": "field:Status", "created": "field:Created", "type": "field:Type", "authors": "field:Author"}, ""},
		{"SLEP: number from the folder, a continued field, a year and month",
			registry.EPSource{Name: "SLEP {n}", Format: registry.FormatRST},
			rawEP{path: "slep006/proposal.rst", content: []byte(slep)},
			EP{Number: "6", ID: "SLEP 6", Title: "Routing", Status: "Withdrawn (superseded by SLEP007)", Created: date("2019-04-01"), CreatedFrom: "metadata", Format: ep.RST},
			map[string]string{"number": FromFileName, "title": FromHeading, "status": "field:Status", "created": "field:Created", "type": "field:Type", "authors": "field:Author"}, ""},
		{"gRFC: bullets, a lettered number from the file name, no created date",
			registry.EPSource{Name: "gRFC {n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{
				Number: []string{`path:^([AGLP][0-9]+)-`}, Status: []string{"bullet:Status"}}},
			rawEP{path: "A27-xds-global-load-balancing.md", content: []byte(grfc)},
			EP{Number: "A27", ID: "gRFC A27", Title: "xDS-Based Global Load Balancing", Status: "Implemented", Format: ep.Markdown},
			map[string]string{"number": `path:^([AGLP][0-9]+)-`, "title": FromHeading, "status": "bullet:Status", "authors": "bullet:Author(s)"}, ""},
		{"Prometheus: bold bullets, the value in code",
			registry.EPSource{Name: "PROM-{n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{Status: []string{"bullet:Implementation Status", "bullet:Implementation"}}},
			rawEP{path: "proposals/0053-proposal-ids.md", content: []byte(prom)},
			EP{Number: "53", ID: "PROM-53", Title: "Proposal IDs", Status: "Implemented", Format: ep.Markdown},
			map[string]string{"number": FromFileName, "title": FromHeading, "status": "bullet:Implementation Status", "authors": "bullet:Owners"}, ""},
		{"Prometheus: the value one line down, nested",
			registry.EPSource{Name: "PROM-{n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{Status: []string{"bullet:Implementation Status"}}},
			rawEP{path: "proposals/0002-am-secure-cluster.md", content: []byte(promNested)},
			EP{Number: "2", ID: "PROM-2", Title: "Secure cluster traffic", Status: "Partially implemented", Format: ep.Markdown},
			map[string]string{"number": FromFileName, "title": FromHeading, "status": "bullet:Implementation Status", "authors": "bullet:Owners"}, ""},
		{"C# proposal: the champion issue is the number, the folder the status",
			registry.EPSource{Name: "csharplang#{n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{
				Number: []string{`regex:Champion issue: <?https://github\.com/dotnet/csharplang/issues/([0-9]+)`},
				Status: []string{`path:^proposals/([^/]+)/`}}},
			rawEP{path: "proposals/csharp-12.0/primary-constructors.md", content: []byte(csharp)},
			EP{Number: "2691", ID: "csharplang#2691", Title: "Primary constructors", Status: "csharp-12.0", Format: ep.Markdown},
			map[string]string{"number": `regex:Champion issue: <?https://github\.com/dotnet/csharplang/issues/([0-9]+)`, "title": FromHeading, "status": `path:^proposals/([^/]+)/`}, ""},
		{"OpenTofu RFC: the issue is the number, the file name the date",
			registry.EPSource{Name: "RFC #{n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{
				Number:  []string{`regex:(?m)^Issue: https://github\.com/opentofu/opentofu/issues/([0-9]+)`},
				Created: []string{`path:^rfc/([0-9]{8})-`}}},
			rawEP{path: "rfc/20241206-oci-registries.md", content: []byte(tofu)},
			EP{Number: "308", ID: "RFC #308", Title: "OpenTofu Providers and Modules from OCI Registries", Created: date("2024-12-06"), CreatedFrom: "metadata", Format: ep.Markdown},
			map[string]string{"number": `regex:(?m)^Issue: https://github\.com/opentofu/opentofu/issues/([0-9]+)`, "title": FromHeading, "created": `path:^rfc/([0-9]{8})-`}, ""},
		{"JEP page: title and header table",
			registry.EPSource{Name: "JEP {n}", Kind: registry.KindWeb, Format: registry.FormatHTML},
			rawEP{path: "9001.html", content: []byte(jep), page: web("9001", "")},
			EP{Number: "9001", ID: "JEP 9001", Title: "Scoped Widget Pools", Status: "Closed / Delivered", Created: date("2024-01-15T10:30:00Z"), CreatedFrom: "metadata", Format: ep.HTML},
			map[string]string{"number": FromRegistry, "title": "header:Title", "status": "header:Status", "created": "header:Created", "authors": "header:Owner"}, ""},
		{"KIP page: the status line; a modified page's date is no created date, the registry's is",
			registry.EPSource{Name: "KIP-{n}", Kind: registry.KindWeb, Format: registry.FormatHTML},
			rawEP{path: "9100.html", content: []byte(kip), page: web("9100", "2025-01-10")},
			EP{Number: "9100", ID: "KIP-9100", Title: "Tiered Offsets", Status: "Accepted", Created: date("2025-01-10"), CreatedFrom: FromRegistry, Format: ep.HTML},
			map[string]string{"number": FromRegistry, "title": "header:Title", "status": "header:Current state", "created": FromRegistry, "authors": "header:Author"}, ""},
		{"a page the registry lists under another number",
			registry.EPSource{Name: "JEP {n}", Kind: registry.KindWeb, Format: registry.FormatHTML},
			rawEP{path: "9002.html", content: []byte(jep), page: web("9002", "")},
			EP{}, nil, "the page says it is JEP 9001, the registry lists it as JEP 9002"},
		{"PHP RFC: DokuWiki bullets",
			registry.EPSource{Name: "PHP RFC {n}", Kind: registry.KindWeb, Format: registry.FormatDokuWiki},
			rawEP{path: "sealed_enum_cases.dokuwiki", content: []byte(php), page: web("sealed_enum_cases", "")},
			EP{Number: "sealed_enum_cases", ID: "PHP RFC sealed_enum_cases", Title: "Sealed Enum Cases", Status: "Implemented", Created: date("2024-02-19"), CreatedFrom: "metadata", Format: ep.DokuWiki},
			map[string]string{"number": FromRegistry, "title": "header:Title", "status": "header:Status", "created": "header:Date", "authors": "header:Author"}, ""},
		{"a table row",
			registry.EPSource{Name: "X {n}", Format: registry.FormatMarkdown, Metadata: registry.Declared{Status: []string{"table:State"}}},
			rawEP{path: "7-x.md", content: []byte("# X\n\n| Field | Value |\n|---|---|\n| State | **Draft** |\n")},
			EP{Number: "7", ID: "X 7", Title: "X", Status: "Draft", Format: ep.Markdown},
			map[string]string{"number": FromFileName, "title": FromHeading, "status": "table:State"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkParseEP(t, &tt.src, tt.raw, tt.want, tt.from, tt.reason) })
	}
}

// TestKEPTextName: the text beside a kep.yaml is found whatever the case
// of its name (kubernetes/enhancements keps/sig-api-machinery/
// 365-paginated-lists/README.MD), unless the folder is ambiguous.
func TestKEPTextName(t *testing.T) {
	for _, tt := range []struct {
		files      []string
		name, want string
	}{
		{[]string{"kep.yaml", "README.md"}, "README.md", "README.md"},
		{[]string{"README.MD", "kep.yaml"}, "README.md", "README.MD"},
		{[]string{"kep.yaml"}, "README.md", "README.md"},
		{[]string{"Readme.md", "README.MD", "kep.yaml"}, "README.md", "README.md"},
		{[]string{"README.md", "README.MD"}, "README.md", "README.md"},
	} {
		if got := kepTextName(tt.files, tt.name); got != tt.want {
			t.Errorf("kepTextName(%q, %q) = %q, want %q", tt.files, tt.name, got, tt.want)
		}
	}
}

// TestUnreadableDate: a declared created date that is not a date leaves
// the proposal listed without one, with a warning naming the file and line
// (issue 33 §1; kubernetes/enhancements has "creation-date: yyyy-mm-dd"),
// and git history does not stand in for it.
func TestUnreadableDate(t *testing.T) {
	kep := "title: Some KEP\nkep-number: 9\nstatus: implemented\ncreation-date: yyyy-mm-dd\n"
	e, reason := parseEP(&registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP},
		rawEP{path: "keps/sig-x/9-some/kep.yaml", content: []byte(kep), text: []byte("# KEP-9\n")})
	if reason != "" {
		t.Fatal(reason)
	}
	want := []string{`keps/sig-x/9-some/kep.yaml:4: created date (front-matter:creation-date): "yyyy-mm-dd" is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z); listed without a created date`}
	if !reflect.DeepEqual(e.Warnings, want) || !e.Created.IsZero() || e.CreatedFrom != CreatedUnreadable || e.From["created"] != "" {
		t.Errorf("warnings %q, created %v from %q (%q)", e.Warnings, e.Created, e.CreatedFrom, e.From["created"])
	}
}

// TestUnreadableNumber: a declared number that is no number leaves the
// proposal listed without one, with a warning naming the file and line;
// collect drops it at the eps step with that warning, as it cannot name a
// candidate after it (issue 33 §1).
func TestUnreadableNumber(t *testing.T) {
	pep := "PEP: 12 (draft)\nTitle: A proposal\nStatus: Final\nCreated: 01-Jan-2020\n\nText.\n"
	e, reason := parseEP(&registry.EPSource{Name: "PEP {n}"}, rawEP{path: "peps/pep-draft.rst", content: []byte(pep)})
	if reason != "" {
		t.Fatal(reason)
	}
	warning := `peps/pep-draft.rst:1: number (header:PEP): "12 (draft)" is not a proposal number; listed without one`
	if e.Number != "" || e.ID != "peps/pep-draft.rst" || e.Title != "A proposal" || e.Status != "Final" || e.From["number"] != "" ||
		!reflect.DeepEqual(e.Warnings, []string{warning}) {
		t.Errorf("%+v", e)
	}
	p := &registry.Project{Name: "cpython"}
	pr := &projectRun{p: p, funnel: newProjectFunnel(p.Name, nil)}
	pr.funnel.consider(StepEPs, 2)
	ok := &EP{Number: "8", ID: "PEP 8", Path: "peps/pep-0008.rst"}
	if got := pr.numbered([]*EP{e, ok}); len(got) != 1 || got[0] != ok {
		t.Errorf("numbered kept %v", got)
	}
	want := []Drop{{EP: "peps/pep-draft.rst", Path: "peps/pep-draft.rst", Step: StepEPs, Reason: warning}}
	if !reflect.DeepEqual(pr.funnel.Dropped, want) {
		t.Errorf("dropped %+v", pr.funnel.Dropped)
	}
}

// TestTwinNumbers: KEP-2133 is two documents, a replaced one and an
// implemented one. The status filter drops the replaced one alone, and the
// implemented one stays; of two twins that both pass, the first by path
// is kept and the other dropped, named (issue 33 §1).
func TestTwinNumbers(t *testing.T) {
	p := &registry.Project{Name: "kubernetes", EPs: registry.EPSource{Name: "KEP-{n}", Statuses: []string{"implementable", "implemented"}}}
	pr := &projectRun{p: p, funnel: newProjectFunnel(p.Name, nil), stale: map[string][]staleInfo{}}
	eps := []*EP{
		{Number: "2133", ID: "KEP-2133", Status: "replaced", Path: "keps/sig-cloud-provider/2133-out-of-tree-credential-provider/kep.yaml"},
		{Number: "2133", ID: "KEP-2133", Status: "implemented", Path: "keps/sig-node/2133-kubelet-credential-providers/kep.yaml"},
		{Number: "7", ID: "KEP-7", Status: "implemented", Path: "keps/a/7-x/kep.yaml"},
		{Number: "7", ID: "KEP-7", Status: "implemented", Path: "keps/b/7-y/kep.yaml"},
	}
	var got []string
	for _, e := range pr.oneEach(pr.filterStatus(eps)) {
		got = append(got, e.Path)
	}
	if want := []string{"keps/sig-node/2133-kubelet-credential-providers/kep.yaml", "keps/a/7-x/kep.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("kept %q", got)
	}
	var drops []string
	for _, d := range pr.funnel.Dropped {
		drops = append(drops, d.Path+": "+d.Reason)
	}
	want := []string{
		"keps/sig-cloud-provider/2133-out-of-tree-credential-provider/kep.yaml: status replaced is not one of implementable, implemented",
		"keps/b/7-y/kep.yaml: same number as KEP-7 in keps/a/7-x/kep.yaml: a candidate names one proposal per number",
	}
	if !reflect.DeepEqual(drops, want) {
		t.Errorf("drops %q", drops)
	}
}

// TestKEPEmptyTitle: an empty kep.yaml value is no value, not the text
// "null" (kubernetes-sigs/kueue KEP-77's "title:"): the title comes from
// the folder's name.
func TestKEPEmptyTitle(t *testing.T) {
	e, reason := parseEP(&registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP},
		rawEP{path: "keps/77-dynamically-sized-jobs/kep.yaml", content: []byte("title:\nkep-number: 77\nstatus: implementable\n"), text: []byte("Text.\n")})
	if reason != "" || e.Title != "dynamically sized jobs" || e.From["title"] != FromFileName {
		t.Errorf("reason %q, title %q from %q", reason, e.Title, e.From["title"])
	}
}

// TestLooseScalars: the line-by-line reading of a kep.yaml a YAML parser
// refuses keeps plain top-level values and lists, and nothing nested.
func TestLooseScalars(t *testing.T) {
	src := "title: 'A title' # a comment\nkep-number: 7\nauthors:\n  - \"@a\"\n  - @b\n  -\nreviewers: [x, y]\nstage:\n  nested: no\n" +
		"see-also:\n  - \"/keps/1-unclosed\n  description: |\n    text\nstatus: implementable\r\n\"quoted key\": v\n"
	want := map[string]string{"title": "A title", "kep-number": "7", "authors": "@a, @b", "see-also": "/keps/1-unclosed", "status": "implementable"}
	if got := looseScalars([]byte(src)); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// FuzzParseKEP: a hostile kep.yaml, whether YAML accepts it or not, never
// panics, and a listed proposal always has an ID to list it by.
func FuzzParseKEP(f *testing.F) {
	f.Add([]byte("title: T\nkep-number: 9\nstatus: implemented\n"))
	f.Add([]byte("title: T\nauthors:\n  - @x\n"))
	f.Add([]byte("see-also:\n  - \"/keps/1\n\nmilestone: \"v1\"\n"))
	f.Add([]byte("a: &x [*x]\n- \n:"))
	src := &registry.EPSource{Name: "KEP-{n}", Format: registry.FormatKEP}
	f.Fuzz(func(t *testing.T, kep []byte) {
		e, reason := parseEP(src, rawEP{path: "keps/sig-x/9-some/kep.yaml", content: kep, text: []byte("# KEP-9: Some\n")})
		if reason == "" && e.ID == "" {
			t.Errorf("listed without an ID: %+v", e)
		}
	})
}
