package collect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"

	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/registry"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// A kind web source lists pages (OpenJDK JEPs, Confluence KIPs and FLIPs,
// PHP RFCs). "lolbench ep fetch" saves each page into the source's folder
// beside the registry, with a record of its address and fetch time;
// collection reads only that folder, so that an offline run is
// reproducible and every candidate names the copy it was made from.
//
//	web/<project>/<number>.html   the page as served (.dokuwiki for wiki text)
//	web/<project>/<number>.json   its Fetch record

// Fetch is the record of one saved page.
type Fetch struct {
	EP          string    `json:"ep"`
	URL         string    `json:"url"`
	FetchedAt   time.Time `json:"fetched_at"`
	Status      int       `json:"status"`
	ContentType string    `json:"content_type,omitempty"`
	Bytes       int       `json:"bytes"`
	SHA256      string    `json:"sha256"`
	// File is the saved page, relative to the folder.
	File string `json:"file"`
	// Skipped says the page was already saved and not fetched again.
	Skipped bool `json:"skipped,omitempty"`
	// Error says why the page could not be fetched; nothing was saved.
	Error string `json:"error,omitempty"`
}

// pageFile is the saved page of a number in a web source's folder.
func pageFile(e *registry.EPSource, n string) string {
	ext := ".html"
	if e.Format == registry.FormatDokuWiki {
		ext = ".dokuwiki"
	}
	return registry.CanonicalNumber(n) + ext
}

// readWeb reads the saved pages of a kind web source; a page not saved
// yet is a proposal that is dropped, with the command that saves it.
func (pr *projectRun) readWeb() ([]rawEP, error) {
	e := &pr.p.EPs
	dir, err := pr.reg.WebDir(pr.p)
	if err != nil {
		return nil, err
	}
	pr.funnel.Proposals = "web pages saved in " + pr.showPath(dir)
	var raws []rawEP
	for _, pg := range e.Pages {
		name := pageFile(e, string(pg.EP))
		r := rawEP{path: name, page: pg, url: e.PageURL(pg)}
		var rec Fetch
		switch err := workspace.ReadJSON(filepath.Join(dir, registry.CanonicalNumber(string(pg.EP))+".json"), &rec); {
		case errors.Is(err, os.ErrNotExist):
			r.textErr = fmt.Sprintf("%s is not saved in %s yet; run lolbench ep fetch --projects %s --project %s", r.url, dir, pr.reg.File, pr.p.Name)
		case err != nil:
			r.textErr = err.Error()
		default:
			r.url, r.fetched = rec.URL, rec.FetchedAt
			if r.content, err = workspace.ReadFileIn(dir, name, ep.MaxSize, "the EP size cap"); err != nil {
				r.textErr = err.Error()
			}
		}
		raws = append(raws, r)
	}
	return raws, nil
}

// FetchOptions are the inputs of FetchPages.
type FetchOptions struct {
	// Client does the requests; nil is a client with a one-minute timeout.
	Client *http.Client
	// Force fetches pages that are saved already.
	Force bool
	// UserAgent names lolbench to the server.
	UserAgent string
	// Progress receives each page's record as it is done; nil ignores it.
	Progress func(Fetch)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// FetchPages saves the pages of a kind web project into its folder, page
// by page: each page is written with its record, atomically, so that an
// interrupted fetch keeps what it finished. A page that cannot be fetched
// is reported with its proposal and address, and the others are still
// fetched; the error lists them all.
func FetchPages(ctx context.Context, reg *registry.Registry, p *registry.Project, o FetchOptions) ([]Fetch, error) {
	if p.EPs.Kind != registry.KindWeb {
		return nil, reg.Errorf(p.Field("eps.kind"), "project %s reads %s proposals, not web pages; ep fetch saves kind web", p.Name, p.EPs.Kind)
	}
	dir, err := reg.WebDir(p)
	if err != nil {
		return nil, err
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: time.Minute}
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	var out []Fetch
	var failed []string
	for _, pg := range p.EPs.Pages {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		n := registry.CanonicalNumber(string(pg.EP))
		rec := Fetch{EP: n, URL: p.EPs.PageURL(pg), File: pageFile(&p.EPs, n)}
		if _, err := os.Stat(filepath.Join(dir, n+".json")); err == nil && !o.Force {
			rec.Skipped = true
		} else if err := fetchPage(ctx, client, o.UserAgent, dir, &rec, now); err != nil {
			rec.Error = err.Error()
			failed = append(failed, fmt.Sprintf("%s (%s): %s", p.EPs.ID(n), rec.URL, rec.Error))
		}
		if o.Progress != nil {
			o.Progress(rec)
		}
		out = append(out, rec)
	}
	if len(failed) > 0 {
		return out, fmt.Errorf("project %s: %d of %d pages not fetched:\n  %s", p.Name, len(failed), len(p.EPs.Pages), strings.Join(failed, "\n  "))
	}
	return out, nil
}

// fetchPage gets one page and saves it with its record.
func fetchPage(ctx context.Context, client *http.Client, agent, dir string, rec *Fetch, now func() time.Time) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rec.URL, nil)
	if err != nil {
		return err
	}
	if agent != "" {
		req.Header.Set("User-Agent", agent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	rec.Status, rec.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %s", resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, ep.MaxSize+1))
	if err != nil {
		return fmt.Errorf("read the page: %w", err)
	}
	if len(body) > ep.MaxSize {
		return fmt.Errorf("more than the EP size cap of %s", workspace.Bytes(ep.MaxSize))
	}
	if !utf8.Valid(body) {
		// A page in another encoding (its Content-Type or <meta> says
		// which) is saved as UTF-8, as every EP is read.
		r, err := charset.NewReader(bytes.NewReader(body), rec.ContentType)
		if err != nil {
			return fmt.Errorf("not UTF-8, and its encoding is unknown: %w", err)
		}
		if body, err = io.ReadAll(io.LimitReader(r, 2*ep.MaxSize)); err != nil || !utf8.Valid(body) {
			return errors.New("not UTF-8, and it cannot be converted")
		}
	}
	sum := sha256.Sum256(body)
	rec.Bytes, rec.SHA256, rec.FetchedAt = len(body), hex.EncodeToString(sum[:]), now().UTC().Truncate(time.Second)
	if err := workspace.WriteFile(filepath.Join(dir, rec.File), body, 0o644); err != nil {
		return err
	}
	return workspace.WriteJSON(filepath.Join(dir, rec.EP+".json"), rec)
}
