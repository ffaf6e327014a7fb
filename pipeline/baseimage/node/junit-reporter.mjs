// lolbench's JUnit reporter for node:test (issue 23). Node's own junit
// reporter names every case after its own title alone, so that tests of
// the same name in two describe blocks collide; this one writes one
// <testcase> per test that has no subtests, with classname = the test's
// file relative to the working directory (the .ts file for TypeScript) and
// name = its describe titles and its own joined by " › ". A describe block
// that fails while none of its tests does (a failing hook) is a case of its
// own. A file that could not be loaded is a case named "FILE [load]".
// It ships in lolbench's offline node image, out of the tested code's
// reach; lolbench-node-test passes it to node.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const LOAD = '\u2063load '; // lolbench-node-run's name for a file that failed to load

function rel(file) {
  if (!file) return '';
  let p = String(file);
  if (p.startsWith('file://')) {
    try { p = fileURLToPath(p); } catch { return p; }
  }
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? p : r.split('\\').join('/');
}

function esc(s) {
  return String(s).replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]/gu, '\ufffd')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function message(err) {
  if (!err) return '';
  const c = err.cause || err;
  const m = (c && (c.stack || c.message)) || String(c);
  return String(m).slice(0, 4000);
}

export default async function* junit(source) {
  // One stack of open tests per file: events of one file arrive in order.
  const stacks = new Map();
  const cases = [];
  for await (const ev of source) {
    const d = ev.data || {};
    if (ev.type !== 'test:start' && ev.type !== 'test:pass' && ev.type !== 'test:fail') continue;
    if (typeof d.nesting !== 'number' || d.nesting < 0) continue;
    const file = rel(d.file);
    let stack = stacks.get(file);
    if (!stack) { stack = []; stacks.set(file, stack); }
    if (ev.type === 'test:start') {
      stack.length = Math.min(stack.length, d.nesting);
      if (stack.length > 0) stack[stack.length - 1].parent = true;
      stack.push({ name: String(d.name), parent: false, failedChild: false });
      continue;
    }
    const me = stack.length > d.nesting && stack[d.nesting].name === String(d.name) ? stack[d.nesting] : null;
    const path = stack.slice(0, d.nesting).map((t) => t.name);
    path.push(String(d.name));
    const det = d.details || {};
    let status = ev.type === 'test:pass' ? 'passed' : 'failed';
    if (status === 'passed' && (d.skip !== undefined && d.skip !== false || d.todo !== undefined && d.todo !== false)) status = 'skipped';
    if (me && me.parent) {
      // A describe block: a case only when it failed on its own.
      if (status === 'failed' && !me.failedChild) cases.push({ file, name: path.join(' › '), status, msg: message(det.error) });
    } else if (String(d.name).startsWith(LOAD)) {
      cases.push({ file: '', name: String(d.name).slice(LOAD.length) + ' [load]', status: 'failed', msg: message(det.error) });
    } else {
      cases.push({ file, name: path.join(' › '), status, msg: message(det.error) });
    }
    if (status === 'failed') for (const t of stack.slice(0, d.nesting)) t.failedChild = true;
    if (me) stack.length = d.nesting;
  }
  const byFile = new Map();
  for (const c of cases) {
    if (!byFile.has(c.file)) byFile.set(c.file, []);
    byFile.get(c.file).push(c);
  }
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n';
  for (const [file, list] of byFile) {
    const failures = list.filter((c) => c.status === 'failed').length;
    const skipped = list.filter((c) => c.status === 'skipped').length;
    yield `  <testsuite name="${esc(file)}" tests="${list.length}" failures="${failures}" skipped="${skipped}">\n`;
    for (const c of list) {
      yield `    <testcase classname="${esc(c.file)}" name="${esc(c.name)}"`;
      if (c.status === 'passed') yield '/>\n';
      else if (c.status === 'skipped') yield '><skipped/></testcase>\n';
      else yield `><failure message="${esc(c.msg.split('\n')[0])}">${esc(c.msg)}</failure></testcase>\n`;
    }
    yield '  </testsuite>\n';
  }
  yield '</testsuites>\n';
}
