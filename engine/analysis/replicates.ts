import { alignToReference, permuteColumns } from '../model/align.ts';
import { maxAssignment } from '../util/hungarian.ts';

// Replicate agreement, modes and colours across K: docs/algorithms.md §7.

/** A membership matrix with its likelihood: one replicate at one K. */
export interface Replicate {
  readonly Q: Float64Array;
  readonly logLik: number;
}

/**
 * CLUMPP's H' similarity of two aligned (N, K) membership matrices:
 * 1 − ‖Q1 − Q2‖_F / √(‖Q1 − W‖_F · ‖Q2 − W‖_F), W the matrix of 1/K (1 = identical).
 */
export function similarityH(q1: Float64Array, q2: Float64Array, K: number): number {
  let d = 0;
  let a = 0;
  let b = 0;
  for (let k = 0; k < q1.length; k++) {
    d += (q1[k]! - q2[k]!) ** 2;
    a += (q1[k]! - 1 / K) ** 2;
    b += (q2[k]! - 1 / K) ** 2;
  }
  const denom = Math.sqrt(Math.sqrt(a) * Math.sqrt(b));
  return denom === 0 ? (d === 0 ? 1 : 0) : 1 - Math.sqrt(d) / denom;
}

export interface AlignedK {
  readonly K: number;
  /** Replicate matrices with columns permuted to the reference (highest likelihood). */
  readonly aligned: readonly Float64Array[];
  /** perms[r][c]: column of replicate r that became column c. */
  readonly perms: readonly Int32Array[];
  readonly reference: number;
  /** Mean pairwise H' between aligned replicates (1 with one replicate). */
  readonly meanSimilarity: number;
  /** Modes: groups of replicates with H' ≥ threshold to the mode's first (best) member; largest first. */
  readonly modes: readonly { readonly members: readonly number[]; readonly meanQ: Float64Array }[];
}

/**
 * Aligns the replicates of one K (CLUMPP-style): every replicate is matched to the one with the
 * highest likelihood by maximum membership overlap (Hungarian assignment), then replicates are
 * grouped into modes (as CLUMPAK and pong do) — each joins the first mode whose leading member it
 * resembles with H' ≥ `threshold`, visiting replicates by decreasing likelihood.
 */
export function alignReplicates(reps: readonly Replicate[], N: number, K: number, threshold = 0.9): AlignedK {
  if (reps.length === 0) throw new RangeError('alignReplicates: no replicate');
  let ref = 0;
  reps.forEach((r, k) => {
    if (r.logLik > reps[ref]!.logLik) ref = k;
  });
  const perms = reps.map((r) => alignToReference(reps[ref]!.Q, r.Q, N, K));
  const aligned = reps.map((r, k) => permuteColumns(r.Q, N, K, perms[k]!));
  let sum = 0;
  let pairs = 0;
  for (let a = 0; a < aligned.length; a++)
    for (let b = a + 1; b < aligned.length; b++) {
      sum += similarityH(aligned[a]!, aligned[b]!, K);
      pairs++;
    }
  const order = reps.map((_, k) => k).sort((a, b) => reps[b]!.logLik - reps[a]!.logLik || a - b);
  const groups: number[][] = [];
  for (const k of order) {
    const home = groups.find((g) => {
      const lead = g[0]!;
      const p = alignToReference(aligned[lead]!, aligned[k]!, N, K);
      return similarityH(aligned[lead]!, permuteColumns(aligned[k]!, N, K, p), K) >= threshold;
    });
    if (home) home.push(k);
    else groups.push([k]);
  }
  groups.sort((a, b) => b.length - a.length);
  const modes = groups.map((members) => {
    const lead = aligned[members[0]!]!;
    const meanQ = new Float64Array(N * K);
    for (const m of members) {
      const p = alignToReference(lead, aligned[m]!, N, K);
      const q = permuteColumns(aligned[m]!, N, K, p);
      for (let x = 0; x < q.length; x++) meanQ[x]! += q[x]! / members.length;
    }
    return { members, meanQ };
  });
  return { K, aligned, perms, reference: ref, meanSimilarity: pairs === 0 ? 1 : sum / pairs, modes };
}

/**
 * Colours across K: cluster c at K+1 keeps the colour of the cluster at K it overlaps most
 * (Hungarian matching of K+1 columns to the K colours already used), and the one cluster left
 * over takes the next new colour. Input: one representative Q per K, in increasing K.
 * Returns, per K, colourOf[c] = palette index of cluster c.
 */
export function coloursAcrossK(reps: readonly { K: number; Q: Float64Array }[], N: number): Int32Array[] {
  const out: Int32Array[] = [];
  reps.forEach((rep, idx) => {
    if (idx === 0) {
      out.push(Int32Array.from({ length: rep.K }, (_, c) => c));
      return;
    }
    const prev = reps[idx - 1]!;
    const prevColours = out[idx - 1]!;
    const n = Math.max(rep.K, prev.K);
    // score[a][b]: overlap of cluster a at this K with cluster b at the previous K.
    const score = new Float64Array(n * n);
    for (let d = 0; d < N; d++)
      for (let a = 0; a < rep.K; a++) {
        const qa = rep.Q[d * rep.K + a]!;
        if (qa === 0) continue;
        for (let b = 0; b < prev.K; b++) score[a * n + b]! += qa * prev.Q[d * prev.K + b]!;
      }
    const assign = maxAssignment(score, n);
    const used = new Set<number>(prevColours);
    let next = Math.max(-1, ...prevColours) + 1;
    const colours = new Int32Array(rep.K);
    for (let a = 0; a < rep.K; a++) {
      const b = assign[a]!;
      if (b < prev.K) colours[a] = prevColours[b]!;
      else {
        while (used.has(next)) next++;
        colours[a] = next;
        used.add(next);
      }
    }
    out.push(colours);
  });
  return out;
}
