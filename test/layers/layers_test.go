// Package layers checks the layering of the module's packages (issue 34):
// dependencies point one way between folders, at every depth.
package layers

import (
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/lolbench/lolbench"

// TestFoldersImportOneWay: for any two sibling folders, the packages under
// one may import packages under the other, or the reverse, never both. A
// package imports the folder holding it freely (a parent's shared types).
// pipeline/recipe importing pipeline/sandbox/baseimage while
// pipeline/sandbox imported pipeline/recipe was such a cycle.
func TestFoldersImportOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := rel(f[0])
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, module+"/") {
				imports[pkg] = append(imports[pkg], rel(imp))
			}
		}
	}
	if len(imports) < 20 {
		t.Fatalf("only %d packages import others: go list output %q", len(imports), out)
	}
	for _, c := range folderCycles(imports) {
		t.Error(c)
	}
}

func rel(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "/") }

// siblings returns the two folders under the common parent of a and b
// that hold them, or ok false when one holds the other.
func siblings(a, b string) (sa, sb string, ok bool) {
	pa, pb := strings.Split(a, "/"), strings.Split(b, "/")
	i := 0
	for i < len(pa) && i < len(pb) && pa[i] == pb[i] {
		i++
	}
	if i == len(pa) || i == len(pb) {
		return "", "", false
	}
	return path.Join(pa[:i+1]...), path.Join(pb[:i+1]...), true
}

// folderCycles names every pair of sibling folders that import each other,
// with one import each way as the evidence.
func folderCycles(imports map[string][]string) []string {
	edge := map[[2]string]string{} // sibling pair -> an import that makes it
	for pkg, imps := range imports {
		for _, imp := range imps {
			if sa, sb, ok := siblings(pkg, imp); ok {
				if _, seen := edge[[2]string{sa, sb}]; !seen {
					edge[[2]string{sa, sb}] = pkg + " imports " + imp
				}
			}
		}
	}
	var out []string
	for k, why := range edge {
		if k[0] < k[1] {
			if back, ok := edge[[2]string{k[1], k[0]}]; ok {
				out = append(out, k[0]+" and "+k[1]+" import each other: "+why+"; "+back)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestFolderCyclesFound: the check finds the cycle the issue named, and
// passes a parent that imports its child.
func TestFolderCyclesFound(t *testing.T) {
	got := folderCycles(map[string][]string{
		"pipeline/recipe":   {"pipeline/sandbox/baseimage", "pipeline/lang"},
		"pipeline/sandbox":  {"pipeline/recipe", "pipeline/sandbox/grade"},
		"pipeline":          {"pipeline/workspace"},
		"pipeline/coverage": {"pipeline"},
	})
	want := []string{"pipeline/recipe and pipeline/sandbox import each other: pipeline/recipe imports pipeline/sandbox/baseimage; pipeline/sandbox imports pipeline/recipe"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
