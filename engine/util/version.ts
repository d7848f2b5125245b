/**
 * The program version, written into every result (and checked by `merge`): package.json's, which
 * tests/version.test.ts keeps equal (a change of results is at least a minor version, CHANGELOG.md).
 */
export const VERSION = '0.5.0';
