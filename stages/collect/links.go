package collect

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/registry"
)

// prRef is one merged PR linked to a proposal.
type prRef struct {
	number    int
	link      *registry.Link // the curated entry, or nil
	linkIndex int
}

// linkage is what links a proposal to PRs: the merged ones (one pair each)
// and the competing open ones (criterion 4).
type linkage struct {
	merged []prRef
	open   []int
	why    string // why no merged PR was found
}

func (l *linkage) mergedNumbers() []int {
	ns := make([]int, len(l.merged))
	for i, m := range l.merged {
		ns[i] = m.number
	}
	return ns
}

// searchHit is a checkpointed search result, without the body.
type searchHit struct {
	Number   int       `json:"number"`
	Title    string    `json:"title"`
	State    string    `json:"state"`
	Merged   bool      `json:"merged"`
	MergedAt time.Time `json:"merged_at,omitempty"`
	URL      string    `json:"url"`
	// References says the title or body holds the reference as the
	// pattern spells it (GitHub's phrase search is looser).
	References bool `json:"references"`
}

// searchRecord is the checkpoint of one search. A search GitHub answered
// with incomplete_results is used for the run but not recorded, so the
// next run asks again.
type searchRecord struct {
	Query string      `json:"query"`
	Hits  []searchHit `json:"hits"`
}

// link finds the PRs of a proposal: the curated entries when there are
// any, else the merged PRs a search finds; open PRs come from both.
func (pr *projectRun) link(ctx context.Context, e *EP) (*linkage, error) {
	l := &linkage{}
	open := map[int]bool{}
	curated := 0
	for i, c := range pr.p.Links.Curated {
		if c.EP.Canonical() != e.Number {
			continue
		}
		curated++
		for _, o := range c.OpenPRs {
			open[o] = true
		}
		if c.Merged.IsZero() && pr.noGitHub(c) == "" {
			// Only GitHub can say whether the PR was merged; without
			// it, a link naming its commits is taken at its word.
			meta, err := pr.pullRequest(ctx, c.PR)
			if errors.Is(err, ErrNotCached) {
				return nil, fmt.Errorf("%w, or give the PR's base and head at %s so that collect needs no GitHub", err, pr.where(i))
			}
			if errors.Is(err, gh.ErrNotFound) {
				// One missing PR drops its pair, not the project.
				l.why = fmt.Sprintf("curated PR #%d of %s: %v", c.PR, e.ID, err)
				continue
			}
			if err != nil {
				return nil, err
			}
			if !meta.Merged {
				l.why = fmt.Sprintf("curated PR #%d of %s is not merged", c.PR, e.ID)
				if meta.State == "open" {
					open[c.PR] = true
				}
				continue
			}
		}
		l.merged = append(l.merged, prRef{number: c.PR, link: c, linkIndex: i})
	}
	if s := pr.p.Links.Search; s != nil {
		hits, incomplete, err := pr.search(ctx, e, s)
		if err != nil {
			return nil, err
		}
		merged := 0
		for _, h := range hits {
			switch {
			case h.Merged:
				merged++
				if curated == 0 {
					l.merged = append(l.merged, prRef{number: h.Number})
				}
			case h.State == "open":
				open[h.Number] = true
			}
		}
		if curated == 0 && l.why == "" {
			l.why = fmt.Sprintf("no merged PR of %s references %s (%d PRs found, %d merged)", pr.p.Repo, e.ID, len(hits), merged)
			if incomplete {
				l.why += "; GitHub's search results were incomplete, so the search runs again next time"
			}
		}
	}
	if l.why == "" {
		l.why = fmt.Sprintf("no curated PR for %s", e.ID)
	}
	for _, m := range l.merged {
		delete(open, m.number)
	}
	for n := range open {
		l.open = append(l.open, n)
	}
	sort.Ints(l.open)
	sort.Slice(l.merged, func(i, j int) bool { return l.merged[i].number < l.merged[j].number })
	return l, nil
}

// search runs one GitHub search per reference pattern (checkpointed) and
// returns the PRs that do reference the proposal, once each, and whether
// any search was incomplete (those are listed in the funnel).
func (pr *projectRun) search(ctx context.Context, e *EP, s *registry.Search) ([]searchHit, bool, error) {
	byNumber := map[int]searchHit{}
	anyIncomplete := false
	for _, pat := range s.Patterns {
		phrase := strings.Replace(pat, "{n}", e.Number, 1)
		q := gh.SearchQuery(pr.p.Repo, phrase)
		m := pr.matcher(pat)
		var rec searchRecord
		name := fmt.Sprintf("github/search-%s-%s.json", fileSlug(phrase), key(q))
		err := pr.cache.getFinal(name, fmt.Sprintf("search %s", q), &rec, func() (bool, error) {
			c, err := pr.s.client(pr.env)
			if err != nil {
				return false, err
			}
			hits, incomplete, err := c.SearchPRs(ctx, pr.p.Repo, phrase)
			if err != nil {
				return false, err
			}
			rec = searchRecord{Query: q, Hits: []searchHit{}}
			for _, h := range hits {
				rec.Hits = append(rec.Hits, searchHit{Number: h.Number, Title: h.Title, State: h.State, Merged: h.Merged,
					MergedAt: h.MergedAt, URL: h.URL, References: m.matches(e.Number, h.Title) || m.matches(e.Number, h.Body)})
			}
			if incomplete {
				anyIncomplete = true
				pr.funnel.Incomplete = append(pr.funnel.Incomplete, q)
			}
			return !incomplete, nil
		})
		if err != nil {
			return nil, false, err
		}
		for _, h := range rec.Hits {
			if h.References {
				byNumber[h.Number] = h
			}
		}
	}
	out := make([]searchHit, 0, len(byNumber))
	for _, h := range byNumber {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out, anyIncomplete, nil
}

// refMatcher checks that a text references proposal n as a pattern spells
// it: the pattern's words in order, separated by up to three characters
// that are neither letters, digits nor line breaks, then the number (with
// any leading zeros) not followed by a digit. "PEP {n}" matches "PEP 617",
// "PEP-0617" and "pep617", not "PEP 6170".
type refMatcher struct {
	before, after []string
}

func (pr *projectRun) matcher(pattern string) refMatcher {
	if pr.refRE == nil {
		pr.refRE = map[string]refMatcher{}
	}
	if m, ok := pr.refRE[pattern]; ok {
		return m
	}
	b, a, _ := strings.Cut(pattern, "{n}")
	m := refMatcher{before: words(b), after: words(a)}
	pr.refRE[pattern] = m
	return m
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

const sep = `[^\p{L}\p{N}\n\r]{0,3}`

func (m refMatcher) matches(n, text string) bool {
	if text == "" {
		return false
	}
	var b strings.Builder
	b.WriteString(`(?i)(?:^|[^\p{L}\p{N}])`)
	for _, w := range m.before {
		b.WriteString(regexp.QuoteMeta(w) + sep)
	}
	if isDigits(n) {
		b.WriteString("0*")
	}
	b.WriteString(regexp.QuoteMeta(n))
	for _, w := range m.after {
		b.WriteString(sep + regexp.QuoteMeta(w))
	}
	b.WriteString(`(?:[^\p{L}\p{N}]|$)`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return false
	}
	return re.MatchString(text)
}

// fileSlug keeps a checkpoint name readable: "PEP 617" -> "pep-617".
func fileSlug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return b.String()
}
