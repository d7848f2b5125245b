// Writes the simulated example shipped in resources/examples/: 90 diploid individuals from 3
// populations (30 each) at 400 biallelic SNPs on 4 chromosomes, Balding–Nichols frequencies
// with F_ST ≈ 0.05, phased, 1% missing calls; plus its population file.
// Usage: node --import tsx scripts/make-examples.ts
import { writeFileSync } from 'node:fs';
import { createRng, gammaDraw } from '../engine/util/rng.ts';

const rng = createRng(2024);
const POPS = ['North', 'Coast', 'Valley'];
const PER = 30;
const SNPS = 400;
const F = 0.05;
function beta(a: number, b: number): number {
  const x = gammaDraw(a, rng);
  return x / (x + gammaDraw(b, rng));
}
const header = ['#CHROM', 'POS', 'ID', 'REF', 'ALT', 'QUAL', 'FILTER', 'INFO', 'FORMAT'];
const ids: string[] = [];
POPS.forEach((p) => {
  for (let k = 1; k <= PER; k++) ids.push(`${p.slice(0, 3).toUpperCase()}${String(k).padStart(2, '0')}`);
});
const lines = [
  '##fileformat=VCFv4.2',
  '##source=Stratify example (simulated)',
  '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
  [...header, ...ids].join('\t'),
];
const bases = ['A', 'C', 'G', 'T'];
for (let s = 0; s < SNPS; s++) {
  const p = 0.1 + 0.8 * rng.uniform();
  const popFreq = POPS.map(() => beta((p * (1 - F)) / F, ((1 - p) * (1 - F)) / F));
  const ref = bases[Math.floor(rng.uniform() * 4)]!;
  const alt = bases.filter((b) => b !== ref)[Math.floor(rng.uniform() * 3)]!;
  const chrom = 1 + Math.floor(s / 100);
  const cells = ids.map((_, i) => {
    if (rng.uniform() < 0.01) return '.|.';
    const q = popFreq[Math.floor(i / PER)]!;
    return `${rng.uniform() < q ? 1 : 0}|${rng.uniform() < q ? 1 : 0}`;
  });
  lines.push(
    [
      String(chrom),
      String(10_000 * (s % 100) + 1 + Math.floor(rng.uniform() * 5000)),
      `snp${s + 1}`,
      ref,
      alt,
      '.',
      'PASS',
      '.',
      'GT',
      ...cells,
    ].join('\t'),
  );
}
writeFileSync('resources/examples/snp-three-populations.vcf', lines.join('\n') + '\n');
writeFileSync(
  'resources/examples/snp-three-populations.pops.tsv',
  ['id\tpop', ...ids.map((id, i) => `${id}\t${POPS[Math.floor(i / PER)]}`)].join('\n') + '\n',
);
console.log('wrote resources/examples/snp-three-populations.vcf and .pops.tsv');
