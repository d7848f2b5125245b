/**
 * The `--name value` options of the benchmark and report scripts (bench/, docs/scripts/): the
 * value after `name` on the command line, or `fallback` when it is absent.
 */
export function scriptArg(name: string, fallback: string): string {
  const args = process.argv.slice(2);
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1]! : fallback;
}

/** A numeric {@link scriptArg}. */
export function scriptNumber(name: string, fallback: number): number {
  return Number(scriptArg(name, String(fallback)));
}
