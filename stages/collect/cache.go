package collect

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// collectDir is collection's folder in the workspace:
//
//	collect/funnel.json                     every project's funnel
//	collect/<project>/funnel.json           one project's funnel
//	collect/<project>/github/*.json         finished GitHub calls
//	collect/<project>/loc/<sha>.json        source LoC of a commit
//	collect/<project>/pairs/<id>-pr<n>.json the decision on one EP-PR pair
const collectDir = "collect"

// ErrNotCached is wrapped when an offline run needs a GitHub result that
// no earlier run recorded.
var ErrNotCached = errors.New("not recorded by an earlier online run")

// cache is the checkpoint of one project: every finished GitHub call and
// every LoC count is a JSON file, written atomically, so an interrupted
// collect resumes without repeating them, and an offline run can replay
// an earlier online one.
type cache struct {
	dir     string
	offline bool
	// hits and misses count lookups, for the tests and the log.
	hits, misses int
}

func (c *cache) path(name string) string { return filepath.Join(c.dir, filepath.FromSlash(name)) }

// get fills v from the checkpoint name, or calls fetch and records v.
func (c *cache) get(name, what string, v any, fetch func() error) error {
	return c.getFinal(name, what, v, func() (bool, error) { return true, fetch() })
}

// getFinal is get for an answer that may not be final (a search GitHub
// could not finish): fetch says whether v is worth recording; one that is
// not is asked again on the next run.
func (c *cache) getFinal(name, what string, v any, fetch func() (final bool, err error)) error {
	if c.dir == "" {
		return fmt.Errorf("%s: %w, and no workspace was given to replay it from", what, ErrNotCached)
	}
	p := c.path(name)
	err := workspace.ReadJSON(p, v)
	if err == nil {
		c.hits++
		return nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("checkpoint %s (delete it to fetch again): %w", p, err)
	}
	c.misses++
	if c.offline {
		return fmt.Errorf("%s: %w; run without --offline", what, ErrNotCached)
	}
	final, err := fetch()
	if err != nil || !final {
		return err
	}
	return workspace.WriteJSON(p, v)
}

// has reports whether the checkpoint name exists.
func (c *cache) has(name string) bool {
	_, err := os.Stat(c.path(name))
	return err == nil
}

// store records v under name (decisions and funnels, rewritten each run).
func (c *cache) store(name string, v any) error {
	return workspace.WriteJSON(c.path(name), v)
}

// key returns a short stable hash of s for checkpoint names.
func key(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}
