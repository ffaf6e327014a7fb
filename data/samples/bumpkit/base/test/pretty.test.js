'use strict';
const { describe, it } = require('node:test');
const assert = require('node:assert');
const { parse } = require('../src/version');
const { pretty } = require('../src/pretty');

describe('pretty', () => {
  it('names the parts', () => {
    assert.strictEqual(pretty(parse('1.2.3-rc.1+b7')), 'version 1.2.3, pre-release rc.1, build b7');
  });
  it('flags initial development', () => {
    assert.strictEqual(pretty(parse('0.4.0')), 'version 0.4.0, initial development');
  });
});
