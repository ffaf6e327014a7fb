package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/baseimage"
	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/langsupport"
)

// TestLang: lang list prints one row per language of the table, as text
// and JSON; lang doc prints docs/languages.md's text.
func TestLang(t *testing.T) {
	out, errOut, code := runCLI(t, "lang", "list")
	// The table, then a note per language whose toolchain the host brings.
	table, notes, _ := strings.Cut(out, "\n\n")
	lines := strings.Split(table, "\n")
	versions, sdk, _ := strings.Cut(notes, "\n\n")
	if sdk != "C# "+baseimage.HostSDK["C#"]+".\n" || !strings.HasPrefix(baseimage.HostSDK["C#"], "needs an SDK from the host: Debian has no .NET SDK") {
		t.Errorf("notes %q", sdk)
	}
	// Then which toolchain versions a task can have offline, a line per
	// language that has an image or a host SDK.
	vl := strings.Split(versions, "\n")
	if len(vl) != 11 || vl[0] != "Versions a task can have offline:" ||
		vl[1] != "  Go: any release the Go module proxy has (golang.org/toolchain, go1.2.2 on), from the base commit's go.mod (toolchain line, else go line) or the recipe's go:, downloaded on the host; go: system keeps the image's Go (Debian's 1.19.8 in the offline image)" ||
		vl[2] != "  Python: Python 3.11 only (Debian bookworm's python3 3.11.2, pip 23.0; the common image has no C compiler to build another Python); another needs a public image that has it (recipe image:) on a machine that reaches its registry" ||
		vl[10] != "  C#: the SDK a recipe brings from the host through files: (no offline image)" {
		t.Errorf("versions:\n%s", versions)
	}
	if code != 0 || errOut != "" || len(lines) != len(lang.Table)+1 || !strings.HasPrefix(lines[0], "LANGUAGE ") {
		t.Fatalf("code %d, stderr %q, %d lines:\n%s", code, errOut, len(lines), out)
	}
	if f := strings.Fields(lines[3]); strings.Join(f, " ") != "Java yes yes 8 junit yes jacoco per test 6 yes yes java java yes coinage" {
		t.Errorf("Java row %q", lines[3])
	}
	if f := strings.Fields(lines[7]); strings.Join(f, " ") != "C++ yes - 22 junit yes gcov per test 6 yes yes cfamily cpp - semkit" {
		t.Errorf("C++ row %q", lines[7])
	}
	if f := strings.Fields(lines[4]); strings.Join(f, " ") != "Rust yes yes 12 cargo,junit yes llvm-cov per test 6 yes yes rust rust yes verso" {
		t.Errorf("Rust row %q", lines[4])
	}
	if f := strings.Fields(lines[8]); strings.Join(f, " ") != "TypeScript yes yes 8 junit yes v8 per test 6 yes yes node typescript yes bumpkit" {
		t.Errorf("TypeScript row %q", lines[8])
	}
	out, _, code = runCLI(t, "lang", "list", "--json")
	var rows []langsupport.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != len(lang.Table) || rows[2].Language != "Java" || rows[2].BaseImage != "java" ||
		rows[6].Language != "C++" || !reflect.DeepEqual(rows[6].Gaps, langsupport.Gaps["C++"]) {
		t.Fatalf("--json: code %d, %v, %d rows", code, err, len(rows))
	}
	if out, _, code := runCLI(t, "lang", "doc"); code != 0 || out != langsupport.Markdown() {
		t.Fatalf("lang doc: code %d", code)
	}
	if _, errOut, code := runCLI(t, "lang", "list", "x"); code != exitBadInput || !strings.Contains(errOut, "unknown command") && !strings.Contains(errOut, "accepts 0 arg") {
		t.Fatalf("extra argument: code %d, %q", code, errOut)
	}
}
