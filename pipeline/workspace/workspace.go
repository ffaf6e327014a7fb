// Package workspace is the on-disk state of a lolbench run (docs/design.md,
// "The workspace"). Every file in it is plain JSON, Markdown or a patch that a
// person can read and a curator can edit. Writes are atomic, and every path
// built from outside input is checked so that it stays inside the workspace.
package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Workspace is a workspace folder, ./work by default.
type Workspace struct {
	Root string // absolute
}

// Open returns the workspace at dir, creating it when create is true.
func Open(dir string, create bool) (*Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && !st.IsDir():
		return nil, fmt.Errorf("workspace %s: not a directory", dir)
	case errors.Is(err, os.ErrNotExist) && create:
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("create workspace %s: %w", dir, err)
		}
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("workspace %s does not exist", dir)
	case err != nil:
		return nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	return &Workspace{Root: abs}, nil
}

// idPattern keeps candidate ids readable and safe as folder names
// ("cpython-pep-0617").
var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,127}$`)

// ValidID reports whether id may name a candidate.
func ValidID(id string) error {
	if !idPattern.MatchString(id) || strings.Contains(id, "..") {
		return fmt.Errorf("invalid candidate id %q: use lower-case letters, digits, '.', '_' and '-'", id)
	}
	return nil
}

// CandidateDir is the folder of one candidate.
func (w *Workspace) CandidateDir(id string) (string, error) {
	if err := ValidID(id); err != nil {
		return "", err
	}
	return filepath.Join(w.Root, "candidates", id), nil
}

// Candidates lists the candidate ids present, sorted.
func (w *Workspace) Candidates() ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(w.Root, "candidates"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list candidates: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && ValidID(e.Name()) == nil {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// Path joins elements below the workspace root and fails when the result
// would leave it.
func (w *Workspace) Path(elem ...string) (string, error) {
	return SafeJoin(w.Root, filepath.Join(elem...))
}

// SafeJoin joins rel to root and fails when rel is absolute or climbs out of
// root. Paths from diffs, registries and model answers pass through here.
func SafeJoin(root, rel string) (string, error) {
	if rel == "" {
		return root, nil
	}
	if filepath.IsAbs(rel) || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("path %q escapes %s", rel, root)
	}
	joined := filepath.Join(root, rel)
	r, err := filepath.Rel(root, joined)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q escapes %s", rel, root)
	}
	return joined, nil
}
