'use strict';
// pretty says what a version is, in words, for command-line tools. Plain
// JavaScript: the tools that print it predate the TypeScript sources.
const { compare } = require('./compare');

function pretty(v) {
  const words = [`version ${v.major}.${v.minor}.${v.patch}`];
  if (v.prerelease.length > 0) {
    words.push(`pre-release ${v.prerelease.join('.')}`);
  }
  if (v.build.length > 0) {
    words.push(`build ${v.build.join('.')}`);
  }
  if (v.major === 0) {
    words.push('initial development');
  }
  return words.join(', ');
}

// describeChange names the step from one version to another (BKEP-2,
// "Describing changes").
function describeChange(from, to) {
  const d = compare(from, to);
  if (d === 0) {
    return 'same version';
  }
  if (d > 0) {
    return 'downgrade';
  }
  if (to.major !== from.major) {
    return 'major update';
  }
  if (to.minor !== from.minor) {
    return 'minor update';
  }
  if (to.patch !== from.patch) {
    return 'patch update';
  }
  return 'pre-release update';
}

module.exports = { pretty, describeChange };
