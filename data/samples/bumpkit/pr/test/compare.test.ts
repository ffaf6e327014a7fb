import { describe, it } from 'node:test';
import { deepStrictEqual, strictEqual } from 'node:assert';
import { compare, equal, rsort, sort } from '../src/compare';
import { parse } from '../src/version';

const cmp = (a: string, b: string) => compare(parse(a), parse(b));

describe('compare', () => {
  it('orders by numbers', () => {
    strictEqual(cmp('1.2.3', '1.10.0'), -1);
    strictEqual(cmp('2.0.0', '1.99.99'), 1);
  });
  it('puts pre-releases first', () => {
    strictEqual(cmp('1.0.0-alpha', '1.0.0'), -1);
    strictEqual(cmp('1.0.0-alpha.1', '1.0.0-alpha.beta'), -1);
    strictEqual(cmp('1.0.0-beta.11', '1.0.0-beta.2'), 1);
  });
  it('ignores build metadata', () => {
    strictEqual(equal(parse('1.0.0+a'), parse('1.0.0+b')), true);
  });
});

describe('sort', () => {
  const words = ['1.10.0', '1.2.0', '1.2.0-rc.1', '0.9.0', '1.2.0+b2', '1.2.0+b1', '0.9.0'];
  it('sorts ascending without touching its input', () => {
    const list = words.map((s) => parse(s));
    deepStrictEqual(sort(list).map(String), ['0.9.0', '0.9.0', '1.2.0-rc.1', '1.2.0', '1.2.0+b1', '1.2.0+b2', '1.10.0']);
    deepStrictEqual(list.map(String), words);
  });
  it('sorts descending', () => {
    deepStrictEqual(rsort(words.map((s) => parse(s))).map(String), ['1.10.0', '1.2.0+b2', '1.2.0+b1', '1.2.0', '1.2.0-rc.1', '0.9.0', '0.9.0']);
  });
});
