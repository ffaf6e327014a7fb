package rank

import (
	"github.com/lolbench/lolbench/internal/fakeopenai"

	"testing"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/pipeline/workspace"
)

// fake is the test endpoint (internal/fakeopenai) playing scripted
// answers in order.
type fake struct{ *fakeopenai.Server }

func newFake(t *testing.T, script ...string) *fake {
	return &fake{fakeopenai.New(t, fakeopenai.InOrder(script...))}
}

func (f *fake) client(t *testing.T, ws *workspace.Workspace) *llm.Client {
	return f.Client(t, ws, "judge-model")
}

func (f *fake) requests() [][]llm.Message { return f.Requests() }
