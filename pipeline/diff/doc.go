// Package diff computes the change a pull request makes: the files between
// two revisions of a local git repository, with per-file status, line
// counts, changed line numbers and hunks, and the PR-file category of each
// file (paper, section 3.2: the EP-PR pair's size and source share are
// collection criteria, and the changed lines feed the scopes and rules of
// phase 2).
//
// # Which engine computes what, and why
//
// Two engines share the work, each where it is exact and fast:
//
//   - go-git (github.com/go-git/go-git/v5) gives object access: opening a
//     plain or bare repository, resolving revisions (SHA, short SHA, branch,
//     tag, HEAD~1) to commits, reading trees and blobs at a revision, and
//     commit metadata (authors, dates, parents). It needs no process and no
//     work tree.
//   - The git command computes the line diff and the rename detection.
//     The numbers must be git's, because git's are what GitHub shows and what
//     the paper's counts mean. go-git's own line diff (diff-match-patch)
//     disagrees with `git diff --numstat` on about 1.4% of files, and its
//     rename detection takes about 30 s on a 5,000-file diff where git takes
//     0.5 s.
//
// Both revisions are resolved with go-git first, and only the two 40-hex
// commit SHAs reach the git command line, so a revision can never be read as
// an option. A Diff runs git twice, whatever the number of files:
//
//	git diff --raw --numstat -z -M ... BASE HEAD --
//	git diff --raw --patch -U0 -z -M ... BASE HEAD --
//
// The raw records give status, modes and paths; the numstat records give
// the counts exactly as `git diff --numstat -M` prints them (and GitHub
// shows); the -U0 patch gives the hunks and from them the changed line
// numbers, exactly as `git diff -U0 -M` prints them. The two cannot be one
// run: with zero context git trims the files' common tail before diffing,
// which now and then (about 1 file in 1,000) aligns lines differently and
// changes the counts. Every path is read from the NUL-separated (-z)
// records, so names with spaces, quotes, tabs, newlines or non-UTF-8 bytes
// survive; the patch sections are matched to the records by order, never by
// their quoted paths, and the two runs are matched by their raw records.
//
// git's output is made independent of the machine: GIT_CONFIG_NOSYSTEM=1 and
// GIT_CONFIG_GLOBAL=/dev/null drop system and user configuration, every
// other GIT_* variable of the environment is removed, and each setting the
// repository's own configuration could change is given as a flag
// (--no-ext-diff --no-textconv --no-color -M --diff-algorithm=myers
// --indent-heuristic, -c core.quotepath=off, -c diff.context=3, prefixes,
// rename limit). git runs with an empty work tree and index, so .gitattributes
// files are not applied: the result depends only on the two commits, not on
// what happens to be checked out (git 2.39 cannot read attributes from a
// commit). Replace refs are ignored, as go-git ignores them. git 2.32 or
// newer is needed (GIT_CONFIG_GLOBAL).
//
// # Concurrency
//
// go-git is not safe for concurrent use, so a *Repo must be used by one
// goroutine at a time. Callers that work in parallel open one Repo per
// goroutine; opening is cheap.
package diff
