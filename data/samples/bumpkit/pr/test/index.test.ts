import { it } from 'node:test';
import { strictEqual } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as bumpkit from '../src';

it('is version 1.2.0 in code and in package.json', () => {
  strictEqual(bumpkit.VERSION, '1.2.0');
  strictEqual(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version, '1.2.0');
});

it('exports the proposal from its index', () => {
  strictEqual(bumpkit.bump(bumpkit.parse('1.0.0'), 'minor').toString(), '1.1.0');
  strictEqual(bumpkit.satisfies('1.5.0', '~1.5.0'), true);
  strictEqual(bumpkit.sort([bumpkit.parse('2.0.0'), bumpkit.parse('1.0.0')])[0].toString(), '1.0.0');
  strictEqual(bumpkit.describeChange(bumpkit.parse('1.0.0'), bumpkit.parse('1.0.1')), 'patch update');
});
