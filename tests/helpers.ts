import { MISSING, textSource, type GenotypeData } from '../engine/index.ts';
import { readDataset, type ReadOptions } from '../engine/formats/read-dataset.ts';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Parses text as the given file name. */
export function parseText(
  name: string,
  text: string,
  options: ReadOptions = {},
  chunkSize?: number,
): Promise<GenotypeData> {
  return readDataset({ main: textSource(name, text, chunkSize) }, options);
}

/** Genotype of (locus l, individual i) as sorted allele names ('?' for missing copies). */
export function genotype(d: GenotypeData, l: number, i: number, sorted = true): string[] {
  const out: string[] = [];
  for (let p = 0; p < d.ploidy; p++) {
    const a = d.calls[(l * d.individuals.length + i) * d.ploidy + p]!;
    out.push(a === MISSING ? '?' : d.loci[l]!.alleles[a]!);
  }
  return sorted ? out.sort() : out;
}

/** Genotype table of a dataset keyed by individual id (for order-independent comparison). */
export function genotypesById(d: GenotypeData): Map<string, string[][]> {
  const m = new Map<string, string[][]>();
  d.individuals.forEach((ind, i) =>
    m.set(
      ind.id,
      d.loci.map((_, l) => genotype(d, l, i)),
    ),
  );
  return m;
}

/** Populations as a partition: sorted lists of ids per population, order-independent. */
export function partition(d: GenotypeData): string[] {
  const m = new Map<string, string[]>();
  for (const ind of d.individuals) {
    const k = ind.population ?? '';
    m.set(k, [...(m.get(k) ?? []), ind.id]);
  }
  return [...m.values()].map((ids) => ids.sort().join(',')).sort();
}
