package syntax

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/lang"
)

// FileMembers are the new public members of one changed source file.
type FileMembers struct {
	File string `json:"file"`
	// Members are in line order.
	Members []Member `json:"members"`
}

// MemberResult is the outcome of NewMembers; both slices are sorted by
// file.
type MemberResult struct {
	// Files lists every resolved file present after the change, with or
	// without new members.
	Files   []FileMembers `json:"files"`
	Skipped []Skip        `json:"skipped"`
}

// NewMembers lists the public data members each changed source file of ch
// adds (issue 12): exported members of the post-change file whose
// qualified name no pre-change member has (a renamed file is compared with
// its old path) and whose lines hold an added line. A member that is only
// realigned or given a new value is not new; nor is one under a renamed
// class whose lines did not change. A name declared twice is listed once,
// at its first declaration.
//
// Files are chosen and skipped as Resolve does (source files only; binary,
// too large, unreadable, unsupported or timed-out ones are skipped with
// the same reasons), and the work is spread the same way over
// Options.Workers goroutines. A language with a grammar but no member
// rules (C, C++) gives no members and no skip.
func NewMembers(ctx context.Context, repoDir string, ch *diff.Change, opt Options) (*MemberResult, error) {
	if ch == nil {
		return nil, errors.New("new members: no change")
	}
	var todo []int
	for i := range ch.Files {
		if f := &ch.Files[i]; f.Category == lang.Source && f.NewPath != "" {
			todo = append(todo, i)
		}
	}
	res := &MemberResult{Files: []FileMembers{}, Skipped: []Skip{}}
	if len(todo) == 0 {
		return res, ctx.Err()
	}
	type outcome struct {
		file *FileMembers
		skip *Skip
	}
	outcomes := make([]outcome, len(ch.Files))
	err := eachFile(ctx, repoDir, todo, opt, "new members", func(ctx context.Context, br *blobReader, p *Parser, i int) error {
		fm, skip, err := fileMembers(ctx, br, p, ch, &ch.Files[i], opt)
		outcomes[i] = outcome{fm, skip}
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, o := range outcomes {
		if o.file != nil {
			res.Files = append(res.Files, *o.file)
		}
		if o.skip != nil {
			res.Skipped = append(res.Skipped, *o.skip)
		}
	}
	slices.SortStableFunc(res.Files, func(a, b FileMembers) int { return cmp.Compare(a.File, b.File) })
	slices.SortStableFunc(res.Skipped, func(a, b Skip) int { return cmp.Compare(a.File, b.File) })
	return res, nil
}

// fileMembers finds one file's new members. A returned error means the
// repository is unusable; problems of the file itself become a Skip.
func fileMembers(ctx context.Context, r *blobReader, p *Parser, ch *diff.Change, f *diff.File, opt Options) (*FileMembers, *Skip, error) {
	path := f.Path()
	skip := func(reason, format string, args ...any) (*FileMembers, *Skip, error) {
		return nil, &Skip{File: path, Reason: reason, Detail: fmt.Sprintf(format, args...)}, nil
	}
	if f.Binary {
		return skip(SkipBinary, "git reports a binary change")
	}
	var sides [2]*side // pre, post
	if f.OldPath != "" {
		sides[0] = &side{rev: ch.Base, path: f.OldPath}
	}
	sides[1] = &side{rev: ch.Head, path: f.NewPath}
	for _, s := range sides {
		if s == nil {
			continue
		}
		name := ""
		if l := lang.ForPath(s.path); l != nil {
			name = l.Name
		}
		s.language = ParseLanguage(s.path, name)
		if !Supported(s.language) {
			if s.language == "" {
				s.language = "unknown"
			}
			return skip(SkipUnsupported, "%s: no syntax scopes for %s", s.path, s.language)
		}
	}
	var members [2][]Member
	for i, s := range sides {
		if s == nil || !HasMembers(s.language) {
			continue
		}
		limit := opt.maxFileSize()
		src, err := r.read(s.rev, s.path, limit)
		if size, ok := isTooLarge(err); ok {
			return skip(SkipTooLarge, "%s at %s is %d bytes (limit %d)", s.path, short(s.rev), size, limit)
		}
		if errors.Is(err, diff.ErrNoSuchFile) {
			return skip(SkipUnreadable, "%v", err)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("new members: %w", err)
		}
		members[i], err = p.MembersContext(ctx, s.language, src)
		switch {
		case errors.Is(err, ErrTimeout):
			return skip(SkipTimeout, "%s at %s: %v", s.path, short(s.rev), err)
		case err != nil:
			return nil, nil, fmt.Errorf("new members: %s at %s: %w", s.path, short(s.rev), err)
		}
	}
	return &FileMembers{File: path, Members: addedMembers(members[0], members[1], sortedLines(f.NewLines))}, nil, nil
}

// addedMembers lists the exported members of post whose qualified name is
// not in pre and whose lines hold one of the sorted added lines, each name
// once.
func addedMembers(pre, post []Member, added []int) []Member {
	old := make(map[[2]string]bool, len(pre))
	for _, m := range pre {
		old[[2]string{m.Class, m.Name}] = true
	}
	out := []Member{}
	seen := map[[2]string]bool{}
	for _, m := range post {
		k := [2]string{m.Class, m.Name}
		if !m.Exported || old[k] || seen[k] {
			continue
		}
		i, _ := slices.BinarySearch(added, m.Start)
		if i == len(added) || added[i] > m.End {
			continue
		}
		seen[k] = true
		out = append(out, m)
	}
	return out
}
