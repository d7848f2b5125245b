// Linkage pruning and PLINK-style filters against PLINK 2's own output on the same file
// (tests/fixtures/ld, README there), against a plain re-statement of PLINK's algorithm on random
// data (floating-point r², every pair written out), and the pair kernel against the JavaScript
// counts; thinning and chromosome names by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.ts';
import { readDataset } from '../../engine/formats/read-dataset.ts';
import { datasetFiles } from '../../engine/node/file-source.ts';
import { MISSING, type GenotypeData } from '../../engine/data/genotype-data.ts';
import { indepPairwise, thinByDistance, type PairwisePruning } from '../../engine/data/ld-prune.ts';
import { exceedsCounts, jsPairCounts, pairCounter, planeWords } from '../../engine/data/ld-pair-counts.ts';
import { applyFilters } from '../../engine/data/filters.ts';
import { hweExactP } from '../../engine/data/hardy-weinberg.ts';
import { chromosomeKey, chromosomeRuns, parseChromosomeList } from '../../engine/data/chromosomes.ts';
import { createRng } from '../../engine/util/rng.ts';

const FIXTURE = join(ROOT, 'tests/fixtures/ld');
const lines = (file: string) => readFileSync(join(FIXTURE, file), 'utf8').trim().split('\n');
const blocks = () => readDataset(datasetFiles(join(FIXTURE, 'blocks.bed')), {});

test('--indep-pairwise keeps the loci PLINK 2 keeps: windows in loci and in kb, in WebAssembly and in JavaScript', async () => {
  const data = await blocks();
  const cases: [string, PairwisePruning][] = [
    ['w50s10r01.prune.in', { window: 50, step: 10, r2: 0.1 }],
    ['w20s1r005.prune.in', { window: 20, step: 1, r2: 0.05 }],
    ['w100kbr02.prune.in', { window: 100, kb: true, step: 1, r2: 0.2 }],
  ];
  for (const [file, o] of cases)
    for (const wasm of [true, false]) {
      const r = indepPairwise(data, o, wasm);
      assert.deepEqual(
        r.kept.map((l) => data.loci[l]!.name),
        lines(file),
        `${file}, ${wasm ? 'WebAssembly' : 'JavaScript'}`,
      );
      assert.equal(r.kept.length + r.removed.length, data.loci.length);
    }
});

test('--mind, --geno and --maf keep the individuals and loci PLINK 2 keeps, and pruning after them the same list', async () => {
  const data = await blocks();
  const r = applyFilters(data, { maxIndividualMissing: 0.05, maxLocusMissing: 0.05, minMaf: 0.05 });
  assert.deepEqual(
    r.data.loci.map((l) => l.name),
    lines('filtered.snplist'),
  );
  assert.deepEqual(
    r.data.individuals.map((i) => i.id),
    lines('filtered.fam').map((l) => l.split(/\s+/)[1]),
  );
  assert.deepEqual(
    r.steps.map((s) => s.step),
    ['--mind', '--geno', '--maf'],
  );
  assert.equal(r.steps[0]!.individuals, data.individuals.length - lines('filtered.fam').length);
  const pruned = applyFilters(data, {
    maxIndividualMissing: 0.05,
    maxLocusMissing: 0.05,
    minMaf: 0.05,
    indepPairwise: { window: 50, step: 10, r2: 0.1 },
  });
  assert.deepEqual(pruned.pruned!.kept, lines('filtered-pruned.prune.in'));
  assert.deepEqual(
    pruned.data.loci.map((l) => l.name),
    lines('filtered-pruned.prune.in'),
  );
  // Packed data stay packed through the filters.
  assert.ok(pruned.data.packed);
});

/**
 * PLINK's --indep-pairwise re-stated as plainly as possible: r² as the squared Pearson correlation
 * of major-allele counts over individuals called at both (floating point), every pair of a window
 * re-examined from scratch on every sweep (PLINK skips pairs already examined; the outcome is the
 * same since a kept pair stays below the threshold).
 */
function plainPrune(data: GenotypeData, o: { window: number; step: number; r2: number }): Set<number> {
  const N = data.individuals.length;
  const removed = new Set<number>();
  for (const run of chromosomeRuns(data)) {
    const g = run.loci.map((l) => {
      const counts = [0, 0];
      for (let k = 0; k < 2 * N; k++) {
        const a = data.calls[l * 2 * N + k]!;
        if (a !== MISSING) counts[a]!++;
      }
      const major = counts[1]! > counts[0]! ? 1 : 0;
      const x = Array.from({ length: N }, (_, i) => {
        const a = data.calls[(l * N + i) * 2]!;
        const b = data.calls[(l * N + i) * 2 + 1]!;
        return a === MISSING || b === MISSING ? -1 : (a === major ? 1 : 0) + (b === major ? 1 : 0);
      });
      const called = x.filter((v) => v >= 0);
      return { x, freq: counts[major]! / (counts[0]! + counts[1]!), constant: called.every((v) => v === called[0]) };
    });
    const r2 = (a: number, b: number) => {
      const xs: number[] = [];
      const ys: number[] = [];
      for (let i = 0; i < N; i++)
        if (g[a]!.x[i]! >= 0 && g[b]!.x[i]! >= 0) {
          xs.push(g[a]!.x[i]!);
          ys.push(g[b]!.x[i]!);
        }
      const mean = (v: number[]) => v.reduce((s, t) => s + t, 0) / v.length;
      const mx = mean(xs);
      const my = mean(ys);
      let sxy = 0;
      let sxx = 0;
      let syy = 0;
      for (let k = 0; k < xs.length; k++) {
        sxy += (xs[k]! - mx) * (ys[k]! - my);
        sxx += (xs[k]! - mx) ** 2;
        syy += (ys[k]! - my) ** 2;
      }
      return sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : 0;
    };
    const gone = new Set<number>();
    g.forEach((h, t) => h.constant && gone.add(t));
    const n = run.loci.length;
    for (let start = 0; ; start += o.step) {
      const end = Math.min(start + o.window, n);
      for (let changed = true; changed;) {
        changed = false;
        const live = () => Array.from({ length: end - start }, (_, k) => start + k).filter((t) => !gone.has(t));
        for (const first of live()) {
          if (gone.has(first)) continue;
          for (const second of live().filter((t) => t > first)) {
            if (r2(first, second) <= o.r2) continue;
            gone.add(g[first]!.freq > g[second]!.freq * (1 + 2 ** -44) ? first : second);
            changed = true;
            break;
          }
        }
      }
      if (end === n) break;
    }
    for (const t of gone) removed.add(run.loci[t]!);
  }
  return removed;
}

test('--indep-pairwise equals a plain re-statement of its algorithm on random linked data', () => {
  for (const seed of [1, 2, 3]) {
    const rng = createRng(seed);
    const N = 37 + 20 * seed;
    const L = 160;
    const calls = new Int8Array(N * L * 2);
    // Each locus copies the previous one's copies with probability `link`, else draws anew.
    for (let l = 0; l < L; l++) {
      const link = [0, 0.6, 0.9][l % 3]!;
      const p = 0.1 + 0.8 * rng.uniform();
      for (let k = 0; k < 2 * N; k++)
        calls[l * 2 * N + k] = l > 0 && rng.uniform() < link ? calls[(l - 1) * 2 * N + k]! : rng.uniform() < p ? 1 : 0;
    }
    // Sort each genotype's copies (a call's copies are sorted), then missing genotypes.
    for (let j = 0; j < N * L; j++) {
      if (calls[2 * j]! > calls[2 * j + 1]!) [calls[2 * j], calls[2 * j + 1]] = [calls[2 * j + 1]!, calls[2 * j]!];
      if (rng.uniform() < 0.04) calls[2 * j] = calls[2 * j + 1] = MISSING;
    }
    const data: GenotypeData = {
      ploidy: 2,
      individuals: Array.from({ length: N }, (_, i) => ({ id: `i${i}` })),
      loci: Array.from({ length: L }, (_, l) => ({
        name: `s${l}`,
        chrom: l < 100 ? '1' : 'chrB',
        pos: 100 * l,
        alleles: ['A', 'C'],
      })),
      calls,
      phased: false,
    };
    for (const o of [
      { window: 10, step: 3, r2: 0.2 },
      { window: 25, step: 25, r2: 0.5 },
    ]) {
      const expected = plainPrune(data, o);
      const r = indepPairwise(data, o);
      assert.deepEqual(new Set(r.removed), expected, `seed ${seed}, window ${o.window}`);
      assert.ok(expected.size > 0 && expected.size < L);
    }
  }
});

test('the pair kernel counts what JavaScript counts (N not a multiple of 32 or 128)', () => {
  const rng = createRng(4);
  for (const N of [1, 31, 33, 128, 129, 1000]) {
    const W = planeWords(N);
    const planes = () => {
      const p = new Uint32Array(3 * W);
      for (let i = 0; i < N; i++) {
        const bit = 1 << (i & 31);
        const w = i >>> 5;
        if (rng.uniform() < 0.1) continue;
        p[w]! |= bit;
        const g = Math.floor(rng.uniform() * 3);
        if (g !== 1) p[W + w]! |= bit;
        if (g === 2) p[2 * W + w]! |= bit;
      }
      return p;
    };
    const a = planes();
    const b = planes();
    const wasm = pairCounter(N, true);
    const expected = Array.from(jsPairCounts(a, b, new Int32Array(7)));
    assert.deepEqual(Array.from(wasm.counts(wasm.put(a), wasm.put(b))), expected, `N = ${N}`);
    // Slots freed and taken again; the memory grows past its first page.
    for (let k = 0; k < 200; k++) wasm.put(b);
    assert.deepEqual(Array.from(wasm.counts(0, 1)), expected);
  }
});

test('loci from .bed codes count what JavaScript counts from their planes, with few and many uncalled individuals', () => {
  const rng = createRng(5);
  // Missing shares below, at and above one in 128 (the kernel lists the uncalled individuals of
  // loci with at most one per 128 and counts the rest from the planes).
  for (const N of [1, 5, 127, 129, 300, 1000, 2001])
    for (const missing of [0, 0.003, 0.2]) {
      const per = Math.ceil(N / 4);
      const W = planeWords(N);
      const L = 6;
      const bytes = new Uint8Array(L * per);
      const natural: Uint32Array[] = [];
      for (let l = 0; l < L; l++) {
        const p = rng.uniform();
        const codes = Array.from({ length: N }, (): number => {
          if (rng.uniform() < missing) return 1;
          const g = (rng.uniform() < p ? 1 : 0) + (rng.uniform() < p ? 1 : 0);
          return g === 0 ? 0 : g === 1 ? 2 : 3;
        });
        codes.forEach((c, i) => (bytes[l * per + (i >> 2)]! |= c << (2 * (i & 3))));
        // The planes by the definition: called, homozygous, homozygous for the more common allele
        // (allele 0, code 00, unless allele 1 has more copies).
        const copies1 = codes.reduce((s, c) => s + (c === 3 ? 2 : c === 2 ? 1 : 0), 0);
        const copies0 = codes.reduce((s, c) => s + (c === 0 ? 2 : c === 2 ? 1 : 0), 0);
        const major = copies1 > copies0 ? 3 : 0;
        const planes = new Uint32Array(3 * W);
        codes.forEach((c, i) => {
          const bit = 1 << (i & 31);
          if (c !== 1) planes[i >>> 5]! |= bit;
          if (c === 0 || c === 3) planes[W + (i >>> 5)]! |= bit;
          if (c === major) planes[2 * W + (i >>> 5)]! |= bit;
        });
        natural.push(planes);
      }
      const wasm = pairCounter(N, true);
      const packed = { bytes, bytesPerLocus: per };
      const slots = Array.from({ length: L }, (_, l) => wasm.putPacked!(packed, l));
      for (let a = 0; a < L; a++)
        for (let b = 0; b < L; b++) {
          const expected = jsPairCounts(natural[a]!, natural[b]!, new Int32Array(7));
          assert.deepEqual(
            Array.from(wasm.counts(slots[a]!, slots[b]!)),
            Array.from(expected),
            `N ${N}, missing ${missing}`,
          );
          for (const r2 of [0.01, 0.2, 0.9])
            assert.equal(wasm.linked(slots[a]!, slots[b]!, r2), exceedsCounts(expected, r2));
        }
    }
});

test('--indep-pairwise reads packed and plain data alike', async () => {
  const data = await blocks();
  const plain: GenotypeData = { ...data, packed: undefined, calls: data.calls };
  const o = { window: 30, step: 5, r2: 0.15 };
  assert.deepEqual(indepPairwise(plain, o).kept, indepPairwise(data, o).kept);
});

test('--thin-bp keeps a locus only the given distance after the last one kept, per chromosome', () => {
  const loci = [
    ['1', 100],
    ['1', 150],
    ['1', 199],
    ['1', 200],
    ['2', 120],
    ['1', 260],
    ['1', 300],
  ].map(([chrom, pos], l) => ({ name: `s${l}`, chrom: String(chrom), pos: Number(pos), alleles: ['A', 'C'] }));
  const data: GenotypeData = {
    ploidy: 2,
    individuals: [{ id: 'a' }],
    loci,
    calls: new Int8Array(loci.length * 2),
    phased: false,
  };
  // Chromosome 1: 100 kept; 150, 199 within 100; 200 kept; 260 within; 300 kept. Chromosome 2: kept.
  assert.deepEqual(thinByDistance(data, 100).kept, [0, 3, 4, 6]);
  assert.throws(() => thinByDistance(data, 0), /whole number of bases/);
});

test('chromosome names: chr prefixes and case ignored, M as MT, numbered ranges', () => {
  assert.equal(chromosomeKey('chrX'), 'X');
  assert.equal(chromosomeKey('x'), 'X');
  assert.equal(chromosomeKey('chrM'), 'MT');
  assert.equal(chromosomeKey('scaffold_12'), 'SCAFFOLD_12');
  assert.deepEqual(parseChromosomeList('1-3,X,scaffold_9', '--chr'), ['1', '2', '3', 'X', 'scaffold_9']);
  assert.throws(() => parseChromosomeList('5-2', '--chr'), /range 5-2 is empty/);
  assert.throws(() => parseChromosomeList('1,,2', '--chr'), /empty name/);
});

test('the filters read packed and plain data alike (counts from the .bed codes, with individuals left out)', async () => {
  const data = await blocks();
  const plain: GenotypeData = { ...data, packed: undefined, calls: data.calls };
  for (const o of [
    { maxIndividualMissing: 0.03, maxLocusMissing: 0.04, minMaf: 0.1 },
    { maxIndividualMissing: 0.2, dropMonomorphic: true },
    { maxLocusMissing: 0.01 },
  ]) {
    const a = applyFilters(data, o);
    const b = applyFilters(plain, o);
    assert.deepEqual(a.removedLoci, b.removedLoci);
    assert.deepEqual(a.removedIndividuals, b.removedIndividuals);
    assert.ok(a.removedLoci.length > 0);
  }
});

test('--hwe keeps what PLINK 2 keeps over all individuals, and within each population where there are populations', async () => {
  const pooled = await readDataset(datasetFiles(join(FIXTURE, 'blocks.bed')), { plink: { population: 'none' } });
  assert.deepEqual(
    applyFilters(pooled, { minHweP: 1e-4 }).data.loci.map((l) => l.name),
    lines('hwe-pooled.snplist'),
  );
  // The .fam's FIDs (p0, p1, p2) are populations: a SNP goes when it fails in any of them.
  const data = await blocks();
  const r = applyFilters(data, { minHweP: 0.01 });
  assert.deepEqual(
    r.removedLoci.map((x) => x.name),
    lines('hwe-by-population.removed'),
  );
  assert.match(r.removedLoci[0]!.reason, /^HWE p = \S+ < 0\.01 in p[012]$/);
  // The same from plain (unpacked) calls.
  const plain: GenotypeData = { ...data, packed: undefined, calls: data.calls };
  assert.deepEqual(applyFilters(plain, { minHweP: 0.01 }).removedLoci, r.removedLoci);
});

test('the exact test: Wigginton et al.’s recurrence against sums over every genotype table', () => {
  // Independent: P(het | n, rare copies) by the closed form n! / (n_AA! n_Aa! n_aa!) · 2^het ·
  // nA! na! / (2n)!, summed over every table with the same allele counts.
  const logFactorial = (k: number) => Array.from({ length: k }, (_, j) => Math.log(j + 1)).reduce((a, b) => a + b, 0);
  const brute = (het: number, hom1: number, hom2: number) => {
    const n = het + hom1 + hom2;
    const a = 2 * hom1 + het;
    const b = 2 * hom2 + het;
    const prob = (h: number) => {
      const x = (a - h) / 2;
      const y = (b - h) / 2;
      return Math.exp(
        logFactorial(n) -
          logFactorial(x) -
          logFactorial(h) -
          logFactorial(y) +
          h * Math.log(2) +
          logFactorial(a) +
          logFactorial(b) -
          logFactorial(2 * n),
      );
    };
    const observed = prob(het);
    let p = 0;
    for (let h = Math.min(a, b) % 2; h <= Math.min(a, b); h += 2) if (prob(h) <= observed * (1 + 1e-7)) p += prob(h);
    return p;
  };
  for (const [het, hom1, hom2] of [
    [47, 55, 17],
    [0, 40, 40],
    [13, 2, 85],
    [65, 47, 4],
    [1, 0, 0],
    [5, 20, 1],
  ] as const) {
    const p = hweExactP(het, hom1, hom2);
    assert.ok(Math.abs(p - brute(het, hom1, hom2)) < 1e-9 * Math.max(1, p), `${het}, ${hom1}, ${hom2}: ${p}`);
  }
  assert.equal(hweExactP(0, 0, 0), 1);
});
