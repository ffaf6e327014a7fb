package rules

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/lolbench/lolbench/internal/sampletask"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
)

// TestHTMLSourcedCandidate validates the sample candidates with their EP
// served as a web page (issue 24): the Markdown EP rendered to HTML and
// put in a page with a banner, navigation, a sidebar, scripts, styles
// and a footer. Read through pipeline/ep's HTML parser, the page has the
// Markdown EP's sections; mapping.md passes every rule and
// mapping-flawed.md breaks exactly the rules its inline expectations name,
// rule 22's verbatim quotes included; and the rendering that collection
// writes as the candidate's ep.md gives the same report.
func TestHTMLSourcedCandidate(t *testing.T) {
	samples, _ := filepath.Glob("../data/samples/*/mapping.md")
	if len(samples) == 0 {
		t.Fatal("no sample candidates found under data/samples")
	}
	for _, mp := range samples {
		dir := filepath.Dir(mp)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			task, err := sampletask.Load(context.Background(), "..", t.TempDir(), filepath.Base(dir))
			if err != nil {
				t.Fatal(err)
			}
			ch, scopes := task.Change, task.Scopes
			mdDoc := loadEP(t, filepath.Join(dir, "ep.md"))
			page := webPage(t, mdDoc)
			htmlDoc, err := ep.Parse(page, ep.HTML)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := outline(htmlDoc), outline(mdDoc); !reflect.DeepEqual(got, want) {
				t.Fatalf("the page's sections:\n%v\nwant the Markdown EP's:\n%v", got, want)
			}
			written, err := ep.Parse(htmlDoc.Source, ep.Markdown) // the candidate's ep.md
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"mapping.md", "mapping-flawed.md"} {
				path := filepath.Join(dir, name)
				if _, err := os.Stat(path); err != nil {
					continue
				}
				m, err := mapping.ParseFile(path)
				if err != nil {
					t.Fatal(err)
				}
				t.Run(name, func(t *testing.T) {
					rep, err := Run(&Input{EP: htmlDoc, Change: ch, Scopes: scopes, Mapping: m}, All)
					if err != nil {
						t.Fatal(err)
					}
					compare(t, path, parseExpectations(t, path), rep)
					again, err := Run(&Input{EP: written, Change: ch, Scopes: scopes, Mapping: m}, All)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(again.Violations, rep.Violations) {
						t.Errorf("the written ep.md reports %v, the page %v", again.Violations, rep.Violations)
					}
				})
			}
		})
	}
}

// webPage renders a Markdown EP to HTML (goldmark, with GitHub's
// extensions) inside a page with the furniture of a real site.
func webPage(t *testing.T, doc *ep.Document) []byte {
	t.Helper()
	src := doc.Source
	if len(doc.Metadata) > 0 {
		// The front matter is the page's metadata, not its text.
		parts := bytes.SplitN(src, []byte("\n---\n"), 2)
		src = parts[1]
	}
	var body bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(src, &body); err != nil {
		t.Fatal(err)
	}
	page := `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + doc.Metadata["title"] + `</title>
<style>h2 { color: #333 }</style><script>window.dataLayer = ["# not a section"];</script></head>
<body><header><nav><h2>Proposals</h2><a href="/">Home</a> <a href="/eps/">Index</a></nav></header>
<aside id="sidebar"><h3>On this page</h3><ul><li><a href="#abstract">Abstract</a></li></ul></aside>
<main>` + body.String() + `</main>
<footer><h2>Contact</h2><p>Copyright</p></footer><script>track()</script></body></html>`
	return []byte(strings.TrimSpace(page))
}

// outline lists a document's sections as "id level title".
func outline(d *ep.Document) []string {
	var out []string
	for _, s := range d.Sections {
		out = append(out, s.ID+" "+strings.Repeat("#", s.Level)+" "+s.Title)
	}
	return out
}
