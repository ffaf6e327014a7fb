import { compare } from './compare';
import { parse, Version } from './version';

type Comparator = { op: '<' | '<=' | '>' | '>=' | '='; v: Version };

// A Range is a union of intersections of comparators (BKEP-2, "Ranges").
export class Range {
  private constructor(readonly source: string, private readonly sets: Comparator[][]) {}

  static parse(text: string): Range {
    const sets = text.split('||').map((alt) => {
      const words = alt.trim().split(/\s+/).filter((w) => w !== '');
      if (words.length === 0) {
        throw new SyntaxError(`bad range '${text}': empty alternative`);
      }
      return words.flatMap((w) => comparators(w, text));
    });
    return new Range(text, sets);
  }

  test(v: Version): boolean {
    return this.sets.some((set) => set.every((c) => holds(c, v)) && (!v.isPrerelease || set.some((c) => samePrerelease(c.v, v))));
  }
}

function comparators(word: string, source: string): Comparator[] {
  const m = /^(\^|~|<=|>=|<|>|=)?(v?\d.*)$/.exec(word);
  if (m === null) {
    throw new SyntaxError(`bad range '${source}': bad comparator '${word}'`);
  }
  let v: Version;
  try {
    v = parse(m[2]);
  } catch {
    throw new SyntaxError(`bad range '${source}': bad version '${m[2]}'`);
  }
  switch (m[1]) {
    case '^': {
      const upper = v.major > 0 ? new Version(v.major + 1, 0, 0) : v.minor > 0 ? new Version(0, v.minor + 1, 0) : new Version(0, 0, v.patch + 1);
      return [{ op: '>=', v }, { op: '<', v: upper }];
    }
    case '~':
      return [{ op: '>=', v }, { op: '<', v: new Version(v.major, v.minor + 1, 0) }];
    case undefined:
      return [{ op: '=', v }];
    default:
      return [{ op: m[1] as Comparator['op'], v }];
  }
}

// samePrerelease: a pre-release version satisfies an alternative only
// through a comparator that names a pre-release of its own release.
function samePrerelease(c: Version, v: Version): boolean {
  return c.isPrerelease && c.major === v.major && c.minor === v.minor && c.patch === v.patch;
}

function holds(c: Comparator, v: Version): boolean {
  const d = compare(v, c.v);
  switch (c.op) {
    case '<':
      return d < 0;
    case '<=':
      return d <= 0;
    case '>':
      return d > 0;
    case '>=':
      return d >= 0;
    default:
      return d === 0;
  }
}

// satisfies reports whether a version is in a range.
export function satisfies(version: Version | string, range: Range | string): boolean {
  const v = typeof version === 'string' ? parse(version) : version;
  const r = typeof range === 'string' ? Range.parse(range) : range;
  return r.test(v);
}

// maxSatisfying returns the highest version of the list in the range, or
// undefined.
export function maxSatisfying(list: readonly Version[], range: Range | string): Version | undefined {
  const r = typeof range === 'string' ? Range.parse(range) : range;
  let best: Version | undefined;
  for (const v of list) {
    if (r.test(v) && (best === undefined || compare(v, best) > 0)) {
      best = v;
    }
  }
  return best;
}
