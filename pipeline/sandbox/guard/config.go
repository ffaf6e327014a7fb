// Package guard is the verifier's side inside the sandbox (issue 11): it
// runs a task's tests so that nothing the tested code controls decides the
// grade. `lolbench verify`, the build's validation runs and an exported
// Harbor task's tests/test.sh all run it, through the static lolbench-grade
// binary, as root in the container:
//
//  1. Every process that is not the verifier's own (an agent's leftovers)
//     is stopped and killed.
//  2. The environment is put back as the image built it: the test user's
//     home folder, the install step's outputs inside the repository and
//     its .git folder, from a root-only copy the image keeps in
//     /opt/lolbench; the test user's files in /tmp go.
//  3. Test infrastructure is reset (lang.TestInfra): every test file, test
//     data, vendored file and test-runner configuration is made what it is
//     at the base commit plus the PR's test files, and new ones are removed.
//  4. Canaries, tests that must fail, are planted beside the real tests with
//     random names.
//  5. The tests run as the recipe's unprivileged user, with stdin closed and
//     stdout read through a pipe by the verifier, under the run's deadline.
//  6. Every process of the test user is killed, and the verifier checks that
//     none survived, before any result is read.
//  7. The raw results (output, report files, exit status, canaries) are
//     copied, without following links, into a root-only folder, which the
//     host grades from (pipeline/sandbox/grade).
//
// With the local executor the tests run as the caller's own user: steps 1,
// 2 and 6 cannot be done there, and the run record says it was not
// isolated.
package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/lolbench/lolbench/pipeline/recipe"
	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// Config is a task's verifier configuration: tests/config.json of a
// Harbor task, and the configuration of the build's validation runs (with
// empty lists).
type Config struct {
	grade.Config
	// Language is the candidate's language (lang.Table); it picks the
	// canary.
	Language   string `json:"language"`
	BaseCommit string `json:"base_commit"`
	// Recipe, with defaults applied.
	Recipe    recipe.Recipe `json:"recipe"`
	Selection []string      `json:"selection"`
	// TestPaths are the paths the PR's canonical patch (TestPatchFile)
	// touches: its test files and vendored files.
	TestPaths []string `json:"test_paths"`
}

// Names of a task's verifier files (a Harbor task's tests/ folder).
const (
	ConfigFile    = "config.json"
	TestPatchFile = "test.patch"
	GraderFile    = "lolbench-grade"
)

// maxConfigBytes caps a configuration; the P2P list of a large suite is a
// few megabytes.
const maxConfigBytes = 256 << 20

// LoadConfig reads a configuration strictly and applies the recipe's
// defaults.
func LoadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("verifier configuration: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("verifier configuration %s: %w", path, err)
	}
	if len(data) > maxConfigBytes {
		return nil, fmt.Errorf("verifier configuration %s: larger than %d bytes", path, maxConfigBytes)
	}
	var cfg Config
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("verifier configuration %s: %w", path, err)
	}
	if err := cfg.Recipe.Validate(); err != nil {
		return nil, fmt.Errorf("verifier configuration %s: recipe: %w", path, err)
	}
	cfg.Recipe = cfg.Recipe.Defaults()
	return &cfg, nil
}
