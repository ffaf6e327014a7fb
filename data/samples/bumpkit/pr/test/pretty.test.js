'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert');
const { parse } = require('../src/version');
const { pretty, describeChange } = require('../src/pretty');

describe('pretty', () => {
  it('names the parts', () => {
    assert.strictEqual(pretty(parse('1.2.3-rc.1+b7')), 'version 1.2.3, pre-release rc.1, build b7');
  });
  it('flags initial development', () => {
    assert.strictEqual(pretty(parse('0.4.0')), 'version 0.4.0, initial development');
  });
});

describe('describeChange', () => {
  const step = (a, b) => describeChange(parse(a), parse(b));
  it('names updates by their part', () => {
    assert.strictEqual(step('1.2.3', '2.0.0'), 'major update');
    assert.strictEqual(step('1.2.3', '1.3.0'), 'minor update');
    assert.strictEqual(step('1.2.3', '1.2.4'), 'patch update');
    assert.strictEqual(step('1.2.4-rc.0', '1.2.4-rc.1'), 'pre-release update');
    assert.strictEqual(step('1.2.4-rc.1', '1.2.4'), 'pre-release update');
  });
  it('names downgrades and no change', () => {
    assert.strictEqual(step('1.3.0', '1.2.9'), 'downgrade');
    assert.strictEqual(step('1.3.0+a', '1.3.0+b'), 'same version');
  });
});
