package diff

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseHunkHeader(t *testing.T) {
	tests := []struct {
		line    string
		want    Hunk
		wantErr bool
	}{
		{line: "@@ -1 +1 @@", want: Hunk{1, 1, 1, 1}},
		{line: "@@ -3,2 +4,0 @@ func A() {", want: Hunk{3, 2, 4, 0}},
		{line: "@@ -0,0 +1,3 @@", want: Hunk{0, 0, 1, 3}},
		{line: "@@ -7,0 +8 @@", want: Hunk{7, 0, 8, 1}},
		{line: "@@ -10,1 +10,1 @@ @@ x", want: Hunk{10, 1, 10, 1}},
		{line: "@@ -a +1 @@", wantErr: true},
		{line: "@@ -1,2 @@", wantErr: true},
		{line: "@@ -1 +1", wantErr: true},
		{line: "@@ -0,1 +1 @@", wantErr: true}, // a side with lines starts at 1
		{line: "@@ -1 +0 @@", wantErr: true},
		{line: "@@ --1 +1 @@", wantErr: true},
		{line: "@@ -+1 +1 @@", wantErr: true},
		{line: "@@ -1, +1 @@", wantErr: true},
		{line: "@@ -9999999999 +1 @@", wantErr: true},
		{line: "@@@ -1 +1 @@@", wantErr: true},
	}
	for _, tt := range tests {
		got, err := parseHunkHeader([]byte(tt.line))
		if (err != nil) != tt.wantErr || err == nil && got != tt.want {
			t.Errorf("%q: got %+v, %v", tt.line, got, err)
		}
	}
}

const (
	rawMod    = ":100644 100644 aaaa bbbb M\x00a.go\x00"
	rawRename = ":100644 100644 aaaa bbbb R090\x00old.go\x00new.go\x00"
)

func TestParseNumstat(t *testing.T) {
	tests := []struct {
		name, in string
		want     []File
		wantErr  string
	}{
		{name: "empty", in: "", want: nil},
		{name: "modified", in: rawMod + "2\t1\ta.go\x00",
			want: []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1}}},
		{name: "rename", in: rawRename + "0\t3\t\x00old.go\x00new.go\x00",
			want: []File{{OldPath: "old.go", NewPath: "new.go", Status: Renamed, Deleted: 3}}},
		{name: "binary", in: ":000000 100644 0000 bbbb A\x00b.png\x00-\t-\tb.png\x00",
			want: []File{{NewPath: "b.png", Status: Added, Binary: true}}},
		{name: "path with newline and tab", in: ":100644 000000 aaaa 0000 D\x00x\n\ty\x000\t4\tx\n\ty\x00",
			want: []File{{OldPath: "x\n\ty", Status: Deleted, Deleted: 4}}},
		{name: "truncated raw", in: ":100644 100644 aaaa bbbb M\x00a.g", wantErr: "unexpected end of git output"},
		{name: "no numstat", in: rawMod, wantErr: "unexpected end of git output"},
		{name: "numstat of another file", in: rawMod + "2\t1\tb.go\x00", wantErr: `git output: numstat record for "a.go" does not follow the raw records`},
		{name: "extra numstat", in: rawMod + "2\t1\ta.go\x001\t1\ta.go\x00", wantErr: "git output: more numstat records than files"},
		{name: "bad count", in: rawMod + "x\t1\ta.go\x00", wantErr: `git output: bad numstat record "x\t1\ta.go"`},
		{name: "negative count", in: rawMod + "-1\t1\ta.go\x00", wantErr: `git output: bad numstat record "-1\t1\ta.go"`},
		{name: "bad mode", in: ":10064x 100644 aaaa bbbb M\x00a.go\x00", wantErr: `git output: bad mode in ":10064x 100644 aaaa bbbb M"`},
		{name: "short raw", in: ":100644 M\x00a.go\x00", wantErr: `git output: bad raw record ":100644 M"`},
		{name: "copy", in: ":100644 100644 aaaa bbbb C100\x00a\x00b\x00", wantErr: `git output: unexpected status "C100" for "a"`},
		{name: "unmerged", in: ":100644 100644 aaaa bbbb U\x00a\x00", wantErr: `git output: unexpected status "U" for "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got, err := parseNumstat(strings.NewReader(tt.in))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, %v", got, err)
			}
		})
	}
}

func TestParsePatch(t *testing.T) {
	mod := func() []File {
		return []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1}}
	}
	header := "diff --git a/a.go b/a.go\nindex aaaa..bbbb 100644\n--- a/a.go\n+++ b/a.go\n"
	tests := []struct {
		name, in string
		want     []File
		wantErr  string
	}{
		{name: "two hunks", in: rawMod + "\x00" + header + "@@ -3 +3 @@ f\n-x\n+y\n@@ -9,0 +10 @@\n+z\n",
			want: []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1,
				OldLines: []int{3}, NewLines: []int{3, 10}, Hunks: []Hunk{{3, 1, 3, 1}, {9, 0, 10, 1}}}}},
		{name: "no newline markers", in: rawMod + "\x00" + header + "@@ -3 +3 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n",
			want: []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1,
				OldLines: []int{3}, NewLines: []int{3}, Hunks: []Hunk{{3, 1, 3, 1}}}}},
		{name: "content that looks like headers", in: rawMod + "\x00" + header + "@@ -1,2 +1,2 @@\n-diff --git a/x b/x\n--- a/a.go\n+@@ -1 +1 @@\n++++ b\n",
			want: []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1,
				OldLines: []int{1, 2}, NewLines: []int{1, 2}, Hunks: []Hunk{{1, 2, 1, 2}}}}},
		{name: "long content line", in: rawMod + "\x00" + header + "@@ -1 +1 @@\n-" + strings.Repeat("x", 200000) + "\n+y\n",
			want: []File{{OldPath: "a.go", NewPath: "a.go", Status: Modified, Inserted: 2, Deleted: 1,
				OldLines: []int{1}, NewLines: []int{1}, Hunks: []Hunk{{1, 1, 1, 1}}}}},
		{name: "other raw records", in: rawRename + "\x00", wantErr: `git output: file 1 differs between the -U0 and the --numstat run: "a.go"`},
		{name: "no separator", in: rawMod + "diff --git", wantErr: "git output: no separator before the patch: unexpected end of git output"},
		{name: "no sections", in: rawMod + "\x00", wantErr: "git output: 0 patch sections for 1 files: unexpected end of git output"},
		{name: "two sections", in: rawMod + "\x00" + header + header, wantErr: "git output: more patch sections than files (1)"},
		{name: "garbage first", in: rawMod + "\x00hello\n", wantErr: `git output: patch does not start with a diff --git line: "hello"`},
		{name: "short hunk", in: rawMod + "\x00" + header + "@@ -3 +3,2 @@\n-x\n+y\n", wantErr: `git output for "a.go": unexpected end of git output`},
		{name: "plus before minus", in: rawMod + "\x00" + header + "@@ -3 +3 @@\n+y\n-x\n", wantErr: `git output for "a.go": hunk -3,1 +3,1: unexpected line "+y"`},
		{name: "context line", in: rawMod + "\x00" + header + "@@ -3 +3 @@\n x\n", wantErr: `git output for "a.go": hunk -3,1 +3,1: unexpected line " x"`},
		{name: "hunks out of order", in: rawMod + "\x00" + header + "@@ -9,0 +10 @@\n+z\n@@ -3 +3 @@\n-x\n+y\n", wantErr: `git output for "a.go": hunk "@@ -3 +3 @@" out of order`},
		{name: "bad hunk header", in: rawMod + "\x00" + header + "@@ -3 +x @@\n", wantErr: `git output for "a.go": bad hunk header "@@ -3 +x @@"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raws, files, err := parseNumstat(strings.NewReader(rawMod + "2\t1\ta.go\x00"))
			if err != nil || !reflect.DeepEqual(files, mod()) {
				t.Fatalf("numstat: %+v, %v", files, err)
			}
			err = parsePatch(strings.NewReader(tt.in), raws, files)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(files, tt.want) {
				t.Fatalf("got %+v, %v", files, err)
			}
		})
	}
}

// FuzzParse feeds hostile git output to both parsers: errors are fine,
// panics and hangs are not.
func FuzzParse(f *testing.F) {
	f.Add([]byte(rawMod+"2\t1\ta.go\x00"), []byte(rawMod+"\x00diff --git a/a.go b/a.go\n@@ -3 +3 @@\n-x\n+y\n@@ -9,0 +10 @@\n+z\n"))
	f.Add([]byte(rawRename+"0\t0\t\x00old.go\x00new.go\x00"), []byte(rawRename+"\x00diff --git a/old.go b/new.go\nsimilarity index 100%\n"))
	f.Add([]byte(":120000 100644 aaaa bbbb T\x00l\x001\t1\tl\x00"), []byte(":120000 100644 aaaa bbbb T\x00l\x00\x00diff --git a/l b/l\n@@ -1 +0,0 @@\n-x\ndiff --git a/l b/l\n@@ -0,0 +1 @@\n+y\n"))
	f.Fuzz(func(t *testing.T, numstat, patch []byte) {
		raws, files, err := parseNumstat(strings.NewReader(string(numstat)))
		if err != nil {
			return
		}
		if err := parsePatch(strings.NewReader(string(patch)), raws, files); err != nil {
			return
		}
		for i, f := range files {
			if raws[i].split() {
				continue
			}
			for k := 1; k < len(f.OldLines); k++ {
				if f.OldLines[k] <= f.OldLines[k-1] {
					t.Fatalf("old lines not ascending: %v", f.OldLines)
				}
			}
			for k := 1; k < len(f.NewLines); k++ {
				if f.NewLines[k] <= f.NewLines[k-1] {
					t.Fatalf("new lines not ascending: %v", f.NewLines)
				}
			}
		}
	})
}
