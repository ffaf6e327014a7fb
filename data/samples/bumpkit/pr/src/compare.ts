import { Version } from './version';

function comparePre(a: readonly (string | number)[], b: readonly (string | number)[]): number {
  if (a.length === 0 || b.length === 0) {
    // A version without a pre-release comes after one with.
    return b.length - a.length === 0 ? 0 : a.length === 0 ? 1 : -1;
  }
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) {
      continue;
    }
    if (typeof x === 'number' && typeof y === 'number') {
      return x < y ? -1 : 1;
    }
    if (typeof x === 'number') {
      return -1;
    }
    if (typeof y === 'number') {
      return 1;
    }
    return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

// compare orders two versions: -1, 0 or 1. Build metadata is ignored.
export function compare(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (a[k] !== b[k]) {
      return a[k] < b[k] ? -1 : 1;
    }
  }
  return comparePre(a.prerelease, b.prerelease);
}

// equal reports whether two versions have the same precedence.
export function equal(a: Version, b: Version): boolean {
  return compare(a, b) === 0;
}

// sort returns the versions in ascending order, a new array; versions of
// equal precedence keep their order, then their build metadata decides
// (BKEP-2, "Sorting").
export function sort(list: readonly Version[]): Version[] {
  return [...list].sort((a, b) => compare(a, b) || compareBuild(a, b));
}

// rsort is sort, descending.
export function rsort(list: readonly Version[]): Version[] {
  return sort(list).reverse();
}

function compareBuild(a: Version, b: Version): number {
  const x = a.build.join('.');
  const y = b.build.join('.');
  if (x === y) {
    return 0;
  }
  return x < y ? -1 : 1;
}
