package rules

// R22 checks verbatim evidence.
var R22 = &Rule{
	ID:    22,
	Name:  "verbatim-evidence",
	Doc:   `Each mapped block quotes its EP section verbatim: the quotation occurs in the text of the section or its subsections, compared after collapsing white space and removing inline-code backticks and emphasis markers, so that the Markdown and reStructuredText versions of an EP quote alike; an ellipsis ("..." or "…") may join passages that occur in order. The requirement summary is concise: one to three sentences and at most 80 words. Copy the words from the EP, and shorten the summary.`,
	Check: checkR22,
}

func checkR22(p *Pass) {
}
