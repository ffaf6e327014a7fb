package mutation

import (
	"reflect"
	"strings"
	"testing"
)

// TestNodeOperators: every operator on JavaScript and TypeScript, with
// their parenthesized conditions, strict equality, else clauses, bodies
// without braces and TypeScript's declared results (issue 23).
func TestNodeOperators(t *testing.T) {
	js := "function f(a, b) {\n  if (a === b) {\n    g(a);\n  } else {\n    return 3;\n  }\n  while (!done) h();\n}\n"
	ts := "function f(a: number): number {\n  if (a > 0) {\n    return a;\n  } else if (a) {\n    log(a);\n  }\n}\nclass K {\n  constructor() { return; }\n  name(): string { return 'k'; }\n  v(): Version { return x; }\n  ok(): boolean { return y; }\n}\n"
	rep := func(src string, pairs ...string) string { return strings.NewReplacer(pairs...).Replace(src) }
	cases := []struct {
		name, lang, src string
		op              *Operator
		want            []string
	}{
		{"negate js", "JavaScript", js, NegateCondition, []string{rep(js, "(a === b)", "(!(a === b))"), rep(js, "(!done)", "(done)")}},
		{"flip js", "JavaScript", js, FlipComparison, []string{rep(js, "===", "!==")}},
		{"int js", "JavaScript", js, IntConstant, []string{rep(js, "return 3", "return 4"), rep(js, "return 3", "return 2")}},
		{"return-zero js", "JavaScript", js, ReturnZero, []string{rep(js, "return 3", "return undefined")}},
		{"delete-call js", "JavaScript", js, DeleteCall, []string{rep(js, "    g(a);\n", ""), rep(js, "h();", ";")}},
		{"swap js", "JavaScript", js, SwapIfElse, []string{rep(js, "    g(a);\n  } else {\n    return 3;", "    return 3;\n  } else {\n    g(a);")}},
		{"negate ts", "TypeScript", ts, NegateCondition, []string{rep(ts, "(a > 0)", "(!(a > 0))"), rep(ts, "if (a) {", "if (!a) {")}},
		{"flip ts", "TypeScript", ts, FlipComparison, []string{rep(ts, "a > 0", "a >= 0")}},
		{"return-zero ts", "TypeScript", ts, ReturnZero, []string{rep(ts, "return a;", "return 0;"), rep(ts, "return 'k'", "return ''"),
			rep(ts, "return x", "return undefined as any"), rep(ts, "return y", "return false")}},
		{"swap ts: no plain else", "TypeScript", ts, SwapIfElse, []string{}},
	}
	for _, c := range cases {
		if got := mutants(t, c.op, c.lang, c.src, nil); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %d mutants:\n%s\nwant %d:\n%s", c.name, len(got), strings.Join(got, "----\n"), len(c.want), strings.Join(c.want, "----\n"))
		}
	}
}
