package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Candidate is one EP–PR pair in the workspace, with a stable readable id
// such as "cpython-pep-0617".
type Candidate struct {
	ID  string
	Dir string // absolute folder under candidates/
}

// OpenCandidate returns the candidate id of the workspace.
func OpenCandidate(ws *workspace.Workspace, id string) (*Candidate, error) {
	dir, err := ws.CandidateDir(id)
	if err != nil {
		return nil, err
	}
	return &Candidate{ID: id, Dir: dir}, nil
}

// Path returns a file of the candidate's folder; rel may not leave it.
func (c *Candidate) Path(rel string) (string, error) {
	return workspace.SafeJoin(c.Dir, rel)
}

// Files of a candidate folder (docs/design.md, "The workspace").
const (
	InfoFile     = "candidate.json"
	MappingFile  = "mapping.md"
	ValidateFile = "validate.json"
	AuditFile    = "audit.json"
	RankFile     = "rank.json"
	ReviewFile   = "review.json"
	StatusFile   = "status.json"
)

// Info is candidate.json: what collection learned about the pair.
type Info struct {
	ID       string `json:"id"`
	Project  string `json:"project"`
	Repo     string `json:"repo"` // GitHub owner/name
	Language string `json:"language"`
	Domain   string `json:"domain"`
	// RepoDir is the clone, relative to the workspace (repos/<name>) or
	// absolute for a local project.
	RepoDir string   `json:"repo_dir"`
	EP      EPInfo   `json:"ep"`
	PR      PRInfo   `json:"pr"`
	Checks  []Check  `json:"criteria"`
	Pending []string `json:"pending,omitempty"`
	// Notes say what collection inferred rather than read: a PR date
	// taken from git because GitHub could not be asked, an EP text older
	// than its file's tip.
	Notes []string `json:"notes,omitempty"`
}

// EPInfo describes the proposal.
type EPInfo struct {
	ID    string `json:"id"` // "PEP 617"
	Title string `json:"title"`
	File  string `json:"file"` // ep.md or ep.rst in the candidate folder
	// Status is the status the EP declares in the text the task asks for
	// (at Revision); StatusAtTip is its status at the EP repository's
	// tip, when that differs (selection reads the tip).
	Status      string    `json:"status,omitempty"`
	StatusAtTip string    `json:"status_at_tip,omitempty"`
	Created     time.Time `json:"created"`
	URL         string    `json:"url,omitempty"`
	// Revision is the commit of a git EP source that the EP text was read
	// at: the last commit at or before the PR's merge.
	Revision string `json:"revision,omitempty"`
	// RenderedFrom is "html" or "dokuwiki" when ep.md is the Markdown
	// rendering of a web page or wiki text (pipeline/ep).
	RenderedFrom string `json:"rendered_from,omitempty"`
	// Fetched is when a web page was saved by "lolbench ep fetch".
	Fetched time.Time `json:"fetched_at,omitzero"`
}

// PRInfo describes the implementing pull request.
type PRInfo struct {
	Number      int       `json:"number"`
	Title       string    `json:"title"`
	Author      string    `json:"author"`
	URL         string    `json:"url,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	MergedAt    time.Time `json:"merged_at"`
	FirstCommit time.Time `json:"first_commit,omitempty"`
	BaseSHA     string    `json:"base_sha"`
	HeadSHA     string    `json:"head_sha"`
	MergeSHA    string    `json:"merge_sha,omitempty"`
	// Evidence says why collection paired this PR with the proposal.
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Sources of pairing evidence (issue 33 §3).
const (
	EvidenceCurated  = "curated"  // a curated link of the registry
	EvidenceSearch   = "search"   // a GitHub search for a reference pattern
	EvidenceDeclared = "declared" // a link the proposal itself declares
)

// Evidence is one reason a PR was paired with a proposal: its source and
// where it was found (the registry entry, the search pattern, the link as
// the proposal writes it).
type Evidence struct {
	Source string `json:"source"`
	Detail string `json:"detail"`
}

// Check is the result of one selection criterion (paper, section 3.1),
// with the measured value.
type Check struct {
	Criterion string `json:"criterion"`
	Passed    bool   `json:"passed"`
	Value     string `json:"value"`
	Threshold string `json:"threshold,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// LoadInfo reads candidate.json.
func (c *Candidate) LoadInfo() (*Info, error) {
	var info Info
	path := filepath.Join(c.Dir, InfoFile)
	if err := workspace.ReadJSON(path, &info); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("candidate %s has no %s; run lolbench collect first", c.ID, InfoFile)
		}
		return nil, err
	}
	return &info, nil
}

// RepoPath resolves Info.RepoDir against the workspace.
func (info *Info) RepoPath(ws *workspace.Workspace) (string, error) {
	if filepath.IsAbs(info.RepoDir) {
		return info.RepoDir, nil
	}
	return ws.Path(info.RepoDir)
}

// ReadArtifact reads the JSON artifact rel of the candidate's folder (an
// audit.json, a build record) into a new T. A missing file is an error
// wrapping os.ErrNotExist; unknown fields are rejected (workspace.ReadJSON).
func ReadArtifact[T any](c *Candidate, rel string) (*T, error) {
	p, err := c.Path(rel)
	if err != nil {
		return nil, err
	}
	var v T
	if err := workspace.ReadJSON(p, &v); err != nil {
		return nil, err
	}
	return &v, nil
}
