package diff

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrNoSuchFile is wrapped by ReadFile when the path does not name a file at
// the revision. It also matches fs.ErrNotExist.
var ErrNoSuchFile = fmt.Errorf("no such file: %w", fs.ErrNotExist)

// Repo is one local git repository, plain or bare. It wraps a go-git
// repository for object access and knows the git directory for the git
// command. A Repo must be used by one goroutine at a time, because go-git is
// not safe for concurrent use; open one Repo per goroutine.
type Repo struct {
	repo   *git.Repository
	dir    string // as the caller named it, for messages
	gitDir string // absolute path of the git directory, for the git command
}

// Open opens the repository whose top directory (or bare git directory) is
// dir. Cloning is not its job: the directory must already hold a
// repository.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a git repository", dir)
	}
	var repo *git.Repository
	err = guard(func() error {
		var err error
		repo, err = git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{EnableDotGitCommonDir: true})
		return err
	})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("%s: not a git repository", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable git repository: %w", dir, err)
	}
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("%s: not a git repository on disk", dir)
	}
	return &Repo{repo: repo, dir: dir, gitDir: st.Filesystem().Root()}, nil
}

// Dir is the directory the repository was opened from.
func (r *Repo) Dir() string { return r.dir }

// Git returns the go-git repository for object access beyond this package's
// API. The one-goroutine rule of Repo applies to it.
func (r *Repo) Git() *git.Repository { return r.repo }

// Resolve turns a revision into the 40-hex SHA of a commit. It accepts what
// people pass on a command line: a full or abbreviated SHA (at least four
// digits, and unambiguous), a branch, a tag (annotated tags are peeled), a
// full ref name, HEAD, followed by any number of ~N and ^N suffixes. As in
// git, a ref wins over an abbreviated SHA of the same spelling.
func (r *Repo) Resolve(rev string) (string, error) {
	var c *object.Commit
	err := guard(func() error {
		var err error
		c, err = r.resolve(rev)
		return err
	})
	if err != nil {
		return "", err
	}
	return c.Hash.String(), nil
}

func (r *Repo) unknown(rev string) error {
	return fmt.Errorf("unknown revision %s in %s", strconv.Quote(rev), r.dir)
}

func (r *Repo) resolve(rev string) (*object.Commit, error) {
	name, suffix := splitSuffix(rev)
	if !validRefName(name) {
		return nil, r.unknown(rev)
	}
	hash, err := r.resolveName(rev, name)
	if err != nil {
		return nil, err
	}
	c, err := r.peel(rev, hash)
	if err != nil {
		return nil, err
	}
	for suffix != "" {
		op := suffix[0]
		n, rest := leadingNumber(suffix[1:])
		suffix = rest
		switch {
		case n < 0:
			return nil, r.unknown(rev)
		case op == '~':
			for ; n > 0; n-- {
				if c.NumParents() == 0 {
					return nil, r.unknown(rev)
				}
				if c, err = r.parent(rev, c, 0); err != nil {
					return nil, err
				}
			}
		case n > 0: // '^N' is the N-th parent; '^0' the commit itself
			if n > c.NumParents() {
				return nil, r.unknown(rev)
			}
			if c, err = r.parent(rev, c, n-1); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

func (r *Repo) parent(rev string, c *object.Commit, i int) (*object.Commit, error) {
	p, err := r.repo.CommitObject(c.ParentHashes[i])
	if err != nil {
		return nil, fmt.Errorf("revision %s in %s: parent %s of %s: %w", strconv.Quote(rev), r.dir, c.ParentHashes[i], c.Hash, err)
	}
	return p, nil
}

// resolveName finds the object a name stands for, in git's order: a full
// SHA, then a ref (HEAD, refs/..., tags, branches, remotes), then an
// abbreviated SHA.
func (r *Repo) resolveName(rev, name string) (plumbing.Hash, error) {
	if name == "@" {
		name = "HEAD"
	}
	if len(name) == 40 && isHex(name) {
		return plumbing.NewHash(name), nil
	}
	for _, rule := range plumbing.RefRevParseRules {
		full := fmt.Sprintf(rule, name)
		if rule == "%s" && !isPseudoRef(name) && !strings.HasPrefix(name, "refs/") {
			continue // git reads only HEAD-like names and refs/... literally
		}
		ref, err := r.repo.Reference(plumbing.ReferenceName(full), true)
		if err == nil {
			return ref.Hash(), nil
		}
	}
	if len(name) >= 4 && len(name) < 40 && isHex(name) {
		return r.resolvePrefix(rev, strings.ToLower(name))
	}
	return plumbing.ZeroHash, r.unknown(rev)
}

// resolvePrefix finds the one commit whose SHA starts with prefix. Objects
// that are not commits (or tags of commits) do not count, as in git's
// commit-ish lookup; two commits make the prefix ambiguous.
func (r *Repo) resolvePrefix(rev, prefix string) (plumbing.Hash, error) {
	type prefixer interface {
		HashesWithPrefix([]byte) ([]plumbing.Hash, error)
	}
	p, ok := r.repo.Storer.(prefixer)
	if !ok {
		return plumbing.ZeroHash, r.unknown(rev)
	}
	even, err := hexBytes(prefix[:len(prefix)&^1])
	if err != nil {
		return plumbing.ZeroHash, r.unknown(rev)
	}
	hashes, err := p.HashesWithPrefix(even)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("revision %s in %s: %w", strconv.Quote(rev), r.dir, err)
	}
	found := map[plumbing.Hash]bool{}
	var first plumbing.Hash
	for _, h := range hashes {
		if !strings.HasPrefix(h.String(), prefix) {
			continue
		}
		c, err := r.peel(rev, h)
		if err != nil {
			continue
		}
		if !found[c.Hash] {
			found[c.Hash] = true
			first = h
		}
	}
	switch len(found) {
	case 0:
		return plumbing.ZeroHash, r.unknown(rev)
	case 1:
		return first, nil
	}
	return plumbing.ZeroHash, fmt.Errorf("ambiguous revision %s in %s: %d commits start with it; give more digits", strconv.Quote(rev), r.dir, len(found))
}

// peel follows annotated tags to the commit they name.
func (r *Repo) peel(rev string, h plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		obj, err := r.repo.Object(plumbing.AnyObject, h)
		if err != nil {
			return nil, r.unknown(rev)
		}
		switch o := obj.(type) {
		case *object.Commit:
			return o, nil
		case *object.Tag:
			h = o.Target
		default:
			return nil, fmt.Errorf("revision %s in %s names a %s, not a commit", strconv.Quote(rev), r.dir, obj.Type())
		}
	}
	return nil, fmt.Errorf("revision %s in %s: tag chain too long", strconv.Quote(rev), r.dir)
}

// splitSuffix splits "main~2^2" into "main" and "~2^2".
func splitSuffix(rev string) (name, suffix string) {
	i := strings.IndexAny(rev, "~^")
	if i < 0 {
		return rev, ""
	}
	return rev[:i], rev[i:]
}

// leadingNumber reads the count after ~ or ^: none means 1, and anything
// that is not digits up to the next ~ or ^ (or a count beyond a million)
// is -1.
func leadingNumber(s string) (int, string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i < len(s) && s[i] != '~' && s[i] != '^' {
		return -1, ""
	}
	if i == 0 {
		return 1, s
	}
	if i > 7 {
		return -1, ""
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n > 1_000_000 {
		return -1, ""
	}
	return n, s[i:]
}

// validRefName accepts the names git would: no control characters, spaces
// or the characters of revision syntax, no "..", "@{" or "//", no
// component that starts with a dot or ends with ".lock".
func validRefName(name string) bool {
	if name == "" || name == "@" {
		return name == "@"
	}
	if strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}

// isPseudoRef reports whether name is spelled like HEAD or FETCH_HEAD, the
// only names git looks up directly in the git directory.
func isPseudoRef(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return strings.HasSuffix(name, "HEAD")
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func hexBytes(s string) ([]byte, error) {
	b := make([]byte, len(s)/2)
	for i := range b {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			return nil, err
		}
		b[i] = byte(v)
	}
	return b, nil
}

// CommitInfo is the metadata of one commit.
type CommitInfo struct {
	Hash           string // 40 hex digits
	AuthorName     string
	AuthorEmail    string
	AuthorTime     time.Time
	CommitterName  string
	CommitterEmail string
	CommitterTime  time.Time
	Message        string
	Parents        []string // 40-hex SHAs, first parent first
}

// Commit returns the metadata of the commit rev resolves to.
func (r *Repo) Commit(rev string) (*CommitInfo, error) {
	var info *CommitInfo
	err := guard(func() error {
		c, err := r.resolve(rev)
		if err != nil {
			return err
		}
		info = &CommitInfo{
			Hash:           c.Hash.String(),
			AuthorName:     c.Author.Name,
			AuthorEmail:    c.Author.Email,
			AuthorTime:     c.Author.When,
			CommitterName:  c.Committer.Name,
			CommitterEmail: c.Committer.Email,
			CommitterTime:  c.Committer.When,
			Message:        c.Message,
		}
		for _, p := range c.ParentHashes {
			info.Parents = append(info.Parents, p.String())
		}
		return nil
	})
	return info, err
}

// ReadFile returns the content of the file at path (slash-separated,
// relative to the repository root) in the commit rev resolves to. For a
// symbolic link it is the link target. A path that names no file at the
// revision (absent, a directory or a submodule) gives an error wrapping
// ErrNoSuchFile; any other error means the revision or the repository is
// bad.
func (r *Repo) ReadFile(rev, path string) ([]byte, error) {
	var data []byte
	err := guard(func() error {
		c, err := r.resolve(rev)
		if err != nil {
			return err
		}
		data, err = r.readFile(rev, c, path)
		return err
	})
	return data, err
}

func (r *Repo) readFile(rev string, c *object.Commit, path string) ([]byte, error) {
	noFile := func(why string) error {
		return fmt.Errorf("%s at %s in %s: %s: %w", strconv.Quote(path), strconv.Quote(rev), r.dir, why, ErrNoSuchFile)
	}
	if path == "" || strings.HasPrefix(path, "/") || strings.HasSuffix(path, "/") {
		return nil, noFile("not a file path")
	}
	treeHash := c.TreeHash
	parts := strings.Split(path, "/")
	for i, part := range parts {
		tree, err := r.repo.TreeObject(treeHash)
		if err != nil {
			return nil, fmt.Errorf("%s at %s in %s: tree %s: %w", strconv.Quote(path), strconv.Quote(rev), r.dir, treeHash, err)
		}
		var entry *object.TreeEntry
		for j := range tree.Entries {
			if tree.Entries[j].Name == part {
				entry = &tree.Entries[j]
				break
			}
		}
		if entry == nil {
			return nil, noFile("not found")
		}
		last := i == len(parts)-1
		switch {
		case entry.Mode == filemode.Dir && !last:
			treeHash = entry.Hash
		case entry.Mode == filemode.Dir:
			return nil, noFile("a directory")
		case entry.Mode == filemode.Submodule:
			return nil, noFile("a submodule")
		case !last:
			return nil, noFile("not found")
		default:
			blob, err := r.repo.BlobObject(entry.Hash)
			if err != nil {
				return nil, fmt.Errorf("%s at %s in %s: blob %s: %w", strconv.Quote(path), strconv.Quote(rev), r.dir, entry.Hash, err)
			}
			rd, err := blob.Reader()
			if err != nil {
				return nil, fmt.Errorf("%s at %s in %s: %w", strconv.Quote(path), strconv.Quote(rev), r.dir, err)
			}
			defer rd.Close()
			data, err := io.ReadAll(rd)
			if err != nil {
				return nil, fmt.Errorf("%s at %s in %s: %w", strconv.Quote(path), strconv.Quote(rev), r.dir, err)
			}
			return data, nil
		}
	}
	return nil, noFile("not found")
}

// guard turns a panic inside go-git (a corrupt object, a hostile ref) into
// an error: every input is hostile, and one bad repository must not take
// the whole run down.
func guard(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error reading the repository: %v", p)
		}
	}()
	return f()
}
