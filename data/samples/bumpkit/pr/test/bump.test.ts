import { describe, it } from 'node:test';
import { strictEqual, throws } from 'node:assert';
import { bump, Part } from '../src/bump';
import { parse } from '../src/version';

const next = (v: string, part: Part, id?: string) => bump(parse(v), part, id).toString();

describe('bump', () => {
  describe('releases', () => {
    it('raises major, minor and patch', () => {
      strictEqual(next('1.2.3', 'major'), '2.0.0');
      strictEqual(next('1.2.3', 'minor'), '1.3.0');
      strictEqual(next('1.2.3', 'patch'), '1.2.4');
    });
    it('drops build metadata', () => {
      strictEqual(next('1.2.3+b9', 'patch'), '1.2.4');
    });
    it('releases a pre-release of that part', () => {
      strictEqual(next('2.0.0-rc.1', 'major'), '2.0.0');
      strictEqual(next('1.3.0-rc.1', 'minor'), '1.3.0');
      strictEqual(next('1.2.4-rc.1', 'patch'), '1.2.4');
      strictEqual(next('1.3.1-rc.1', 'minor'), '1.4.0');
      strictEqual(next('2.1.0-rc.1', 'major'), '3.0.0');
    });
  });
  describe('pre-releases', () => {
    it('starts at 0 on the next patch', () => {
      strictEqual(next('1.2.3', 'prerelease'), '1.2.4-rc.0');
      strictEqual(next('1.2.3', 'prerelease', 'beta'), '1.2.4-beta.0');
    });
    it('counts up within the same id', () => {
      strictEqual(next('1.2.4-rc.0', 'prerelease'), '1.2.4-rc.1');
      strictEqual(next('1.2.4-beta.9', 'prerelease', 'beta'), '1.2.4-beta.10');
    });
    it('restarts at 0 for another id', () => {
      strictEqual(next('1.2.4-beta.3', 'prerelease', 'rc'), '1.2.4-rc.0');
    });
  });
  it('refuses unknown parts and ids', () => {
    throws(() => next('1.2.3', 'micro' as Part), /unknown part 'micro'/);
    throws(() => next('1.2.3', 'prerelease', '9x'), /bad pre-release id '9x'/);
  });
});
