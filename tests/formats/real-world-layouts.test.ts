// Layouts that other programs write and that must read right with no options (issue: the last
// real-world format quirks). Each file is written here from a known genotype table, so the
// expected individuals, loci, ploidy per locus and genotypes come from the table, not the reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError, locusPloidy, summarize } from '../../engine/index.ts';
import { genotype, parseText } from '../helpers.ts';

/** A small deterministic table: individual i, locus l, copy p → allele size (0 = missing). */
function allele(i: number, l: number, p: number, width: number): number {
  if ((i * 7 + l * 3 + p) % 23 === 0) return 0;
  const base = width === 2 ? 10 : 100;
  return base + ((i * 5 + l * 11 + p * 3) % 7) * 2;
}
const pad = (x: number, w: number) => String(x).padStart(w, '0');

test('GENEPOP: 2- and 3-digit loci side by side, and a haploid locus among diploid ones', async () => {
  // loci 0–2: 2 digits, 3–5: 3 digits, 6: haploid 3 digits (mtDNA-like), 7: haploid 2 digits
  const widths = [2, 2, 2, 3, 3, 3, 3, 2];
  const ploidy = [2, 2, 2, 2, 2, 2, 1, 1];
  const names = widths.map((_, l) => `L${l + 1}`);
  const lines = ['Mixed widths (written by hand, as some lab scripts do)', ...names];
  const N = 12;
  for (let i = 0; i < N; i++) {
    if (i % 6 === 0) lines.push('Pop');
    const gts = widths.map((w, l) => Array.from({ length: ploidy[l]! }, (_, p) => pad(allele(i, l, p, w), w)).join(''));
    lines.push(`ind${i + 1} , ${gts.join(' ')}`);
  }
  const d = await parseText('mixed.gen', lines.join('\n') + '\n');
  assert.equal(d.individuals.length, N);
  assert.deepEqual(
    d.loci.map((l) => l.name),
    names,
  );
  assert.equal(d.ploidy, 2);
  assert.deepEqual(
    d.loci.map((_, l) => locusPloidy(d, l)),
    ploidy,
  );
  for (let i = 0; i < N; i++) {
    for (let l = 0; l < widths.length; l++) {
      const want = Array.from({ length: 2 }, (_, p) =>
        p < ploidy[l]! && allele(i, l, p, widths[l]!) !== 0 ? String(allele(i, l, p, widths[l]!)) : '?',
      );
      assert.deepEqual(genotype(d, l, i), want.sort(), `individual ${i + 1}, locus ${l + 1}`);
    }
  }
  // The second copy of a haploid locus is not missing data.
  const s = summarize(d);
  const haploidMissing = Array.from({ length: N }, (_, i) => allele(i, 6, 0, 3) === 0).filter(Boolean).length;
  assert.equal(s.missingPerLocus[6], haploidMissing / N);
  assert.ok(
    d.source!.assumptions.some((a) => /haploid/.test(a)),
    d.source!.assumptions.join('; '),
  );
});

test('GENEPOP: a width that changes within a locus is refused at its line and column', async () => {
  const text = 'T\nA\nB\nPop\nx, 0102 101102\ny, 0101 0102\n';
  await assert.rejects(
    parseText('t.gen', text),
    (e: unknown) => e instanceof FormatError && e.line === 6 && e.column === 9 && /not 6 digits/.test(e.message),
  );
});

test('GENEPOP: locus names on one line separated by spaces only', async () => {
  const d = await parseText(
    'spaces.gen',
    'Title\nfca8 fca23  fca43\tfca45\nPop\na, 0102 0303 0101 0202\nb, 0101 0000 0102 0202\n',
  );
  assert.deepEqual(
    d.loci.map((l) => l.name),
    ['fca8', 'fca23', 'fca43', 'fca45'],
  );
  assert.deepEqual(genotype(d, 1, 1), ['?', '?']);
  // Names with spaces, one per line, stay whole.
  const e = await parseText('names.gen', 'Title\nLocus 1\nLocus 2\nPop\na, 0102 0303\n');
  assert.deepEqual(
    e.loci.map((l) => l.name),
    ['Locus 1', 'Locus 2'],
  );
});

test('STRUCTURE: extra numeric columns (EXTRACOLS) after the population column, one row per individual, with marker names', async () => {
  const L = 10;
  const names = Array.from({ length: L }, (_, l) => `m${l + 1}`).join(' ');
  const rows = Array.from({ length: 8 }, (_, i) => {
    const extras = [2000 + (i % 3), (45.1 + i / 10).toFixed(2), (-1.5 - i / 10).toFixed(2)];
    const gts = Array.from({ length: L }, (_, l) => [allele(i, l, 0, 3) || -9, allele(i, l, 1, 3) || -9].join(' '));
    return `s${i + 1} ${1 + Math.floor(i / 4)} ${extras.join(' ')} ${gts.join(' ')}`;
  });
  const d = await parseText('extra.str', `${names}\n${rows.join('\n')}\n`);
  assert.equal(d.individuals.length, 8);
  assert.equal(d.loci.length, L);
  assert.equal(d.ploidy, 2);
  assert.deepEqual(
    d.individuals.map((i) => i.population),
    ['1', '1', '1', '1', '2', '2', '2', '2'],
  );
  const want = [allele(3, 4, 0, 3), allele(3, 4, 1, 3)].map((a) => (a === 0 ? '?' : String(a))).sort();
  assert.deepEqual(genotype(d, 4, 3), want);
});

test('STRUCTURE: extra columns in a two-row file with marker names (17 values for 10 loci)', async () => {
  const L = 10;
  const names = Array.from({ length: L }, (_, l) => `loc${l + 1}`).join('\t');
  const lines: string[] = [names];
  for (let i = 0; i < 6; i++) {
    const meta = [`ind${i + 1}`, String(1 + (i % 2)), '1', String(10 + i), '0', '3.5', String(i)];
    for (let p = 0; p < 2; p++)
      lines.push([...meta, ...Array.from({ length: L }, (_, l) => allele(i, l, p, 3) || -9)].join('\t'));
  }
  const d = await parseText('two-row.str', lines.join('\n') + '\n');
  assert.equal(d.individuals.length, 6);
  assert.equal(d.loci.length, L);
  assert.equal(d.ploidy, 2);
  assert.deepEqual(
    d.individuals.map((i) => i.id),
    ['ind1', 'ind2', 'ind3', 'ind4', 'ind5', 'ind6'],
  );
  const want = [allele(5, 9, 0, 3), allele(5, 9, 1, 3)].map((a) => (a === 0 ? '?' : String(a))).sort();
  assert.deepEqual(genotype(d, 9, 5), want);
});

test('STRUCTURE: decimal extra columns without marker names are not read as loci', async () => {
  const rows = Array.from(
    { length: 6 },
    (_, i) => `a${i} ${1 + (i >> 1)} ${(12.5 + i).toFixed(1)} 101 103 ${101 + 2 * (i % 2)} 105`,
  );
  const d = await parseText('noname.str', rows.join('\n') + '\n');
  assert.equal(d.loci.length, 2);
  assert.deepEqual(genotype(d, 1, 1), ['103', '105']);
  assert.ok(
    d.source!.assumptions.some((a) => /extra column/.test(a)),
    d.source!.assumptions.join('; '),
  );
});
