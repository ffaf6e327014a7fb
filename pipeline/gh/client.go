// Package gh is the GitHub client of collection (paper, section 3.1): PR
// search by proposal reference, PR metadata, PR files and commits, issues
// with a label, built on github.com/google/go-github/v62. Its Transport
// waits out primary and secondary rate limits and retries server errors
// with bounded backoff. The token comes from the caller (GITHUB_TOKEN) and
// is only ever sent in the Authorization header to the API host.
//
// Results are plain structs that marshal to JSON, so that collection can
// checkpoint every finished call in the workspace.
package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-github/v62/github"
)

// DefaultBaseURL is the public GitHub API.
const DefaultBaseURL = "https://api.github.com/"

// Limits of the GitHub API that bound paging.
const (
	maxSearchResults = 1000 // the search API returns no more
	maxPRFiles       = 3000 // the PR files API lists no more
	maxPRCommits     = 250  // the PR commits API lists no more
	perPage          = 100
)

// Options configure a Client.
type Options struct {
	// BaseURL is the API root; DefaultBaseURL when empty. Tests point it
	// at an httptest server; GitHub Enterprise at https://HOST/api/v3/.
	BaseURL string
	// Token authenticates requests (GITHUB_TOKEN); empty is anonymous,
	// with GitHub's much lower limits.
	Token string
	// Base is the transport below the rate-limit handling; nil is
	// http.DefaultTransport.
	Base http.RoundTripper
	// Sleep, Now, Log and the retry bounds tune the Transport.
	Sleep      func(ctx context.Context, d time.Duration) error
	Now        func() time.Time
	Log        func(format string, args ...any)
	MaxRetries int
	Timeout    time.Duration // per request; default 2 minutes
}

// Client calls the GitHub API.
type Client struct {
	gh        *github.Client
	transport *Transport
}

// New returns a client.
func New(o Options) (*Client, error) {
	base := o.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("github api url %q: want http(s)://host/path", base)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	t := &Transport{Base: o.Base, Token: o.Token, Host: u.Host, Sleep: o.Sleep, Now: o.Now, Log: o.Log, MaxRetries: o.MaxRetries}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	c := github.NewClient(&http.Client{Transport: t, Timeout: timeout})
	c.BaseURL = u
	c.UserAgent = "lolbench"
	return &Client{gh: c, transport: t}, nil
}

// Authenticated reports whether requests carry a token.
func (c *Client) Authenticated() bool { return c.transport.Token != "" }

// Hit is one search result: a PR whose title or body matched the query.
type Hit struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body,omitempty"`
	State     string    `json:"state"` // open or closed
	Merged    bool      `json:"merged"`
	MergedAt  time.Time `json:"merged_at,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	URL       string    `json:"url"`
	Author    string    `json:"author,omitempty"`
}

// PR is a pull request's metadata.
type PR struct {
	Number       int       `json:"number"`
	Title        string    `json:"title"`
	Author       string    `json:"author"`
	URL          string    `json:"url"`
	State        string    `json:"state"`
	Merged       bool      `json:"merged"`
	CreatedAt    time.Time `json:"created_at"`
	MergedAt     time.Time `json:"merged_at,omitempty"`
	BaseRef      string    `json:"base_ref"`
	BaseSHA      string    `json:"base_sha"`
	HeadSHA      string    `json:"head_sha"`
	MergeSHA     string    `json:"merge_sha,omitempty"`
	Additions    int       `json:"additions"`
	Deletions    int       `json:"deletions"`
	ChangedFiles int       `json:"changed_files"`
	Commits      int       `json:"commits"`
}

// Commit is one commit of a PR.
type Commit struct {
	SHA           string    `json:"sha"`
	AuthorDate    time.Time `json:"author_date"`
	CommitterDate time.Time `json:"committer_date"`
}

// File is one file a PR changes, with GitHub's counts.
type File struct {
	Path         string `json:"path"`
	PreviousPath string `json:"previous_path,omitempty"`
	Status       string `json:"status"` // added, removed, modified, renamed, copied, changed, unchanged
	Additions    int    `json:"additions"`
	Deletions    int    `json:"deletions"`
}

// Issue is an issue used as a proposal (EP source kind github-issues).
type Issue struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	State     string    `json:"state"`
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
	Author    string    `json:"author,omitempty"`
}

var repoRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.][A-Za-z0-9_.-]*$`)

func splitRepo(repo string) (string, string, error) {
	if !repoRE.MatchString(repo) {
		return "", "", fmt.Errorf("%q is not a GitHub owner/name", repo)
	}
	owner, name, _ := strings.Cut(repo, "/")
	return owner, name, nil
}

// SearchQuery is the search for PRs of repo whose title or body holds the
// phrase, in any state.
func SearchQuery(repo, phrase string) string {
	return fmt.Sprintf(`repo:%s is:pr in:title,body "%s"`, repo, phrase)
}

// SearchPRs returns the PRs of repo whose title or body holds phrase
// (GitHub's phrase match; callers check the reference themselves), open
// and closed, up to the search API's 1,000 results. incomplete is GitHub's
// incomplete_results on any page: the search ran out of time and matches
// may be missing, so the answer is not final and is worth asking again.
func (c *Client) SearchPRs(ctx context.Context, repo, phrase string) (hits []Hit, incomplete bool, err error) {
	if _, _, err := splitRepo(repo); err != nil {
		return nil, false, err
	}
	if strings.ContainsAny(phrase, "\"\n\r") {
		return nil, false, fmt.Errorf("search phrase %q holds a quote or line break", phrase)
	}
	q := SearchQuery(repo, phrase)
	opt := &github.SearchOptions{Sort: "created", Order: "asc", ListOptions: github.ListOptions{PerPage: perPage}}
	for {
		res, resp, err := c.gh.Search.Issues(ctx, q, opt)
		if err != nil {
			return nil, false, c.wrap(ctx, "search "+q, err)
		}
		if res.GetIncompleteResults() {
			incomplete = true
		}
		for _, is := range res.Issues {
			if !is.IsPullRequest() {
				continue
			}
			h := Hit{
				Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), State: is.GetState(),
				CreatedAt: is.GetCreatedAt().Time.UTC(), URL: is.GetHTMLURL(), Author: is.GetUser().GetLogin(),
			}
			if m := is.GetPullRequestLinks().GetMergedAt(); !m.IsZero() {
				h.Merged, h.MergedAt = true, m.Time.UTC()
			}
			hits = append(hits, h)
		}
		if resp.NextPage == 0 || len(hits) >= maxSearchResults {
			break
		}
		opt.Page = resp.NextPage
	}
	return hits, incomplete, nil
}

// PullRequest returns a PR's metadata.
func (c *Client) PullRequest(ctx context.Context, repo string, number int) (*PR, error) {
	owner, name, err := splitRepo(repo)
	if err != nil {
		return nil, err
	}
	p, _, err := c.gh.PullRequests.Get(ctx, owner, name, number)
	if err != nil {
		return nil, c.wrap(ctx, fmt.Sprintf("pull request %s#%d", repo, number), err)
	}
	pr := &PR{
		Number: p.GetNumber(), Title: p.GetTitle(), Author: p.GetUser().GetLogin(), URL: p.GetHTMLURL(),
		State: p.GetState(), Merged: p.GetMerged(), CreatedAt: p.GetCreatedAt().Time.UTC(),
		BaseRef: p.GetBase().GetRef(), BaseSHA: p.GetBase().GetSHA(), HeadSHA: p.GetHead().GetSHA(),
		MergeSHA: p.GetMergeCommitSHA(), Additions: p.GetAdditions(), Deletions: p.GetDeletions(),
		ChangedFiles: p.GetChangedFiles(), Commits: p.GetCommits(),
	}
	if m := p.GetMergedAt(); !m.IsZero() {
		pr.Merged, pr.MergedAt = true, m.Time.UTC()
	}
	return pr, nil
}

// PullRequestCommits lists a PR's commits (the API lists at most 250).
func (c *Client) PullRequestCommits(ctx context.Context, repo string, number int) ([]Commit, error) {
	owner, name, err := splitRepo(repo)
	if err != nil {
		return nil, err
	}
	opt := &github.ListOptions{PerPage: perPage}
	var out []Commit
	for {
		cs, resp, err := c.gh.PullRequests.ListCommits(ctx, owner, name, number, opt)
		if err != nil {
			return nil, c.wrap(ctx, fmt.Sprintf("commits of %s#%d", repo, number), err)
		}
		for _, rc := range cs {
			cm := Commit{SHA: rc.GetSHA()}
			if gc := rc.GetCommit(); gc != nil {
				cm.AuthorDate = gc.GetAuthor().GetDate().Time.UTC()
				cm.CommitterDate = gc.GetCommitter().GetDate().Time.UTC()
			}
			out = append(out, cm)
		}
		if resp.NextPage == 0 || len(out) >= maxPRCommits {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

// PullRequestFiles lists the files a PR changes, with GitHub's line
// counts. The API lists at most 3,000 files; complete is false when the
// PR changes more (compare PR.ChangedFiles), and the caller then counts
// from git.
func (c *Client) PullRequestFiles(ctx context.Context, repo string, number int) ([]File, error) {
	owner, name, err := splitRepo(repo)
	if err != nil {
		return nil, err
	}
	opt := &github.ListOptions{PerPage: perPage}
	var out []File
	for {
		fs, resp, err := c.gh.PullRequests.ListFiles(ctx, owner, name, number, opt)
		if err != nil {
			return nil, c.wrap(ctx, fmt.Sprintf("files of %s#%d", repo, number), err)
		}
		for _, f := range fs {
			out = append(out, File{
				Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename(), Status: f.GetStatus(),
				Additions: f.GetAdditions(), Deletions: f.GetDeletions(),
			})
		}
		if resp.NextPage == 0 || len(out) >= maxPRFiles {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

// LabelledIssues lists the issues of repo that carry label, open and
// closed, without pull requests.
func (c *Client) LabelledIssues(ctx context.Context, repo, label string) ([]Issue, error) {
	owner, name, err := splitRepo(repo)
	if err != nil {
		return nil, err
	}
	opt := &github.IssueListByRepoOptions{State: "all", Labels: []string{label}, Sort: "created", Direction: "asc",
		ListOptions: github.ListOptions{PerPage: perPage}}
	var out []Issue
	for {
		is, resp, err := c.gh.Issues.ListByRepo(ctx, owner, name, opt)
		if err != nil {
			return nil, c.wrap(ctx, fmt.Sprintf("issues of %s labelled %q", repo, label), err)
		}
		for _, i := range is {
			if i.IsPullRequest() {
				continue
			}
			out = append(out, Issue{
				Number: i.GetNumber(), Title: i.GetTitle(), Body: i.GetBody(), State: i.GetState(),
				URL: i.GetHTMLURL(), CreatedAt: i.GetCreatedAt().Time.UTC(), Author: i.GetUser().GetLogin(),
			})
		}
		if resp.NextPage == 0 {
			break
		}
		opt.Page = resp.NextPage
	}
	return out, nil
}

// ErrNotFound is wrapped by calls whose object does not exist (404).
var ErrNotFound = errors.New("not found on GitHub (404)")

// wrap names the call in an error. GitHub's error answers quote what they
// were sent, and a proxy may echo the Authorization header: the token is
// redacted from the text, and the error does not unwrap to the raw one.
func (c *Client) wrap(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil && er.Response.StatusCode == http.StatusNotFound {
		return fmt.Errorf("github %s: %w", what, ErrNotFound)
	}
	return errors.New("github " + what + ": " + redact(err, c.transport.Token))
}
