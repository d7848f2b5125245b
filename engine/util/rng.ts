import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';

import { detLog, detPow } from './det-math.ts';

/** A seeded stream of uniform numbers; the same seed gives the same stream in every runtime. */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard exponential (a Gamma(1) draw). */
  exponential(): number;
  /** Standard normal. */
  normal(): number;
}

/** A seeded generator (xoroshiro128+ from pure-rand). */
export function createRng(seed: number): Rng {
  const g = xoroshiro128plus(seed | 0);
  const uniform = () => uniformFloat64(g);
  return {
    uniform,
    exponential: () => -detLog(1 - uniform()),
    // Marsaglia's polar method: only ln and √ (correctly rounded), no cosine, so every engine agrees.
    normal: () => {
      for (;;) {
        const u = 2 * uniform() - 1;
        const v = 2 * uniform() - 1;
        const s = u * u + v * v;
        if (s > 0 && s < 1) return u * Math.sqrt((-2 * detLog(s)) / s);
      }
    },
  };
}

/** A Gamma(shape, 1) draw (Marsaglia & Tsang 2000; shape < 1 by the boost u^(1/shape)). */
export function gammaDraw(shape: number, rng: Rng): number {
  if (shape <= 0) return 0;
  if (shape < 1) return gammaDraw(shape + 1, rng) * detPow(rng.uniform(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.uniform();
    if (detLog(u) < 0.5 * x * x + d - d * v + d * detLog(v)) return d * v;
  }
}

/**
 * The seed of sub-stream `index` of a run seed (a splitmix32-style hash), so start s of a
 * multi-start always gets the same seed whichever worker runs it.
 */
export function deriveSeed(runSeed: number, ...index: number[]): number {
  let h = runSeed >>> 0;
  for (const i of index) {
    h = (h + 0x9e3779b9 + (i >>> 0)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h | 0;
}
