package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/lang"
	"github.com/lolbench/lolbench/pipeline/lang/support"
)

// TestLang: lang list prints one row per language of the table, as text
// and JSON; lang doc prints docs/languages.md's text.
func TestLang(t *testing.T) {
	out, errOut, code := runCLI(t, "lang", "list")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || errOut != "" || len(lines) != len(lang.Table)+1 || !strings.HasPrefix(lines[0], "LANGUAGE ") {
		t.Fatalf("code %d, stderr %q, %d lines:\n%s", code, errOut, len(lines), out)
	}
	if f := strings.Fields(lines[3]); strings.Join(f, " ") != "Java yes 8 junit yes jacoco per test 6 yes yes java coinage" {
		t.Errorf("Java row %q", lines[3])
	}
	out, _, code = runCLI(t, "lang", "list", "--json")
	var rows []support.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != len(lang.Table) || rows[2].Language != "Java" || rows[2].BaseImage != "java" {
		t.Fatalf("--json: code %d, %v, %d rows", code, err, len(rows))
	}
	if out, _, code := runCLI(t, "lang", "doc"); code != 0 || out != support.Markdown() {
		t.Fatalf("lang doc: code %d", code)
	}
	if _, errOut, code := runCLI(t, "lang", "list", "x"); code != exitBadInput || !strings.Contains(errOut, "unknown command") && !strings.Contains(errOut, "accepts 0 arg") {
		t.Fatalf("extra argument: code %d, %q", code, errOut)
	}
}
