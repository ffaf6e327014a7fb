package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// TooLargeError reports a file over its size cap. Limit names the cap ("the
// EP size cap"), so that the message says which one was hit.
type TooLargeError struct {
	Path  string
	Size  int64
	Max   int64
	Limit string
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: %d bytes, more than %s of %s", e.Path, e.Size, e.Limit, Bytes(e.Max))
}

// Bytes prints a size cap the way the documentation writes it: "4 MiB".
func Bytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the regular file at path, at most max bytes of it. It
// refuses a symbolic link, a device, a named pipe, a socket and a folder
// without opening them, so that a path from outside input can neither
// lead to a host file through a link nor block or exhaust memory on
// /dev/zero. limit names the cap in the *TooLargeError.
func ReadFile(path string, max int64, limit string) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Op = "open" // what the user asked for, not how
		}
		return nil, err
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpened(f, path, st, max, limit)
}

// ReadFileIn reads rel, a slash- or OS-separated path relative to root,
// with ReadFile's checks, and fails when rel leaves root: an absolute path,
// a ".." that climbs out, or a link anywhere on the way that points
// outside (os.Root).
func ReadFileIn(root, rel string, max int64, limit string) ([]byte, error) {
	shown := filepath.Join(root, rel)
	if filepath.IsAbs(rel) || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, fmt.Errorf("%s: path %q leaves %s", shown, rel, root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	rel = filepath.FromSlash(rel)
	st, err := r.Lstat(rel)
	if err != nil {
		return nil, rootError(shown, root, err)
	}
	if err := regular(shown, st); err != nil {
		return nil, err
	}
	f, err := r.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, rootError(shown, root, err)
	}
	defer f.Close()
	return readOpened(f, shown, st, max, limit)
}

// rootError names the file the user wrote instead of os.Root's relative
// path, and says plainly when a link led outside the root.
func rootError(shown, root string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if pe.Err.Error() == "path escapes from parent" {
			return fmt.Errorf("%s: a link on the way leads outside %s", shown, root)
		}
		return &fs.PathError{Op: "open", Path: shown, Err: pe.Err}
	}
	return err
}

// regular refuses everything but a regular file, by its Lstat.
func regular(path string, st fs.FileInfo) error {
	m := st.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("%s: a symbolic link; only regular files are read", path)
	case m.IsDir():
		return fmt.Errorf("%s: a folder, not a file", path)
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return fmt.Errorf("%s: a device; only regular files are read", path)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s: a named pipe; only regular files are read", path)
	}
	return fmt.Errorf("%s: not a regular file", path)
}

// readOpened reads an opened file after checking that it is the file that
// was checked (no swap between Lstat and open) and within the cap.
func readOpened(f *os.File, path string, checked fs.FileInfo, max int64, limit string) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(st, checked) || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: changed while it was opened", path)
	}
	if st.Size() > max {
		return nil, &TooLargeError{Path: path, Size: st.Size(), Max: max, Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Size: int64(len(data)), Max: max, Limit: limit}
	}
	return data, nil
}
