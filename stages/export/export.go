// Package export writes the workspace's built tasks out for harnesses
// (issue 6): as Harbor task folders, the format the LoLBench authors
// evaluated in, or as one SWE-bench-style JSONL file, so that harnesses
// built for SWE-bench can run the benchmark unchanged.
package export

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/augment"
	"github.com/lolbench/lolbench/stages/build"
)

// Formats.
const (
	Harbor   = "harbor"
	SWEBench = "swebench"
)

// Formats lists the export formats.
var Formats = []string{Harbor, SWEBench}

// Stage exports the built tasks of a workspace.
type Stage struct {
	// Format is Harbor or SWEBench.
	Format string
	// Out is the output folder; <workspace>/export by default.
	Out string
	// Exported lists the ids written, after Run; Path is the JSONL file
	// or the folder of Harbor tasks.
	Exported []string
	Path     string
	// Skipped maps candidates that were not exported to the reason.
	Skipped map[string]string
}

// Name implements pipeline.Stage.
func (*Stage) Name() string { return "export" }

// String implements pipeline.Stage.
func (*Stage) String() string { return "exporting tasks" }

// Instance is one line of the SWE-bench JSONL: SWE-bench's fields, then
// LoLBench's (sections, and the F2P-to-section map when known).
type Instance struct {
	InstanceID       string    `json:"instance_id"`
	Repo             string    `json:"repo"`
	BaseCommit       string    `json:"base_commit"`
	Patch            string    `json:"patch"`
	TestPatch        string    `json:"test_patch"`
	ProblemStatement string    `json:"problem_statement"`
	HintsText        string    `json:"hints_text"`
	FailToPass       []string  `json:"FAIL_TO_PASS"`
	PassToPass       []string  `json:"PASS_TO_PASS"`
	CreatedAt        time.Time `json:"created_at"`
	// Version names the environment: instances with the same version
	// share one environment image (layer 2), as in SWE-bench.
	Version                string `json:"version"`
	EnvironmentSetupCommit string `json:"environment_setup_commit"`
	// LoLBench's own fields.
	EPID        string              `json:"ep_id"`
	EPTitle     string              `json:"ep_title"`
	PRNumber    int                 `json:"pr_number"`
	Language    string              `json:"language"`
	Domain      string              `json:"domain"`
	Sections    []build.Section     `json:"sections"`
	F2PSections map[string][]string `json:"f2p_sections"`
	TestCommand string              `json:"test_command"`
	TestFormat  string              `json:"test_format"`
}

// Run implements pipeline.WorkspaceStage. Only candidates whose build
// passed (status.json) and whose task folder exists are exported; the
// others are listed in Skipped with the reason.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env) error {
	if s.Format != Harbor && s.Format != SWEBench {
		return fmt.Errorf("export: unknown format %q (known: harbor, swebench)", s.Format)
	}
	ws := env.Workspace
	out := s.Out
	if out == "" {
		var err error
		if out, err = ws.Path("export"); err != nil {
			return err
		}
	}
	ids, err := ws.Candidates()
	if err != nil {
		return err
	}
	s.Skipped = map[string]string{}
	s.Exported = nil
	var lines bytes.Buffer
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		c, err := pipeline.OpenCandidate(ws, id)
		if err != nil {
			return err
		}
		st, err := c.LoadStatus()
		if err != nil {
			s.Skipped[id] = err.Error()
			continue
		}
		bs := st.Stages["build"]
		switch {
		case bs == nil:
			s.Skipped[id] = "not built; run lolbench build"
			continue
		case bs.Result != pipeline.Passed:
			s.Skipped[id] = fmt.Sprintf("build %s: %s", bs.Result, bs.Reason)
			continue
		}
		rec, err := build.LoadRecord(c)
		if err != nil {
			s.Skipped[id] = err.Error()
			continue
		}
		taskDir := filepath.Join(c.Dir, build.TaskDir)
		if _, err := os.Stat(taskDir); err != nil {
			s.Skipped[id] = "no task folder; run lolbench build --force " + id
			continue
		}
		switch s.Format {
		case Harbor:
			if err := copyTree(taskDir, filepath.Join(out, Harbor, id)); err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
		case SWEBench:
			inst, err := instance(c, rec)
			if err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
			data, err := json.Marshal(inst)
			if err != nil {
				return err
			}
			lines.Write(data)
			lines.WriteByte('\n')
		}
		s.Exported = append(s.Exported, id)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if s.Format == SWEBench {
		s.Path = filepath.Join(out, "swebench.jsonl")
		return workspace.WriteFile(s.Path, lines.Bytes(), 0o644)
	}
	s.Path = filepath.Join(out, Harbor)
	return os.MkdirAll(s.Path, 0o755)
}

func instance(c *pipeline.Candidate, rec *build.Record) (*Instance, error) {
	info, err := c.LoadInfo()
	if err != nil {
		return nil, err
	}
	read := func(rel string) (string, error) {
		p, err := c.Path(rel)
		if err != nil {
			return "", err
		}
		data, err := os.ReadFile(p)
		return string(data), err
	}
	patch, err := read(build.SolutionFile)
	if err != nil {
		return nil, err
	}
	testPatch, err := read(build.TestPatch)
	if err != nil {
		return nil, err
	}
	problem := ""
	if info.EP.File != "" {
		if problem, err = read(info.EP.File); err != nil {
			return nil, err
		}
	}
	if rec.Report == nil {
		return nil, errors.New("build record without a report")
	}
	secs := rec.Sections
	if secs == nil {
		secs = []build.Section{}
	}
	f2ps := rec.F2PSections
	f2p := rec.Report.FailToPass
	// The augment stage's added tests (their own patch, after the PR's),
	// its longer FAIL_TO_PASS list and its test-to-section map, when it
	// ran on this build of the task (issue 7).
	switch fin, err := augment.LoadFinal(c); {
	case err == nil:
		testPatch, f2p = string(fin.TestPatch), fin.FailToPass
		if fin.Sections != nil {
			f2ps = fin.Sections
		}
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, augment.ErrStale):
		return nil, err
	}
	if f2ps == nil {
		f2ps = map[string][]string{}
	}
	return &Instance{
		InstanceID: rec.ID, Repo: rec.Repo, BaseCommit: rec.BaseCommit, Patch: patch, TestPatch: testPatch,
		ProblemStatement: problem, FailToPass: f2p, PassToPass: rec.Report.PassToPass,
		CreatedAt: rec.CreatedAt, Version: rec.Version, EnvironmentSetupCommit: rec.BaseCommit,
		EPID: info.EP.ID, EPTitle: info.EP.Title, PRNumber: info.PR.Number, Language: info.Language, Domain: info.Domain,
		Sections: secs, F2PSections: f2ps, TestCommand: rec.Report.Command, TestFormat: rec.Recipe.Test.Format,
	}, nil
}

// copyTree copies a task folder, replacing dst.
func copyTree(src, dst string) error {
	tmp := dst + ".tmp"
	os.RemoveAll(tmp)
	var paths []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(paths)
	for _, p := range paths {
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(tmp, rel)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
		case fi.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			if err := os.Symlink(l, target); err != nil {
				return err
			}
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if err := os.WriteFile(target, data, fi.Mode().Perm()); err != nil {
				return err
			}
		}
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
