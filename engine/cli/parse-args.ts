import { availableParallelism } from 'node:os';
import { Option } from 'commander';
import { SWEEP_DEFAULTS, runSettingProblem, type Model, type RunSetting } from '../util/choices.ts';

/** Parses a K range: "2..8", "2-8", "3" or "2,4,6". */
export function parseKRange(text: string): number[] {
  const t = text.trim();
  const range = /^(\d+)\s*(?:\.\.|-)\s*(\d+)$/.exec(t);
  let ks: number[];
  if (range) {
    const a = Number(range[1]);
    const b = Number(range[2]);
    if (a > b) throw new Error(`--k ${text}: the range is empty`);
    ks = Array.from({ length: b - a + 1 }, (_, i) => a + i);
  } else if (/^\d+(\s*,\s*\d+)*$/.test(t)) ks = t.split(',').map((x) => Number(x.trim()));
  else throw new Error(`--k takes a range such as 2..8 or a list such as 2,3,5; got "${text}"`);
  if (ks.some((k) => k < 1)) throw new Error('--k values must be at least 1');
  return [...new Set(ks)].sort((x, y) => x - y);
}

/** A positive integer flag. */
export function positiveInt(v: unknown, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a positive whole number, got "${String(v)}"`);
  return n;
}

/** A whole-number flag, 0 allowed. */
export function wholeNumber(v: unknown, flag: string): number {
  const n = Number(v);
  if (v === '' || !Number.isInteger(n) || n < 0)
    throw new Error(`${flag} takes a whole number (0 or more), got "${String(v)}"`);
  return n;
}

/** A number flag within bounds. */
export function numberIn(v: unknown, flag: string, min: number, max: number): number {
  const n = Number(v);
  if (!(n >= min && n <= max)) throw new Error(`${flag} takes a number from ${min} to ${max}, got "${String(v)}"`);
  return n;
}

/** One of a list of choices. */
export function choice<T extends string>(v: unknown, flag: string, choices: readonly T[]): T {
  if (!choices.includes(v as T)) throw new Error(`${flag} must be one of ${choices.join(', ')}; got "${String(v)}"`);
  return v as T;
}

/** The help text of a choice option: its values and what each means. */
export function choiceHelp(
  what: string,
  list: { readonly values: readonly string[]; readonly labels: Readonly<Record<string, string>> },
): string {
  return `${what}: ${list.values.map((v) => `${v} (${list.labels[v]})`).join(' | ')}`;
}

/** A numeric sweep setting within its range (choices.ts RUN_SETTINGS), with the flag named. */
export function setting(v: unknown, flag: string, name: RunSetting, max?: number, why?: string): number {
  const n = v === '' || v === undefined ? Number.NaN : Number(v);
  const problem = runSettingProblem(name, n, max, why, `"${String(v)}"`);
  if (problem) throw new Error(`${flag}: ${problem}`);
  return n;
}

/** The `--threads` option, every core by default (shown as such in the help, on any machine). */
export function threadsFlag(description: string): Option {
  return new Option('--threads <t>', description).default(String(availableParallelism()), 'every core');
}

/** `--threads`: at most this machine's cores, as the app's Threads field (more only share the cores, each with its own copy of the data). */
export function threadsOption(v: unknown, cores = availableParallelism()): number {
  return setting(v, '--threads', 'threads', cores, "this machine's cores");
}

/**
 * `--cv <folds>`: the model's default when absent (SWEEP_DEFAULTS: 5 for the admixture model, none
 * for the mixture model), 0 for none, else a positive whole number — refused for a model without
 * a CV error.
 */
export function cvFoldsOption(v: unknown, model: Model): number {
  if (v === undefined) return SWEEP_DEFAULTS[model].cvFolds;
  if (v === '0' || v === 0) return 0;
  const folds = positiveInt(v, '--cv');
  if (model !== 'admixture') throw new Error('--cv belongs to the admixture model (--model admixture)');
  return folds;
}
