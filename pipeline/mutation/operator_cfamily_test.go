package mutation

import (
	"reflect"
	"strings"
	"testing"
)

// TestCFamilyOperators: the operators over C and C++ sources write code
// that compiles: conditions are negated inside their parentheses, a
// deleted call that is a loop's body leaves an empty statement, else
// clauses swap with their statement, and results go to the zero of their
// type (none for lambdas).
func TestCFamilyOperators(t *testing.T) {
	csrc := "int f(int a) {\n    if (a < 3) {\n        g(a);\n        return 1;\n    } else {\n        return 2;\n    }\n    while (a != 0) a--;\n    return a;\n}\n"
	cxx := "int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n"
	cases := []struct {
		name string
		op   *Operator
		lang string
		src  string
		want []string
	}{
		{"negate-condition C", NegateCondition, "C", csrc, []string{
			"int f(int a) {\n    if (!(a < 3)) {\n        g(a);\n        return 1;\n    } else {\n        return 2;\n    }\n    while (a != 0) a--;\n    return a;\n}\n",
			"int f(int a) {\n    if (a < 3) {\n        g(a);\n        return 1;\n    } else {\n        return 2;\n    }\n    while (!(a != 0)) a--;\n    return a;\n}\n",
		}},
		{"negate-condition C++", NegateCondition, "C++", cxx, []string{
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; !(i < a); i++) h(i);\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n",
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (!(a >= 10)) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n",
		}},
		{"delete-call C", DeleteCall, "C", csrc, []string{
			"int f(int a) {\n    if (a < 3) {\n        return 1;\n    } else {\n        return 2;\n    }\n    while (a != 0) a--;\n    return a;\n}\n",
		}},
		{"delete-call C++", DeleteCall, "C++", cxx, []string{
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) ;\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n",
		}},
		{"swap-if-else C", SwapIfElse, "C", csrc, []string{
			"int f(int a) {\n    if (a < 3) {\n        return 2;\n    } else {\n        g(a);\n        return 1;\n    }\n    while (a != 0) a--;\n    return a;\n}\n",
		}},
		{"swap-if-else C++", SwapIfElse, "C++", cxx, []string{}},
		{"return-zero C", ReturnZero, "C", csrc, []string{
			"int f(int a) {\n    if (a < 3) {\n        g(a);\n        return 0;\n    } else {\n        return 2;\n    }\n    while (a != 0) a--;\n    return a;\n}\n",
			"int f(int a) {\n    if (a < 3) {\n        g(a);\n        return 1;\n    } else {\n        return 0;\n    }\n    while (a != 0) a--;\n    return a;\n}\n",
			"int f(int a) {\n    if (a < 3) {\n        g(a);\n        return 1;\n    } else {\n        return 2;\n    }\n    while (a != 0) a--;\n    return 0;\n}\n",
		}},
		{"return-zero C++", ReturnZero, "C++", cxx, []string{
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (a >= 10) return 0;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n",
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return 0;\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return \"v\"; }\n",
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return {}; }\nconst char* k() { return \"v\"; }\n",
			"int V::f(int a) {\n  auto l = [](int x) { return x; };\n  for (int i = 0; i < a; i++) h(i);\n  if (a >= 10) return 0.5 > 1 ? 1 : 2;\n  return l(a);\n}\nstd::string g() { return \"x\"; }\nconst char* k() { return nullptr; }\n",
		}},
	}
	for _, c := range cases {
		got := mutants(t, c.op, c.lang, c.src, nil)
		if c.want == nil {
			c.want = []string{}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %d mutants:\n%s\nwant %d:\n%s", c.name, len(got), strings.Join(got, "----\n"), len(c.want), strings.Join(c.want, "----\n"))
		}
	}
	if _, ok := syntaxes["C"]; !ok || syntaxes["C++"].Stub != "{\n  throw %s;\n}" {
		t.Error("C and C++ have no stub bodies")
	}
}
