'use strict';
// pretty says what a version is, in words, for command-line tools. Plain
// JavaScript: the tools that print it predate the TypeScript sources.

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

module.exports = { pretty };
