package rules

// R04 checks vocabularies and schemas.
var R04 = &Rule{
	ID:    4,
	Name:  "vocabularies-and-schemas",
	Doc:   `All six parts of the artifact are present and every table has exactly its canonical columns, in order (docs/mapping-format.md); Global Statistics uses only the known metric names. Every controlled value is in its vocabulary: Implementable and Mapped are yes or no; a section category is knowledge, implementation, evaluation, contextual or process; a file category is source, test, test-data, data, build, documentation, generated or vendor; a role is direct, associated or unmapped; an unmapped reason is deferred, pre-existing, out-of-scope, documentation-only, runtime-behavior, external-dependency, test-only or insufficient-context; a section-list cell holds comma-separated section ids or "-". Rename the column or replace the value with a word from the vocabulary.`,
	Check: checkR04,
}

func checkR04(p *Pass) {
}
