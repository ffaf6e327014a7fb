package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
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
	if code := run(context.Background(), []string{"env", "base", "--print", "--json"}, f); code != 0 || buf.String() != "{\n  \"image\": \"my/base:dev\",\n  \"images\": {\n    \"common\": \"my/base:dev\"\n  }\n}\n" {
		t.Fatalf("code %d, out %q", code, buf.String())
	}
	if _, errOut, code := runCLI(t, "env", "base", "extra"); code != exitBadInput || !strings.Contains(errOut, "unknown command") && !strings.Contains(errOut, "accepts 0 arg") {
		t.Fatalf("extra argument: code %d, %q", code, errOut)
	}
}

// TestEnvBaseLang: --lang picks images by language or key, parents first,
// each once; the Java tag follows its parent's override.
func TestEnvBaseLang(t *testing.T) {
	out, errOut, code := runCLI(t, "env", "base", "--print", "--lang", "java")
	if code != 0 || out != baseimage.Java.ContentTag(nil)+"\n" || errOut != "" {
		t.Fatalf("--lang java: code %d, out %q, stderr %q", code, out, errOut)
	}
	if !strings.HasPrefix(out, "lolbench/offline-base:java-bookworm-") {
		t.Fatalf("java tag %q", out)
	}
	out, _, code = runCLI(t, "env", "base", "--print", "--lang", "Java,go", "--lang", "java")
	if want := baseimage.ContentTag() + "\n" + baseimage.Java.ContentTag(nil) + "\n"; code != 0 || out != want {
		t.Fatalf("two languages: code %d, out %q, want %q", code, out, want)
	}
	var all strings.Builder
	for _, im := range baseimage.Images {
		all.WriteString(im.ContentTag(nil) + "\n")
	}
	if out2, _, _ := runCLI(t, "env", "base", "--print", "--lang", "all"); out2 != all.String() {
		t.Fatalf("--lang all: %q, want %q", out2, all.String())
	}
	if out3, _, _ := runCLI(t, "env", "base", "--print", "--lang", "rust"); out3 != baseimage.Rust.ContentTag(nil)+"\n" {
		t.Fatalf("--lang rust: %q", out3)
	}
	// JavaScript and TypeScript share the node image (issue 23).
	if out, _, code := runCLI(t, "env", "base", "--print", "--lang", "typescript,JavaScript", "--lang", "node"); code != 0 || out != baseimage.Node.ContentTag(nil)+"\n" ||
		!strings.HasPrefix(out, "lolbench/offline-base:node-bookworm-") {
		t.Fatalf("--lang typescript,JavaScript,node: code %d, out %q", code, out)
	}
	// C and C++ share one image: by language name, key or alias.
	if out, _, code := runCLI(t, "env", "base", "--print", "--lang", "c,cpp", "--lang", "C++"); code != 0 || out != baseimage.CFamily.ContentTag(nil)+"\n" {
		t.Fatalf("--lang c,cpp: code %d, out %q", code, out)
	}
	if _, errOut, code := runCLI(t, "env", "base", "--print", "--lang", "cobol"); code != exitBadInput || !strings.Contains(errOut, `--lang "cobol": no offline base image serves it`) {
		t.Fatalf("unknown language: code %d, %q", code, errOut)
	}
	over := func(k string) string {
		if k == baseimage.EnvVar {
			return "my/base:dev"
		}
		return ""
	}
	if baseimage.Java.Tag(over) == baseimage.Java.ContentTag(nil) {
		t.Fatal("the Java tag does not follow its parent's override")
	}
}
