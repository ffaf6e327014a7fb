// A version as Semantic Versioning 2.0 writes it:
// MAJOR.MINOR.PATCH, then an optional pre-release after "-" and build
// metadata after "+".
export class Version {
  constructor(
    readonly major: number,
    readonly minor: number,
    readonly patch: number,
    readonly prerelease: readonly (string | number)[] = [],
    readonly build: readonly string[] = [],
  ) {}

  get isPrerelease(): boolean {
    return this.prerelease.length > 0;
  }

  toString(): string {
    let s = `${this.major}.${this.minor}.${this.patch}`;
    if (this.prerelease.length > 0) {
      s += '-' + this.prerelease.join('.');
    }
    if (this.build.length > 0) {
      s += '+' + this.build.join('.');
    }
    return s;
  }
}

const NUMBER = /^(0|[1-9]\d*)$/;
const IDENT = /^[0-9A-Za-z-]+$/;

function part(text: string, what: string, source: string): number {
  if (!NUMBER.test(text)) {
    throw new SyntaxError(`bad version '${source}': ${what} is not a number`);
  }
  return Number(text);
}

// parse reads a version; a leading "v" and blanks around it are allowed.
export function parse(text: string): Version {
  const source = text;
  let s = text.trim();
  if (s.startsWith('v')) {
    s = s.slice(1);
  }
  let build: string[] = [];
  const plus = s.indexOf('+');
  if (plus >= 0) {
    build = s.slice(plus + 1).split('.');
    s = s.slice(0, plus);
  }
  let pre: (string | number)[] = [];
  const dash = s.indexOf('-');
  if (dash >= 0) {
    pre = s.slice(dash + 1).split('.').map((id) => (NUMBER.test(id) ? Number(id) : id));
    s = s.slice(0, dash);
  }
  for (const id of [...pre.map(String), ...build]) {
    if (!IDENT.test(id)) {
      throw new SyntaxError(`bad version '${source}': bad identifier '${id}'`);
    }
  }
  const nums = s.split('.');
  if (nums.length !== 3) {
    throw new SyntaxError(`bad version '${source}': want MAJOR.MINOR.PATCH`);
  }
  return new Version(part(nums[0], 'major', source), part(nums[1], 'minor', source), part(nums[2], 'patch', source), pre, build);
}
