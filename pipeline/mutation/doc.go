// Package mutation makes incorrect alternative solutions of a task, mutants,
// and holds the records the enhancement phase shares (issue 7; LoLBench
// paper, Table 8): the mutant record, the kill matrix and the per-method
// mutation-score report.
//
// A mutant is a complete alternative solution: the base tree plus a patch
// that applies in place of the reference solution. It deliberately violates
// one implementable EP section while keeping every pass-to-pass test
// passing, and it carries a record a reviewer can judge without running
// anything: the method, the section, the requirement clause it violates,
// the reference and the mutated behaviour, a concrete diverging scenario and
// why the two are not equivalent.
//
// Two methods here need no model, so that every task gets mutants offline:
//
//   - Mapped-section revert (Reverts): every hunk of the reference solution
//     that one section owns is reverted. Ownership (Owners) comes from the
//     mapping's Direct modifications rows matched to the changed scopes of
//     rules 27 and 28: a changed (file, class, function) scope belongs to
//     the one block that lists it; a class body's lines to the block whose
//     member row (Class | member) names the member they declare, else to
//     the block with its Class | - row, so that a body two sections share
//     member by member loses exactly one section's members (issue 25 §3;
//     the stub revert removes them too); file-level lines belong to a section when
//     exactly one block lists the file with a file-level row, or, when none
//     does, when all the file's changed functions belong to that section.
//     In Go the revert is made to build (gorevert.go, issue 36 §4): the
//     package clause stays, an existing function the section changes
//     comes back from the base whole, what the code left after it (other
//     sections, unchanged code, the PR's Go tests) still uses is kept,
//     functions as stubs (Revert.Kept says what and why), and the imports
//     follow; a revert left changing only comments is equivalent to the
//     reference (Revert.NoCode) and dropped as a duplicate. In other languages the build check drops a revert whose
//     removed code others still use, and the mutate stage retries it as a
//     stub revert (StubReverts: new functions keep their signatures and
//     fail when called, changed ones go back to the base, module-level
//     lines stay). A Go stub must fail the test that calls it without
//     ending the test binary (a panic, or runtime.Goexit on a test's
//     goroutine, fails every later test of the package): it returns an
//     error when the function returns one, and otherwise ends its
//     goroutine unless that is a test's, where it returns zero values.
//     BuildBroken reads from a run's results which packages a mutant
//     broke as a whole.
//   - Syntax operators (Operators, one file each, listed in Registry):
//     small edits on the ADDED lines of the reference solution only, found
//     with tree-sitter, in the spirit of PIT and SWE-smith's procedural
//     modifiers: negate a condition, flip a comparison or its boundary,
//     change an integer constant by one, return the type's zero value, delete
//     a call statement, swap if/else bodies. Go, Python and Java.
//
// The three LLM methods of the paper (Section Revert, Requirement Mismatch,
// Semantic Mutation) are driven by stages/mutate; their mutants become the
// same Mutant records.
//
// Materialize turns mutated file contents into patches against the base
// commit (through a temporary git repository, so the patches are git's) and
// finds the reference lines each mutant changes, which per-test coverage
// uses to run only the tests that reach them (as PIT does).
package mutation
