package collect

import (
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lolbench/lolbench/pipeline/registry"
)

// card is what a curator checks of a proposal in ep list.
type card struct {
	Number, Title, Status, Created, Type string
	Authors                              []string
	Links                                []Link
	Warnings                             []string
}

// TestRealDocuments reads the first lines of real proposals
// (testdata/real, origins in ORIGINS.md) through the shipped registry's
// entry of their project, and checks every field against the document
// (issue 33 §6). Each case names the defect it pins.
func TestRealDocuments(t *testing.T) {
	reg, err := registry.Load("../../data/projects.yaml")
	if err != nil {
		t.Fatal(err)
	}
	projects := map[string]string{"kubernetes/enhancements": "kubernetes", "rust-lang/rfcs": "rust", "prestodb/rfcs": "presto",
		"scikit-learn/enhancement_proposals": "scikit-learn", "grpc/proposal": "grpc-go", "python/peps": "cpython",
		"dotnet/csharplang": "roslyn", "prometheus/proposals": "prometheus", "django/deps": "django", "numpy/numpy": "numpy", "kubernetes-sigs/kueue": "kueue"}
	issue := func(repo string, n int) Link { return Link{Repo: repo, Number: n, Kind: "issue"} }
	pull := func(repo string, n int) Link { return Link{Repo: repo, Number: n, Kind: "pull"} }
	unreadable := func(where, place, value string) []string {
		return []string{where + ": created date (" + place + "): \"" + value + "\" is not a date (want 2006-01-02 or 2006-01-02T15:04:05Z); listed without a created date"}
	}
	csharp := func(n int) []Link { return []Link{issue("dotnet/csharplang", n)} }
	for _, tt := range []struct {
		file string // owner/name/path
		why  string
		want card
	}{
		{"kubernetes/enhancements/keps/sig-api-machinery/4355-coordinated-leader-election/kep.yaml",
			"an impossible declared date: listed without a date, with file:line",
			card{Number: "4355", Title: "Coordinated Leader Election", Status: "implementable", Authors: []string{"@jpbetz", "@jefftree"},
				Warnings: unreadable("keps/sig-api-machinery/4355-coordinated-leader-election/kep.yaml:10", "front-matter:creation-date", "2023-14-05")}},
		{"kubernetes/enhancements/keps/sig-cluster-lifecycle/kubeadm/1177-kubeadm-with-kustomize/kep.yaml",
			"a KEP one folder deeper than keps/*/*/",
			card{Number: "1177", Title: "Advanced configurations with kubeadm (Kustomize)", Status: "replaced", Created: "2019-07-22", Authors: []string{"@fabriziopandini"}}},
		{"kubernetes-sigs/kueue/keps/6143-quota-release-strategy/kep.yaml", `invalid YAML ("- @mimowo" unquoted): listed from its plain lines, with file:line`,
			card{Number: "6143", Title: "Quota Release Strategy", Status: "provisional", Created: "2026-02-17", Authors: []string{"@tkillian"},
				Warnings: []string{`keps/6143-quota-release-strategy/kep.yaml:8: not valid YAML ('@' is a reserved character); its top-level "key: value" lines are read one by one`}}},
		{"kubernetes-sigs/kueue/keps/1432-admission-check-per-resource-flavor/kep.yaml", "invalid YAML (an unclosed quote in see-also): listed from its plain lines",
			card{Number: "1432", Title: "AdmissionChecks per ResourceFlavor", Status: "implementable", Created: "2024-03-26", Authors: []string{"@pbundyra"},
				Warnings: []string{`keps/1432-admission-check-per-resource-flavor/kep.yaml:18: not valid YAML (value is not allowed in this context); its top-level "key: value" lines are read one by one`}}},
		{"rust-lang/rfcs/text/0179-and-mut-patterns.md", "a day-first start date; no Feature Name, so the file name",
			card{Number: "179", Title: "and mut patterns", Links: []Link{pull("rust-lang/rfcs", 179), issue("rust-lang/rust", 20496)},
				Warnings: unreadable("text/0179-and-mut-patterns.md:1", "bullet:Start Date", "23-07-2014")}},
		{"rust-lang/rfcs/text/0534-deriving2derive.md", "an impossible start date",
			card{Number: "534", Title: "deriving2derive", Links: []Link{pull("rust-lang/rfcs", 534), issue("rust-lang/rust", 20362)},
				Warnings: unreadable("text/0534-deriving2derive.md:1", "bullet:Start Date", "2014-19-19")}},
		{"rust-lang/rfcs/text/3849-Project-Goals-2025h2.md", "the template's unfilled start date",
			card{Number: "3849", Title: "Project Goals 2025h2", Links: []Link{issue("rust-lang/rfcs", 3849)},
				Warnings: unreadable("text/3849-Project-Goals-2025h2.md:2", "bullet:Start Date", "fill me in with today's date, YYYY-MM-DD")}},
		{"rust-lang/rfcs/text/1068-rust-governance.md", `"Feature Name: not applicable" is no title`,
			card{Number: "1068", Title: "rust governance", Created: "2015-02-27", Links: []Link{pull("rust-lang/rfcs", 1068)}}},
		{"rust-lang/rfcs/text/2126-path-clarity.md", "a heading that is a note about the RFC is no title",
			card{Number: "2126", Title: "path clarity", Created: "2017-08-24", Links: []Link{pull("rust-lang/rfcs", 2126), issue("rust-lang/rust", 44660)}}},
		{"rust-lang/rfcs/text/2580-ptr-meta.md", "the Feature Name, code marks dropped",
			card{Number: "2580", Title: "ptr-meta", Created: "2018-10-26", Links: []Link{pull("rust-lang/rfcs", 2580), issue("rust-lang/rust", 81513)}}},
		{"prestodb/rfcs/RFC-0001-nan-definition.md", `the "RFC0001 for Presto" banner is no title; authors under "Proposers"`,
			card{Number: "1", Title: "Defining behavior for NaN values", Authors: []string{"Rebecca Schlussel"},
				Links: []Link{issue("prestodb/presto", 21936), issue("prestodb/presto", 21877), pull("facebookincubator/velox", 7237)}}},
		{"prestodb/rfcs/RFC-0002-prestissimo-metrics.md", "authors under a bold heading, affiliations after a comma",
			card{Number: "2", Title: "Prestissimo Runtime Metrics Capturing and Reporting", Authors: []string{"Karteek Murthy", "Jay Narale"}}},
		{"prestodb/rfcs/RFC-0006-expression-eval.md", "the title after the banner's colon",
			card{Number: "6", Title: "Constant Folding via Expression Evaluation to the Presto Sidecar Process", Authors: []string{"Tim Meehan"}}},
		{"prestodb/rfcs/RFC-0007-remote-functions.md", "the title after the template's [Title] marker",
			card{Number: "7", Title: "REST API for remote functions", Authors: []string{"Tim Meehan", "Abe Varghese", "Joe Abraham", "Jakob Khaliqi"}}},
		{"prestodb/rfcs/RFC-0008-plan-checker.md", "the template's banner and [Title], unfilled: the file name",
			card{Number: "8", Title: "plan checker", Authors: []string{"Tim Meehan", "Bryan Cutler", "Rebecca Schlussel"}}},
		{"prestodb/rfcs/RFC-0010-access-control-filters-masks.md", "a title in brackets",
			card{Number: "10", Title: "Access Control Row Filters and Column Masks", Authors: []string{"Tim Meehan", "Bryan Cutler"}}},
		{"prestodb/rfcs/RFC-0020-tvf.md", "an author's address in parentheses is dropped",
			card{Number: "20", Title: "Presto Table Functions", Authors: []string{"Aditi Pandit", "Michael Ohsaka", "Matthew Zhang", "Pratik Dabre"}}},
		{"scikit-learn/enhancement_proposals/slep004/proposal.rst", "a status without its :ref: markup",
			card{Number: "4", Title: "Data information", Status: "Withdrawn (superseded by SLEP006)", Created: "2018-12-12", Type: "Standards Track", Authors: []string{"Nicolas Hug"}}},
		{"grpc/proposal/A103-xds-composite-filter.md", "the template's unfilled status is none",
			card{Number: "A103", Title: "xDS Composite Filter", Authors: []string{"markdroth"}}},
		{"grpc/proposal/A115-remove-priority-lb-child-policy-cache.md", "one choice left in the template's braces is the value",
			card{Number: "A115", Title: "disable Priority LB policy child policy retention cache", Status: "Draft", Authors: []string{"@apolcyn", "@markdroth"}}},
		{"grpc/proposal/A27-xds-global-load-balancing.md", "a bold status",
			card{Number: "A27", Title: "xDS-Based Global Load Balancing", Status: "Implemented", Authors: []string{"Mark D. Roth"}}},
		{"python/peps/peps/pep-0604.rst", "the title keeps its inner quotes; type and authors without addresses",
			card{Number: "604", Title: "Allow writing union types as ``X | Y``", Status: "Final", Created: "2019-08-28", Type: "Standards Track",
				Authors: []string{"Philippe PRADOS", "Maggie Moss"}}},
		{"dotnet/csharplang/proposals/csharp-12.0/primary-constructors.md", "Champion issue: <URL>",
			card{Number: "2691", Title: "Primary constructors", Status: "csharp-12.0", Links: csharp(2691)}},
		{"dotnet/csharplang/proposals/csharp-8.0/readonly-instance-members.md", "Champion issue: <<URL>>",
			card{Number: "1710", Title: "Readonly Instance Members", Status: "csharp-8.0", Links: csharp(1710)}},
		{"dotnet/csharplang/proposals/csharp-15.0/labeled-break-continue.md", "* Championed issue: URL",
			card{Number: "9875", Title: "Labeled break and continue Statements", Status: "csharp-15.0", Links: csharp(9875)}},
		{"dotnet/csharplang/proposals/csharp-11.0/low-level-struct-improvements.md", "Champion issues: <URL>, <URL>: the first",
			card{Number: "1147", Title: "Low Level Struct Improvements", Status: "csharp-11.0", Links: []Link{issue("dotnet/csharplang", 1147), issue("dotnet/csharplang", 6476)}}},
		{"dotnet/csharplang/proposals/multiple-using-var-discards.md", "Champion issue (a note): <URL>",
			card{Number: "8606", Title: "Treat multiple using var _ as discards", Links: csharp(8606)}},
		{"prometheus/proposals/proposals/0029-created-timestamp.md", `every owner under "* **Owners**", a key without a colon`,
			card{Number: "29", Title: "Created Timestamps", Status: "Partially implemented", Links: []Link{issue("prometheus/prometheus", 6541)},
				Authors: []string{"Arthur Silva Sens (@ArthurSens)", "Bartłomiej Płotka (@bwplotka)", "Max Amin (@macxamin)", "Daniel Hrabovcak (@TheSpiritXIII)"}}},
		// Defects found by the held-out check of 2026-12-06 (33 proposals
		// drawn at random, 231 fields, docs/projects.md).
		{"python/peps/peps/pep-0655.rst", "an address spelled out in angle brackets",
			card{Number: "655", Title: "Marking individual TypedDict items as required or potentially-missing", Status: "Final", Created: "2021-01-30",
				Type: "Standards Track", Authors: []string{"David Foster"}}},
		{"numpy/numpy/doc/neps/nep-0021-advanced-indexing.rst", "two :Author: fields; the id before an em dash",
			card{Number: "21", Title: "Simplified and explicit advanced indexing", Status: "Deferred", Created: "2015-08-27", Type: "Standards Track",
				Authors: []string{"Sebastian Berg", "Stephan Hoyer"}}},
		{"grpc/proposal/L118-core-remove-cronet.md", "the template's \"Title\" heading is no title",
			card{Number: "L118", Title: "core remove cronet", Status: "Draft", Authors: []string{"ctiller"}}},
		{"dotnet/csharplang/proposals/csharp-7.3/auto-prop-field-attrs.md", "Champion issu: URL (a typo)",
			card{Number: "42", Title: "Auto-Implemented Property Field-Targeted Attributes", Status: "csharp-7.3", Links: csharp(42)}},
		{"django/deps/final/0007-official-projects.rst", "type and author from the docinfo field list",
			card{Number: "7", Title: "Official Django Projects", Status: "Final", Created: "2016-06-01", Type: "Process", Authors: []string{"Andrew Godwin"}}},
	} {
		parts := strings.SplitN(tt.file, "/", 3)
		p, ok := reg.Project(projects[parts[0]+"/"+parts[1]])
		if !ok {
			t.Fatalf("%s: no project", tt.file)
		}
		file := filepath.Join("testdata", "real", filepath.FromSlash(tt.file))
		content, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		raw := rawEP{path: parts[2], content: content}
		if p.EPs.Format == registry.FormatKEP {
			if raw.text, err = os.ReadFile(filepath.Join(filepath.Dir(file), "README.md")); err != nil {
				t.Fatal(err)
			}
		}
		e, reason := parseEP(&p.EPs, raw)
		if reason != "" {
			t.Errorf("%s (%s): dropped: %s", path.Base(tt.file), tt.why, reason)
			continue
		}
		got := card{Number: e.Number, Title: e.Title, Status: e.Status, Type: e.Type, Authors: e.Authors, Links: e.Links, Warnings: e.Warnings}
		if !e.Created.IsZero() {
			got.Created = e.Created.Format(time.DateOnly)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s (%s):\n got %+v\nwant %+v", path.Base(tt.file), tt.why, got, tt.want)
		}
	}
}
