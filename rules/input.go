package rules

import (
	"context"
	"fmt"

	"github.com/lolbench/lolbench/pipeline/diff"
	"github.com/lolbench/lolbench/pipeline/ep"
	"github.com/lolbench/lolbench/pipeline/mapping"
	"github.com/lolbench/lolbench/pipeline/syntax"
)

// Input is what every rule reads: parsed once, shared by all.
type Input struct {
	EP      *ep.Document
	Change  *diff.Change
	Scopes  *syntax.Result
	Mapping *mapping.Mapping
}

// Sources names the files and revisions an Input is loaded from.
type Sources struct {
	EP       string    // EP file
	EPFormat ep.Format // "" = from the extension
	Repo     string    // local git repository
	Base     string    // PR base revision
	Head     string    // PR head revision
	Mapping  string    // mapping artifact
}

// Load reads and parses every input. Its errors are bad input (unreadable
// files, unknown revisions, an artifact that cannot be parsed), never rule
// violations.
func Load(ctx context.Context, s Sources) (*Input, error) {
	doc, err := ep.Load(s.EP, s.EPFormat)
	if err != nil {
		return nil, err
	}
	m, err := mapping.ParseFile(s.Mapping)
	if err != nil {
		return nil, err
	}
	repo, err := diff.Open(s.Repo)
	if err != nil {
		return nil, err
	}
	ch, err := repo.Diff(ctx, s.Base, s.Head)
	if err != nil {
		return nil, err
	}
	scopes, err := syntax.Resolve(ctx, s.Repo, ch, syntax.Options{})
	if err != nil {
		return nil, fmt.Errorf("resolve scopes in %s: %w", s.Repo, err)
	}
	return &Input{EP: doc, Change: ch, Scopes: scopes, Mapping: m}, nil
}
