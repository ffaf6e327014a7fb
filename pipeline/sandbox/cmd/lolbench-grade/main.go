// Command lolbench-grade is the result parser of a Harbor task's verifier
// (tests/test.sh): it reads one test run, scores it against the task's
// FAIL_TO_PASS and PASS_TO_PASS lists and writes reward.txt, reward.json and
// grade.json. It is built statically (CGO_ENABLED=0) and copied into every
// task's tests/ folder, so the verifier needs nothing from the image but a
// POSIX shell.
//
//	lolbench-grade -config config.json -exit 1 -log test-output.log -out /logs/verifier
//	lolbench-grade -config config.json -exit 0 -results reports/ -out /logs/verifier
//	lolbench-grade -config config.json -error "the test patch does not apply" -out /logs/verifier
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("lolbench-grade", flag.ContinueOnError)
	fl.SetOutput(stderr)
	configPath := fl.String("config", "", "the task's config.json (format, FAIL_TO_PASS, PASS_TO_PASS)")
	exit := fl.Int("exit", -1, "the test command's exit status (124: timed out)")
	logPath := fl.String("log", "", "the test command's output")
	resDir := fl.String("results", "", "folder of result files, when the recipe writes reports")
	outDir := fl.String("out", "/logs/verifier", "where reward.txt, reward.json and grade.json go")
	failure := fl.String("error", "", "the tests could not run: grade 0 with this reason")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	data, err := os.ReadFile(*configPath)
	if err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %v\n", err)
		return 2
	}
	var cfg grade.Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %s: %v\n", *configPath, err)
		return 2
	}
	var g grade.Grade
	switch {
	case *failure != "":
		g = grade.Failed(cfg, *failure)
	case *exit < 0:
		fmt.Fprintln(stderr, "lolbench-grade: -exit or -error is required")
		return 2
	default:
		res, perr := grade.ReadResults(cfg.Format, *logPath, *resDir)
		g = grade.Score(cfg, res, grade.ExitOf(*exit), perr)
	}
	if err := grade.Write(*outDir, g); err != nil {
		fmt.Fprintf(stderr, "lolbench-grade: %v\n", err)
		return 1
	}
	for _, t := range g.Tests {
		mark := "PASS"
		if !t.Passed {
			mark = "FAIL"
		}
		st := string(t.Status)
		if st == "" {
			st = "not run"
		}
		fmt.Fprintf(stdout, "%s %s %s (%s)\n", mark, t.List, t.Name, st)
	}
	if g.Error != "" {
		fmt.Fprintf(stdout, "error: %s\n", g.Error)
	}
	if g.Reason != "" {
		fmt.Fprintf(stdout, "run: %s: %s\n", g.Run, g.Reason)
	}
	fmt.Fprintf(stdout, "reward %d: FAIL_TO_PASS %d/%d, PASS_TO_PASS %d/%d, sections %d/%d\n",
		g.Reward, g.F2PPassed, g.F2PTotal, g.P2PPassed, g.P2PTotal, g.SectionsCompleted, g.SectionsTotal)
	return 0
}
