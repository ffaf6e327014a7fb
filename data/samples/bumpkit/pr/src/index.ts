export { Version, parse } from './version';
export { compare, equal, sort, rsort } from './compare';
export { bump } from './bump';
export type { Part } from './bump';
export { Range, satisfies, maxSatisfying } from './range';
export { pretty, describeChange } from './pretty';

// VERSION is bumpkit's own version.
export const VERSION = '1.2.0';
