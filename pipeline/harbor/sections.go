package harbor

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/lolbench/lolbench/pipeline/workspace"
)

// tomlHeader opens every task.toml lolbench writes.
const tomlHeader = "# Harbor task written by lolbench; see README.md.\n"

// SetSections regrades a written task with a new test-to-section map
// (pipeline/sectionmap, issue 25: one map graded everywhere): it rewrites
// tests/config.json's map and denominator, the README's FAIL_TO_PASS block
// and task.toml's untested sections, each file atomically. Everything
// else in the folder stays as written.
func SetSections(dir string, sections map[string][]string, implementable, untested []string) error {
	cfg, err := LoadConfig(dir)
	if err != nil {
		return err
	}
	cfg.Sections, cfg.Implementable = sections, implementable
	cj, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	if err := workspace.WriteFile(filepath.Join(dir, filepath.FromSlash(ConfigJSON)), append(cj, '\n'), 0o644); err != nil {
		return err
	}

	tomlPath := filepath.Join(dir, TaskToml)
	data, err := os.ReadFile(tomlPath)
	if err != nil {
		return fmt.Errorf("harbor task: %w", err)
	}
	var tt taskToml
	if err := toml.Unmarshal(data, &tt); err != nil {
		return fmt.Errorf("%s: %w", tomlPath, err)
	}
	tt.Metadata.UntestedSections = untested
	out, err := toml.Marshal(tt)
	if err != nil {
		return err
	}
	if err := workspace.WriteFile(tomlPath, append([]byte(tomlHeader), out...), 0o644); err != nil {
		return err
	}

	readmePath := filepath.Join(dir, Readme)
	md, err := os.ReadFile(readmePath)
	if err != nil {
		return fmt.Errorf("harbor task: %w", err)
	}
	start := bytes.Index(md, []byte("\n"+f2pHeading+"\n"))
	end := bytes.Index(md, []byte("\n"+runningHeading+"\n"))
	if start < 0 || end < start {
		return fmt.Errorf("%s: no %q block before %q", readmePath, f2pHeading, runningHeading)
	}
	var b bytes.Buffer
	b.Write(md[:start+1])
	b.Write(f2pBlock(cfg.FailToPass, sections, untested))
	b.Write(md[end+1:])
	return workspace.WriteFile(readmePath, b.Bytes(), 0o644)
}
