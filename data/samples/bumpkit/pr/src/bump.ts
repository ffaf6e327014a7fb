import { Version } from './version';

// Part names what bump raises.
export type Part = 'major' | 'minor' | 'patch' | 'prerelease';

// bump returns the next version of the given part (BKEP-2, "Bumping").
export function bump(v: Version, part: Part, id = 'rc'): Version {
  switch (part) {
    case 'major':
      if (v.isPrerelease && v.minor === 0 && v.patch === 0) {
        return new Version(v.major, 0, 0);
      }
      return new Version(v.major + 1, 0, 0);
    case 'minor':
      if (v.isPrerelease && v.patch === 0) {
        return new Version(v.major, v.minor, 0);
      }
      return new Version(v.major, v.minor + 1, 0);
    case 'patch':
      if (v.isPrerelease) {
        return new Version(v.major, v.minor, v.patch);
      }
      return new Version(v.major, v.minor, v.patch + 1);
    case 'prerelease':
      return nextPrerelease(v, id);
    default:
      throw new RangeError(`unknown part '${String(part)}'`);
  }
}

function nextPrerelease(v: Version, id: string): Version {
  if (!/^[A-Za-z][0-9A-Za-z-]*$/.test(id)) {
    throw new RangeError(`bad pre-release id '${id}'`);
  }
  if (!v.isPrerelease) {
    return new Version(v.major, v.minor, v.patch + 1, [id, 0]);
  }
  const pre = [...v.prerelease];
  const last = pre[pre.length - 1];
  if (pre[0] === id && typeof last === 'number') {
    pre[pre.length - 1] = last + 1;
    return new Version(v.major, v.minor, v.patch, pre);
  }
  return new Version(v.major, v.minor, v.patch, [id, 0]);
}
