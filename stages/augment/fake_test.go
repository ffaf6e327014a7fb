package augment

import (
	"github.com/lolbench/lolbench/internal/fakeopenai"

	"encoding/json"
	"strings"
	"testing"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// fakeModel is an httptest server that speaks the OpenAI chat-completions
// protocol. It answers from a script keyed by conversation (the first user
// message names the mutant or the coverage loop) and round (1 for the first
// request, 2 for the rewrite), so the answers do not depend on the order in
// which the stage asks. Scripted answers live only in _test.go files.
type fakeModel struct{ *fakeopenai.Server }

// scriptKey finds the conversation of a request: a marker of its first
// user message.
func scriptKey(msgs []llm.Message, keys []string) string {
	for _, m := range msgs {
		if m.Role != llm.RoleUser {
			continue
		}
		for _, k := range keys {
			if strings.Contains(m.Content, k) {
				return k
			}
		}
		return ""
	}
	return ""
}

func newFakeModel(t *testing.T, script map[string]map[int]string) *fakeModel {
	var keys []string
	for k := range script {
		keys = append(keys, k)
	}
	return &fakeModel{fakeopenai.New(t, func(_ int, msgs []llm.Message) (string, bool) {
		round := len(msgs) / 2 // system+user, then +assistant+user
		answer, ok := script[scriptKey(msgs, keys)][round]
		return answer, ok
	})}
}

func (f *fakeModel) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	return f.Client(t, ws, "augment-model")
}

func (f *fakeModel) requests() [][]llm.Message { return f.Requests() }

// answer encodes a scripted answer.
func answer(t *testing.T, tests ...Proposal) string {
	t.Helper()
	b, err := json.Marshal(Answer{Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
