package collect

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/gh"
	"github.com/lolbench/lolbench/pipeline/registry"
)

// prRef is one merged PR linked to a proposal.
type prRef struct {
	number    int
	link      *registry.Link // the curated entry, or nil
	linkIndex int
	evidence  []pipeline.Evidence // why it was paired, in source order
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

// link finds the PRs of a proposal. The curated entries win when there
// are any; else every merged PR that the proposal declares (a link to the
// project's repository) or that a search finds, each with the evidence
// that paired it (issue 33 §3). Open PRs come from all three.
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
		l.merged = append(l.merged, prRef{number: c.PR, link: c, linkIndex: i,
			evidence: []pipeline.Evidence{{Source: pipeline.EvidenceCurated, Detail: pr.whereIn(i, filepath.Base(pr.reg.File))}}})
	}
	// Without a curated entry, declared links and the search pair alike.
	paired := map[int]*prRef{}
	pairBy := func(n int, ev pipeline.Evidence) {
		if curated > 0 {
			return
		}
		if paired[n] == nil {
			paired[n] = &prRef{number: n}
		}
		paired[n].evidence = append(paired[n].evidence, ev)
	}
	var unchecked []string
	if curated == 0 {
		var err error
		if unchecked, err = pr.declared(ctx, e, pairBy, open); err != nil {
			return nil, err
		}
	}
	var why []string
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
				pairBy(h.Number, pipeline.Evidence{Source: pipeline.EvidenceSearch, Detail: strings.Join(h.phrases, ", ")})
			case h.State == "open":
				open[h.Number] = true
			}
		}
		why = append(why, fmt.Sprintf("no merged PR of %s references %s (%d PRs found, %d merged)", pr.p.Repo, e.ID, len(hits), merged))
		if incomplete {
			why = append(why, "GitHub's search results were incomplete, so the search runs again next time")
		}
	}
	if n := linksTo(e, pr.p.Repo); n > len(unchecked) {
		why = append(why, fmt.Sprintf("none of its %d declared %s to %s is a merged PR", n, plural(n, "link", "links"), pr.p.Repo))
	}
	if len(unchecked) > 0 {
		why = append(why, fmt.Sprintf("declared %s not checked: the run is offline and no earlier run recorded %s",
			plural(len(unchecked), "link", "links"), strings.Join(unchecked, ", ")))
	}
	if curated == 0 {
		if pr.p.Links.Search == nil {
			why = append([]string{fmt.Sprintf("no curated PR for %s", e.ID)}, why...)
		}
		l.why = strings.Join(why, "; ")
	}
	if l.why == "" {
		l.why = fmt.Sprintf("no curated PR for %s", e.ID)
	}
	for _, r := range paired {
		l.merged = append(l.merged, *r)
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

// declared asks GitHub about each link the proposal declares to the
// project's repository: a merged PR is paired (pairBy), an open one
// competes (criterion 4), an issue is passed over (the pulls API does not
// know it). An offline run without a record of a link cannot tell, so the
// link is returned as unchecked rather than failing the project: unlike
// the search, declared links are evidence the registry did not ask for.
func (pr *projectRun) declared(ctx context.Context, e *EP, pairBy func(int, pipeline.Evidence), open map[int]bool) ([]string, error) {
	if pr.p.Repo == "" {
		return nil, nil
	}
	var unchecked []string
	for _, k := range e.Links {
		if !strings.EqualFold(k.Repo, pr.p.Repo) {
			continue
		}
		notPR := fmt.Sprintf("github/not-a-pr-%d.json", k.Number)
		if pr.cache.has(notPR) {
			continue
		}
		meta, err := pr.pullRequest(ctx, k.Number)
		switch {
		case errors.Is(err, gh.ErrNotFound):
			// Recorded, so that an offline run replays the same pairs.
			if err := pr.cache.store(notPR, k); err != nil {
				return nil, err
			}
			continue
		case errors.Is(err, ErrNotCached):
			unchecked = append(unchecked, fmt.Sprintf("#%d", k.Number))
			continue
		case err != nil:
			return nil, err
		}
		switch {
		case meta.Merged:
			pairBy(k.Number, pipeline.Evidence{Source: pipeline.EvidenceDeclared, Detail: fmt.Sprintf("%s in %s", k, e.Path)})
		case meta.State == "open":
			open[k.Number] = true
		}
	}
	return unchecked, nil
}

// linksTo counts the links the proposal declares to repo.
func linksTo(e *EP, repo string) int {
	n := 0
	for _, k := range e.Links {
		if repo != "" && strings.EqualFold(k.Repo, repo) {
			n++
		}
	}
	return n
}

// found is a PR the search found, with the phrases that found it.
type found struct {
	searchHit
	phrases []string
}

// search runs one GitHub search per reference pattern (checkpointed) and
// returns the PRs that do reference the proposal, once each, and whether
// any search was incomplete (those are listed in the funnel).
func (pr *projectRun) search(ctx context.Context, e *EP, s *registry.Search) ([]found, bool, error) {
	byNumber := map[int]*found{}
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
			if !h.References {
				continue
			}
			if byNumber[h.Number] == nil {
				byNumber[h.Number] = &found{searchHit: h}
			}
			byNumber[h.Number].phrases = append(byNumber[h.Number].phrases, strconv.Quote(phrase))
		}
	}
	out := make([]found, 0, len(byNumber))
	for _, h := range byNumber {
		out = append(out, *h)
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
