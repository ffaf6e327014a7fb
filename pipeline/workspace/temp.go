package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// tempInfix is what WriteFile puts between the target's name and the
// random digits of its temporary file: ".status.json.tmp-123456789".
const tempInfix = ".tmp-"

// IsTemp reports whether name (a base name) is a temporary file of
// WriteFile: a leading ".", the target's name, ".tmp-" and digits. A run
// killed between create and rename leaves one behind; it is never a
// result, so the next run removes it and nothing exports it.
func IsTemp(name string) bool {
	i := strings.LastIndex(name, tempInfix)
	if i < 1 || name[0] != '.' {
		return false
	}
	digits := name[i+len(tempInfix):]
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}

// RemoveTemp removes the temporary files that interrupted atomic writes
// left under the given folders (relative to the workspace; none means the
// whole workspace, except the clones under repos/). It must only run when
// no other writer is at work in those folders: under the workspace lock,
// on the folders the lock covers. It returns the files removed.
func (w *Workspace) RemoveTemp(dirs ...string) ([]string, error) {
	if len(dirs) == 0 {
		dirs = []string{""}
	}
	var removed []string
	var errs []error
	for _, d := range dirs {
		root, err := w.Path(d)
		if err != nil {
			return removed, err
		}
		err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if e.IsDir() {
				if p == filepath.Join(w.Root, "repos") {
					return filepath.SkipDir // clones: repos cleans its own
				}
				return nil
			}
			if e.Type().IsRegular() && IsTemp(e.Name()) {
				if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					errs = append(errs, err)
					return nil
				}
				removed = append(removed, p)
			}
			return nil
		})
		if err != nil {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}
