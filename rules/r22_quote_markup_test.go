package rules

import (
	"fmt"
	"strings"
	"testing"
)

// TestQuoteMarkup pins what rule 22 reads as markup: emphasis, code spans,
// links and reStructuredText roles and references go; every character a
// reader sees stays.
func TestQuoteMarkup(t *testing.T) {
	tests := []struct{ name, in, want string }{
		// Underscores and stars that are text.
		{"intraword underscore", "the SET_EX flag", "the SET_EX flag"},
		{"unit name", "in deg_C and deg_F", "in deg_C and deg_F"},
		{"snake case", "snake_case_name", "snake_case_name"},
		{"lone star", "a * b", "a * b"},
		{"intraword stars", "2*3*4", "2*3*4"},
		{"python dunder", "the __init__ and __init_subclass__ methods", "the __init__ and __init_subclass__ methods"},
		{"starred arguments", "f(*args, **kwargs)", "f(*args, **kwargs)"},
		{"escaped stars", `\*not emphasis\*`, "*not emphasis*"},
		{"unmatched across paragraphs", "*one\n\ntwo*", "*one two*"},

		// Emphasis.
		{"emphasis", "**bold**, *em* and _u_", "bold, em and u"},
		{"strong underscores", "__strong words__ here", "strong words here"},
		{"emphasis around code", "*the `x` value*", "the x value"},

		// Code spans and interpreted text.
		{"code span", "`GreetIn(lang, name)` returns", "GreetIn(lang, name) returns"},
		{"double backticks", "``en``,\n   ``fr``\tand ``de``", "en, fr and de"},
		{"markup inside code", "``*args`` and `a_b*`", "*args and a_b*"},
		{"unmatched backtick", "`GreetIn(lang,", "GreetIn(lang,"},

		// reStructuredText roles and references.
		{"term role", "the :term:`Core Metadata` field", "the Core Metadata field"},
		{"domain role", ":py:func:`parse`", "parse"},
		{"role after", "`Core Metadata`:term: field", "Core Metadata field"},
		{"role with title", ":ref:`the rules <rules-label>` apply", "the rules apply"},
		{"role tilde", ":func:`~packaging.licenses.canonicalize_license_expression`", "canonicalize_license_expression"},
		{"role bang", ":class:`!Metadata`", "Metadata"},
		{"pep role", "as :pep:`639` says", "as PEP 639 says"},
		{"rfc role", ":rfc:`822` headers", "RFC 822 headers"},
		{"pep role with title", ":pep:`the license PEP <639>`", "the license PEP"},
		{"named link", "an `SPDX expression <https://spdx.org/>`_.", "an SPDX expression."},
		{"anonymous link", "an `SPDX expression <https://spdx.org/>`__.", "an SPDX expression."},
		{"link to target", "see `Core Metadata`_ and `the spec`__", "see Core Metadata and the spec"},
		{"embedded target only", "`<https://spdx.org/>`_", "https://spdx.org/"},
		{"word references", "see Tools_ and PEPs__, not name_x", "see Tools and PEPs, not name_x"},
		{"inline target", "an _`inline target` here", "an inline target here"},
		{"footnote reference", "as noted [1]_ and [#note]_.", "as noted [1] and [#note]."},
		{"literal block marker", "Example::\n\n   code", "Example: code"},
		{"literal block marker after blank", "Example ::\n\n   code", "Example code"},
		{"double colon in a line", "std::move and a::\nb", "std::move and a:: b"},

		// Markdown links and lists.
		{"markdown link", "the [Core Metadata](glossary.html#core) field", "the Core Metadata field"},
		{"markdown link with title", `[spec](https://x.org "The spec")!`, "spec!"},
		{"reference link", "the [Core Metadata][cm] field", "the Core Metadata field"},
		{"image", "![a diagram](d.png) shows", "a diagram shows"},
		{"nested brackets", "[a [b](u) c](v)", "a b c"},
		{"autolink", "<https://example.com/x> here", "https://example.com/x here"},
		{"brackets that are text", "[not a link] and a[0]", "[not a link] and a[0]"},
		{"html comment", "a <!-- c --> b", "a <!-- c --> b"},
		{"bullets", "* one\n- two\n  + three", "one two three"},

		// White space.
		{"blanks", "  lead\n\n\ttrail  ", "lead trail "},
		{"non-ASCII", "snake_case ünïcode _ë_", "snake_case ünïcode ë"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		n := normalizeQuoteText(tt.in)
		if n.s != tt.want {
			t.Errorf("%s: normalizeQuoteText(%q) = %q, want %q", tt.name, tt.in, n.s, tt.want)
			continue
		}
		if len(n.offs) != len(n.s) {
			t.Errorf("%s: %d offsets for %d bytes", tt.name, len(n.offs), len(n.s))
			continue
		}
		for i := range n.offs {
			if i > 0 && n.offs[i] < n.offs[i-1] {
				t.Errorf("%s: offsets go back at byte %d", tt.name, i)
			}
			synthetic := false // inside the "PEP " or "RFC " a role renders
			for k := max(0, i-3); k <= i; k++ {
				synthetic = synthetic || strings.HasPrefix(n.s[k:], "PEP ") || strings.HasPrefix(n.s[k:], "RFC ")
			}
			if n.s[i] != ' ' && tt.in[n.offs[i]] != n.s[i] && !synthetic {
				t.Errorf("%s: byte %d (%q) maps to source %q", tt.name, i, n.s[i], tt.in[n.offs[i]])
			}
		}
	}
}

// TestQuoteMarkupFormatsAgree reads one passage written in Markdown, in
// reStructuredText and as the rendered page shows it: all three normalise
// to the same text, so a quote copied from any of them matches the others.
func TestQuoteMarkupFormatsAgree(t *testing.T) {
	rendered := "The Core Metadata field License-Expression holds an SPDX expression, as PEP 639 says; see Tools and canonicalize_license_expression. Values such as SET_EX, deg_C and __init__ are kept."
	sources := map[string]string{
		"markdown": "The [Core Metadata](glossary.html#core-metadata) field `License-Expression`\n" +
			"holds an [SPDX expression](https://spdx.org/), as [PEP 639](https://peps.python.org/pep-0639/)\n" +
			"says; see [Tools](#tools) and `canonicalize_license_expression`. *Values* such as\n" +
			"SET_EX, deg_C and `__init__` are **kept**.",
		"restructuredtext": "The :term:`Core Metadata` field ``License-Expression``\n" +
			"holds an `SPDX expression <https://spdx.org/>`__, as :pep:`639`\n" +
			"says; see Tools_ and :func:`~packaging.licenses.canonicalize_license_expression`. *Values* such as\n" +
			"SET_EX, deg_C and ``__init__`` are **kept**.",
		"rendered": rendered,
	}
	for name, src := range sources {
		if got := normalizeQuoteText(src).s; got != rendered {
			t.Errorf("%s:\n got %q\nwant %q", name, got, rendered)
		}
	}
}

// BenchmarkQuoteMarkupHostile runs inputs that would make a naive matcher
// quadratic, at two sizes: compare the sizes side by side, the time per
// byte should not grow.
func BenchmarkQuoteMarkupHostile(b *testing.B) {
	inputs := map[string]func(n int) string{
		"openers":   func(n int) string { return strings.Repeat("*a ", n) },
		"closers":   func(n int) string { return strings.Repeat(" *a", n) + strings.Repeat("a_ ", n) },
		"backticks": func(n int) string { return strings.Repeat("`", n) + strings.Repeat("``x", n) },
		"brackets":  func(n int) string { return strings.Repeat("[", n) + strings.Repeat("](", n) },
		"roles":     func(n int) string { return strings.Repeat(":a", n) + strings.Repeat(":`x`", n) },
		"dunders":   func(n int) string { return strings.Repeat(" __a", n) + "__" },
		"autolinks": func(n int) string { return strings.Repeat("<a:", n) },
	}
	for name, gen := range inputs {
		for _, n := range []int{10000, 40000} {
			src := gen(n)
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					normalizeQuoteText(src)
				}
			})
		}
	}
}

// TestR22SentencesAbbreviations: "e.g." and "i.e." do not end a sentence,
// even before a capital, while a real full stop still does.
func TestR22SentencesAbbreviations(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"Support several languages, e.g. English and French.", 1},
		{"Fall back to one language, i.e. English. Keep Greet.", 2},
		{"E.g. English. I.e. French.", 2},
		{"Compare with Greet, cf. Table 2, and Lookup vs. Get.", 1},
		{"Use a table, e.g.", 1},
		{"(i.e. GreetIn) is new. It greets.", 2},
		{"Keep the table.e.g. Then stop.", 2}, // "table.e.g." is no abbreviation
		{"A free.G. Then stop.", 2},
	}
	for _, tt := range tests {
		if got := r22Sentences(tt.in); got != tt.want {
			t.Errorf("r22Sentences(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
