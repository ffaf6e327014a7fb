// Package testcand builds a workspace holding one candidate from a sample
// under data/samples (a base and a pr folder, ep.md or ep.rst): the git
// repository is built with go-git (internal/testrepo), candidate.json points
// at it, and the EP is copied in. It is a test helper; product code never
// imports it.
package testcand

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/lolbench/lolbench/internal/testrepo"
	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// Spec names the sample and the candidate to build from it.
type Spec struct {
	Sample string // sample folder, e.g. ../../data/samples/tinykv
	ID     string // candidate id, e.g. tinykv-tkep-0002
	EPFile string // ep.md or ep.rst in the sample
	EPID   string
	Title  string
}

// Tinykv is the bundled tinykv sample as seen from a package two levels
// below the module root (stages/x, pipeline/x).
func Tinykv(root string) Spec {
	return Spec{
		Sample: filepath.Join(root, "data", "samples", "tinykv"),
		ID:     "tinykv-tkep-0002", EPFile: "ep.md", EPID: "TKEP 2", Title: "Key expiry",
	}
}

// Build creates the workspace at dir (the repository goes to
// dir/repos/<id>) and returns it with the candidate.
func Build(dir string, s Spec) (*workspace.Workspace, *pipeline.Candidate, error) {
	ws, err := workspace.Open(dir, true)
	if err != nil {
		return nil, nil, err
	}
	repoRel := filepath.Join("repos", s.ID)
	repoDir, err := ws.Path(repoRel)
	if err != nil {
		return nil, nil, err
	}
	if err := buildRepo(s.Sample, repoDir); err != nil {
		return nil, nil, fmt.Errorf("build %s: %w", repoDir, err)
	}
	r, err := diff.Open(repoDir)
	if err != nil {
		return nil, nil, err
	}
	base, err := r.Resolve("base")
	if err != nil {
		return nil, nil, err
	}
	head, err := r.Resolve("head")
	if err != nil {
		return nil, nil, err
	}
	c, err := pipeline.OpenCandidate(ws, s.ID)
	if err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return nil, nil, err
	}
	src, err := os.ReadFile(filepath.Join(s.Sample, s.EPFile))
	if err != nil {
		return nil, nil, err
	}
	if err := workspace.WriteFile(filepath.Join(c.Dir, s.EPFile), src, 0o644); err != nil {
		return nil, nil, err
	}
	info := pipeline.Info{
		ID: s.ID, Project: "sample", Repo: "example/" + s.ID, Language: "Go", RepoDir: repoRel,
		EP: pipeline.EPInfo{ID: s.EPID, Title: s.Title, File: s.EPFile},
		PR: pipeline.PRInfo{Number: 2, Title: "Add key expiry", BaseSHA: base, HeadSHA: head},
	}
	if err := workspace.WriteJSON(filepath.Join(c.Dir, pipeline.InfoFile), info); err != nil {
		return nil, nil, err
	}
	return ws, c, nil
}

// buildRepo builds the sample's repository with its make-repo.sh, as the
// demo and the other Docker tests do: the same commits give the same
// layer-2 image tags, so every test package reuses one image per sample.
// A sample without the script is built with go-git.
func buildRepo(sample, dir string) error {
	script := filepath.Join(sample, "make-repo.sh")
	if _, err := os.Stat(script); err != nil {
		return testrepo.Build(dir,
			testrepo.Step{Overlay: filepath.Join(sample, "base"), Tag: "base"},
			testrepo.Step{Overlay: filepath.Join(sample, "pr"), Tag: "head"})
	}
	if out, err := exec.Command("bash", script, dir).CombinedOutput(); err != nil {
		return fmt.Errorf("make-repo.sh: %w: %s", err, out)
	}
	return nil
}

// CopyMapping copies the sample's mapping.md (or another file of the
// sample) into the candidate folder as mapping.md.
func CopyMapping(s Spec, c *pipeline.Candidate, name string) error {
	b, err := os.ReadFile(filepath.Join(s.Sample, name))
	if err != nil {
		return err
	}
	return workspace.WriteFile(filepath.Join(c.Dir, pipeline.MappingFile), b, 0o644)
}
