package prompts

// The judge of `lolbench analyze` (issue 15, "6 semantic modes"): it reads
// the task and the agent's process, and says which of the taxonomy's
// judged failure modes the process shows, citing steps. Its data holds
// nothing of the outcome: no reference solution, no test results of the
// verifier, no reward (stages/eval builds it and its tests check it).
const AnalyzeJudgePrompt = "analyze-judge"

// AnalyzeJudge is what the judge's template reads.
type AnalyzeJudge struct {
	// Modes are the judged modes (data/taxonomy's "llm" rows).
	Modes []AnalyzeMode
	// Instruction is the task's instruction, cut at a budget
	// (InstructionNote says so when cut).
	Instruction     string
	InstructionNote string
	// Steps are the session's steps shown, in order; Omitted says which
	// were left out for length ("" when none).
	Steps   []AnalyzeStep
	Omitted string
}

// AnalyzeMode is one judged mode.
type AnalyzeMode struct {
	Mode, Phase, Doc string
}

// AnalyzeStep is one step of the session, rendered as text.
type AnalyzeStep struct {
	N    int
	Text string
}

var analyzeFiles = []string{"analyze-judge.tmpl"}

// RenderAnalyzeJudge renders the judge's prompt.
func RenderAnalyzeJudge(d *AnalyzeJudge) (Prompt, error) {
	t, err := parseFiles(AnalyzeJudgePrompt, analyzeFiles)
	if err != nil {
		return Prompt{}, err
	}
	return execute(t, AnalyzeJudgePrompt, "system", "user", d)
}

// AnalyzeJudgeDigest is the SHA-256 of the judge's template.
func AnalyzeJudgeDigest() (string, error) { return digestFiles(analyzeFiles) }
