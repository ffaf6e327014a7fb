package main

import (
	"bytes"
	"testing"

	"github.com/lolbench/lolbench/pipeline/sandbox/grade"
)

// TestVerifyAllFlag: --all is parsed (the other flags: TestVerifyFlags).
func TestVerifyAllFlag(t *testing.T) {
	var got *VerifyOptions
	f := &Factory{IO: &IOStreams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	cmd := newCmdVerify(f, func(o *VerifyOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"task", "--solution", "s.patch", "--all"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	want := VerifyOptions{TaskDir: "task", Solution: "s.patch", Executor: "docker", All: true}
	if *got != want {
		t.Fatalf("got %+v, want %+v", *got, want)
	}
}

// TestPrintGrade: a person sees every F2P test and every failing P2P test;
// the passing P2P tests are one count unless --all (a real task lists
// tens of thousands: docs/real-projects.md).
func TestPrintGrade(t *testing.T) {
	g := &grade.Grade{
		Reward: 0, F2PPassed: 1, F2PTotal: 2, P2PPassed: 2, P2PTotal: 3, SectionsCompleted: 0, SectionsTotal: 1,
		Sections: []grade.SectionResult{{ID: "8.1", Tests: 2, Passed: 1, Why: "1 of its 2 mapped FAIL_TO_PASS tests did not pass"}},
		Verdict:  "failed",
		Tests: []grade.Test{
			{Name: "t::f1", List: "FAIL_TO_PASS", Status: "passed", Passed: true},
			{Name: "t::f2", List: "FAIL_TO_PASS"},
			{Name: "t::p1", List: "PASS_TO_PASS", Status: "passed", Passed: true},
			{Name: "t::p2", List: "PASS_TO_PASS", Status: "failed"},
			{Name: "t::p3", List: "PASS_TO_PASS", Status: "passed", Passed: true},
		},
	}
	tail := "section 8.1 not completed: 1 of its 2 mapped FAIL_TO_PASS tests did not pass\n" +
		"verdict: failed\n" +
		"reward 0: FAIL_TO_PASS 1/2, PASS_TO_PASS 2/3, sections 0/1\n"
	tests := []struct {
		all  bool
		want string
	}{
		{false, "PASS  FAIL_TO_PASS t::f1 (passed)\n" +
			"FAIL  FAIL_TO_PASS t::f2 (not run)\n" +
			"FAIL  PASS_TO_PASS t::p2 (failed)\n" +
			"PASS  PASS_TO_PASS 2 more tests passed (--all lists them)\n" + tail},
		{true, "PASS  FAIL_TO_PASS t::f1 (passed)\n" +
			"FAIL  FAIL_TO_PASS t::f2 (not run)\n" +
			"PASS  PASS_TO_PASS t::p1 (passed)\n" +
			"FAIL  PASS_TO_PASS t::p2 (failed)\n" +
			"PASS  PASS_TO_PASS t::p3 (passed)\n" + tail},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		printGrade(&b, g, tt.all)
		if b.String() != tt.want {
			t.Errorf("all=%v:\n got:\n%s\nwant:\n%s", tt.all, b.String(), tt.want)
		}
	}
}
