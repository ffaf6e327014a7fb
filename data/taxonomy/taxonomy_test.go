package taxonomy

import (
	"strings"
	"testing"
)

// The embedded table is the paper's Table 10: its seven phases, its 24
// mode names in its order, 18 found by rules and 6 by the judge (the four
// of requirement understanding and the two of task planning).
func TestDefaultTable(t *testing.T) {
	tx := Default()
	phases := "requirement_understanding task_planning code_localization code_editing code_verification self_repair tool_use"
	if got := strings.Join(tx.Phases, " "); got != phases {
		t.Fatalf("phases %s, want %s", got, phases)
	}
	want := [][3]string{
		{"requirement_understanding", "misread_requirement", LLM},
		{"requirement_understanding", "missed_constraint", LLM},
		{"requirement_understanding", "incomplete_requirement_coverage", LLM},
		{"requirement_understanding", "scope_misjudged", LLM},
		{"task_planning", "flawed_plan", LLM},
		{"task_planning", "abandoned_plan", LLM},
		{"code_localization", "missed_relevant_file", Rule},
		{"code_localization", "wrong_file_localization", Rule},
		{"code_localization", "cross_module_context_missing", Rule},
		{"code_editing", "incorrect_patch", Rule},
		{"code_editing", "relevant_change_omitted", Rule},
		{"code_editing", "no_patch_produced", Rule},
		{"code_editing", "gave_up_early", Rule},
		{"code_verification", "no_validation_attempted", Rule},
		{"code_verification", "no_test_after_final_edit", Rule},
		{"code_verification", "authored_test_never_run", Rule},
		{"code_verification", "test_result_misinterpreted", Rule},
		{"self_repair", "repair_not_reverified", Rule},
		{"self_repair", "repeated_ineffective_attempt", Rule},
		{"self_repair", "retry_without_change", Rule},
		{"self_repair", "reverted_own_change", Rule},
		{"tool_use", "tool_failure_not_retried", Rule},
		{"tool_use", "repeated_patch_apply_failure", Rule},
		{"tool_use", "hallucinated_path_unrecovered", Rule},
	}
	if len(tx.Modes) != len(want) {
		t.Fatalf("%d modes, want %d", len(tx.Modes), len(want))
	}
	for i, m := range tx.Modes {
		if got := [3]string{m.Phase, m.Mode, m.Detection}; got != want[i] {
			t.Errorf("row %d: %v, want %v", i+1, got, want[i])
		}
	}
	if len(tx.ByDetection(Rule)) != 18 || len(tx.ByDetection(LLM)) != 6 {
		t.Fatalf("%d rule, %d llm; want 18, 6", len(tx.ByDetection(Rule)), len(tx.ByDetection(LLM)))
	}
	if tx.Index("missed_relevant_file") != 6 || tx.Index("nope") != -1 {
		t.Fatalf("index %d %d", tx.Index("missed_relevant_file"), tx.Index("nope"))
	}
	for _, p := range tx.Phases {
		if PhaseName(p) == p {
			t.Errorf("phase %s has no display name", p)
		}
	}
	if PhaseName("self_repair") != "Self-Repair" || PhaseName("other") != "other" {
		t.Errorf("names %q %q", PhaseName("self_repair"), PhaseName("other"))
	}
	var signals []string
	for _, s := range tx.Signals {
		signals = append(signals, s.Signal)
	}
	if got := strings.Join(signals, " "); got != "edit_before_exploration tests_modified budget_exhausted invalid_tool_call build_broken_at_end repeated_error_loop unverified_success_claim" {
		t.Errorf("signals %s", got)
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
	tx, err := Parse("t.tsv", head+"p\tm\trule\td\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, src, want string }{
		{"header", "name\tdoc\n", "s.tsv:1: the header must be signal, doc"},
		{"fields", "signal\tdoc\na\n", "s.tsv:2: 1 fields, want 2"},
		{"snake", "signal\tdoc\nA b\td\n", `s.tsv:2: signal "A b" is not snake_case`},
		{"doc", "signal\tdoc\na\t\n", "s.tsv:2: signal a has no doc"},
		{"dup", "signal\tdoc\na\td\na\td\n", "s.tsv:3: signal a is listed twice"},
		{"mode", "signal\tdoc\nm\td\n", "s.tsv:2: m is a failure mode, not a signal"},
	} {
		if err := tx.ParseSignals("s.tsv", c.src); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("signals %s: error %v, want %q", c.name, err, c.want)
		}
	}
}
