// The Hardy–Weinberg exact test of one biallelic locus (Wigginton, Cutler & Abecasis 2005, the test
// PLINK's --hwe and --hardy use): given the heterozygotes and the two homozygote counts, the
// probability of each heterozygote count with the allele counts fixed follows by a recurrence from
// the most likely count outwards; the p-value sums the probabilities of the counts no more likely
// than the one observed.

/** Relative slack when comparing a count's probability with the observed one's (ties count). */
const TIE = 1e-7;

/** The exact test's p-value for `het` heterozygotes and `hom1`, `hom2` homozygotes (1 with no genotype). */
export function hweExactP(het: number, hom1: number, hom2: number): number {
  const homRare = Math.min(hom1, hom2);
  const genotypes = het + hom1 + hom2;
  if (genotypes === 0) return 1;
  const rare = 2 * homRare + het;
  const probs = new Float64Array(rare + 1);
  // The most likely heterozygote count, of the parity the rare allele's copies allow.
  let mid = Math.floor((rare * (2 * genotypes - rare)) / (2 * genotypes));
  if ((rare & 1) !== (mid & 1)) mid++;
  probs[mid] = 1;
  let sum = 1;
  for (let h = mid, r = (rare - mid) / 2, c = genotypes - mid - r; h > 1; h -= 2, r++, c++) {
    probs[h - 2] = (probs[h]! * h * (h - 1)) / (4 * (r + 1) * (c + 1));
    sum += probs[h - 2]!;
  }
  for (let h = mid, r = (rare - mid) / 2, c = genotypes - mid - r; h <= rare - 2; h += 2, r--, c--) {
    probs[h + 2] = (probs[h]! * 4 * r * c) / ((h + 2) * (h + 1));
    sum += probs[h + 2]!;
  }
  const observed = probs[het]! * (1 + TIE);
  let p = 0;
  for (let h = rare & 1; h <= rare; h += 2) if (probs[h]! <= observed) p += probs[h]!;
  return Math.min(1, p / sum);
}
