package registry

import (
	"fmt"
	"regexp"
	"strings"
)

// Declared says where a project keeps the metadata collection needs of a
// proposal: its number, title, status and created date. Each field is a
// list of places, tried in order; the first that holds a value wins. A
// field left out keeps the places of the source's format (Preset), so
// that every built-in format is a preset of this one mechanism and a
// project declares only what differs:
//
//	metadata:
//	  number: ["path:^([AGLP][0-9]+)-"]   # gRFC A27 from A27-xds-global-load-balancing.md
//	  status: ["bullet:Status"]           # * Status: Implemented
//
// Whatever no place gives falls back as for every format: the title to
// the first heading (then the file name), the created date, in a git
// source, to the first commit that added the file; the number, when the
// project declares no place for it, to the first run of digits of the
// file name (then of its folder). Declared number places are the only
// ones: "csharp-7.3/ref-loops.md" is not proposal 7.
type Declared struct {
	Number  []string `yaml:"number"`
	Title   []string `yaml:"title"`
	Status  []string `yaml:"status"`
	Created []string `yaml:"created"`
	// Type is the kind of proposal (Standards Track, Feature); Authors
	// its authors, one value with names separated by commas.
	Type    []string `yaml:"type"`
	Authors []string `yaml:"authors"`
}

// Place kinds: where a value may be kept.
const (
	// PlaceFrontMatter is a key of a Markdown file's YAML front matter,
	// or of a kep.yaml ("front-matter:kep-number").
	PlaceFrontMatter = "front-matter"
	// PlaceHeader is a key of the header the format reads: a PEP's
	// RFC-822 header block, what an HTML profile reads from the page (a
	// JEP's header table, a Confluence page's metadata and opening
	// "Key: value" lines, Number and Title from "JEP 444: ..."), the
	// bullets under a DokuWiki page's title ("header:Status").
	PlaceHeader = "header"
	// PlaceField is a field of the first reStructuredText field list,
	// the docinfo of DEPs, SLEPs and NEPs ("field:Status" reads
	// ":Status: Accepted").
	PlaceField = "field"
	// PlaceBullet is a line "Key: value" among the first lines of the
	// text, as a list item or not, the key bold or not ("* Status:
	// Implemented", "* **Implementation Status:** Implemented",
	// "**Current state**: Accepted"); an empty value is read from the
	// item nested under it.
	PlaceBullet = "bullet"
	// PlaceTable is a table row among the first lines of the text whose
	// first cell is the key and second the value ("| Status | Draft |").
	PlaceTable = "table"
	// PlaceList is the list under a line among the first lines of the
	// text that holds only the key, as a paragraph or a heading, bold or
	// not ("Proposers", then "* Tim Meehan"): one value per item.
	PlaceList = "list"
	// PlaceRegex is a regular expression (RE2) over the first lines of
	// the text: its first group, else the whole match. The last resort.
	PlaceRegex = "regex"
	// PlacePath is a regular expression over the file's path in its
	// repository or folder (a web page: its saved file name), read the
	// same way.
	PlacePath = "path"
)

// placeKinds lists the kinds for messages, in the order docs/projects.md
// gives them.
var placeKinds = []string{PlaceFrontMatter, PlaceHeader, PlaceField, PlaceBullet, PlaceTable, PlaceList, PlaceRegex, PlacePath}

// maxPattern bounds a declared regular expression; RE2 matching is linear
// in the text, and its compiled size grows with the pattern.
const maxPattern = 512

// Place is one parsed place: "bullet:Status" is Kind "bullet", Key
// "Status".
type Place struct {
	Kind string
	Key  string
	// Re is the compiled pattern of regex and path places.
	Re *regexp.Regexp
}

func (p Place) String() string { return p.Kind + ":" + p.Key }

// ParsePlace reads a place as the registry writes it, "kind:key".
func ParsePlace(s string) (Place, error) {
	kind, key, ok := strings.Cut(s, ":")
	kind = strings.TrimSpace(kind)
	if !ok || !contains(placeKinds, kind) {
		return Place{}, fmt.Errorf("%q: want kind:key, the kind one of %s", s, strings.Join(placeKinds, ", "))
	}
	p := Place{Kind: kind, Key: key}
	switch kind {
	case PlaceRegex, PlacePath:
		if len(key) > maxPattern {
			return Place{}, fmt.Errorf("%q: a pattern of %d bytes; at most %d", kind+":...", len(key), maxPattern)
		}
		re, err := regexp.Compile(key)
		if err != nil {
			return Place{}, fmt.Errorf("%q: %v", s, err)
		}
		p.Re = re
	default:
		p.Key = strings.TrimSpace(key)
		if p.Key == "" || len(p.Key) > 64 || strings.ContainsAny(p.Key, "\n\r\x00") {
			return Place{}, fmt.Errorf("%q: the key must be one line of 1 to 64 bytes", s)
		}
	}
	return p, nil
}

// MetadataFields names the fields of Declared, in order.
var MetadataFields = []string{"number", "title", "status", "created", "type", "authors"}

// Field returns the declared places of a field ("status").
func (d *Declared) Field(name string) []string {
	switch name {
	case "number":
		return d.Number
	case "title":
		return d.Title
	case "status":
		return d.Status
	case "created":
		return d.Created
	case "type":
		return d.Type
	case "authors":
		return d.Authors
	}
	return nil
}

// Preset is the metadata a format reads when a project declares nothing
// (docs/projects.md, "Metadata formats").
func Preset(format string) Declared {
	switch format {
	case FormatPEP:
		return Declared{Number: []string{"header:PEP"}, Title: []string{"header:Title"},
			Status: []string{"header:Status"}, Created: []string{"header:Created"},
			Type: []string{"header:Type"}, Authors: []string{"header:Author"}}
	case FormatRST:
		return Declared{Status: []string{"field:Status"}, Created: []string{"field:Created"},
			Type: []string{"field:Type"}, Authors: []string{"field:Author", "field:Authors"}}
	case FormatKEP:
		return Declared{Number: []string{"front-matter:kep-number"}, Title: []string{"front-matter:title"},
			Status: []string{"front-matter:status"}, Created: []string{"front-matter:creation-date"},
			Authors: []string{"front-matter:authors"}}
	case FormatRustRFC:
		return Declared{Title: []string{"bullet:Feature Name"}, Created: []string{"bullet:Start Date"}}
	case FormatMarkdown:
		return Declared{Number: []string{"front-matter:id", "front-matter:number"}, Title: []string{"front-matter:title"},
			Status:  []string{"front-matter:status"},
			Created: []string{"front-matter:created", "front-matter:creation-date", "front-matter:start-date", "front-matter:date"},
			Type:    []string{"front-matter:type", "front-matter:kind"},
			Authors: []string{"front-matter:authors", "front-matter:author", "bullet:Author(s)", "bullet:Authors", "bullet:Author", "bullet:Owners"}}
	case FormatHTML:
		return Declared{Number: []string{"header:Number"}, Title: []string{"header:Title"},
			Status: []string{"header:Status", "header:Current state"}, Created: []string{"header:Created"},
			Type: []string{"header:Type"}, Authors: []string{"header:Author", "header:Owner"}}
	case FormatDokuWiki:
		return Declared{Title: []string{"header:Title"}, Status: []string{"header:Status"}, Created: []string{"header:Date"},
			Authors: []string{"header:Author", "header:Authors"}}
	}
	return Declared{}
}

// Places returns the places of a field: the declared ones, else the
// format's. The format is the source's, or the one picked for a file
// when the source leaves it to the extension.
func (e *EPSource) Places(field, format string) []Place {
	list := e.Metadata.Field(field)
	if len(list) == 0 && field == "number" && e.IDKey != "" {
		// id_key is the older spelling of metadata.number: [header:KEY].
		list = []string{PlaceHeader + ":" + e.IDKey}
	}
	if len(list) == 0 {
		p := Preset(format)
		list = p.Field(field)
	}
	out := make([]Place, 0, len(list))
	for _, s := range list {
		if p, err := ParsePlace(s); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func (p *Project) validateMetadata(ps *problems) {
	for _, name := range MetadataFields {
		for i, s := range p.EPs.Metadata.Field(name) {
			field := p.Field(fmt.Sprintf("eps.metadata.%s[%d]", name, i))
			pl, err := ParsePlace(s)
			if err != nil {
				ps.add(field, "%v", err)
				continue
			}
			switch {
			case p.EPs.Kind == KindGitHubIssues:
				ps.add(field, "kind github-issues takes its metadata from the issue")
			case pl.Kind == PlaceFrontMatter && !contains([]string{"", FormatMarkdown, FormatKEP, FormatRustRFC}, p.EPs.Format):
				ps.add(field, "%s has no front matter; use header, field, bullet, table, list or regex", p.EPs.Format)
			case pl.Kind == PlaceField && !contains([]string{"", FormatPEP, FormatRST}, p.EPs.Format):
				ps.add(field, "field lists are reStructuredText; %s has none", p.EPs.Format)
			}
		}
	}
}
