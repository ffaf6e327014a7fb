// Package testaudit is the deterministic audit of generated tests (issue 7,
// "Test audit"): before a test written by the augment stage's model is even
// run, tree-sitter reads it and rejects the two kinds of "overly narrow
// tests" of the SWE-Bench ProMax paper, tests that a correct solution
// written from the proposal alone could fail:
//
//   - a test that imports, calls, constructs or asserts on an internal
//     symbol (Rule Internal). Internal is per language, one rule file each:
//     an unexported identifier in Go (lang_go.go); a name with a leading
//     underscore, or anything reached through a private module, in Python
//     (lang_python.go); a private or package-private class, constructor,
//     method or field in Java (lang_java.go), read from the product's own
//     declarations, plus reflection that opens such members; in
//     JavaScript and TypeScript (lang_node.go), a name its module does
//     not export, a #private, private or protected member, or an
//     underscore-led name, read from the product's declarations; in C and
//     C++ (lang_cfamily.go), static and source-only names, private and
//     protected members, anonymous, detail and internal namespaces, an
//     #include of a source file and #define private public.
//   - a test that uses a symbol the pull request newly introduces whose
//     exact name the EP text never spells out (Rule Undocumented): an agent
//     implementing the proposal cannot know that name.
//
// Names a test declares itself (helpers, fake types, table fields) and
// names declared by the task's other test files of the same package
// (Input.Helpers) are the test's own and never internal. Scoping is not
// modelled: a name declared anywhere in the test counts as declared
// everywhere in it, which can only make the audit more lenient, never
// invent a finding.
//
// The package also reads what the augment stage needs from a test file:
// its test functions with a body fingerprint for duplicate detection
// (TestFuncs), and a file's declarations (Declarations), from which the
// stage derives the symbols a PR introduces.
//
// Every input is hostile: sources are capped (MaxSource), parses are
// bounded in time, the tree is walked with a cursor and an explicit stack
// (no recursion on the input's nesting) and every context a rule needs is
// carried down the stack in O(1) per node.
package testaudit
