/** Original allele names ↔ compact indices for one locus, filled as alleles are met. */
export class AlleleTable {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  /** The index of an allele name, adding it if new. */
  code(name: string): number {
    let c = this.index.get(name);
    if (c === undefined) {
      c = this.names.length;
      this.names.push(name);
      this.index.set(name, c);
    }
    return c;
  }

  get size(): number {
    return this.names.length;
  }
}

/**
 * The permutation that sorts allele names numerically when they are all numbers
 * (microsatellite sizes, SNP codes) and lexicographically otherwise.
 * Returns `order` (new position → old index) and `remap` (old index → new index).
 */
export function sortedAlleleOrder(names: readonly string[]): { order: number[]; remap: Int32Array } {
  const numeric = names.every((n) => /^[+-]?\d+(\.\d+)?$/.test(n));
  const order = names.map((_, i) => i);
  order.sort((a, b) => {
    if (numeric) return Number(names[a]) - Number(names[b]);
    const x = names[a]!;
    const y = names[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const remap = new Int32Array(names.length);
  order.forEach((old, neu) => (remap[old] = neu));
  return { order, remap };
}
