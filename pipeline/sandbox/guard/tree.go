package guard

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// The tree operations below run as root in a folder the tested code wrote.
// They go through os.Root, which never resolves a path outside its folder,
// never write through a symbolic link, and run when every process of the
// test user is dead, so nothing changes under them.

// entry is what a path should be: a regular file with its content and
// permission bits, or a symbolic link. Owner is who gets it.
type entry struct {
	link string
	data []byte
	mode fs.FileMode
	uid  int
	gid  int
	// mtime is a regular file's modification time, put back with it: a
	// build tool that compares times (make, cargo) must see a restored
	// object file as old as it was, or it takes it for newer than the
	// solution's sources and links it unchanged. Zero for a new file.
	mtime time.Time
}

func (e *entry) isLink() bool { return e.link != "" }

// readEntry reads what a path is in a folder: nil when it is absent or a
// folder; an error for a device, socket or pipe.
func readEntry(root *os.Root, p string) (*entry, error) {
	fi, err := root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	e := &entry{mode: fi.Mode().Perm(), mtime: fi.ModTime()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.uid, e.gid = int(st.Uid), int(st.Gid)
	}
	switch {
	case fi.IsDir():
		return nil, nil
	case fi.Mode()&fs.ModeSymlink != 0:
		if e.link, err = root.Readlink(p); err != nil {
			return nil, err
		}
		return e, nil
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	f, err := root.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if e.data, err = io.ReadAll(f); err != nil {
		return nil, err
	}
	return e, nil
}

// same reports whether a path already is what e says.
func same(root *os.Root, p string, e *entry) bool {
	fi, err := root.Lstat(p)
	if err != nil {
		return false
	}
	if e.isLink() {
		if fi.Mode()&fs.ModeSymlink == 0 {
			return false
		}
		t, err := root.Readlink(p)
		return err == nil && t == e.link
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != e.mode || fi.Size() != int64(len(e.data)) ||
		!e.mtime.IsZero() && !fi.ModTime().Equal(e.mtime) {
		return false
	}
	f, err := root.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(len(e.data))+1))
	return err == nil && bytes.Equal(data, e.data)
}

// put makes path p what e says: its parents real folders (a link or a
// file in their way is removed), whatever was at p replaced.
func put(root *os.Root, p string, e *entry) error {
	if err := realDirs(root, path.Dir(p), e.uid, e.gid); err != nil {
		return err
	}
	if fi, err := root.Lstat(p); err == nil {
		if fi.IsDir() {
			if err := root.RemoveAll(p); err != nil {
				return err
			}
		} else if err := root.Remove(p); err != nil {
			return err
		}
	}
	if e.isLink() {
		if err := root.Symlink(e.link, p); err != nil {
			return err
		}
	} else {
		f, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, e.mode)
		if err != nil {
			return err
		}
		_, werr := f.Write(e.data)
		cerr := f.Close()
		if err := errors.Join(werr, cerr); err != nil {
			return err
		}
		if err := root.Chmod(p, e.mode); err != nil {
			return err
		}
		if !e.mtime.IsZero() {
			if err := root.Chtimes(p, e.mtime, e.mtime); err != nil {
				return err
			}
		}
	}
	return root.Lchown(p, e.uid, e.gid)
}

// realDirs makes every element of folder d a real folder.
func realDirs(root *os.Root, d string, uid, gid int) error {
	if d == "." || d == "" {
		return nil
	}
	cur := ""
	for _, el := range strings.Split(d, "/") {
		cur = path.Join(cur, el)
		fi, err := root.Lstat(cur)
		if err == nil && fi.IsDir() {
			continue
		}
		if err == nil {
			if err := root.Remove(cur); err != nil {
				return err
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if err := root.Mkdir(cur, 0o755); err != nil {
			return err
		}
		if err := root.Lchown(cur, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// remove removes path p, whatever it is.
func remove(root *os.Root, p string) error {
	fi, err := root.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return root.RemoveAll(p)
	}
	return root.Remove(p)
}

// walkFiles lists the paths below dir (relative, slash-separated) that are
// not folders, in lexical order; skip prunes a path (and, for a folder,
// what is below it). Links are listed, never followed.
func walkFiles(dir string, skip func(rel string, isDir bool) bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // vanished or unreadable: nothing to reset there
		}
		if p == dir {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator)))
		if skip != nil && skip(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// syncTree makes dst/p exactly what src/p is: files, links, folders and
// their permission bits and owners; what src lacks is removed. It writes
// only what differs.
//
// since, when not zero, is when the sandbox started: what the tests or an
// agent changed since then has a later change time (ctime), which nobody
// but the kernel sets. An entry of dst changed before since is the image's
// own and is left without reading it, and a folder unchanged since then
// has the image's entries; this keeps a large home folder cheap to check.
func syncTree(dst, src *os.Root, p string, since time.Time) (changed int, err error) {
	dfi, derr := dst.Lstat(p)
	if derr == nil && !since.IsZero() && !dfi.IsDir() && ctime(dfi).Before(since) {
		return 0, nil
	}
	sfi, err := src.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		if derr == nil {
			return 1, remove(dst, p)
		}
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !sfi.IsDir() {
		e, err := readEntry(src, p)
		if err != nil || e == nil {
			return 0, err
		}
		if same(dst, p, e) && sameOwner(dst, p, e) {
			return 0, nil
		}
		return 1, put(dst, p, e)
	}
	uid, gid := owner(sfi)
	if derr != nil || !dfi.IsDir() {
		if derr == nil {
			if err := remove(dst, p); err != nil {
				return 0, err
			}
		}
		if err := realDirs(dst, path.Dir(p), uid, gid); err != nil {
			return 0, err
		}
		if err := dst.Mkdir(p, sfi.Mode().Perm()); err != nil {
			return 0, err
		}
		changed++
		if dfi, err = dst.Lstat(p); err != nil {
			return changed, err
		}
	}
	// Only what differs is written: on an overlay file system, even a
	// chmod copies a folder up from the image's layer.
	if duid, dgid := owner(dfi); dfi.Mode().Perm() != sfi.Mode().Perm() || duid != uid || dgid != gid {
		if err := dst.Chmod(p, sfi.Mode().Perm()); err != nil {
			return changed, err
		}
		if err := dst.Lchown(p, uid, gid); err != nil {
			return changed, err
		}
	}
	roots := []*os.Root{src, dst}
	if !since.IsZero() && ctime(dfi).Before(since) {
		// No entry was added, removed or renamed here since the start.
		roots = []*os.Root{dst}
	}
	names := map[string]bool{}
	for _, r := range roots {
		f, err := r.Open(p)
		if err != nil {
			return changed, err
		}
		ents, err := f.ReadDir(-1)
		f.Close()
		if err != nil {
			return changed, err
		}
		for _, e := range ents {
			names[e.Name()] = true
		}
	}
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		c, err := syncTree(dst, src, path.Join(p, n), since)
		changed += c
		if err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// syncChanged is syncTree over folder dir (dst's own path on disk) for
// what changed since the sandbox started: a plain walk of dir finds the
// entries whose change time is later, the highest of each branch, and
// syncTree handles only those. Without since it is syncTree of ".".
func syncChanged(dir string, dst, src *os.Root, since time.Time) (int, error) {
	if since.IsZero() {
		return syncTree(dst, src, ".", since)
	}
	var suspects []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !ctime(fi).Before(since) {
			rel, _ := filepath.Rel(dir, p)
			suspects = append(suspects, filepath.ToSlash(rel))
			if d.IsDir() {
				return filepath.SkipDir
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, p := range suspects {
		c, err := syncTree(dst, src, p, since)
		changed += c
		if err != nil {
			return changed, err
		}
	}
	return changed, nil
}

// ctime is when an entry's metadata last changed.
func ctime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return time.Now()
}

func owner(fi fs.FileInfo) (int, int) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid), int(st.Gid)
	}
	return 0, 0
}

func sameOwner(root *os.Root, p string, e *entry) bool {
	fi, err := root.Lstat(p)
	if err != nil {
		return false
	}
	uid, gid := owner(fi)
	return uid == e.uid && gid == e.gid
}
