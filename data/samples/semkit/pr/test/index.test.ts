import { it } from 'node:test';
import { strictEqual } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as semkit from '../src';

it('is version 1.2.0 in code and in package.json', () => {
  strictEqual(semkit.VERSION, '1.2.0');
  strictEqual(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version, '1.2.0');
});

it('exports the proposal from its index', () => {
  strictEqual(semkit.bump(semkit.parse('1.0.0'), 'minor').toString(), '1.1.0');
  strictEqual(semkit.satisfies('1.5.0', '~1.5.0'), true);
  strictEqual(semkit.sort([semkit.parse('2.0.0'), semkit.parse('1.0.0')])[0].toString(), '1.0.0');
  strictEqual(semkit.describeChange(semkit.parse('1.0.0'), semkit.parse('1.0.1')), 'patch update');
});
