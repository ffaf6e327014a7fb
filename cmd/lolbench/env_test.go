package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/sandbox/baseimage"
)

// TestEnvBasePrint prints the content tag, or the tag LOLBENCH_BASE_IMAGE
// names, without building anything.
func TestEnvBasePrint(t *testing.T) {
	out, errOut, code := runCLI(t, "env", "base", "--print")
	if code != 0 || out != baseimage.ContentTag()+"\n" || errOut != "" {
		t.Fatalf("code %d, out %q, stderr %q", code, out, errOut)
	}
	if !strings.HasPrefix(out, "lolbench/offline-base:bookworm-") || len(out) != len("lolbench/offline-base:bookworm-")+12+1 {
		t.Fatalf("tag %q", out)
	}
	var buf bytes.Buffer
	f := &Factory{IO: &IOStreams{In: strings.NewReader(""), Out: &buf, ErrOut: &buf},
		Getenv: func(k string) string {
			if k == baseimage.EnvVar {
				return "my/base:dev"
			}
			return ""
		}}
	if code := run(context.Background(), []string{"env", "base", "--print", "--json"}, f); code != 0 || buf.String() != "{\n  \"image\": \"my/base:dev\"\n}\n" {
		t.Fatalf("code %d, out %q", code, buf.String())
	}
	if _, errOut, code := runCLI(t, "env", "base", "extra"); code != exitBadInput || !strings.Contains(errOut, "unknown command") && !strings.Contains(errOut, "accepts 0 arg") {
		t.Fatalf("extra argument: code %d, %q", code, errOut)
	}
}
