// A simulated binary PLINK fileset with linkage disequilibrium, for linkage pruning's tests and
// benchmarks: each chromosome is a run of haplotype blocks of varied length (1–40 SNPs) and
// strength (a copy follows one of 2–6 founder haplotypes of its block, each allele flipped with a
// probability of 0–20 %), the founders' frequencies differing between populations; positions
// increase by 0.2–3.2 kb; a few SNPs are monomorphic; calls are missing at random (`missing`, and
// twelve times as often for a share `patchy` of the individuals and of the loci).
// Chromosome names are the caller's (any string PLINK accepts with --allow-extra-chr).
import { writeFileSync } from 'node:fs';
import { createRng, gammaDraw, type Rng } from '../engine/util/rng.ts';

export interface LdFilesetOptions {
  readonly individuals: number;
  readonly populations: number;
  /** Each chromosome's name and SNP count, in file order. */
  readonly chromosomes: readonly { readonly name: string; readonly snps: number }[];
  /** Share of genotypes written missing (default 0.015). */
  readonly missing?: number;
  /** Share of individuals, and of loci, whose genotypes go missing twelve times as often (default 0). */
  readonly patchy?: number;
  readonly seed?: number;
}

/** One block: founder alleles per SNP, the founders' frequencies per population, the flip rate. */
function drawBlock(rng: Rng, snps: number, pops: number) {
  const founders = 2 + Math.floor(rng.uniform() * 5);
  const alleles = Array.from({ length: snps }, () => {
    const p = 0.05 + 0.9 * rng.uniform();
    return Array.from({ length: founders }, () => (rng.uniform() < p ? 1 : 0));
  });
  const freqs = Array.from({ length: pops }, () => {
    const g = Array.from({ length: founders }, () => gammaDraw(0.8, rng));
    const s = g.reduce((a, b) => a + b, 0);
    return g.map((x) => x / s);
  });
  const flip = [0, 0.01, 0.05, 0.2][Math.floor(rng.uniform() * 4)]!;
  return { founders, alleles, freqs, flip };
}

/** Writes stem.bed/.bim/.fam; individual d belongs to population d mod populations. */
export function writeLdFileset(stem: string, o: LdFilesetOptions): void {
  const rng = createRng(o.seed ?? 7);
  const N = o.individuals;
  const per = Math.ceil(N / 4);
  const missing = o.missing ?? 0.015;
  const patchy = o.patchy ?? 0;
  // Drawn from a generator of their own, so that patchy: 0 writes the same file as before.
  const patches = createRng((o.seed ?? 7) + 1);
  const heavyIndividual = Array.from({ length: N }, () => patches.uniform() < patchy);
  const L = o.chromosomes.reduce((a, c) => a + c.snps, 0);
  const bed = new Uint8Array(3 + L * per);
  bed.set([0x6c, 0x1b, 0x01]);
  const bim: string[] = [];
  const copy = new Int32Array(2 * N);
  let l = 0;
  for (const chrom of o.chromosomes) {
    let pos = 1000;
    for (let s = 0; s < chrom.snps;) {
      const length = Math.min(chrom.snps - s, 1 + Math.floor(rng.uniform() * 40));
      const block = drawBlock(rng, length, o.populations);
      // Each copy's founder haplotype for the whole block.
      for (let c = 0; c < 2 * N; c++) {
        const f = block.freqs[(c >> 1) % o.populations]!;
        let u = rng.uniform();
        let h = 0;
        while (h < block.founders - 1 && u >= f[h]!) u -= f[h++]!;
        copy[c] = h;
      }
      for (let b = 0; b < length; b++, s++, l++) {
        pos += 200 + Math.floor(rng.uniform() * 3000);
        const monomorphic = rng.uniform() < 0.02;
        const heavyLocus = patches.uniform() < patchy;
        const offset = 3 + l * per;
        for (let d = 0; d < N; d++) {
          let code = 1; // missing
          const rate = missing * (heavyLocus ? 12 : 1) * (heavyIndividual[d] ? 12 : 1);
          if (rng.uniform() >= rate) {
            let a2 = 0;
            for (const c of [2 * d, 2 * d + 1]) {
              let a = monomorphic ? 0 : block.alleles[b]![copy[c]!]!;
              if (!monomorphic && rng.uniform() < block.flip) a = 1 - a;
              a2 += a;
            }
            // PLINK's codes, low bits first: 00 hom A1, 01 missing, 10 het, 11 hom A2.
            code = a2 === 0 ? 0 : a2 === 1 ? 2 : 3;
          }
          bed[offset + (d >> 2)]! |= code << ((d & 3) * 2);
        }
        bim.push(`${chrom.name}\t${chrom.name}:${pos}\t0\t${pos}\tA\tG`);
      }
    }
  }
  writeFileSync(`${stem}.bed`, bed);
  writeFileSync(`${stem}.bim`, bim.join('\n') + '\n');
  writeFileSync(
    `${stem}.fam`,
    Array.from({ length: N }, (_, d) => `p${d % o.populations} i${d} 0 0 0 -9`).join('\n') + '\n',
  );
}
