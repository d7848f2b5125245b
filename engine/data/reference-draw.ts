// A cohort too large for one fit is fitted on a reference drawn from it and the others projected
// onto that reference in shards (docs/scale.md): the draw and the shards.
import type { ReferenceDraw } from '../util/choices.ts';
import { createRng, deriveSeed } from '../util/rng.ts';
import type { Individual } from './genotype-data.ts';

/** The reference draw's seed stream, apart from the starts' and the CV folds'. */
const REFERENCE_STREAM = 0x7e7e;

/**
 * `size` of the individuals (indices, ascending) drawn with `seed`: at random, or by population —
 * each population's share of the reference its share of the individuals (largest remainders; the
 * individuals without a population are one more group), drawn at random within it.
 */
export function drawReference(
  individuals: readonly Pick<Individual, 'population'>[],
  size: number,
  seed: number,
  how: ReferenceDraw,
): number[] {
  const N = individuals.length;
  if (!Number.isInteger(size) || size < 2 || size >= N)
    throw new RangeError(
      `the reference takes a whole number of individuals from 2 to ${N - 1} (the others are projected), got ${size}`,
    );
  // A stream of its own, hashed from the seed (xoroshiro seeded with a small number starts near 1).
  const rng = createRng(deriveSeed(seed, REFERENCE_STREAM));
  if (how === 'random')
    return sample(
      Array.from({ length: N }, (_, i) => i),
      size,
      rng.uniform,
    ).sort((a, b) => a - b);
  const groups = new Map<string, number[]>();
  individuals.forEach((ind, i) => {
    const key = ind.population ?? '';
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  });
  // Quotas by largest remainder, ties to the group met first.
  const entries = [...groups.values()];
  const exact = entries.map((g) => (size * g.length) / N);
  const quota = exact.map(Math.floor);
  const order = exact.map((x, j) => [x - Math.floor(x), j] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let r = size - quota.reduce((a, b) => a + b, 0), t = 0; r > 0; r--, t++) quota[order[t]![1]]!++;
  return entries.flatMap((g, j) => sample(g, quota[j]!, rng.uniform)).sort((a, b) => a - b);
}

/** `count` of `from` drawn without replacement (a partial Fisher–Yates shuffle of a copy). */
function sample(from: readonly number[], count: number, uniform: () => number): number[] {
  const a = [...from];
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(uniform() * (a.length - i));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a.slice(0, count);
}

/** `indices` in `shards` consecutive runs, in order, their sizes differing by at most one. */
export function splitShards(indices: readonly number[], shards: number): number[][] {
  if (!Number.isInteger(shards) || shards < 1 || shards > indices.length)
    throw new RangeError(
      `shards: a whole number from 1 to ${indices.length} (the individuals to project), got ${shards}`,
    );
  return Array.from({ length: shards }, (_, s) =>
    indices.slice(Math.floor((s * indices.length) / shards), Math.floor(((s + 1) * indices.length) / shards)),
  );
}
