package evidence

import (
	"context"
	"fmt"

	"github.com/lolbench/lolbench/pipeline/llm"
	"github.com/lolbench/lolbench/prompts"
)

// Messages turns a rendered prompt into the chat messages of a request.
func Messages(p prompts.Prompt) []llm.Message {
	return []llm.Message{{Role: llm.RoleSystem, Content: p.System}, {Role: llm.RoleUser, Content: p.User}}
}

// ModelParam names the model a stage will use, for its input fingerprint:
// a new model reruns the stage, and so does configuring an endpoint after a
// run that skipped for want of one.
func ModelParam(c *llm.Client, stage string) string {
	if c == nil {
		return "llm none"
	}
	return "llm model " + c.Config().ModelFor(stage)
}

// PromptParams are the digests of the named prompts' templates, for a
// stage's input fingerprint: editing a prompt reruns the stages that use it.
func PromptParams(names ...string) ([]string, error) {
	var out []string
	for _, n := range names {
		d, err := prompts.Digest(n)
		if err != nil {
			return nil, err
		}
		out = append(out, "prompt "+n+" "+d)
	}
	return out, nil
}

// Ask sends msgs and decodes the answer into out (see llm.Client.JSON, which
// already re-asks for answers that are not valid JSON of out's shape). check,
// when not nil, then compares the answer with the candidate's material, which
// the answer type alone cannot know (the judge must grade exactly the
// artifact's implementable sections); a failing check is sent back to the
// model with the answer, up to tries asks in all. The results of every
// exchange are returned, the last one first.
func Ask(ctx context.Context, c *llm.Client, req llm.Request, out any, check func() error, tries int) ([]*llm.Result, error) {
	tries = max(tries, 1)
	var results []*llm.Result
	msgs := req.Messages
	for ask := 1; ; ask++ {
		req.Messages = msgs
		res, err := c.JSON(ctx, req, out)
		if res != nil {
			results = append([]*llm.Result{res}, results...)
		}
		if err != nil {
			return results, err
		}
		if check == nil {
			return results, nil
		}
		problem := check()
		if problem == nil {
			return results, nil
		}
		if ask == tries {
			return results, fmt.Errorf("llm %s: the answer still does not fit the candidate after %d tries: %v", req.Stage, tries, problem)
		}
		msgs = append(append([]llm.Message(nil), msgs...),
			llm.Message{Role: llm.RoleAssistant, Content: res.Answer},
			llm.Message{Role: llm.RoleUser, Content: "Your previous answer could not be used: " + problem.Error() +
				". Reply again with only the corrected JSON, no prose and no code fences."})
	}
}
