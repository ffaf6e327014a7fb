package ep

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Profile says which part of an HTML page is the proposal and where its
// metadata is.
type Profile string

// The HTML profiles. Their values are the registry's eps.profile and the
// flag values of "lolbench ep headings --profile".
const (
	// ProfileAuto picks the profile from the page: Confluence when it has
	// a main-content or wiki-content element, JEP when its first <h1> is
	// "JEP NNN: ...", generic otherwise.
	ProfileAuto Profile = ""
	// ProfileJEP reads an OpenJDK JEP page (openjdk.org/jeps/NNN): the
	// content of #main, the title "JEP NNN: ..." and the header table
	// (Owner, Type, Scope, Status, Release, Component, Created, Updated,
	// Issue, ...).
	ProfileJEP Profile = "jep"
	// ProfileConfluence reads a Confluence page as saved from the browser
	// or exported (Kafka KIPs, Flink FLIPs): the #main-content element,
	// the page title, the page metadata ("Created by ... on ..."), and the
	// "Key: value" lines and two-cell table rows that open the page
	// ("Current state: Accepted", "Discussion thread", "JIRA").
	ProfileConfluence Profile = "confluence"
	// ProfileGeneric reads any page: the content of <main>, <article> or
	// <body>, the first <h1> as the title.
	ProfileGeneric Profile = "generic"
)

// Profiles lists the profiles a registry or a flag may name.
var Profiles = []Profile{ProfileJEP, ProfileConfluence, ProfileGeneric}

// ParseProfile turns a registry value or flag into a Profile; "" and
// "auto" pick it from the page.
func ParseProfile(s string) (Profile, error) {
	switch p := Profile(s); p {
	case ProfileAuto, ProfileJEP, ProfileConfluence, ProfileGeneric:
		return p, nil
	case "auto":
		return ProfileAuto, nil
	}
	return "", fmt.Errorf("unknown HTML profile %q (want jep, confluence, generic or auto)", s)
}

// Metadata keys every HTML profile fills when the page says them: the
// proposal's number and title, read from a page title of the form
// "JEP 444: Virtual Threads" or "KIP-500: Replace ZooKeeper ...".
const (
	MetaNumber = "Number"
	MetaTitle  = "Title"
)

// titlePattern reads "JEP 444: Virtual Threads", "KIP-500: ...",
// "FLIP-27 - ...": a name, a number, a separator and the title.
var titlePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z.]{0,15}[- ]?([0-9]{1,9})\s*[:\x{2013}\x{2014}-]\s*(.+)$`)

// ParseHTML parses an HTML proposal page with a profile into a Document
// whose Source is the page's Markdown rendering (render.go). Parse with
// format HTML is ParseHTML with ProfileAuto.
func ParseHTML(src []byte, profile Profile) (*Document, error) {
	return parseWith(src, HTML, profile)
}

// renderHTML parses the page and renders its proposal content.
func renderHTML(src []byte, profile Profile) (*mdWriter, map[string]string, error) {
	root, err := html.ParseWithOptions(bytes.NewReader(src))
	if err != nil {
		// x/net/html's only refusal is nesting past 512 open elements.
		return nil, nil, fmt.Errorf("html: %s; a proposal page nests far less", strings.TrimPrefix(err.Error(), "html: "))
	}
	if profile == ProfileAuto {
		profile = detectProfile(root)
	}
	r := &htmlRenderer{w: &mdWriter{}, meta: map[string]string{}}
	switch profile {
	case ProfileJEP:
		r.jep(root)
	case ProfileConfluence:
		r.confluence(root)
	default:
		r.generic(root)
	}
	r.metaTags(root)
	if r.w.over {
		return nil, nil, errRenderTooLarge
	}
	return r.w, r.meta, nil
}

var errRenderTooLarge = errors.New("the Markdown rendering is larger than " + sizeCap + "; a proposal page is far smaller")

// htmlRenderer walks the DOM and writes Markdown.
type htmlRenderer struct {
	w     *mdWriter
	meta  map[string]string
	shift int // added to the level of the content's headings
	para  inline
}

var jepTitle = regexp.MustCompile(`^JEP [0-9]+:`)

// detectProfile picks the profile from the page's shape.
func detectProfile(root *html.Node) Profile {
	if findFirst(root, func(n *html.Node) bool { return attr(n, "id") == "main-content" || hasClass(n, "wiki-content") }) != nil {
		return ProfileConfluence
	}
	// Only the title tells a JEP: many unrelated pages have a table of
	// class "head" or an element #main.
	if h := findFirst(root, isElem(atom.H1)); h != nil && jepTitle.MatchString(cleanTitle(textContent(h))) {
		return ProfileJEP
	}
	return ProfileGeneric
}

// jep renders #main (or the body) and reads the title and header table.
func (r *htmlRenderer) jep(root *html.Node) {
	content := findFirst(root, func(n *html.Node) bool { return n.Type == html.ElementNode && attr(n, "id") == "main" })
	if content == nil {
		content = bodyOf(root)
	}
	if h := findFirst(content, isElem(atom.H1)); h != nil {
		r.titleMeta(cleanTitle(textContent(h)))
	}
	head := findFirst(content, func(n *html.Node) bool { return n.DataAtom == atom.Table && hasClass(n, "head") })
	if head == nil {
		// An older page without the class: the first table whose rows
		// are all a header cell and a data cell.
		head = findFirst(content, func(n *html.Node) bool { return n.DataAtom == atom.Table && keyValueRows(n) != nil })
	}
	if head != nil {
		for _, kv := range keyValueRows(head) {
			r.setMeta(kv[0], kv[1])
		}
	}
	r.block(content)
	r.flush()
}

// confluence renders the page title and #main-content, and reads the
// page metadata and the "Key: value" lines that open the page.
func (r *htmlRenderer) confluence(root *html.Node) {
	content := findFirst(root, func(n *html.Node) bool { return attr(n, "id") == "main-content" })
	if content == nil {
		content = findFirst(root, func(n *html.Node) bool { return hasClass(n, "wiki-content") })
	}
	if content == nil {
		content = bodyOf(root)
	}
	title := ""
	if t := findFirst(root, func(n *html.Node) bool { return attr(n, "id") == "title-text" }); t != nil {
		title = cleanTitle(textContent(t))
	} else if t := findFirst(root, isElem(atom.Title)); t != nil {
		title = cleanTitle(textContent(t))
	}
	// An exported page's title is "Space name : Page title".
	if _, after, ok := strings.Cut(title, " : "); ok {
		title = strings.TrimSpace(after)
	}
	if title != "" {
		r.titleMeta(title)
		r.w.heading(1, escapeText(title, true), title)
		r.shift = 1
	}
	if pm := findFirst(root, func(n *html.Node) bool { return hasClass(n, "page-metadata") }); pm != nil {
		r.pageMetadata(cleanTitle(textContent(pm)))
	}
	r.openingFields(content)
	r.block(content)
	r.flush()
}

// generic renders <main>, <article> or the body; the first <h1> is the
// title.
func (r *htmlRenderer) generic(root *html.Node) {
	content := findFirst(root, isElem(atom.Main))
	if content == nil {
		content = findFirst(root, isElem(atom.Article))
	}
	if content == nil {
		content = bodyOf(root)
	}
	if h := findFirst(content, isElem(atom.H1)); h != nil {
		r.titleMeta(cleanTitle(textContent(h)))
	}
	r.block(content)
	r.flush()
}

// titleMeta records the page title, and its number and short title when
// it reads "JEP 444: Virtual Threads".
func (r *htmlRenderer) titleMeta(title string) {
	if m := titlePattern.FindStringSubmatch(title); m != nil {
		r.setMeta(MetaNumber, m[1])
		r.setMeta(MetaTitle, m[2])
		return
	}
	r.setMeta(MetaTitle, title)
}

// setMeta keeps the first value of a key; keys and values are one line.
func (r *htmlRenderer) setMeta(k, v string) {
	k, v = cleanTitle(strings.TrimSuffix(strings.TrimSpace(k), ":")), cleanTitle(v)
	if k == "" || v == "" || len(k) > 64 || len(r.meta) >= 128 {
		return
	}
	if _, ok := r.meta[k]; !ok {
		r.meta[k] = truncateUTF8(v, 1024)
	}
}

// pageMeta reads Confluence's "Created by A, last modified by B on Mar
// 02, 2023" line. The page was created on the date only when it was never
// modified ("Created by A on Mar 02, 2023").
var pageMeta = regexp.MustCompile(`^Created by (.+?)(?:, last modified(?: by (.+?))? on (.+)| on (.+))$`)

func (r *htmlRenderer) pageMetadata(s string) {
	m := pageMeta.FindStringSubmatch(s)
	if m == nil {
		return
	}
	r.setMeta("Author", m[1])
	if m[4] != "" {
		r.setMeta("Created", m[4])
		return
	}
	r.setMeta("Last modified by", m[2])
	r.setMeta("Last modified", m[3])
}

// openingFields reads the "Key: value" paragraphs and two-cell table rows
// before the content's second heading: a KIP's "Current state: Accepted",
// "Discussion thread: here", "JIRA: KAFKA-9119", a FLIP's table of
// discussion thread, vote thread, JIRA and release. A value that holds
// links is their targets.
func (r *htmlRenderer) openingFields(content *html.Node) {
	headings := 0
	var walk func(n *html.Node) bool
	walk = func(n *html.Node) bool {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || dropped(c) {
				continue
			}
			switch {
			case headingLevel(c) > 0:
				if headings++; headings == 2 {
					return false
				}
			case c.DataAtom == atom.P:
				text := cleanTitle(textContent(c))
				if k, v, ok := strings.Cut(text, ":"); ok && len(k) <= 40 && !strings.Contains(k, "http") {
					if links := hrefs(c); len(links) > 0 && !strings.Contains(v, "://") {
						v = strings.Join(links, " ")
					}
					r.setMeta(k, v)
				}
			case c.DataAtom == atom.Tr:
				if cells := rowCells(c); len(cells) == 2 {
					v := cleanTitle(textContent(cells[1]))
					if links := hrefs(cells[1]); len(links) > 0 {
						v = strings.Join(links, " ")
					}
					r.setMeta(cleanTitle(textContent(cells[0])), v)
				}
			default:
				if !walk(c) {
					return false
				}
			}
		}
		return true
	}
	walk(content)
}

// metaTags reads a created date a page declares in <meta>.
func (r *htmlRenderer) metaTags(root *html.Node) {
	for n := range root.Descendants() {
		if n.DataAtom != atom.Meta {
			continue
		}
		key := strings.ToLower(attr(n, "name") + attr(n, "property"))
		switch key {
		case "created", "dcterms.created", "article:published_time":
			r.setMeta("Created", attr(n, "content"))
		}
	}
}

// block renders the children of a block-level node.
func (r *htmlRenderer) block(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		r.node(c)
	}
}

// node renders one node: inline content joins the open paragraph, a
// block ends it.
func (r *htmlRenderer) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		r.para.text(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	if dropped(n) {
		return
	}
	if !blockLevel(n) {
		r.para.element(n)
		return
	}
	r.flush()
	switch {
	case headingLevel(n) > 0:
		var in inline
		in.heading = true
		in.children(n)
		r.w.heading(headingLevel(n)+r.shift, in.md.String(), in.plain.String())
	case n.DataAtom == atom.Ul || n.DataAtom == atom.Ol || n.DataAtom == atom.Menu:
		r.list(n)
	case n.DataAtom == atom.Li:
		r.item(n, "- ")
	case n.DataAtom == atom.Blockquote || hasClass(n, "confluence-information-macro"):
		r.w.openQuote()
		r.block(n)
		r.flush()
		r.w.close()
	case n.DataAtom == atom.Pre:
		r.w.code(codeClass(n), preText(n))
	case n.DataAtom == atom.Table:
		r.table(n)
	case n.DataAtom == atom.Hr:
		r.w.rule()
	default:
		r.block(n)
		r.flush()
	}
}

// flush writes the open paragraph.
func (r *htmlRenderer) flush() {
	if r.para.md.Len() > 0 {
		r.w.paragraph(r.para.md.String())
	}
	r.para = inline{}
}

func (r *htmlRenderer) list(n *html.Node) {
	i := 1
	if n.DataAtom == atom.Ol {
		if s, err := strconv.Atoi(attr(n, "start")); err == nil && s >= 0 && s < 1e9 {
			i = s
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Li {
			marker := "- "
			if n.DataAtom == atom.Ol {
				marker = strconv.Itoa(i) + ". "
			}
			r.item(c, marker)
			i++
			continue
		}
		r.node(c)
	}
	r.flush()
}

func (r *htmlRenderer) item(n *html.Node, marker string) {
	r.w.openItem(marker)
	r.block(n)
	r.flush()
	r.w.close()
}

// table writes the rows of a table (of its head, bodies and foot, not of
// tables nested in it); each cell is its inline text on one line.
func (r *htmlRenderer) table(t *html.Node) {
	var rows [][]string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.DataAtom {
			case atom.Thead, atom.Tbody, atom.Tfoot:
				walk(c)
			case atom.Tr:
				var row []string
				for _, cell := range rowCells(c) {
					var in inline
					in.flat = true
					in.children(cell)
					row = append(row, in.md.String())
				}
				rows = append(rows, row)
			case atom.Caption:
				var in inline
				in.children(c)
				r.w.paragraph(in.md.String())
			}
		}
	}
	walk(t)
	r.w.table(rows)
}

// inline builds the Markdown of inline content and, beside it, its plain
// text (a heading's title as the Markdown parser will read it).
type inline struct {
	md       inlineMD
	plain    strings.Builder
	heading  bool // "#" is escaped, links are text
	flat     bool // a table cell: blocks and line breaks are blanks
	emphasis bool // inside emphasis: nested emphasis is its text
}

func (in *inline) text(s string) {
	s = collapseSpace(s)
	in.md.WriteString(escapeText(s, in.heading))
	in.plain.WriteString(s)
}

func (in *inline) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			in.text(c.Data)
		case html.ElementNode:
			if !dropped(c) {
				in.element(c)
			}
		}
	}
}

// element renders an inline element; a block inside inline content (a
// table cell, a heading) reads as its text between blanks.
func (in *inline) element(n *html.Node) {
	switch n.DataAtom {
	case atom.Br:
		if in.heading || in.flat {
			in.text(" ")
		} else {
			in.md.WriteString("\n")
			in.plain.WriteString(" ")
		}
	case atom.Img:
		if alt := attr(n, "alt"); alt != "" {
			in.text(alt)
		}
	case atom.Code, atom.Tt, atom.Kbd, atom.Samp:
		t := collapseSpace(textContent(n))
		in.md.code(t)
		in.plain.WriteString(strings.Join(strings.Fields(t), " "))
	case atom.Em, atom.I, atom.Cite, atom.Var, atom.Dfn:
		in.wrap(n, "*")
	case atom.Strong, atom.B:
		in.wrap(n, "**")
	case atom.S, atom.Del, atom.Strike:
		in.wrap(n, "~~")
	case atom.A:
		target := linkTarget(attr(n, "href"))
		if in.heading || target == "" || strings.HasPrefix(target, "#") {
			in.children(n)
			return
		}
		var sub inline
		sub.flat = in.flat
		sub.children(n)
		text := strings.TrimSpace(sub.md.String())
		if text == "" {
			return
		}
		in.md.WriteString("[" + strings.ReplaceAll(text, "\n", " ") + "](" + target + ")")
		in.plain.WriteString(sub.plain.String())
	default:
		if blockLevel(n) {
			in.text(" ")
			in.children(n)
			in.text(" ")
			return
		}
		in.children(n)
	}
}

// wrap renders n's content between emphasis markers, blanks kept outside
// them so that the markers touch the text ("a *b* c", not "a* b *c").
// The markers are written only where Markdown surely reads them as
// emphasis, around text that starts and ends with a letter or digit, and
// never in a heading, whose title must read exactly as the page's.
//
// Emphasis inside emphasis, and any in a heading, is read as its text in
// the same builder: content is copied once, however deep the nesting.
func (in *inline) wrap(n *html.Node, marker string) {
	if in.emphasis || in.heading {
		in.children(n)
		return
	}
	sub := inline{flat: in.flat, emphasis: true}
	sub.children(n)
	md := sub.md.String()
	trimmed := strings.TrimSpace(md)
	first, _ := utf8.DecodeRuneInString(trimmed)
	last, _ := utf8.DecodeLastRuneInString(trimmed)
	if !isWordRune(first) || !isWordRune(last) || strings.Contains(trimmed, "\n") {
		in.md.append(&sub.md)
	} else {
		if strings.HasPrefix(md, " ") {
			in.md.WriteString(" ")
		}
		in.md.WriteString(marker + trimmed + marker)
		if strings.HasSuffix(md, " ") {
			in.md.WriteString(" ")
		}
	}
	in.plain.WriteString(sub.plain.String())
}

// collapseSpace turns HTML white space runs into one blank.
func collapseSpace(s string) string {
	if !strings.ContainsAny(s, " \t\n\r\f") {
		return s
	}
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// dropped reports page furniture that is not the proposal: scripts,
// styles, navigation, sidebars, forms, hidden elements and Confluence's
// table-of-contents macro.
func dropped(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Nav, atom.Aside, atom.Iframe,
		atom.Object, atom.Embed, atom.Svg, atom.Math, atom.Canvas, atom.Button, atom.Input, atom.Select,
		atom.Textarea, atom.Form, atom.Head, atom.Link, atom.Meta:
		return true
	case atom.Header, atom.Footer:
		// The page's banner and footer; an article's own header holds
		// its title.
		return n.Parent != nil && n.Parent.DataAtom == atom.Body
	}
	if n.Type != html.ElementNode {
		return false
	}
	if _, hidden := attrOK(n, "hidden"); hidden {
		return true
	}
	switch strings.ToLower(attr(n, "role")) {
	case "navigation", "banner", "contentinfo", "complementary", "search":
		return true
	}
	id := strings.ToLower(attr(n, "id"))
	if strings.Contains(id, "sidebar") || strings.Contains(id, "breadcrumb") || id == "navigation" {
		return true
	}
	return hasClass(n, "toc-macro") || hasClass(n, "sidebar") || hasClass(n, "breadcrumbs") || hasClass(n, "page-metadata")
}

// blockLevel reports the elements that start a block of their own.
func blockLevel(n *html.Node) bool {
	switch n.DataAtom {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Main, atom.Body, atom.Html,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Li, atom.Menu,
		atom.Dl, atom.Dt, atom.Dd, atom.Blockquote, atom.Pre, atom.Table, atom.Hr, atom.Figure,
		atom.Figcaption, atom.Details, atom.Summary, atom.Address, atom.Center, atom.Fieldset,
		atom.Tr, atom.Td, atom.Th, atom.Thead, atom.Tbody, atom.Tfoot, atom.Caption, atom.Listing, atom.Xmp:
		return true
	}
	return false
}

func headingLevel(n *html.Node) int {
	switch n.DataAtom {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// preText is the text of a <pre> as it shows, line breaks kept.
func preText(n *html.Node) string { return elementText(n, true) }

// codeClass reads a code block's language: class="language-java" (also
// on an inner <code>) or Confluence's "brush: java; gutter: false".
func codeClass(n *html.Node) string {
	for _, el := range []*html.Node{n, findFirst(n, isElem(atom.Code))} {
		if el == nil {
			continue
		}
		for _, c := range strings.Fields(attr(el, "class")) {
			if lang, ok := strings.CutPrefix(c, "language-"); ok {
				return lang
			}
		}
	}
	for _, part := range strings.Split(attr(n, "data-syntaxhighlighter-params"), ";") {
		if k, v, ok := strings.Cut(part, ":"); ok && strings.TrimSpace(k) == "brush" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// keyValueRows returns the rows of a table when each is a header cell and
// a data cell (a JEP header table), else nil.
func keyValueRows(t *html.Node) [][2]string {
	var out [][2]string
	for n := range t.Descendants() {
		if n.DataAtom != atom.Tr {
			continue
		}
		cells := rowCells(n)
		if len(cells) != 2 || cells[0].DataAtom != atom.Th || cells[1].DataAtom != atom.Td {
			return nil
		}
		out = append(out, [2]string{textContent(cells[0]), textContent(cells[1])})
	}
	return out
}

func rowCells(tr *html.Node) []*html.Node {
	var cells []*html.Node
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Td || c.DataAtom == atom.Th {
			cells = append(cells, c)
		}
	}
	return cells
}

// hrefs lists the web links inside n.
func hrefs(n *html.Node) []string {
	var out []string
	for d := range n.Descendants() {
		if d.DataAtom == atom.A {
			if h := strings.TrimSpace(attr(d, "href")); strings.HasPrefix(h, "http://") || strings.HasPrefix(h, "https://") {
				out = append(out, h)
			}
		}
	}
	return out
}

// textContent is the text of n and its descendants, dropped elements
// left out, images read as their alternative text, blocks and line
// breaks as blanks.
func textContent(n *html.Node) string { return elementText(n, false) }

// elementText is the text of n; in preformatted text a <br> is a line
// break and blocks add nothing.
func elementText(n *html.Node, pre bool) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type != html.ElementNode || dropped(c):
			case c.DataAtom == atom.Img:
				b.WriteString(attr(c, "alt"))
			case c.DataAtom == atom.Br && pre:
				b.WriteByte('\n')
			case (c.DataAtom == atom.Br || blockLevel(c)) && !pre:
				b.WriteByte(' ')
				walk(c)
				b.WriteByte(' ')
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

func findFirst(root *html.Node, match func(*html.Node) bool) *html.Node {
	for n := range root.Descendants() {
		if n.Type == html.ElementNode && match(n) {
			return n
		}
	}
	return nil
}

func isElem(a atom.Atom) func(*html.Node) bool {
	return func(n *html.Node) bool { return n.DataAtom == a }
}

func bodyOf(root *html.Node) *html.Node {
	if b := findFirst(root, isElem(atom.Body)); b != nil {
		return b
	}
	return root
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}
