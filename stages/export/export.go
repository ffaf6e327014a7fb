// Package export writes the workspace's built tasks out for harnesses
// (issue 6): as Harbor task folders, the format the LoLBench authors
// evaluated in, or as one SWE-bench-style JSONL file, so that harnesses
// built for SWE-bench can run the benchmark unchanged.
//
// Each format comes in two variants (paper §4). The plain one gives the
// agent the EP. The spec one adds the section stages/spec derives from the
// reference solution (changed-file tree, public signatures), under its
// own folder and ids so that both variants can sit side by side:
//
//	plain  <out>/harbor/<id>/       <out>/swebench.jsonl       instance_id <id>
//	spec   <out>/harbor-spec/<id>-spec/  <out>/swebench-spec.jsonl  instance_id <id>-spec
//
// A spec Harbor task is the plain task with instruction.md replaced by the
// spec instruction (stages/spec.Instruction), task.toml's name set to
// lolbench/<id>-spec with metadata variant = "spec", and a README note; its
// environment, solution and verifier are the plain task's (reward.json
// still names the plain task, whose tests it runs). A spec SWE-bench line
// is the plain line with instance_id <id>-spec and, as problem_statement,
// the EP followed by the spec section: like the plain line, it carries no
// Harbor preamble, since SWE-bench harnesses bring their own prompt.
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
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/lolbench/lolbench/pipeline"
	"github.com/lolbench/lolbench/pipeline/harbor"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/sectiondag"
	"github.com/lolbench/lolbench/pipeline/sectionmap"
	"github.com/lolbench/lolbench/pipeline/workspace"
	"github.com/lolbench/lolbench/stages/augment"
	"github.com/lolbench/lolbench/stages/build"
	"github.com/lolbench/lolbench/stages/spec"
)

// Formats.
const (
	Harbor   = "harbor"
	SWEBench = "swebench"
)

// Formats lists the export formats.
var Formats = []string{Harbor, SWEBench}

// Variants of the tasks.
const (
	Plain = "plain"
	Spec  = "spec"
)

// Variants lists the task variants; Plain is the default.
var Variants = []string{Plain, Spec}

// Stage exports the built tasks of a workspace.
type Stage struct {
	// Format is Harbor or SWEBench.
	Format string
	// Variant is Plain (also when empty) or Spec.
	Variant string
	// Out is the output folder; <workspace>/export by default.
	Out string
	// IncludeUnreviewed exports tasks built without passing every gate
	// (their task.toml and JSONL row say unreviewed); others are skipped.
	IncludeUnreviewed bool
	// SectionOrder appends to each instruction (and SWE-bench
	// problem_statement) the graded sections in dependency order, from
	// the candidate's dag.json (lolbench dag; docs/section-dag.md). Off
	// by default: the paper's tasks give the proposal alone.
	SectionOrder bool
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
	// Implementable are the task's sections, Completed's denominator
	// (mapping.TaskSections); UntestedSections those no F2P test asserts,
	// which mark a task exported although not ready (issue 25).
	Implementable    []string `json:"implementable_sections"`
	UntestedSections []string `json:"untested_sections,omitempty"`
	TestCommand      string   `json:"test_command"`
	TestFormat       string   `json:"test_format"`
	// TestInfra says which paths a harness must reset to the base commit
	// before it applies test_patch, beyond test_patch's own files
	// (lang.TestInfraRules): a SWE-bench harness resets only those, so an
	// agent's conftest.py or TestMain would survive it. lolbench's own
	// grading (lolbench verify, and lolbench eval on predictions) does all
	// of issue 11's checks; this is what the format can carry of them.
	TestInfra lang.InfraSpec `json:"test_infra_reset"`
	// Unreviewed marks a task built without passing every gate, and
	// SkippedGates says which (lolbench run --include-unreviewed).
	Unreviewed   bool     `json:"unreviewed,omitempty"`
	SkippedGates []string `json:"skipped_gates,omitempty"`
}

// Run implements pipeline.WorkspaceStage. Only candidates whose build
// passed (status.json) and whose task folder exists are exported; the
// others are listed in Skipped with the reason.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env) error {
	if s.Format != Harbor && s.Format != SWEBench {
		return fmt.Errorf("export: unknown format %q (known: harbor, swebench)", s.Format)
	}
	isSpec := s.Variant == Spec
	if s.Variant != "" && s.Variant != Plain && !isSpec {
		return fmt.Errorf("export: unknown variant %q (known: plain, spec)", s.Variant)
	}
	harborDir, jsonl, suffix := Harbor, "swebench.jsonl", ""
	if isSpec {
		harborDir, jsonl, suffix = Harbor+"-"+Spec, "swebench-"+Spec+".jsonl", "-"+Spec
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
		if rec.Unreviewed && !s.IncludeUnreviewed {
			s.Skipped[id] = "unreviewed: built without passing every gate (" + strings.Join(rec.SkippedGates, "; ") + "); export it with --include-unreviewed"
			continue
		}
		// A task whose reference solution does not complete every task
		// section is not ready (issue 25): its untested sections are a
		// defect, and the export marks it when it is included.
		smap, err := sectionmap.Load(c)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.Skipped[id] = err.Error()
			continue
		}
		if smap == nil {
			smap = &sectionmap.Map{}
		}
		if why := smap.NotReady(); why != "" && !s.IncludeUnreviewed {
			s.Skipped[id] = "not ready: " + why + "; export it with --include-unreviewed"
			continue
		}
		taskDir := filepath.Join(c.Dir, build.TaskDir)
		if _, err := os.Stat(taskDir); err != nil {
			s.Skipped[id] = "no task folder; run lolbench build --force " + id
			continue
		}
		// The spec variant's text, computed afresh (stages/spec); a
		// candidate whose repository or record cannot give it is skipped
		// with the reason.
		var instruction, section []byte
		if isSpec {
			var sp *spec.Spec
			if instruction, sp, err = spec.Instruction(ctx, ws, c); err != nil {
				s.Skipped[id] = err.Error()
				continue
			}
			section = sp.Markdown()
		}
		var order []byte
		if s.SectionOrder {
			g, err := sectiondag.Load(c)
			if errors.Is(err, fs.ErrNotExist) {
				s.Skipped[id] = "no section graph (" + sectiondag.File + ") for --section-order; run lolbench dag " + id
				continue
			}
			if err != nil {
				s.Skipped[id] = err.Error()
				continue
			}
			order = g.OrderMarkdown()
		}
		switch s.Format {
		case Harbor:
			var edit func(dir string) error
			switch {
			case isSpec:
				if order != nil {
					instruction = spec.Append(instruction, order)
				}
				edit = func(dir string) error { return specTask(dir, id+suffix, instruction) }
			case order != nil:
				edit = func(dir string) error { return appendInstruction(dir, order) }
			}
			if err := copyTree(taskDir, filepath.Join(out, harborDir, id+suffix), edit); err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
		case SWEBench:
			inst, err := instance(c, rec, smap)
			if err != nil {
				return fmt.Errorf("export %s: %w", id, err)
			}
			if isSpec {
				inst.InstanceID += suffix
				inst.ProblemStatement = string(spec.Append([]byte(inst.ProblemStatement), section))
			}
			if order != nil {
				inst.ProblemStatement = string(spec.Append([]byte(inst.ProblemStatement), order))
			}
			data, err := json.Marshal(inst)
			if err != nil {
				return err
			}
			lines.Write(data)
			lines.WriteByte('\n')
		}
		s.Exported = append(s.Exported, id+suffix)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if s.Format == SWEBench {
		s.Path = filepath.Join(out, jsonl)
		return workspace.WriteFile(s.Path, lines.Bytes(), 0o644)
	}
	s.Path = filepath.Join(out, harborDir)
	return os.MkdirAll(s.Path, 0o755)
}

func instance(c *pipeline.Candidate, rec *build.Record, smap *sectionmap.Map) (*Instance, error) {
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
	f2p := rec.Report.FailToPass
	// The augment stage's added tests (their own patch, after the PR's)
	// and its longer FAIL_TO_PASS list, when it ran on this build of the
	// task (issue 7). The sections are the task's map, as the task is
	// graded.
	switch fin, err := augment.LoadFinal(c); {
	case err == nil:
		testPatch, f2p = string(fin.TestPatch), fin.FailToPass
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, augment.ErrStale):
		return nil, err
	}
	return &Instance{
		InstanceID: rec.ID, Repo: rec.Repo, BaseCommit: rec.BaseCommit, Patch: patch, TestPatch: testPatch,
		ProblemStatement: problem, FailToPass: f2p, PassToPass: rec.Report.PassToPass,
		CreatedAt: rec.CreatedAt, Version: rec.Version, EnvironmentSetupCommit: rec.BaseCommit,
		EPID: info.EP.ID, EPTitle: info.EP.Title, PRNumber: info.PR.Number, Language: info.Language, Domain: info.Domain,
		Sections: secs, F2PSections: smap.F2PSections(), TestCommand: rec.Report.Command, TestFormat: rec.Recipe.Test.Format,
		TestInfra: lang.TestInfraSpec(rec.Recipe.Test.Reset), Implementable: smap.SectionIDs(), UntestedSections: smap.Untested,
		Unreviewed: rec.Unreviewed, SkippedGates: rec.SkippedGates,
	}, nil
}

// appendInstruction appends a section to a copied task's instruction.md.
func appendInstruction(dir string, section []byte) error {
	p := filepath.Join(dir, harbor.Instruction)
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	return os.WriteFile(p, spec.Append(data, section), 0o644)
}

// specTask turns a copied plain task folder into the spec variant: the
// spec instruction, the variant's name in task.toml and a README note.
// task.toml is edited line by line so that the rest of the file stays as
// pipeline/harbor wrote it, then read back to check the edit.
func specTask(dir, id string, instruction []byte) error {
	if err := os.WriteFile(filepath.Join(dir, harbor.Instruction), instruction, 0o644); err != nil {
		return err
	}
	tomlPath := filepath.Join(dir, harbor.TaskToml)
	data, err := os.ReadFile(tomlPath)
	if err != nil {
		return err
	}
	name := harbor.Org + "/" + id
	nameLine, err := toml.Marshal(map[string]string{"name": name})
	if err != nil {
		return err
	}
	variantLine, err := toml.Marshal(map[string]string{"variant": Spec})
	if err != nil {
		return err
	}
	lines := strings.SplitAfter(string(data), "\n")
	table, renamed, marked := "", false, false
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			table = t
		}
		switch {
		case table == "[task]" && !renamed && strings.HasPrefix(t, "name") && strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(t, "name")), "="):
			b.Write(nameLine)
			renamed = true
			continue
		case t == "[metadata]" && !marked:
			b.WriteString(l)
			b.Write(variantLine)
			marked = true
			continue
		}
		b.WriteString(l)
	}
	if err := os.WriteFile(tomlPath, []byte(b.String()), 0o644); err != nil {
		return err
	}
	m, err := harbor.ReadToml(dir)
	if err != nil {
		return err
	}
	task, _ := m["task"].(map[string]any)
	meta, _ := m["metadata"].(map[string]any)
	if task == nil || task["name"] != name || meta == nil || meta["variant"] != Spec {
		return fmt.Errorf("%s: could not set the spec variant's name %q (no [task] name or [metadata] table)", tomlPath, name)
	}
	readme, err := os.ReadFile(filepath.Join(dir, harbor.Readme))
	if err != nil {
		return err
	}
	plain := strings.TrimSuffix(id, "-"+Spec)
	note := fmt.Sprintf("\n## Specification variant\n\nThis is %s, the specification variant of %s/%s: `instruction.md` adds to the proposal the files the reference solution changes and the signatures of the public classes and functions it adds or changes, with the public fields and constants it adds (`lolbench spec`). The environment, the reference solution and the verifier are the plain task's; `reward.json` names the plain task.\n", name, harbor.Org, plain)
	return os.WriteFile(filepath.Join(dir, harbor.Readme), append(readme, note...), 0o644)
}

// skipFiles are task files that are not copied: instruction.spec.md is
// for reviewers (the spec variant carries it as instruction.md).
var skipFiles = map[string]bool{strings.TrimPrefix(spec.File, build.TaskDir+"/"): true}

// copyTree copies a task folder, replacing dst; edit, when not nil,
// changes the copy before it takes dst's place.
func copyTree(src, dst string, edit func(dir string) error) error {
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
		if skipFiles[filepath.ToSlash(rel)] {
			continue
		}
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
	if edit != nil {
		if err := edit(tmp); err != nil {
			os.RemoveAll(tmp)
			return err
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
