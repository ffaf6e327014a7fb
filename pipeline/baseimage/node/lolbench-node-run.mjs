// lolbench-node-run FILE...: loads node:test files in one process, in the
// order given, so that the canaries lolbench plants first and last in a
// folder run in the same process as the tests they watch (issue 23): a
// hook that rewrites results, or ends the process early, shows on them.
// TypeScript files are required through ts-node (lolbench-node-test
// registers it), JavaScript files imported. A file that fails to load is
// reported as a failing test of its own, and the others still run: before
// the reference solution, a test file may import a module the proposal
// adds.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';

const LOAD = '\u2063load ';
const req = createRequire(resolve('lolbench-node-run.cjs'));
for (const f of process.argv.slice(2)) {
  const abs = resolve(f);
  try {
    if (/\.(ts|cts|tsx)$/.test(f)) req(abs);
    else await import(pathToFileURL(abs).href);
  } catch (err) {
    test(LOAD + f, () => { throw err; });
  }
}
