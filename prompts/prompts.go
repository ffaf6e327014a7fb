// Package prompts holds the prompt templates of the LLM stages of phase 2
// (paper, section 3.2): the mapping drafter, the shared auditor wrapper with
// the eight semantic rules S1–S8, and the quality judge. The templates are
// *.tmpl files embedded with go:embed and executed with text/template over a
// Data value that the stages fill from a candidate; `lolbench prompts show`
// renders them without calling a model, so a curator can review exactly what
// a model would be sent.
//
// The templates carry instructions only. Every vocabulary they list (section
// and file categories, roles, unmapped reasons, the static rules, the judge's
// importance categories) comes in through Data from the package that owns
// it, so a prompt can never drift from the code that checks the answer.
package prompts

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

// Prompt is one rendered prompt: the system message holds the instructions,
// the user message the candidate's material.
type Prompt struct {
	Name   string `json:"name"`
	System string `json:"system"`
	User   string `json:"user"`
}

// Prompt names. The eight auditor prompts are "audit-S1" to "audit-S8".
const (
	MapPrompt      = "map"       // the drafter's first request
	MapRetryPrompt = "map-retry" // the drafter's follow-up with the static-rule violations
	JudgePrompt    = "judge"     // the quality judge
)

// AuditRule is one semantic rule an auditor applies (paper, section 3.2,
// "semantic validation").
type AuditRule struct {
	ID   string `json:"id"`   // "S1"
	Name string `json:"name"` // "section coverage"
}

// AuditRules are the eight semantic rules, in order. Each has its
// instruction in audit-sN.tmpl.
var AuditRules = []AuditRule{
	{"S1", "section coverage"},
	{"S2", "section classification"},
	{"S3", "test mapping"},
	{"S4", "PR-file category"},
	{"S5", "mapping semantics"},
	{"S6", "citation and summary fidelity"},
	{"S7", "direct vs associated"},
	{"S8", "external-link sufficiency"},
}

// LookupAuditRule returns the rule with id ("S3", case-insensitive), or
// false.
func LookupAuditRule(id string) (AuditRule, bool) {
	id = strings.ToUpper(strings.TrimSpace(id))
	for _, r := range AuditRules {
		if r.ID == id {
			return r, true
		}
	}
	return AuditRule{}, false
}

// AuditName is the prompt name of rule id: "audit-S3".
func AuditName(id string) string { return "audit-" + id }

// Names lists every prompt name, in pipeline order.
func Names() []string {
	names := []string{MapPrompt, MapRetryPrompt}
	for _, r := range AuditRules {
		names = append(names, AuditName(r.ID))
	}
	return append(names, JudgePrompt)
}

// spec says how a prompt is built: its template files (every prompt also
// reads partials.tmpl, the shared blocks that present the material) and the
// templates that give its system and user messages.
type spec struct {
	files        []string
	system, user string
}

func lookup(name string) (spec, error) {
	switch name {
	case MapPrompt:
		return spec{[]string{"partials.tmpl", "map.tmpl"}, "system", "user"}, nil
	case MapRetryPrompt:
		// The retry is the last user message of a conversation that
		// starts with the map prompt; its system message is the map's.
		return spec{[]string{"partials.tmpl", "map.tmpl", "map-retry.tmpl"}, "system", "retry"}, nil
	case JudgePrompt:
		return spec{[]string{"partials.tmpl", "judge.tmpl"}, "system", "user"}, nil
	}
	if id, ok := strings.CutPrefix(name, "audit-"); ok {
		if r, ok := LookupAuditRule(id); ok && id == r.ID {
			return spec{[]string{"partials.tmpl", "audit.tmpl", "audit-" + strings.ToLower(r.ID) + ".tmpl"}, "system", "user"}, nil
		}
	}
	return spec{}, fmt.Errorf("no prompt %q; prompts are %s", name, strings.Join(Names(), ", "))
}

var funcs = template.FuncMap{
	// attr quotes a value for a pseudo-XML attribute.
	"attr": strconv.Quote,
	// indent is two spaces per level below the first.
	"indent": func(level int) string { return strings.Repeat("  ", max(level-1, 0)) },
	// dash shows an empty cell as "-".
	"dash": func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	},
	"join": strings.Join,
	"add":  func(a, b int) int { return a + b },
}

func parse(name string) (*template.Template, spec, error) {
	sp, err := lookup(name)
	if err != nil {
		return nil, spec{}, err
	}
	t, err := parseFiles(name, sp.files)
	return t, sp, err
}

// parseFiles parses the template files of prompt name.
func parseFiles(name string, fs []string) (*template.Template, error) {
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").ParseFS(files, fs...)
	if err != nil {
		return nil, fmt.Errorf("prompt %s: %w", name, err)
	}
	return t, nil
}

// execute runs the named templates of t over d into the system and user
// messages of prompt name.
func execute(t *template.Template, name, system, user string, d any) (Prompt, error) {
	p := Prompt{Name: name}
	for _, part := range []struct {
		tmpl string
		out  *string
	}{{system, &p.System}, {user, &p.User}} {
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, part.tmpl, d); err != nil {
			return Prompt{}, fmt.Errorf("prompt %s: %w", name, err)
		}
		*part.out = strings.TrimSpace(buf.String())
	}
	return p, nil
}

// digestFiles is the SHA-256 of the named template files, in sorted order.
func digestFiles(fs []string) (string, error) {
	h := sha256.New()
	for _, n := range slices.Sorted(slices.Values(fs)) {
		b, err := files.ReadFile(n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Render executes the prompt name over d. For an auditor prompt it sets
// d.Audit to the prompt's rule. Only the ends of each message are trimmed:
// the material inside (EP text, patches) is passed through byte for byte.
func Render(name string, d *Data) (Prompt, error) {
	if d == nil {
		return Prompt{}, fmt.Errorf("prompt %s: no data", name)
	}
	t, sp, err := parse(name)
	if err != nil {
		return Prompt{}, err
	}
	if id, ok := strings.CutPrefix(name, "audit-"); ok {
		r, _ := LookupAuditRule(id)
		d.Audit = r
	}
	return execute(t, name, sp.system, sp.user, d)
}

// Digest is the SHA-256 of the template files prompt name is built from. It
// enters the stages' input fingerprints, so editing a prompt reruns the
// stages that use it.
func Digest(name string) (string, error) {
	sp, err := lookup(name)
	if err != nil {
		return "", err
	}
	return digestFiles(sp.files)
}
