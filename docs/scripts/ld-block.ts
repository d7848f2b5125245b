// Why prune for linkage: a simulated genome with weak population structure and one long inversion
// (its inverted copies carry the same alleles along 1,000 SNPs), segregating in one population or
// in all three. The PCA of all SNPs, of those `--indep-pairwise 50 10 0.1` leaves (PLINK's tutorial
// settings) and of those a 500 kb window leaves: for each leading PC, its correlation with the
// inversion genotype (copies carried, 0–2) and with population membership (the largest |r| over
// the three populations' indicators).
// Usage: node --import tsx docs/scripts/ld-block.ts > docs/ld-block.md
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { applyFilters } from '../../engine/data/filters.ts';
import { principalComponents } from '../../engine/service/principal-components.ts';
import { createRng, gammaDraw } from '../../engine/util/rng.ts';
import { LD_PRUNE_DEFAULTS } from '../../engine/util/choices.ts';
import { madeAt } from '../../bench/made-at.ts';
import { correlation } from '../../bench/correlation.ts';

const T0 = performance.now();
const N = 300;
const POPS = 3;
const CHROMOSOMES = 5;
const PER_CHROMOSOME = 2000;
const FST = 0.02;
/** The inversion: chromosome 3, SNPs 500..1499 (1,000 SNPs), carried by half the copies of population 0. */
const INVERSION = { chrom: 3, from: 500, to: 1500, frequency: 0.5 };

const pop = (i: number) => i % POPS;

/** The simulated genome with the inversion in the populations `carriers`, and each individual's inversion genotype. */
function simulate(carriers: readonly number[]): { data: GenotypeData; genotype: number[] } {
  const rng = createRng(2026);
  const L = CHROMOSOMES * PER_CHROMOSOME;
  const calls = new Int8Array(N * L * 2);
  // Each copy's arrangement (1: inverted).
  const inverted = Array.from({ length: 2 * N }, (_, c) =>
    carriers.includes(pop(c >> 1)) && rng.uniform() < INVERSION.frequency ? 1 : 0,
  );
  const loci = [];
  const c = (1 - FST) / FST;
  for (let chrom = 1; chrom <= CHROMOSOMES; chrom++)
    for (let s = 0; s < PER_CHROMOSOME; s++) {
      const l = loci.length;
      loci.push({ name: `${chrom}:${(s + 1) * 1000}`, chrom: String(chrom), pos: (s + 1) * 1000, alleles: ['A', 'G'] });
      const p = 0.05 + 0.9 * rng.uniform();
      const freq = Array.from({ length: POPS }, () => {
        const x = gammaDraw(p * c, rng);
        return x / (x + gammaDraw((1 - p) * c, rng));
      });
      const inBlock = chrom === INVERSION.chrom && s >= INVERSION.from && s < INVERSION.to;
      // The inverted arrangement's allele at this SNP (the same on every inverted copy, 2 % noise).
      const invertedAllele = rng.uniform() < 0.5 ? 1 : 0;
      for (let i = 0; i < N; i++) {
        const copies = [2 * i, 2 * i + 1].map((cp) =>
          inBlock && inverted[cp]
            ? rng.uniform() < 0.02
              ? 1 - invertedAllele
              : invertedAllele
            : rng.uniform() < freq[pop(i)]!
              ? 1
              : 0,
        );
        copies.sort();
        const missing = rng.uniform() < 0.01;
        calls[(l * N + i) * 2] = missing ? MISSING : copies[0]!;
        calls[(l * N + i) * 2 + 1] = missing ? MISSING : copies[1]!;
      }
    }
  const data: GenotypeData = {
    ploidy: 2,
    individuals: Array.from({ length: N }, (_, i) => ({ id: `i${i}`, population: `pop${pop(i)}` })),
    loci,
    calls,
    phased: false,
  };
  return { data, genotype: Array.from({ length: N }, (_, i) => inverted[2 * i]! + inverted[2 * i + 1]!) };
}

const PCS = 4;
function report(title: string, d: GenotypeData, genotype: readonly number[]): void {
  const pc = principalComponents(d, { pcs: PCS, seed: 1 });
  const inBlock = d.loci.filter((l) => {
    const s = Number(l.pos) / 1000 - 1;
    return l.chrom === String(INVERSION.chrom) && s >= INVERSION.from && s < INVERSION.to;
  }).length;
  console.log(`\n#### ${title}: ${d.loci.length.toLocaleString('en')} SNPs, ${inBlock} of them in the inversion\n`);
  console.log('| PC | variance | \\|r\\| with the inversion genotype | \\|r\\| with a population |');
  console.log('|---|---|---|---|');
  for (let k = 0; k < PCS; k++) {
    const v = Array.from({ length: N }, (_, i) => pc.vectors[i * pc.pcs + k]!);
    const withPop = Math.max(
      ...Array.from({ length: POPS }, (_, q) =>
        Math.abs(
          correlation(
            v,
            Array.from({ length: N }, (_, i) => (pop(i) === q ? 1 : 0)),
          ),
        ),
      ),
    );
    console.log(
      `| ${k + 1} | ${(100 * pc.varianceFraction[k]!).toFixed(2)} % | ${Math.abs(correlation(v, genotype)).toFixed(3)} | ${withPop.toFixed(3)} |`,
    );
  }
}

console.log('# A long LD block with and without linkage pruning\n');
console.log(`Made by \`node --import tsx docs/scripts/ld-block.ts > docs/ld-block.md\`. ${madeAt()}`);
console.log(
  `\nSimulated: ${N} individuals in ${POPS} populations (Balding–Nichols F_ST ${FST}), ${CHROMOSOMES} chromosomes × ${PER_CHROMOSOME.toLocaleString('en')} SNPs 1 kb apart, 1 % missing; on chromosome ${INVERSION.chrom}, SNPs ${INVERSION.from + 1}–${INVERSION.to} lie in an inversion carried by ${100 * INVERSION.frequency} % of the copies of the populations that have it, whose inverted copies share one haplotype (2 % noise a SNP). PCA: \`stratify pca\`'s (engine/analysis/pca.ts), ${PCS} components.`,
);
const WIDE = { window: 500, kb: true, step: 1, r2: LD_PRUNE_DEFAULTS.r2 };
for (const [name, carriers] of [
  ['The inversion in population 0 only', [0]],
  ['The inversion in every population', [0, 1, 2]],
] as const) {
  const { data, genotype } = simulate(carriers);
  console.log(`\n## ${name}`);
  report('All SNPs', data, genotype);
  const p = LD_PRUNE_DEFAULTS;
  report(
    `--indep-pairwise ${p.window} ${p.step} ${p.r2}`,
    applyFilters(data, { indepPairwise: { ...p } }).data,
    genotype,
  );
  report(`--indep-pairwise ${WIDE.window}kb 1 ${WIDE.r2}`, applyFilters(data, { indepPairwise: WIDE }).data, genotype);
}
console.log(`\n(${((performance.now() - T0) / 1000).toFixed(0)} s in all.)`);
console.log(
  '\nHow to read it: where the inversion is common in every population, it is PC 1 of all SNPs and the populations only come second; pruning turns the leading PCs back to the populations. Where only population 0 carries it, the inversion genotype and population 0 go together (only its members carry it), so a population PC correlates with both; pruning within 50 SNPs leaves a block that is in LD in one population only partly pruned (its r² over all individuals is diluted by the other populations): known long LD regions are better left out by name (`--exclude`), as PLINK users do.',
);
