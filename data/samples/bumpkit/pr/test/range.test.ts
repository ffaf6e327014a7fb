import { describe, it } from 'node:test';
import { strictEqual, throws } from 'node:assert';
import { Range, satisfies, maxSatisfying } from '../src/range';
import { parse } from '../src/version';

describe('satisfies', () => {
  it('reads plain comparators', () => {
    strictEqual(satisfies('1.2.3', '>=1.2.3'), true);
    strictEqual(satisfies('1.2.3', '>1.2.3'), false);
    strictEqual(satisfies('1.2.2', '<1.2.3'), true);
    strictEqual(satisfies('1.2.3', '<=1.2.3'), true);
    strictEqual(satisfies('1.2.3', '1.2.3'), true);
    strictEqual(satisfies('1.2.4', '=1.2.3'), false);
  });
  it('intersects words and unites alternatives', () => {
    strictEqual(satisfies('2.5.0', '>=2.1.0 <3.0.0'), true);
    strictEqual(satisfies('3.0.0', '>=2.1.0 <3.0.0'), false);
    strictEqual(satisfies('1.4.0', '^1.2.0 || >=2.1.0 <3.0.0'), true);
    strictEqual(satisfies('2.0.5', '^1.2.0 || >=2.1.0 <3.0.0'), false);
  });
  it('reads caret ranges', () => {
    strictEqual(satisfies('1.9.9', '^1.2.3'), true);
    strictEqual(satisfies('2.0.0', '^1.2.3'), false);
    strictEqual(satisfies('0.2.9', '^0.2.3'), true);
    strictEqual(satisfies('0.3.0', '^0.2.3'), false);
    strictEqual(satisfies('0.0.4', '^0.0.3'), false);
  });
  it('reads tilde ranges', () => {
    strictEqual(satisfies('1.2.9', '~1.2.3'), true);
    strictEqual(satisfies('1.3.0', '~1.2.3'), false);
  });
  it('lets pre-releases in only by name', () => {
    strictEqual(satisfies('1.2.3-beta.4', '^1.2.3-beta.2'), true);
    strictEqual(satisfies('1.2.4-beta.1', '^1.2.3-beta.2'), false);
    strictEqual(satisfies('2.0.0-rc.1', '^1.2.3'), false);
  });
  it('names a bad range', () => {
    throws(() => Range.parse('>=1.2'), /bad range '>=1.2': bad version '1.2'/);
    throws(() => Range.parse('^1.0.0 ||'), /bad range '\^1.0.0 \|\|': empty alternative/);
    throws(() => Range.parse('1.0.0 || latest'), /bad range '1.0.0 \|\| latest': bad comparator 'latest'/);
  });
});

describe('maxSatisfying', () => {
  const list = ['1.2.0', '1.9.1', '2.0.0', '1.10.0-rc.1'].map((s) => parse(s));
  it('finds the highest match', () => {
    strictEqual(maxSatisfying(list, '^1.0.0')?.toString(), '1.9.1');
  });
  it('finds none', () => {
    strictEqual(maxSatisfying(list, '>=3.0.0'), undefined);
  });
});
