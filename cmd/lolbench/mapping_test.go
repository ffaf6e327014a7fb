package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const tinyMapping = `# Mapping: tiny

## Section Classification Summary

| # | Section | Title | Implementable | Category | Mapped |
|---|---------|-------|---------------|----------|--------|
| 1 | 1 | Motivation | yes | implementation | yes |

## PR File Summary

| # | File | Category | Role | Direct sections | Associated sections |
|---|------|----------|------|-----------------|---------------------|
| 1 | ` + "`a.go`" + ` | source | direct | 1 | - |

## Mapped Sections

### 1. Section 1: Motivation

> Make it so.

**Requirement:** Make it so.

**Files:** 1 direct (100.0%), 0 associated (0.0%), 1 accounted (100.0%) of 1 PR files

#### Direct modifications

| File | Class | Function |
|------|-------|----------|
| ` + "`a.go`" + ` | - | ` + "`run`" + ` |

#### Associated changes

None.

#### Modification summary

- ` + "`a.go`" + `: Adds run.

## Unmapped Implementable Sections

None.

## Unmapped PR Files

None.

## Global Statistics

| Metric | Value |
|--------|-------|
| PR files | 1 |
`

const tinyJSON = `{
  "title": "tiny",
  "title_line": 1,
  "part_lines": {
    "Global Statistics": 47,
    "Mapped Sections": 15,
    "PR File Summary": 9,
    "Section Classification Summary": 3,
    "Unmapped Implementable Sections": 39,
    "Unmapped PR Files": 43
  },
  "section_classification_summary": {
    "line": 5,
    "columns": [
      "#",
      "Section",
      "Title",
      "Implementable",
      "Category",
      "Mapped"
    ],
    "rows": [
      {
        "line": 7,
        "index": "1",
        "section": "1",
        "title": "Motivation",
        "implementable": "yes",
        "category": "implementation",
        "mapped": "yes"
      }
    ]
  },
  "pr_file_summary": {
    "line": 11,
    "columns": [
      "#",
      "File",
      "Category",
      "Role",
      "Direct sections",
      "Associated sections"
    ],
    "rows": [
      {
        "line": 13,
        "index": "1",
        "path": "a.go",
        "category": "source",
        "role": "direct",
        "direct_sections": "1",
        "associated_sections": "-"
      }
    ]
  },
  "mapped_sections": [
    {
      "line": 17,
      "number": 1,
      "section": "1",
      "title": "Motivation",
      "quote": {
        "line": 19,
        "raw": "> Make it so.",
        "text": "Make it so."
      },
      "requirement": {
        "line": 21,
        "text": "Make it so."
      },
      "counts": {
        "line": 23,
        "direct": 1,
        "direct_percent": "100.0%",
        "associated": 0,
        "associated_percent": "0.0%",
        "accounted": 1,
        "accounted_percent": "100.0%",
        "pr_files": 1
      },
      "direct": {
        "line": 27,
        "columns": [
          "File",
          "Class",
          "Function"
        ],
        "rows": [
          {
            "line": 29,
            "path": "a.go",
            "class": "-",
            "function": "run"
          }
        ]
      },
      "associated": {
        "line": 33,
        "none": true,
        "rows": []
      },
      "summary": {
        "line": 37,
        "items": [
          {
            "line": 37,
            "path": "a.go",
            "text": "Adds run."
          }
        ]
      }
    }
  ],
  "unmapped_implementable_sections": {
    "line": 41,
    "none": true,
    "rows": []
  },
  "unmapped_pr_files": {
    "line": 45,
    "none": true,
    "rows": []
  },
  "global_statistics": {
    "line": 49,
    "columns": [
      "Metric",
      "Value"
    ],
    "rows": [
      {
        "line": 51,
        "metric": "PR files",
        "value": "1"
      }
    ]
  }
}
`

func writeMapping(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mapping.md")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMappingShowArgs: argv to options, with the run stubbed out.
func TestMappingShowArgs(t *testing.T) {
	tests := []struct {
		args    []string
		want    MappingShowOptions
		wantErr string
	}{
		{args: []string{"m.md"}, want: MappingShowOptions{File: "m.md"}},
		{args: []string{"m.md", "--json"}, want: MappingShowOptions{File: "m.md", JSON: true}},
		{args: []string{}, wantErr: "accepts 1 arg(s), received 0"},
		{args: []string{"a.md", "b.md"}, wantErr: "accepts 1 arg(s), received 2"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var got *MappingShowOptions
			f := &Factory{IO: &IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
			cmd := newCmdMappingShow(f, func(o *MappingShowOptions) error { got = o; return nil })
			cmd.SetArgs(tt.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options %+v, want %+v", *got, tt.want)
			}
		})
	}
}

func TestMappingShow(t *testing.T) {
	good := writeMapping(t, tinyMapping)
	broken := writeMapping(t, strings.NewReplacer(
		"| direct | 1 | - |", "| direct | 1 |",
		"#### Associated changes\n\nNone.\n\n", "",
	).Replace(tinyMapping))

	tests := []struct {
		name       string
		args       []string
		code       int
		out, inErr string
	}{
		{
			name: "summary",
			args: []string{"mapping", "show", good},
			out: "mapping tiny (" + good + ")\n" +
				"sections  1 classified: 1 implementable, 1 mapped; 0 in \"Unmapped Implementable Sections\"\n" +
				"PR files  1 classified: 1 direct, 0 associated, 0 unmapped; 0 in \"Unmapped PR Files\"\n" +
				"blocks    1\n" +
				"  1.  section 1  Motivation  1 direct, 0 associated, 1 accounted of 1 PR files  line 17\n",
		},
		{name: "json", args: []string{"mapping", "show", good, "--json"}, out: tinyJSON},
		{
			name: "parse errors",
			args: []string{"mapping", "show", broken},
			code: exitBadInput,
			inErr: broken + ":13: part \"## PR File Summary\": row has 5 cells, the header has 6\n" +
				broken + ":17: block 1: missing \"#### Associated changes\"\n" +
				"lolbench: " + broken + ": 2 parse errors; the format is specified in docs/mapping-format.md\n",
		},
		{
			name:  "missing file",
			args:  []string{"mapping", "show", filepath.Join(t.TempDir(), "absent.md")},
			code:  exitBadInput,
			inErr: "lolbench: read mapping ",
		},
		{
			name:  "no file argument",
			args:  []string{"mapping", "show"},
			code:  exitBadInput,
			inErr: "lolbench: accepts 1 arg(s), received 0\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if out != tt.out {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, tt.out)
			}
			if tt.name == "missing file" {
				if !strings.HasPrefix(errOut, tt.inErr) {
					t.Errorf("stderr %q, want prefix %q", errOut, tt.inErr)
				}
			} else if errOut != tt.inErr {
				t.Errorf("stderr:\n%s\nwant:\n%s", errOut, tt.inErr)
			}
		})
	}
}

func TestMappingHelpHasExample(t *testing.T) {
	out, _, code := runCLI(t, "mapping", "show", "--help")
	if code != 0 || !strings.Contains(out, "lolbench mapping show mapping.md --json") {
		t.Errorf("help: code %d, out %q", code, out)
	}
}
