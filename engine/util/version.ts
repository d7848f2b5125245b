import packageJson from '../../package.json' with { type: 'json' };

/**
 * The program version, written into every result (and checked by `merge`): package.json's, the
 * one place it is set (a change of results is at least a minor version, CHANGELOG.md).
 */
export const VERSION: string = packageJson.version;
