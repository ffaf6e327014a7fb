package testaudit

import (
	"context"
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

// TestNodeAudit: a generated bumpkit test that goes through what the
// modules export passes; one that imports an unexported helper, reads a
// TypeScript private field, calls a private constructor, reaches #private
// or underscore names, or imports a private module is narrow; a PR symbol
// the EP never names is undocumented.
func TestNodeAudit(t *testing.T) {
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
});
`, []string{
			"line 4: imports the unexported `nextPrerelease`",
			"line 5: imports the private module `../src/_util`",
			"line 9: constructs the private constructor of `Range`",
			"line 10: asserts on the private `sets`",
			"line 12: asserts on the private `_entries`",
			"line 12: asserts on the private `_size`",
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
