package taxonomy

import (
	"strings"
	"testing"
)

func TestDefaultTable(t *testing.T) {
	tx := Default()
	want := []string{"requirement_understanding", "planning", "localization", "implementation", "verification", "error_recovery", "termination"}
	if strings.Join(tx.Phases, " ") != strings.Join(want, " ") {
		t.Fatalf("phases %v, want %v", tx.Phases, want)
	}
	if len(tx.Modes) != 24 || len(tx.ByDetection(Rule)) != 18 || len(tx.ByDetection(LLM)) != 6 {
		t.Fatalf("%d modes, %d rule, %d llm; want 24, 18, 6", len(tx.Modes), len(tx.ByDetection(Rule)), len(tx.ByDetection(LLM)))
	}
	// The semantic modes: four of requirement understanding and
	// two of planning.
	var llm []string
	for _, m := range tx.ByDetection(LLM) {
		llm = append(llm, m.Phase)
	}
	if got := strings.Join(llm, " "); got != "requirement_understanding requirement_understanding requirement_understanding requirement_understanding planning planning" {
		t.Fatalf("llm modes are in phases %s", got)
	}
	for _, name := range []string{"missed_relevant_file", "cross_module_context_missing", "no_test_after_final_edit", "retry_without_change", "hallucinated_path_unrecovered"} {
		if m, ok := tx.Lookup(name); !ok || m.Detection != Rule {
			t.Errorf("mode %s: %+v %v", name, m, ok)
		}
	}
	if tx.Index("missed_relevant_file") != 6 || tx.Index("nope") != -1 {
		t.Fatalf("index %d %d", tx.Index("missed_relevant_file"), tx.Index("nope"))
	}
}

func TestParseErrors(t *testing.T) {
	head := "phase\tmode\tdetection\tdoc\n"
	for _, c := range []struct{ name, src, want string }{
		{"header", "a\tb\n", "t.tsv:1: the header"},
		{"fields", head + "p\tm\trule\n", "t.tsv:2: 3 fields"},
		{"snake", head + "p\tBad-Mode\trule\td\n", `t.tsv:2: mode "Bad-Mode" is not snake_case`},
		{"detection", head + "p\tm\tmagic\td\n", `t.tsv:2: detection "magic"`},
		{"doc", head + "p\tm\trule\t \n", "t.tsv:2: mode m has no doc"},
		{"dup", head + "p\tm\trule\td\np\tm\tllm\td\n", "t.tsv:3: mode m is listed twice"},
		{"apart", head + "p\ta\trule\td\nq\tb\trule\td\np\tc\trule\td\n", "t.tsv:4: the rows of phase p are not together"},
		{"empty", head, "t.tsv: no modes"},
	} {
		_, err := Parse("t.tsv", c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
