package testaudit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// bumpkitProduct is the bumpkit sample's source after its PR.
func bumpkitProduct(t *testing.T, ext string) []File {
	t.Helper()
	dir := filepath.Join("..", "..", "data", "samples", "bumpkit", "pr", "src")
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []File
	for _, n := range names {
		if !strings.HasSuffix(n.Name(), ext) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, n.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, File{Path: "src/" + n.Name(), Source: b})
	}
	if len(out) == 0 {
		t.Fatalf("no %s files in %s", ext, dir)
	}
	return out
}

func nodeFindings(t *testing.T, language, path, src string, product []File, newSyms []string, ep []byte) []string {
	t.Helper()
	rep, err := Audit(context.Background(), Input{Language: language, Test: File{Path: path, Source: []byte(src)},
		Product: product, NewSymbols: newSyms, EP: ep})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, f := range rep.Findings {
		got = append(got, f.String())
	}
	return got
}

// TestScriptAudit: a generated bumpkit test that goes through what the
// modules export passes; one that imports an unexported helper, reads a
// TypeScript private field, calls a private constructor, reaches #private
// or underscore names, or imports a private module is narrow; a PR symbol
// the EP never names is undocumented.
func TestScriptAudit(t *testing.T) {
	ep, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "bumpkit", "ep.md"))
	if err != nil {
		t.Fatal(err)
	}
	newSyms := []string{"bump", "Part", "Range", "satisfies", "maxSatisfying", "nextPrerelease", "comparators", "holds", "sets", "describeChange", "samePrerelease"}
	cases := []struct {
		name, lang, path, src string
		want                  []string
	}{
		{"TypeScript public API", "TypeScript", "test/gen.test.ts", `import { describe, it } from 'node:test';
import { strictEqual } from 'node:assert';
import { bump, parse, Range, satisfies } from '../src/index';

describe('bump', () => {
  it('raises the patch', () => {
    const v = parse('1.2.3');
    strictEqual(bump(v, 'patch').toString(), '1.2.4');
    strictEqual(Range.parse('^1.0.0').test(v), true);
    strictEqual(satisfies(v, '>=1.0.0'), true);
  });
});
`, []string{}},
		{"TypeScript internals", "TypeScript", "test/gen.test.ts", `import { it } from 'node:test';
import { deepStrictEqual, strictEqual } from 'node:assert';
import { parse } from '../src/version';
import { nextPrerelease } from '../src/bump';
import { helper } from '../src/_util';
import * as bk from '../src/range';

it('reaches inside', () => {
  const r = new bk.Range('x', []);
  deepStrictEqual((bk.Range.parse('1.0.0') as any).sets, []);
  strictEqual(nextPrerelease(parse('1.0.0'), 'rc').toString(), '1.0.1-rc.0');
  strictEqual(cache._entries['_size'], 0);
  strictEqual(bk.holds, undefined);
  holds();
});
`, []string{
			"line 4: imports the unexported `nextPrerelease`",
			"line 5: imports the private module `../src/_util`",
			"line 9: constructs the private constructor of `Range`",
			"line 10: asserts on the private `sets`",
			"line 12: asserts on the private `_entries`",
			"line 12: asserts on the private `_size`",
			"line 13: asserts on the unexported `holds`",
			// A bare name is a global, not the module's (not internal),
			// but still a PR name the EP never writes.
			"line 14: calls `holds`, which the PR introduces and the EP never names",
		}},
		{"undocumented", "TypeScript", "test/gen.test.ts", `import { test } from 'node:test';
import { ok } from 'node:assert';
import { bump, Part } from '../src/bump';
import { samePrerelease } from '../src/range';

test('part', () => {
  const p: Part = 'major';
  ok(bump && p && samePrerelease);
});
`, []string{
			"line 3: imports `Part`, which the PR introduces and the EP never names",
			"line 4: imports the unexported `samePrerelease`",
		}},
		{"JavaScript through module.exports", "JavaScript", "test/gen.test.js", `'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert');
const { pretty, describeChange } = require('../src/pretty');
const { compare } = require('./_helpers/compare');

class Fake {
  #n = 1;
  _own = 2;
  get() { return this.#n + this._own; }
}

describe('pretty', () => {
  it('says the change', () => {
    assert.strictEqual(describeChange({ major: 1 }, { major: 2 }), 'major update');
    assert.ok(pretty);
    assert.strictEqual(new Fake().get(), 3);
    assert.strictEqual(v.#state, 1);
  });
});
`, []string{
			"line 5: imports the private module `./_helpers/compare`",
			"line 18: asserts on the #private `#state`",
		}},
	}
	for _, c := range cases {
		ext := ".ts"
		if c.lang == "JavaScript" {
			ext = ".js"
		}
		got := nodeFindings(t, c.lang, c.path, c.src, bumpkitProduct(t, ext), newSyms, ep)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: findings\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestScriptSampleTests: the bumpkit PR's own tests use only what the
// modules export, and every it/test is found with its describe chain.
func TestScriptSampleTests(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "samples", "bumpkit", "pr", "test")
	names, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, n := range names {
		lang, ext := "TypeScript", ".ts"
		if strings.HasSuffix(n.Name(), ".js") {
			lang, ext = "JavaScript", ".js"
		}
		b, err := os.ReadFile(filepath.Join(dir, n.Name()))
		if err != nil {
			t.Fatal(err)
		}
		f := File{Path: "test/" + n.Name(), Source: b}
		if got := nodeFindings(t, lang, f.Path, string(b), bumpkitProduct(t, ext), nil, nil); len(got) != 0 {
			t.Errorf("%s: findings %q", n.Name(), got)
		}
		fs, err := TestFuncs(context.Background(), lang, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tf := range fs {
			all = append(all, n.Name()+": "+tf.Class+" / "+tf.Name)
		}
	}
	want := []string{
		"bump.test.ts: bump › releases / raises major, minor and patch",
		"bump.test.ts: bump › releases / drops build metadata",
		"bump.test.ts: bump › releases / releases a pre-release of that part",
		"bump.test.ts: bump › pre-releases / starts at 0 on the next patch",
		"bump.test.ts: bump › pre-releases / counts up within the same id",
		"bump.test.ts: bump › pre-releases / restarts at 0 for another id",
		"bump.test.ts: bump / refuses unknown parts and ids",
		"compare.test.ts: compare / orders by numbers",
		"compare.test.ts: compare / puts pre-releases first",
		"compare.test.ts: compare / ignores build metadata",
		"compare.test.ts: sort / sorts ascending without touching its input",
		"compare.test.ts: sort / sorts descending",
		"index.test.ts:  / is version 1.2.0 in code and in package.json",
		"index.test.ts:  / exports the proposal from its index",
		"pretty.test.js: pretty / names the parts",
		"pretty.test.js: pretty / flags initial development",
		"pretty.test.js: describeChange / names updates by their part",
		"pretty.test.js: describeChange / names downgrades and no change",
		"range.test.ts: satisfies / reads plain comparators",
		"range.test.ts: satisfies / intersects words and unites alternatives",
		"range.test.ts: satisfies / reads caret ranges",
		"range.test.ts: satisfies / reads tilde ranges",
		"range.test.ts: satisfies / lets pre-releases in only by name",
		"range.test.ts: satisfies / names a bad range",
		"range.test.ts: maxSatisfying / finds the highest match",
		"range.test.ts: maxSatisfying / finds none",
	}
	if !reflect.DeepEqual(all, want) {
		t.Errorf("tests\n%s\nwant\n%s", strings.Join(all, "\n"), strings.Join(want, "\n"))
	}
}

// TestScriptTestFuncs: it and test calls with a string name (and their
// only/skip/todo forms) are tests, grouped by describe and suite; a
// RegExp's test method and a test without a name are not.
func TestScriptTestFuncs(t *testing.T) {
	src := "describe('a', () => {\n  it('one', () => {});\n  describe.only(`b`, () => {\n    test.skip('two', async () => {});\n  });\n  /x/.test('y');\n  re.test('z');\n  it(name, () => {});\n  it(`t ${x}`, () => {});\n});\nsuite('c', () => { test.todo('three'); });\nit(/* c */ 'four', function () {} /* d */);\n"
	for _, lang := range []string{"JavaScript", "TypeScript"} {
		fs, err := TestFuncs(context.Background(), lang, File{Path: "a.test.js", Source: []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, fmt.Sprintf("%d %s / %s", f.Line, f.Class, f.Name))
		}
		want := []string{"2 a / one", "4 a › b / two", "11 c / three", "12  / four"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %q, want %q", lang, got, want)
		}
	}
	// Layout, comments and the test's name do not change a fingerprint.
	fp := func(src string) string {
		fs, err := TestFuncs(context.Background(), "TypeScript", File{Path: "a.test.ts", Source: []byte(src)})
		if err != nil || len(fs) != 1 {
			t.Fatalf("%v %v", fs, err)
		}
		return fs[0].Fingerprint
	}
	if fp("it('a', () => { strictEqual(f(1), 2); });") != fp("it('b', () => {\n  // same\n  strictEqual(f(1), 2)\n});") {
		t.Error("layout, comments or the name changed the fingerprint")
	}
	if fp("it('a', () => { strictEqual(f(1), 2); });") == fp("it('a', () => { strictEqual(f(1), 3); });") {
		t.Error("a changed constant kept the fingerprint")
	}
}

// TestScriptDeclarations: what a TypeScript and a CommonJS module export,
// and the members' visibility.
func TestScriptDeclarations(t *testing.T) {
	cases := []struct {
		lang, file string
		want       []string
	}{
		{"TypeScript", "range.ts", []string{
			"type .Comparator unexported internal",
			"field Comparator.op  exported",
			"field Comparator.v  exported",
			"type .Range  exported",
			"ctor Range.Range private internal",
			"field Range.source  exported",
			"field Range.sets private internal",
			"method Range.parse  exported",
			"method Range.test  exported",
			"func .comparators unexported internal",
			"func .samePrerelease unexported internal",
			"func .holds unexported internal",
			"func .satisfies  exported",
			"func .maxSatisfying  exported",
		}},
		{"JavaScript", "pretty.js", []string{
			"func .pretty  exported",
			"func .describeChange  exported",
		}},
	}
	for _, c := range cases {
		b, err := os.ReadFile(filepath.Join("..", "..", "data", "samples", "bumpkit", "pr", "src", c.file))
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Declarations(context.Background(), c.lang, File{Path: c.file, Source: b})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, d.Kind+" "+d.Class+"."+d.Name+" "+d.Visibility+" "+map[bool]string{true: "exported", false: "internal"}[d.Exported])
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n%s\nwant\n%s", c.file, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
	// CommonJS export forms and an ES export clause.
	src := "function a() {}\nfunction b() {}\nfunction c() {}\nconst d = 1, e = 2;\nclass K { #x = 1; _y = 2; z() {} }\nmodule.exports = { a, bee: b };\nexports.c = c;\nmodule.exports.d = 4;\nexport { e as f };\n"
	ds, err := Declarations(context.Background(), "JavaScript", File{Path: "m.js", Source: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Kind+" "+d.Class+"."+d.Name+" "+d.Visibility+" "+map[bool]string{true: "exported", false: "internal"}[d.Exported])
	}
	want := []string{
		"func .a  exported", "func .b  exported", "func .c  exported",
		"var .d  exported", "var .e  exported",
		"type .K unexported internal",
		"field K.#x #private internal", "field K._y private internal", "method K.z  exported",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("m.js:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestScriptMalformed: a test that does not parse is a Syntax finding on
// its first bad line; broken product files and helpers are read for what
// parses, without panics.
func TestScriptMalformed(t *testing.T) {
	broken := "import { a } from './b';\nit('x', () => {\n  a(;\n});\n"
	for _, lang := range []string{"JavaScript", "TypeScript"} {
		rep, err := Audit(context.Background(), Input{Language: lang, Test: File{Path: "a.test.js", Source: []byte(broken)},
			Product: []File{{Path: "b.js", Source: []byte("export function a( {\n#x\n")}, {Path: "c.js", Source: []byte{0xff, 0xfe, 0, '`', '$', '{'}}},
			Helpers: []File{{Path: "h.js", Source: []byte("class { #")}}})
		if err != nil {
			t.Fatal(err)
		}
		want := []Finding{{Rule: Syntax, Line: 3, Message: "the test does not parse; write syntactically valid " + lang}}
		if !reflect.DeepEqual(rep.Findings, want) {
			t.Errorf("%s: findings %+v, want %+v", lang, rep.Findings, want)
		}
		if _, err := TestFuncs(context.Background(), lang, File{Path: "a.test.js", Source: []byte(broken)}); err == nil || err.Error() != "a.test.js:3: syntax error" {
			t.Errorf("%s: TestFuncs err = %v", lang, err)
		}
	}
}

// TestScriptTSX: a .tsx test is read with the TSX grammar (JSX is no
// syntax error there), a .ts one with TypeScript's (where it is).
func TestScriptTSX(t *testing.T) {
	src := "import { it } from 'node:test';\nimport { _Button } from './button';\nit('renders', () => { const e = <Button label=\"x\" />; expect(e).toBeTruthy(); });\n"
	if got := nodeFindings(t, "TypeScript", "test/a.test.tsx", src, nil, nil, nil); !reflect.DeepEqual(got, []string{"line 2: imports the private `_Button`"}) {
		t.Errorf("tsx: %q", got)
	}
	if got := nodeFindings(t, "TypeScript", "test/a.test.ts", src, nil, nil, nil); !reflect.DeepEqual(got, []string{"line 3: the test does not parse; write syntactically valid TypeScript"}) {
		t.Errorf("ts: %q", got)
	}
}
