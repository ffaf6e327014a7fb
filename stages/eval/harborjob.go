package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Harbor job folder (harborframework.com, "Run Jobs"; the layout of
// harbor's TrialPaths) holds one folder per trial:
//
//	<job>/config.json, result.json     the job's
//	<job>/<trial>/result.json           the trial's TrialResult: task_name, trial_name,
//	                                    agent_info (name, version, model_info), agent_result
//	                                    (n_input_tokens, n_cache_tokens, n_output_tokens, cost_usd),
//	                                    verifier_result.rewards, exception_info, timings
//	<job>/<trial>/agent/trajectory.json the agent's ATIF trajectory
//	<job>/<trial>/verifier/             /logs/verifier: reward.txt, reward.json and, for
//	                                    lolbench tasks, grade.json and run-1/ (the raw run)
//	<job>/<trial>/artifacts/            what was collected from the sandbox
//
// A trial is a folder whose result.json has a trial_name. --jobs takes job
// folders, trial folders, or folders of job folders (two levels at most).

// trialResult is the part of Harbor's TrialResult read here. Unknown
// fields are ignored: Harbor adds fields across versions.
type trialResult struct {
	TaskName  string `json:"task_name"`
	TrialName string `json:"trial_name"`
	AgentInfo *struct {
		Name      string `json:"name"`
		Version   string `json:"version"`
		ModelInfo *struct {
			Name     string `json:"name"`
			Provider string `json:"provider"`
		} `json:"model_info"`
	} `json:"agent_info"`
	AgentResult *struct {
		NInputTokens  *int64   `json:"n_input_tokens"`
		NCacheTokens  *int64   `json:"n_cache_tokens"`
		NOutputTokens *int64   `json:"n_output_tokens"`
		CostUSD       *float64 `json:"cost_usd"`
	} `json:"agent_result"`
	VerifierResult *struct {
		Rewards map[string]json.RawMessage `json:"rewards"`
	} `json:"verifier_result"`
	ExceptionInfo *struct {
		ExceptionType    string `json:"exception_type"`
		ExceptionMessage string `json:"exception_message"`
	} `json:"exception_info"`
	StartedAt      string  `json:"started_at"`
	AgentExecution *timing `json:"agent_execution"`
	Config         *struct {
		Agent *struct {
			Name      string `json:"name"`
			ModelName string `json:"model_name"`
		} `json:"agent"`
	} `json:"config"`
}

type timing struct {
	StartedAt  string `json:"started_at"`
	FinishedAt string `json:"finished_at"`
}

// maxResultJSON caps a trial's result.json; real ones are kilobytes.
const maxResultJSON = 16 << 20

// Trial is one Harbor trial found under --jobs.
type Trial struct {
	Dir    string
	Result trialResult
}

// readTrial reads dir/result.json; ok is false when there is none or it
// is not a trial's (no trial_name), err when it cannot be read or parsed.
func readTrial(dir string) (t *Trial, ok bool, err error) {
	path := filepath.Join(dir, "result.json")
	data, err := folderFS{dir}.read("result.json", maxResultJSON)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	if _, has := probe["trial_name"]; !has {
		return nil, false, nil
	}
	t = &Trial{Dir: dir}
	if err := json.Unmarshal(data, &t.Result); err != nil {
		return nil, false, fmt.Errorf("%s: not a Harbor trial result: %w", path, err)
	}
	r := &t.Result
	if r.TaskName == "" || r.TrialName == "" {
		return nil, false, fmt.Errorf("%s: a trial result needs task_name and trial_name", path)
	}
	if _, _, err := t.rewardOf(); err != nil {
		return nil, false, err
	}
	if ar := r.AgentResult; ar != nil {
		for _, n := range []*int64{ar.NInputTokens, ar.NCacheTokens, ar.NOutputTokens} {
			if n != nil && *n < 0 {
				return nil, false, fmt.Errorf("%s: agent_result has a negative token count", path)
			}
		}
		if ar.CostUSD != nil && !(*ar.CostUSD >= 0 && *ar.CostUSD < 1e9) {
			return nil, false, fmt.Errorf("%s: agent_result cost_usd %v is not a plausible cost", path, *ar.CostUSD)
		}
	}
	return t, true, nil
}

// rewardOf reads verifier_result.rewards.reward: a JSON number from 0 to
// 1 (a string, even "1", is refused); ok is false when there is none.
func (t *Trial) rewardOf() (reward float64, ok bool, err error) {
	vr := t.Result.VerifierResult
	if vr == nil {
		return 0, false, nil
	}
	raw, has := vr.Rewards["reward"]
	if !has {
		return 0, false, nil
	}
	name := filepath.Join(t.Dir, "result.json")
	if err := json.Unmarshal(raw, &reward); err != nil {
		return 0, false, fmt.Errorf("%s: verifier_result.rewards.reward is %s, not a number", name, jsonKind(raw))
	}
	if reward < 0 || reward > 1 {
		return 0, false, fmt.Errorf("%s: verifier_result.rewards.reward is %v, not between 0 and 1", name, reward)
	}
	return reward, true, nil
}

// jsonKind names the type of a JSON value for messages.
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '"':
		return "a string (" + firstLine(string(raw)) + ")"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// FindTrials lists the trials below each of dirs, sorted by folder.
func FindTrials(dirs []string) ([]*Trial, error) {
	var out []*Trial
	seen := map[string]bool{}
	var walk func(dir string, depth int) (int, error)
	walk = func(dir string, depth int) (int, error) {
		t, ok, err := readTrial(dir)
		if err != nil {
			return 0, err
		}
		if ok {
			if abs, _ := filepath.Abs(dir); !seen[abs] {
				seen[abs] = true
				out = append(out, t)
			}
			return 1, nil
		}
		if depth == 2 {
			return 0, nil
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return 0, fmt.Errorf("jobs: %w", err)
		}
		n := 0
		for _, e := range entries {
			if !e.IsDir() || e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			k, err := walk(filepath.Join(dir, e.Name()), depth+1)
			if err != nil {
				return 0, err
			}
			n += k
		}
		return n, nil
	}
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil {
			return nil, fmt.Errorf("jobs: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("jobs: %s is not a folder (a Harbor job folder holds one folder per trial)", d)
		}
		n, err := walk(d, 0)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("jobs: %s holds no Harbor trial (no <trial>/result.json with a trial_name)", d)
		}
	}
	slices.SortFunc(out, func(a, b *Trial) int { return strings.Compare(a.Dir, b.Dir) })
	return out, nil
}

// scaffoldModel names a trial's agent: agent_info's name and its model,
// else the trial configuration's.
func (t *Trial) scaffoldModel() (scaffold, model string) {
	r := &t.Result
	if r.AgentInfo != nil {
		scaffold = r.AgentInfo.Name
		if r.AgentInfo.ModelInfo != nil {
			model = r.AgentInfo.ModelInfo.Name
		}
	}
	if r.Config != nil && r.Config.Agent != nil {
		if scaffold == "" {
			scaffold = r.Config.Agent.Name
		}
		if model == "" {
			model = r.Config.Agent.ModelName
		}
	}
	return scaffold, model
}

// parseTime reads Harbor's timestamps: ISO 8601, with or without a zone
// (Python's isoformat of a naive datetime has none; it is read as UTC).
func parseTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// endReason maps a trial's exception to how the run ended: Harbor's
// AgentTimeoutError is a time limit; names that mention the context
// window, steps or turns, tokens, cost or budget are those limits; any
// other exception is a crash.
func endReason(excType, msg string) string {
	s := strings.ToLower(excType + " " + msg)
	switch {
	case excType == "":
		return ""
	case strings.Contains(s, "context"):
		return "context_overflow"
	case strings.Contains(s, "timeout") || strings.Contains(s, "timed out"):
		return "timeout"
	case strings.Contains(s, "step") || strings.Contains(s, "turn") || strings.Contains(s, "iteration"):
		return "step_limit"
	case strings.Contains(s, "cost") || strings.Contains(s, "budget"):
		return "cost_limit"
	case strings.Contains(s, "token"):
		return "token_limit"
	}
	return "error"
}

// solutionOf finds what the agent produced in a trial: a patch in
// artifacts/ (one *.patch or *.diff file, or, among several, the one
// named solution, model, agent or diff), else the final repository
// state in artifacts/testbed/. kind is "patch" or "tree" with the path in
// the trial, or "" with a note on why there is none to read.
func solutionOf(fsys folderFS) (kind, rel, note string, err error) {
	const none = "no solution in the trial (artifacts/*.patch or artifacts/testbed/): no localization of the modified view"
	entries, err := fsys.readDir("artifacts")
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", none, nil
	}
	if err != nil {
		return "", "", "", err
	}
	var patches []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".patch") || strings.HasSuffix(n, ".diff") {
			if !e.Type().IsRegular() {
				return "", "", "", fmt.Errorf("%s: %s", fsys.full("artifacts/"+n), what(e.Type()))
			}
			patches = append(patches, n)
		}
	}
	switch {
	case len(patches) == 1:
		return "patch", "artifacts/" + patches[0], "", nil
	case len(patches) > 1:
		for _, want := range []string{"solution", "model", "agent", "diff"} {
			for _, p := range patches {
				if strings.TrimSuffix(strings.TrimSuffix(p, ".patch"), ".diff") == want {
					return "patch", "artifacts/" + p, "", nil
				}
			}
		}
		return "", "", fmt.Sprintf("solution: %s: several patches (%s) and none named solution.patch", fsys.full("artifacts"), strings.Join(patches, ", ")), nil
	}
	fi, err := fsys.lstat("artifacts/testbed")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", "", none, nil
	case err != nil:
		return "", "", "", err
	case !fi.IsDir():
		return "", "", "", fmt.Errorf("%s: %s", fsys.full("artifacts/testbed"), what(fi.Mode()))
	}
	return "tree", "artifacts/testbed", "", nil
}

// trajectoryOf finds a trial's trajectory, in its agent/ folder:
// trajectory.json (ATIF) or events.jsonl (lolbench's events); "" when
// there is none.
func trajectoryOf(fsys folderFS) (string, error) {
	for _, n := range []string{"trajectory.json", "events.jsonl"} {
		_, err := fsys.lstat("agent/" + n)
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return "", nil
}

// firstLine is s up to its first newline, trimmed.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return string(bytes.ToValidUTF8([]byte(s), nil))
}
