package langsupport

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestProblems shows that the completeness check fails in each way it
// should, with messages that name the file to edit.
func TestProblems(t *testing.T) {
	all := pieceNames()
	half := []string{Tests, Syntax, Members, Results, TestAudit, Canary, Image, Fence, Augment, Sample}
	pieces := map[string][]string{"Full": all, "Half": half}
	has := func(l, p string) bool { return slices.Contains(pieces[l], p) }
	why := "not yet"
	tests := []struct {
		name      string
		languages []string
		gaps      map[string][]Gap
		want      []string
	}{
		{"exact", []string{"Full", "Half"}, map[string][]Gap{"Half": {{Coverage, why}, {Mutation, why}}}, nil},
		{"undeclared gap", []string{"Full", "Half"}, map[string][]Gap{"Half": {{Mutation, why}}}, []string{
			"Half has no coverage piece: add statement rules in pipeline/coverage/executable.go and an adapter in pipeline/coverage (AdapterFor, pipeline/coverage/measure.go), or declare the gap and why in Gaps (pipeline/langsupport/gaps.go)"}},
		{"filled gap", []string{"Full", "Half"}, map[string][]Gap{"Half": {{Coverage, why}, {Mutation, why}}, "Full": {{Syntax, why}}}, []string{
			`Full has its syntax piece now: remove it from Gaps["Full"] (pipeline/langsupport/gaps.go)`}},
		{"bad declarations", []string{"Full", "Half", "Half"}, map[string][]Gap{"Half": {{Coverage, why}, {Mutation, ""}, {Mutation, why}, {"docs", why}}, "Cobol": {}}, []string{
			`Half is in the language table twice`,
			`Gaps names "Cobol", which is not in the language table (pipeline/lang/table.go)`,
			`Gaps["Half"] declares "mutation" without saying why (pipeline/langsupport/gaps.go)`,
			`Gaps["Half"] lists "mutation" twice`,
			`Gaps["Half"] names "docs", not a piece (tests, syntax, members, results, coverage, mutation, test-audit, canary, image, fence, augment, sample)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Problems(tt.languages, has, tt.gaps)
			want := append([]string(nil), tt.want...)
			sort.Strings(want)
			if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestAugmentGapMessage: a language without NewTest fails the check with
// the file to edit named.
func TestAugmentGapMessage(t *testing.T) {
	has := func(l, p string) bool { return p != Augment }
	got := Problems([]string{"Go"}, has, map[string][]Gap{})
	want := []string{"Go has no augment piece: add NewTest in its entry of pipeline/lang/table.go, or declare the gap and why in Gaps (pipeline/langsupport/gaps.go)"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
