import { describe, it } from 'node:test';
import { deepStrictEqual, strictEqual, throws } from 'node:assert';
import { parse } from '../src/version';

describe('parse', () => {
  it('reads the three numbers', () => {
    const v = parse('1.22.333');
    deepStrictEqual([v.major, v.minor, v.patch], [1, 22, 333]);
  });
  it('reads pre-release and build', () => {
    const v = parse('v2.0.0-rc.1+sha.5114f85');
    deepStrictEqual(v.prerelease, ['rc', 1]);
    deepStrictEqual(v.build, ['sha', '5114f85']);
    strictEqual(v.toString(), '2.0.0-rc.1+sha.5114f85');
  });
  it('refuses what is no version', () => {
    throws(() => parse('1.2'), /want MAJOR.MINOR.PATCH/);
    throws(() => parse('1.02.3'), /minor is not a number/);
    throws(() => parse('1.2.3-a..b'), /bad identifier ''/);
  });
});
