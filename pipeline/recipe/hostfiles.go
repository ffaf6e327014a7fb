package recipe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// HostFile is a file a recipe brings from the host into layer 2 (Files,
// Requirements, the files of the Wheels folder, every file below the
// MavenRepo folder).
type HostFile struct {
	// Field names it in the recipe: "files[0]", "requirements[1]",
	// "wheels".
	Field string
	// Rel is its slash path relative to the recipe's folder, and so below
	// FilesDir in the image.
	Rel string
	// Size is its size when HostFiles listed it.
	Size int64
}

// HostFiles lists the files the recipe brings from the host, sorted by
// Rel, each checked (issue 14): a regular file (a folder for Wheels)
// inside Dir, reached without a link that leads out of it, itself not a
// link, a device or a pipe, and within the caps (MaxHostFile,
// MaxHostFilesSize, MaxHostFiles). The Wheels folder gives its top-level
// regular files; subfolders are not copied, as pip's --find-links reads
// none, and anything else in it is an error. Errors name the field, the
// path as written and the file.
func (r *Recipe) HostFiles() ([]HostFile, error) {
	if !r.HostPaths() {
		return nil, nil
	}
	if r.Dir == "" {
		return nil, errors.New("files, wheels, requirements, maven_repo: the recipe's folder is unknown (a recipe read with Parse, not Load)")
	}
	root, err := os.OpenRoot(r.Dir)
	if err != nil {
		return nil, fmt.Errorf("recipe folder %s: %w", r.Dir, err)
	}
	defer root.Close()
	var out []HostFile
	seen := map[string]string{}
	var total int64
	add := func(field, rel string, st fs.FileInfo) error {
		if prev, dup := seen[rel]; dup {
			return fmt.Errorf("%s: %q is named twice (also by %s)", field, rel, prev)
		}
		shown := filepath.Join(r.Dir, filepath.FromSlash(rel))
		switch {
		case st.Size() > MaxHostFile:
			return fmt.Errorf("%s: %w", field, &workspace.TooLargeError{Path: shown, Size: st.Size(), Max: MaxHostFile, Limit: "the cap on one host file of a recipe"})
		case len(out) == MaxHostFiles:
			return fmt.Errorf("%s: %s: more than %d host files in all, the cap of a recipe", field, shown, MaxHostFiles)
		case total+st.Size() > MaxHostFilesSize:
			return fmt.Errorf("%s: %s: the host files reach %d bytes in all, more than the recipe's cap of %s", field, shown, total+st.Size(), workspace.Bytes(MaxHostFilesSize))
		}
		total += st.Size()
		seen[rel] = field
		out = append(out, HostFile{Field: field, Rel: rel, Size: st.Size()})
		return nil
	}
	var errs []error
	one := func(field, rel string) {
		st, err := r.stat(root, field, rel)
		switch {
		case err != nil:
			errs = append(errs, err)
		case kindProblem(st.Mode()) != "":
			errs = append(errs, fmt.Errorf("%s: %q (%s) %s", field, rel, filepath.Join(r.Dir, rel), kindProblem(st.Mode())))
		default:
			if err := add(field, rel, st); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for i, f := range r.Files {
		one(fmt.Sprintf("files[%d]", i), f)
	}
	for i, f := range r.Requirements {
		one(fmt.Sprintf("requirements[%d]", i), f)
	}
	if r.Wheels != "" {
		if err := r.wheelFiles(root, add); err != nil {
			errs = append(errs, err)
		}
	}
	if r.MavenRepo != "" {
		if err := r.mavenFiles(root, add); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// wheelFiles adds the Wheels folder's top-level regular files.
func (r *Recipe) wheelFiles(root *os.Root, add func(field, rel string, st fs.FileInfo) error) error {
	if err := r.folder(root, "wheels", r.Wheels); err != nil {
		return err
	}
	d, err := root.Open(filepath.FromSlash(r.Wheels))
	if err != nil {
		return r.pathError("wheels", r.Wheels, err)
	}
	defer d.Close()
	// One more than the cap tells a folder over it.
	names, err := d.Readdirnames(MaxHostFiles + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("wheels: %s: %w", filepath.Join(r.Dir, r.Wheels), err)
	}
	if len(names) > MaxHostFiles {
		return fmt.Errorf("wheels: %s: more than %d entries, the cap of a recipe's host files", filepath.Join(r.Dir, r.Wheels), MaxHostFiles)
	}
	sort.Strings(names)
	for _, n := range names {
		rel := path.Join(r.Wheels, n)
		st, err := r.stat(root, "wheels", rel)
		if err != nil {
			return err
		}
		switch {
		case st.Mode().IsRegular():
			if err := add("wheels", rel, st); err != nil {
				return err
			}
		case st.IsDir():
			// pip's --find-links reads no subfolder.
		default:
			return fmt.Errorf("wheels: %q (%s) %s", rel, filepath.Join(r.Dir, filepath.FromSlash(rel)), kindProblem(st.Mode()))
		}
	}
	return nil
}

// folder checks that a host path is a folder inside the recipe's folder.
// A link to a folder is refused too: what is copied lies in the recipe's
// folder.
func (r *Recipe) folder(root *os.Root, field, rel string) error {
	st, err := r.stat(root, field, rel)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s: %q (%s) is not a folder", field, rel, filepath.Join(r.Dir, rel))
	}
	return nil
}

// mavenFiles adds every regular file below the MavenRepo folder, at any
// depth; a link, a device or a pipe anywhere in it is an error.
func (r *Recipe) mavenFiles(root *os.Root, add func(field, rel string, st fs.FileInfo) error) error {
	if err := r.folder(root, "maven_repo", r.MavenRepo); err != nil {
		return err
	}
	sub, err := root.OpenRoot(filepath.FromSlash(r.MavenRepo))
	if err != nil {
		return r.pathError("maven_repo", r.MavenRepo, err)
	}
	defer sub.Close()
	return fs.WalkDir(sub.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("maven_repo: %s: %w", filepath.Join(r.Dir, r.MavenRepo, filepath.FromSlash(p)), err)
		}
		if p == "." || d.IsDir() {
			return nil
		}
		rel := path.Join(r.MavenRepo, p)
		st, err := r.stat(root, "maven_repo", rel)
		if err != nil {
			return err
		}
		if msg := kindProblem(st.Mode()); msg != "" {
			return fmt.Errorf("maven_repo: %q (%s) %s", rel, filepath.Join(r.Dir, filepath.FromSlash(rel)), msg)
		}
		return add("maven_repo", rel, st)
	})
}

// Caps on what a recipe brings from the host (issue 14: every file read
// from outside input has a size cap): one file, all of them together, and
// how many. A wheel of a large project with native code can weigh hundreds
// of MiB; more than this is not a test dependency.
const (
	MaxHostFile      int64 = 1 << 30
	MaxHostFilesSize int64 = 4 << 30
	MaxHostFiles           = 10_000
)

// stat reads a path's own metadata inside root: a link on the way that
// leads out is an error, and so is a link as the path itself (no link is
// followed, as workspace.ReadFile), so that what is copied is what lies in
// the recipe's folder. Errors name the field and the file.
func (r *Recipe) stat(root *os.Root, field, rel string) (fs.FileInfo, error) {
	st, err := root.Lstat(filepath.FromSlash(rel))
	if err != nil {
		return nil, r.pathError(field, rel, err)
	}
	return st, nil
}

// kindProblem says why a file that is not regular is refused, or "".
func kindProblem(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link; only regular files are copied"
	case m.IsDir():
		return "is a folder, not a file"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "is a device; only regular files are copied"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe; only regular files are copied"
	}
	return "is not a regular file"
}

func (r *Recipe) pathError(field, rel string, err error) error {
	shown := filepath.Join(r.Dir, filepath.FromSlash(rel))
	var pe *fs.PathError
	if errors.As(err, &pe) {
		switch {
		case pe.Err.Error() == "path escapes from parent":
			return fmt.Errorf("%s: %q (%s) leads outside the recipe's folder %s through a symbolic link", field, rel, shown, r.Dir)
		case errors.Is(pe.Err, fs.ErrNotExist):
			return fmt.Errorf("%s: %q (%s) does not exist", field, rel, shown)
		}
		return fmt.Errorf("%s: %q (%s): %v", field, rel, shown, pe.Err)
	}
	return fmt.Errorf("%s: %q (%s): %w", field, rel, shown, err)
}

// OpenHostFile opens a file HostFiles listed, again inside Dir only and
// without following a link or blocking on a pipe swapped in since, and
// checks that it is still a regular file of the size listed, so that the
// key and the copy agree.
func (r *Recipe) OpenHostFile(f HostFile) (*os.File, error) {
	root, err := os.OpenRoot(r.Dir)
	if err != nil {
		return nil, fmt.Errorf("recipe folder %s: %w", r.Dir, err)
	}
	defer root.Close()
	rel := filepath.FromSlash(f.Rel)
	st, err := root.Lstat(rel)
	if err != nil {
		return nil, r.pathError(f.Field, f.Rel, err)
	}
	shown := filepath.Join(r.Dir, rel)
	if msg := kindProblem(st.Mode()); msg != "" {
		return nil, fmt.Errorf("%s: %q (%s) %s", f.Field, f.Rel, shown, msg)
	}
	h, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, r.pathError(f.Field, f.Rel, err)
	}
	hst, err := h.Stat()
	if err == nil && (!os.SameFile(st, hst) || !hst.Mode().IsRegular() || hst.Size() != f.Size) {
		err = fmt.Errorf("%s: %q (%s) changed since it was listed", f.Field, f.Rel, shown)
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// HostFilesKey hashes the paths and contents of files: it changes when any
// of them does, and names what layer 2 was built from.
func (r *Recipe) HostFilesKey(files []HostFile) (string, error) {
	h := sha256.New()
	for _, f := range files {
		fh, err := r.OpenHostFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00", f.Rel)
		n, err := io.Copy(h, io.LimitReader(fh, f.Size))
		fh.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %s: %w", f.Field, filepath.Join(r.Dir, f.Rel), err)
		}
		fmt.Fprintf(h, "\x00%d\x00", n)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
