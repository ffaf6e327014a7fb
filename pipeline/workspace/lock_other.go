//go:build !unix

package workspace

import (
	"errors"
	"os"
)

var errLocked = errors.New("locked")

// lock does nothing where flock(2) is missing: runs are not serialised.
func lock(f *os.File, exclusive bool) error { return nil }

func unlock(f *os.File) {}
