package trajectory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Info describes a trajectory as a whole.
type Info struct {
	Format        string `json:"format"`
	SchemaVersion string `json:"schema_version,omitempty"`
	SessionID     string `json:"session_id,omitempty"`
	AgentName     string `json:"agent_name,omitempty"`
	AgentVersion  string `json:"agent_version,omitempty"`
	Model         string `json:"model,omitempty"`
	Steps         int    `json:"steps"`
	// Final holds ATIF's final_metrics, when present.
	Final *FinalMetrics `json:"final_metrics,omitempty"`
	// Continued is continued_trajectory_ref: the file that continues the
	// run after context management split it (ATIF v1.5).
	Continued string `json:"continued_trajectory_ref,omitempty"`
	// Subagents are the subagent trajectories the steps' observations
	// refer to (subagent_trajectory_ref), in order, at most MaxSubagents.
	Subagents []SubagentRef `json:"subagents,omitempty"`
	// Embedded totals the tokens and cost of the subagent trajectories
	// the file embeds (ATIF v1.7's subagent_trajectories).
	Embedded Totals `json:"embedded"`
	// LastStep is the number of the last step read, offset included;
	// Copied counts the steps skipped as copied context (ATIF v1.7's
	// is_copied_context: a continuation repeats them).
	LastStep int `json:"last_step"`
	Copied   int `json:"copied,omitempty"`
}

// SubagentRef names a subagent's trajectory: a file (trajectory_path), or
// an embedded trajectory (trajectory_id; v1.7).
type SubagentRef struct {
	Path         string `json:"trajectory_path,omitempty"`
	TrajectoryID string `json:"trajectory_id,omitempty"`
	SessionID    string `json:"session_id,omitempty"`
}

// MaxSubagents bounds the subagent references kept of one file.
const MaxSubagents = 1000

// FinalMetrics are ATIF's trajectory totals. PromptTokens includes the
// cached tokens (ATIF v1.2).
type FinalMetrics struct {
	PromptTokens     *int64   `json:"total_prompt_tokens,omitempty"`
	CompletionTokens *int64   `json:"total_completion_tokens,omitempty"`
	CachedTokens     *int64   `json:"total_cached_tokens,omitempty"`
	CostUSD          *float64 `json:"total_cost_usd,omitempty"`
	Steps            *int     `json:"total_steps,omitempty"`
}

// The ATIF shapes read (RFC 0001, v1.0 to v1.7; unknown fields are
// ignored, as ATIF's extra fields and later versions add them).
type atifAgent struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	ModelName string `json:"model_name"`
}

type atifStep struct {
	StepID           json.Number      `json:"step_id"`
	Timestamp        string           `json:"timestamp"`
	Source           string           `json:"source"`
	ModelName        string           `json:"model_name"`
	Message          json.RawMessage  `json:"message"`
	ReasoningContent json.RawMessage  `json:"reasoning_content"`
	ToolCalls        []atifToolCall   `json:"tool_calls"`
	Observation      *atifObservation `json:"observation"`
	Metrics          *atifMetrics     `json:"metrics"`
	LLMCallCount     *int             `json:"llm_call_count"`
	IsCopiedContext  *bool            `json:"is_copied_context"`
}

type atifToolCall struct {
	ID           string          `json:"tool_call_id"`
	FunctionName string          `json:"function_name"`
	Arguments    json.RawMessage `json:"arguments"`
}

type atifObservation struct {
	Results []atifResult `json:"results"`
}

type atifResult struct {
	SourceCallID *string         `json:"source_call_id"`
	Content      json.RawMessage `json:"content"`
	Subagents    json.RawMessage `json:"subagent_trajectory_ref"`
}

// subagentRefs reads subagent_trajectory_ref: a list of references, or
// one.
func subagentRefs(raw json.RawMessage) ([]SubagentRef, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []SubagentRef
	if raw[0] == '{' {
		var one SubagentRef
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, fmt.Errorf("subagent_trajectory_ref: %w", err)
		}
		return []SubagentRef{one}, nil
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("subagent_trajectory_ref: %w", err)
	}
	return list, nil
}

// embeddedTrajectory is the part of an embedded subagent trajectory read
// for its totals.
type embeddedTrajectory struct {
	Final *FinalMetrics `json:"final_metrics"`
	Steps []struct {
		Source          string       `json:"source"`
		Metrics         *atifMetrics `json:"metrics"`
		IsCopiedContext *bool        `json:"is_copied_context"`
	} `json:"steps"`
}

type atifMetrics struct {
	PromptTokens     *int64   `json:"prompt_tokens"`
	CompletionTokens *int64   `json:"completion_tokens"`
	CachedTokens     *int64   `json:"cached_tokens"`
	CostUSD          *float64 `json:"cost_usd"`
}

// ReadATIF reads an ATIF trajectory (a JSON object whose steps array is
// streamed one step at a time) and passes its normalized events to emit:
// per step, its message; per tool call, the call, its result (matched by
// source_call_id) and what the call did, as edit and test_run events
// (classify.go). Events are numbered offset + step_id, so that the files of
// one run (a continuation) number their steps on. Steps marked as copied
// context are skipped. name is the file's name for errors. It returns the
// trajectory's Info.
func ReadATIF(r io.Reader, name string, offset int, emit func(*Event) error) (*Info, error) {
	info := &Info{Format: FormatATIF, LastStep: offset}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	fail := func(format string, args ...any) (*Info, error) {
		return nil, fmt.Errorf("%s: "+format, append([]any{name}, args...)...)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fail("not an ATIF trajectory: want a JSON object")
	}
	sawSteps := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return fail("%v", err)
		}
		key, _ := t.(string)
		switch key {
		case "schema_version":
			if err := dec.Decode(&info.SchemaVersion); err != nil {
				return fail("schema_version: %v", err)
			}
		case "session_id":
			if err := dec.Decode(&info.SessionID); err != nil {
				return fail("session_id: %v", err)
			}
		case "agent":
			var a atifAgent
			if err := dec.Decode(&a); err != nil {
				return fail("agent: %v", err)
			}
			info.AgentName, info.AgentVersion, info.Model = a.Name, a.Version, a.ModelName
		case "final_metrics":
			var fm FinalMetrics
			if err := dec.Decode(&fm); err != nil {
				return fail("final_metrics: %v", err)
			}
			if err := fm.check(); err != nil {
				return fail("final_metrics: %v", err)
			}
			info.Final = &fm
		case "continued_trajectory_ref":
			if err := dec.Decode(&info.Continued); err != nil {
				return fail("continued_trajectory_ref: %v", err)
			}
		case "subagent_trajectories":
			if t, err := dec.Token(); err != nil || (t != json.Delim('[') && t != nil) {
				return fail("subagent_trajectories: want an array")
			} else if t == nil {
				continue
			}
			for n := 1; dec.More(); n++ {
				var et embeddedTrajectory
				if err := dec.Decode(&et); err != nil {
					return fail("subagent_trajectories[%d]: %v", n, err)
				}
				tot, err := et.totals()
				if err != nil {
					return fail("subagent_trajectories[%d]: %v", n, err)
				}
				info.Embedded.Add(tot)
			}
			if _, err := dec.Token(); err != nil {
				return fail("subagent_trajectories: %v", err)
			}
		case "steps":
			sawSteps = true
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return fail("steps: want an array")
			}
			last := 0
			for dec.More() {
				var s atifStep
				if err := dec.Decode(&s); err != nil {
					return fail("step %d: %v", info.Steps+1, err)
				}
				info.Steps++
				id, err := s.StepID.Int64()
				if err != nil || id < 1 || id > 1<<30 {
					return fail("step %d: step_id %q is not a positive integer", info.Steps, s.StepID)
				}
				if int(id) <= last {
					return fail("step %d: step_id %d does not follow %d", info.Steps, id, last)
				}
				last = int(id)
				info.LastStep = offset + last
				if s.IsCopiedContext != nil && *s.IsCopiedContext {
					info.Copied++
					continue
				}
				if s.Observation != nil {
					for _, res := range s.Observation.Results {
						refs, err := subagentRefs(res.Subagents)
						if err != nil {
							return fail("step_id %d: %v", id, err)
						}
						for _, ref := range refs {
							if len(info.Subagents) < MaxSubagents {
								info.Subagents = append(info.Subagents, ref)
							}
						}
					}
				}
				if err := normalizeStep(&s, offset+last, info.Model, emit); err != nil {
					var se stepError
					if errors.As(err, &se) {
						return fail("step_id %d: %v", id, se.error)
					}
					return nil, err
				}
			}
			if _, err := dec.Token(); err != nil {
				return fail("steps: %v", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return fail("%s: %v", key, err)
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return fail("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("data after the trajectory object")
	}
	switch {
	case !strings.HasPrefix(info.SchemaVersion, "ATIF-v"):
		return fail("not an ATIF trajectory: schema_version %q", info.SchemaVersion)
	case !sawSteps:
		return fail("not an ATIF trajectory: no steps")
	}
	return info, nil
}

// tokens reads a step's token counts (nil when it has none): prompt
// tokens include the cached ones (ATIF v1.2), so non-cached input is their
// difference.
func (m *atifMetrics) tokens() (*Tokens, error) {
	if m.CostUSD != nil && !plausibleCost(*m.CostUSD) {
		return nil, fmt.Errorf("cost_usd %v is not a plausible cost", *m.CostUSD)
	}
	if m.PromptTokens == nil && m.CompletionTokens == nil && m.CachedTokens == nil {
		return nil, nil
	}
	tk := &Tokens{Cached: val(m.CachedTokens), Output: val(m.CompletionTokens)}
	if tk.Cached < 0 || tk.Output < 0 || val(m.PromptTokens) < 0 {
		return nil, errors.New("negative token count")
	}
	tk.Input = max(val(m.PromptTokens)-tk.Cached, 0)
	return tk, nil
}

func plausibleCost(c float64) bool { return c >= 0 && c < 1e9 }

// check rejects totals no run can have.
func (fm *FinalMetrics) check() error {
	for _, p := range []*int64{fm.PromptTokens, fm.CompletionTokens, fm.CachedTokens} {
		if p != nil && *p < 0 {
			return errors.New("negative token count")
		}
	}
	if fm.CostUSD != nil && !plausibleCost(*fm.CostUSD) {
		return fmt.Errorf("total_cost_usd %v is not a plausible cost", *fm.CostUSD)
	}
	return nil
}

// Totals reads final metrics as totals.
func (fm *FinalMetrics) Totals() Totals {
	var t Totals
	if fm.PromptTokens != nil || fm.CompletionTokens != nil {
		cached := val(fm.CachedTokens)
		t.Tokens = Tokens{Input: max(val(fm.PromptTokens)-cached, 0), Cached: cached, Output: val(fm.CompletionTokens)}
		t.HasTokens = true
	}
	if fm.CostUSD != nil {
		t.CostUSD, t.HasCost = *fm.CostUSD, true
	}
	return t
}

// totals of an embedded subagent trajectory: its final metrics, else
// its agent steps' sums.
func (et *embeddedTrajectory) totals() (Totals, error) {
	if et.Final != nil {
		if err := et.Final.check(); err != nil {
			return Totals{}, fmt.Errorf("final_metrics: %w", err)
		}
		return et.Final.Totals(), nil
	}
	var t Totals
	for i, s := range et.Steps {
		if s.Source != Agent || s.Metrics == nil || (s.IsCopiedContext != nil && *s.IsCopiedContext) {
			continue
		}
		tk, err := s.Metrics.tokens()
		if err != nil {
			return Totals{}, fmt.Errorf("step %d: metrics: %w", i+1, err)
		}
		t.AddStep(tk, s.Metrics.CostUSD)
	}
	return t, nil
}

// stepError is a problem with a step's content, as opposed to an error of
// emit.
type stepError struct{ error }

// normalizeStep emits the events of one ATIF step.
func normalizeStep(s *atifStep, step int, model string, emit func(*Event) error) error {
	switch s.Source {
	case System, User, Agent:
	default:
		return stepError{fmt.Errorf("source %q: system, user or agent", s.Source)}
	}
	msg := &Event{Step: step, Type: Message, Source: s.Source, Text: Cut(textOf(s.Message), MaxText), Time: s.Timestamp}
	if s.LLMCallCount != nil && *s.LLMCallCount < 0 {
		return stepError{fmt.Errorf("llm_call_count %d is negative", *s.LLMCallCount)}
	}
	if s.Source == Agent {
		msg.LLMCalls = s.LLMCallCount
		msg.Reasoning = Cut(textOf(s.ReasoningContent), MaxText)
		msg.Model = s.ModelName
		if msg.Model == "" {
			msg.Model = model
		}
		if m := s.Metrics; m != nil {
			tk, err := m.tokens()
			if err != nil {
				return stepError{fmt.Errorf("metrics: %w", err)}
			}
			msg.Tokens, msg.CostUSD = tk, m.CostUSD
		}
	}
	if err := emit(msg); err != nil {
		return err
	}
	var results []atifResult
	if s.Observation != nil {
		results = s.Observation.Results
	}
	used := make([]bool, len(results))
	for i, tc := range s.ToolCalls {
		args := argsOf(tc.Arguments)
		c := classifyCall(tc.FunctionName, args)
		call := &Event{Step: step, Type: ToolCall, ID: tc.ID, Tool: Cut(tc.FunctionName, 200), Args: Cut(compact(tc.Arguments), MaxArgs),
			Action: c.action, Command: Cut(c.command, MaxArgs), FilesRead: c.read, FilesWritten: c.written, Ranges: c.ranges, Revert: c.revert}
		if err := emit(call); err != nil {
			return err
		}
		// The result of this call: by id, else the i-th result when no
		// result names a call (scaffolds that leave source_call_id out).
		ri := -1
		for j, r := range results {
			if !used[j] && r.SourceCallID != nil && *r.SourceCallID == tc.ID && tc.ID != "" {
				ri = j
				break
			}
		}
		if ri < 0 && i < len(results) && !used[i] && results[i].SourceCallID == nil {
			ri = i
		}
		var res *Event
		if ri >= 0 {
			used[ri] = true
			res = resultEvent(step, tc.ID, c, textOf(results[ri].Content))
			if err := emit(res); err != nil {
				return err
			}
		}
		for _, e := range derived(step, c, res) {
			if err := emit(e); err != nil {
				return err
			}
		}
	}
	for j, r := range results {
		if used[j] {
			continue
		}
		id := ""
		if r.SourceCallID != nil {
			id = *r.SourceCallID
		}
		if err := emit(resultEvent(step, id, call{action: ActOther}, textOf(r.Content))); err != nil {
			return err
		}
	}
	return nil
}

// resultEvent reads a tool call's output.
func resultEvent(step int, id string, c call, out string) *Event {
	e := &Event{Step: step, Type: Result, ID: id, Text: Cut(out, MaxText), ExitCode: exitCodeOf(out)}
	if e.ExitCode != nil {
		e.Error = *e.ExitCode != 0
	} else {
		e.Error = errorMarkRe.MatchString(out)
	}
	if c.action == ActWrite && editFailRe.MatchString(out) {
		e.Error = true
	}
	if invalidRe.MatchString(out) {
		e.Invalid, e.Error = true, true
	}
	if missingRe.MatchString(out) {
		var cands []string
		cands = append(cands, c.read...)
		for _, p := range c.written {
			if c.ops[p] != OpCreate {
				cands = append(cands, p)
			}
		}
		for _, p := range cands {
			if len(cands) == 1 || strings.Contains(out, lastElem(p)) {
				e.MissingPaths = append(e.MissingPaths, p)
			}
		}
		if len(e.MissingPaths) > 0 {
			e.Error = true
		}
	}
	if e.Error {
		e.ErrorLine = errorLine(out)
	}
	return e
}

// derived are the edit and test_run events a classified call implies,
// given its result (nil when the trajectory has none).
func derived(step int, c call, res *Event) []*Event {
	var out []*Event
	switch c.action {
	case ActWrite:
		failed := res != nil && res.Error
		for _, p := range c.written {
			out = append(out, &Event{Step: step, Type: Edit, Path: p, Op: c.ops[p], Error: failed, Revert: c.revert})
		}
	case ActTest:
		tr := &Event{Step: step, Type: TestRun, Command: Cut(c.command, MaxArgs)}
		if res != nil {
			text := res.Text
			tr.BuildError = buildErrRe.MatchString(text)
			failed := testFailRe.MatchString(text) || tr.BuildError
			switch {
			case res.ExitCode != nil:
				p := *res.ExitCode == 0 && !failed
				tr.Passed = &p
			case failed:
				p := false
				tr.Passed = &p
			case testPassRe.MatchString(text):
				p := true
				tr.Passed = &p
			}
		}
		out = append(out, tr)
	}
	return out
}

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func val(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// textOf reads an ATIF text field: a string, or (multimodal content) a
// list of parts whose texts are joined; images become "[image]".
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			var part struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if json.Unmarshal(p, &s) == nil {
				b.WriteString(s)
			} else if json.Unmarshal(p, &part) == nil {
				if part.Text != "" {
					b.WriteString(part.Text)
				} else if strings.Contains(part.Type, "image") {
					b.WriteString("[image]")
				}
			}
			b.WriteByte('\n')
		}
		return strings.TrimRight(b.String(), "\n")
	}
	return compact(raw)
}

// argsOf reads a tool call's arguments: an object, or a string holding
// one (some exporters write the model's raw argument string).
func argsOf(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil && m != nil {
		return m
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if json.Unmarshal([]byte(s), &m) == nil && m != nil {
			return m
		}
		return map[string]any{"input": s}
	}
	return map[string]any{}
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return validUTF8(string(raw))
	}
	return b.String()
}
