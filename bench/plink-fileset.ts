// A simulated binary PLINK fileset for the benchmarks: Balding–Nichols SNPs (F_ST 0.05, or one F_ST
// per population, allele frequencies 0.05–0.95 in the ancestral population), individuals assigned to
// `pops` populations in turn, 1 % missing genotypes; written one batch of SNPs at a time, so memory stays small at any size.
import { createWriteStream, renameSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRng, gammaDraw } from '../engine/util/rng.ts';

/** Writes stem.bed/.bim/.fam for N individuals × L SNPs (the .bed last, renamed into place when whole). */
export async function writePlinkFileset(
  stem: string,
  N: number,
  L: number,
  POPS: number,
  fsts: readonly number[] = Array.from({ length: POPS }, () => 0.05),
  admixed?: Admixed,
): Promise<void> {
  const rng = createRng(1);
  // Admixed individuals: ancestry Q_d from a Dirichlet, genotypes from Σ_k Q_dk f_lk.
  const Q = admixed ? drawAncestry(N, POPS, admixed, rng) : undefined;
  if (Q)
    writeFileSync(
      `${stem}.Q.truth`,
      Array.from({ length: N }, (_, d) =>
        Array.from(Q.subarray(d * POPS, (d + 1) * POPS), (x) => x.toFixed(6)).join(' '),
      ).join('\n') + '\n',
    );
  const cs = fsts.map((fst) => (1 - fst) / fst);
  const per = Math.ceil(N / 4);
  const batch = 1000;
  const bed = createWriteStream(`${stem}.bed.part`);
  const bim = createWriteStream(`${stem}.bim`);
  await new Promise((resolve) => bed.write(Buffer.from([0x6c, 0x1b, 0x01]), resolve));
  const buf = Buffer.alloc(per * batch);
  const f = new Float64Array(POPS);
  for (let l0 = 0; l0 < L; l0 += batch) {
    const n = Math.min(batch, L - l0);
    buf.fill(0);
    const lines: string[] = [];
    for (let s = 0; s < n; s++) {
      const l = l0 + s;
      const p = 0.05 + 0.9 * rng.uniform();
      for (let k = 0; k < POPS; k++) {
        const x = gammaDraw(p * cs[k]!, rng);
        f[k] = x / (x + gammaDraw((1 - p) * cs[k]!, rng));
      }
      for (let d = 0; d < N; d++) {
        let q = 0;
        if (Q) for (let k = 0; k < POPS; k++) q += Q[d * POPS + k]! * f[k]!;
        else q = f[d % POPS]!;
        // PLINK's 2-bit codes, low bits first: 00 hom A1, 01 missing, 10 het, 11 hom A2.
        let bits = 1;
        if (rng.uniform() >= 0.01) {
          const a2 = (rng.uniform() < q ? 1 : 0) + (rng.uniform() < q ? 1 : 0);
          bits = a2 === 0 ? 0 : a2 === 1 ? 2 : 3;
        }
        buf[s * per + (d >> 2)]! |= bits << ((d & 3) * 2);
      }
      lines.push(`1\tsnp${l}\t0\t${l + 1}\tA\tG`);
    }
    if (!bed.write(buf.subarray(0, n * per))) await once(bed, 'drain');
    if (!bim.write(lines.join('\n') + '\n')) await once(bim, 'drain');
  }
  await Promise.all([new Promise((r) => bed.end(r)), new Promise((r) => bim.end(r))]);
  writeFileSync(`${stem}.fam`, Array.from({ length: N }, (_, d) => `p${d % POPS} i${d} 0 0 0 -9`).join('\n') + '\n');
  renameSync(`${stem}.bed.part`, `${stem}.bed`);
}

/**
 * Ancestry of admixed individuals: individual d's home population is d mod POPS; its Q is drawn
 * from a Dirichlet with weight `home` on that population and `other` on each of the rest.
 */
export interface Admixed {
  readonly home: number;
  readonly other: number;
}

function drawAncestry(N: number, POPS: number, a: Admixed, rng: ReturnType<typeof createRng>): Float64Array {
  const Q = new Float64Array(N * POPS);
  for (let d = 0; d < N; d++) {
    let sum = 0;
    for (let k = 0; k < POPS; k++) sum += Q[d * POPS + k] = gammaDraw(k === d % POPS ? a.home : a.other, rng);
    for (let k = 0; k < POPS; k++) Q[d * POPS + k]! /= sum;
  }
  return Q;
}
