export { Version, parse } from './version';
export { compare, equal } from './compare';
export { pretty } from './pretty';

// VERSION is bumpkit's own version.
export const VERSION = '1.1.0';
