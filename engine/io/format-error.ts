/**
 * The one error type every parser throws for malformed input. It names the file, the
 * 1-based line and column where the problem was found, and what was expected there.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
    readonly expected?: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}` + (expected === undefined ? '' : ` (expected ${expected})`));
  }
}

/** True for the typed parse error (also across realms / structured clones, by name). */
export function isFormatError(e: unknown): e is FormatError {
  return e instanceof FormatError || (e instanceof Error && e.name === 'FormatError');
}
