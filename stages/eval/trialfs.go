package eval

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
)

// A trial folder is hostile input (issue 21, section 7): agents'
// containers and other machines wrote it. folderFS reads one such folder:
// nothing outside it, no symbolic link followed (outside the folder or
// inside it, at any element of a path), only regular files and folders,
// and files of bounded size. Each element is checked with Lstat before it
// is opened and compared with what was opened after, so a link swapped in
// between is caught; files are opened with O_NOFOLLOW|O_NONBLOCK, so a
// named pipe cannot block the read. Every refusal is an error of one line
// that names the path.
type folderFS struct {
	dir string
}

// full is the path of rel for messages.
func (t folderFS) full(rel string) string { return filepath.Join(t.dir, filepath.FromSlash(rel)) }

// what names a file type for messages.
func what(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link; eval follows no link in a trial"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe; eval reads only regular files"
	case m&fs.ModeSocket != 0:
		return "a socket; eval reads only regular files"
	case m&fs.ModeDevice != 0:
		return "a device; eval reads only regular files"
	case m.IsDir():
		return "a folder, where a file should be"
	}
	return "not a regular file"
}

// insideRel reports whether rel is a clean relative path that stays
// inside its folder.
func insideRel(rel string) bool {
	return rel != "" && rel != "." && !path.IsAbs(rel) && path.Clean(rel) == rel && rel != ".." && !strings.HasPrefix(rel, "../")
}

// walk opens the folder that holds rel, checking each element on the
// way, and returns it with rel's last element. The caller closes it.
func (t folderFS) walk(rel string) (*os.Root, string, error) {
	if !insideRel(rel) {
		return nil, "", fmt.Errorf("%s: not a path inside the trial", t.full(rel))
	}
	elems := strings.Split(rel, "/")
	r, err := t.folder(elems[:len(elems)-1])
	return r, elems[len(elems)-1], err
}

// folder opens the folder of the path elems, each a real folder. The
// caller closes it.
func (t folderFS) folder(elems []string) (*os.Root, error) {
	r, err := os.OpenRoot(t.dir)
	if err != nil {
		return nil, err
	}
	for i, el := range elems {
		sofar := strings.Join(elems[:i+1], "/")
		fi, err := r.Lstat(el)
		if err != nil {
			r.Close()
			return nil, pathErr(t.full(sofar), err)
		}
		if !fi.IsDir() {
			r.Close()
			if fi.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: a file, where a folder should be", t.full(sofar))
			}
			return nil, fmt.Errorf("%s: %s", t.full(sofar), what(fi.Mode()))
		}
		sub, err := r.OpenRoot(el)
		r.Close()
		if err != nil {
			return nil, pathErr(t.full(sofar), err)
		}
		if now, err := sub.Stat("."); err != nil || !os.SameFile(fi, now) {
			sub.Close()
			return nil, fmt.Errorf("%s: changed while it was read", t.full(sofar))
		}
		r = sub
	}
	return r, nil
}

// pathErr keeps "not there" recognizable and says it in one line.
func pathErr(full string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", full, fs.ErrNotExist)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", full, err)
}

// lstat describes rel without following a link; an error when a folder on
// the way is not a real folder.
func (t folderFS) lstat(rel string) (fs.FileInfo, error) {
	r, name, err := t.walk(rel)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, pathErr(t.full(rel), err)
	}
	return fi, nil
}

// open opens the regular file rel for reading.
func (t folderFS) open(rel string) (*os.File, error) {
	r, name, err := t.walk(rel)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, pathErr(t.full(rel), err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s", t.full(rel), what(fi.Mode()))
	}
	f, err := r.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathErr(t.full(rel), err)
	}
	if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(fi, now) {
		f.Close()
		return nil, fmt.Errorf("%s: changed while it was read", t.full(rel))
	}
	return f, nil
}

// read reads the regular file rel, at most max bytes.
func (t folderFS) read(rel string, max int64) ([]byte, error) {
	f, err := t.open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.full(rel), err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than %d bytes", t.full(rel), max)
	}
	return data, nil
}

// readDir lists the folder rel, a real folder.
func (t folderFS) readDir(rel string) ([]fs.DirEntry, error) {
	if !insideRel(rel) {
		return nil, fmt.Errorf("%s: not a path inside the trial", t.full(rel))
	}
	r, err := t.folder(strings.Split(rel, "/"))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(".")
	if err != nil {
		return nil, pathErr(t.full(rel), err)
	}
	defer f.Close()
	entries, err := f.ReadDir(maxDirEntries + 1)
	if err != nil && err != io.EOF {
		return nil, pathErr(t.full(rel), err)
	}
	if len(entries) > maxDirEntries {
		return nil, fmt.Errorf("%s: more than %d entries", t.full(rel), maxDirEntries)
	}
	return entries, nil
}

// maxDirEntries bounds a folder eval lists in a trial.
const maxDirEntries = 10000

// copyFile copies the regular file rel to dst, at most max bytes.
func (t folderFS) copyFile(rel, dst string, max int64) error {
	f, err := t.open(rel)
	if err != nil {
		return err
	}
	defer f.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	n, err := io.Copy(out, io.LimitReader(f, max+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.full(rel), err)
	}
	if n > max {
		return fmt.Errorf("%s: larger than %d bytes", t.full(rel), max)
	}
	return nil
}

// opener serves the files of the folder rel, for trajectory.ReadRun;
// each is cut off with an error past max bytes.
func (t folderFS) opener(rel string, max int64) func(string) (io.ReadCloser, error) {
	return func(name string) (io.ReadCloser, error) {
		p := name
		if rel != "" {
			p = rel + "/" + name
		}
		f, err := t.open(p)
		if err != nil {
			return nil, err
		}
		return &cappedFile{f: f, left: max, name: t.full(p), max: max}, nil
	}
}

// cappedFile fails a read past its cap instead of reading on.
type cappedFile struct {
	f         *os.File
	left, max int64
	name      string
}

func (c *cappedFile) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		if n, _ := c.f.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%s: larger than %d bytes", c.name, c.max)
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	return n, err
}

func (c *cappedFile) Close() error { return c.f.Close() }
