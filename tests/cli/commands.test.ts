// tier: slow — every command end to end through the CLI (run by npm test, not by npm run test:fast).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT } from '../helpers.ts';
import { dataPath } from '../../data/datasets.ts';
import { admixedData } from '../model/synthetic.ts';
import { toText, writeStructure } from '../../engine/formats/writers.ts';

const stratify = (...args: string[]) =>
  spawnSync(process.execPath, [join(ROOT, 'bin', 'stratify.mjs'), ...args], { encoding: 'utf8' });

test('stratify inspect nancycats.str prints the summary', () => {
  const r = stratify('inspect', dataPath('nancycats.str'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /format\s+structure/);
  assert.match(r.stdout, /individuals\s+237/);
  assert.match(r.stdout, /loci\s+9/);
  assert.match(r.stdout, /ploidy\s+2/);
  assert.match(r.stdout, /populations\s+17/);
  assert.match(r.stdout, /per locus min 8, median 12, max 18/);
  assert.match(r.stdout, /missing\s+2\.34% of allele copies/);
});

test('stratify inspect --json gives machine-readable output', () => {
  const r = stratify('inspect', dataPath('nancycats.gen'), '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout) as { individuals: number; loci: number; format: string; allelesPerLocus: number[] };
  assert.equal(j.individuals, 237);
  assert.equal(j.format, 'genepop');
  assert.equal(j.allelesPerLocus.length, 9);
});

test('stratify inspect on 150,000 SNPs: the worst locus and individual without overflowing the stack', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-inspect-many-'));
  const L = 150_000;
  const N = 8;
  writeFileSync(join(dir, 'x.fam'), Array.from({ length: N }, (_, d) => `f i${d} 0 0 0 -9\n`).join(''));
  writeFileSync(join(dir, 'x.bim'), Array.from({ length: L }, (_, l) => `1\tsnp${l}\t0\t${l + 1}\tA\tG\n`).join(''));
  // Every genotype heterozygous (10) except locus 77 of individual 3, missing (01): worst locus and
  // worst individual are both 1 of their copies' share.
  const bed = new Uint8Array(3 + L * 2).fill(0b10101010);
  bed.set([0x6c, 0x1b, 0x01]);
  bed[3 + 77 * 2] = 0b10011010;
  writeFileSync(join(dir, 'x.bed'), bed);
  const r = stratify('inspect', join(dir, 'x.bed'));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /loci\s+150000/);
  // Locus 77: 1 of 8 individuals missing; individual 3: 1 of 150,000 loci.
  assert.match(r.stdout, /worst locus 12\.50%, worst individual 0\.00%/);
});

test('stratify inspect on a bad file exits 1 with file:line:column', () => {
  const r = stratify('inspect', join(ROOT, 'tests', 'fixtures', 'bad-row.str'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad-row\.str:4:\d+: row has 5 values/);
});

test('stratify inspect with layout flags overrides detection', () => {
  const r = stratify('inspect', dataPath('nancycats.str'), '--pop-column', 'no');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /populations\s+0 \(\+237 unlabelled\)/);
  assert.match(r.stdout, /column 2 is a LocData column/);
  const bad = stratify('inspect', dataPath('nancycats.str'), '--label', 'maybe');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--label takes yes or no/);
});

test('stratify run writes .Q/.P/JSON; --init-q continues from a membership matrix', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-run-'));
  const r = stratify('run', dataPath('nancycats.gen'), '--k', '2..3', '--starts', '4', '--threads', '1', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /run K=3 replicate=1 logLik=-\d+\.\d+ starts=4/);
  const q = readFileSync(join(out, 'stratify.K3.r1.Q'), 'utf8').trim().split('\n');
  assert.equal(q.length, 237);
  assert.equal(q[0]!.split(' ').length, 3);
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as {
    version: string;
    runs: { K: number; logLik: number; starts: { index: number; algorithm: string }[] }[];
    options: { seed: number };
  };
  assert.equal(json.runs.length, 2);
  // The default algorithm (auto) runs EM starts and EMA continued from the most likely of them.
  const fits = json.runs[1]!.starts as { index: number; algorithm: string; logLik: number }[];
  const em = fits.filter((s) => s.algorithm === 'em');
  const bestEm = em.reduce((b, s) => (s.logLik > b.logLik ? s : b));
  assert.deepEqual(
    fits.map((s) => `${s.index}${s.algorithm}`),
    [...[0, 1, 2, 3].map((k) => `${k}em`), `${bestEm.index}ema`],
  );
  assert.equal(json.options.seed, 1);
  const cont = mkdtempSync(join(tmpdir(), 'stratify-cont-'));
  const r2 = stratify('run', dataPath('nancycats.gen'), '--init-q', join(out, 'stratify.K3.r1.Q'), '--out', cont);
  assert.equal(r2.status, 0, r2.stderr);
  const cj = JSON.parse(readFileSync(join(cont, 'stratify.json'), 'utf8')) as {
    runs: { K: number; logLik: number; algorithmChoice?: { algorithm: string; reason: string } }[];
  };
  assert.equal(cj.runs[0]!.K, 3);
  assert.ok(
    Math.abs(cj.runs[0]!.logLik - json.runs[1]!.logLik) < 50,
    'continuing from a converged Q stays near its likelihood',
  );
  // Under auto (the default) the continued start also runs EMA and EM and held-out individuals choose.
  assert.match(cj.runs[0]!.algorithmChoice?.reason ?? '', /held-out ln L/);
  const bad = stratify('run', dataPath('nancycats.gen'), '--k', '2..x');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /--k takes a range/);
});

test('stratify sweep and select: F_ST table, aligned Q files, colours, ranking and panel in the input format', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-sweep-'));
  const r = stratify(
    'sweep',
    dataPath('nancycats.str'),
    '--k',
    '2..3',
    '--starts',
    '3',
    '--replicates',
    '3',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const table = readFileSync(join(out, 'fst-by-k.tsv'), 'utf8').trim().split('\n');
  assert.equal(table.length, 3);
  assert.match(table[0]!, /^K\treplicates\tfst_mean/);
  assert.equal(readFileSync(join(out, 'stratify.K3.colours'), 'utf8').trim().split(' ').length, 3);
  // Puechmaille's estimators, recomputed here from the Q files and the colonies (the .str's second column).
  const colony = readFileSync(dataPath('nancycats.str'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/)[1]!);
  const header = table[0]!.split('\t');
  for (const [K, row] of [
    [2, table[1]!],
    [3, table[2]!],
  ] as const) {
    const counts = (statistic: 'mean' | 'median') =>
      [1, 2, 3].map((rep) => {
        const q = readFileSync(join(out, `stratify.K${K}.r${rep}.Q`), 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.trim().split(/\s+/).map(Number));
        let counted = 0;
        for (let k = 0; k < K; k++) {
          const above = [...new Set(colony)].some((c) => {
            const xs = q.filter((_, i) => colony[i] === c).map((x) => x[k]!);
            xs.sort((a, b) => a - b);
            const centre =
              statistic === 'mean'
                ? xs.reduce((a, b) => a + b, 0) / xs.length
                : xs.length % 2
                  ? xs[xs.length >> 1]!
                  : (xs[xs.length / 2 - 1]! + xs[xs.length / 2]!) / 2;
            return centre > 0.5;
          });
          if (above) counted++;
        }
        return counted;
      });
    const cells = row.split('\t');
    const cell = (name: string) => Number(cells[header.indexOf(name)]);
    const mea = counts('mean').sort((a, b) => a - b);
    const med = counts('median').sort((a, b) => a - b);
    assert.deepEqual(
      [
        cell('puechmaille_med_mea'),
        cell('puechmaille_max_mea'),
        cell('puechmaille_med_med'),
        cell('puechmaille_max_med'),
      ],
      [mea[1], mea[2], med[1], med[2]],
      `K = ${K}`,
    );
  }
  assert.match(
    r.stdout,
    /K for uneven sampling \(Puechmaille 2016.*MedMeaK = \d, MaxMeaK = \d, MedMedK = \d, MaxMedK = \d/,
  );
  const s = stratify('select', join(out, 'stratify.json'), '--out', join(out, 'panel'));
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /panel of \d+ markers/);
  const ranking = readFileSync(join(out, 'panel', 'ranking.tsv'), 'utf8')
    .trim()
    .split('\n');
  assert.equal(ranking.length, 10);
  const panel = readFileSync(join(out, 'panel', 'panel.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const panelData = readFileSync(join(out, 'panel', 'panel.str'), 'utf8').split('\n');
  assert.deepEqual(panelData[0]!.split(' ').sort(), panel.map((l) => l.split('\t')[0]!).sort());
  assert.equal(
    readFileSync(join(out, 'panel', 'panel-sizes.tsv'), 'utf8')
      .trim()
      .split('\n').length,
    1 + 11 * 4,
  );
});

test('stratify run --model admixture: ancestry proportions in .Q, frequencies in .P, and the reported ln L recomputed from them', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-admixture-'));
  const r = stratify(
    'run',
    dataPath('nancycats.str'),
    '--model',
    'admixture',
    '--k',
    '2',
    '--starts',
    '2',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const Q = readFileSync(join(out, 'stratify.K2.r1.Q'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number));
  assert.equal(Q.length, 237);
  for (const row of Q) assert.ok(Math.abs(row[0]! + row[1]! - 1) < 1e-4);
  // Admixed proportions, not memberships: some individuals are clearly between the clusters.
  assert.ok(Q.filter((row) => row[0]! > 0.2 && row[0]! < 0.8).length > 20);
  const freq = new Map<string, number[]>();
  for (const line of readFileSync(join(out, 'stratify.K2.r1.P'), 'utf8').trim().split('\n').slice(1)) {
    const [locus, allele, ...f] = line.split('\t');
    freq.set(`${locus}/${allele}`, f.map(Number));
  }
  // ln L = Σ over observed copies of ln Σ_k q_ik f_kla, from the written files and the raw file.
  const lines = readFileSync(dataPath('nancycats.str'), 'utf8').trim().split('\n');
  const loci = lines[0]!.trim().split(/\s+/);
  let ll = 0;
  lines.slice(1).forEach((line, i) => {
    const v = line.trim().split(/\s+/).slice(2);
    loci.forEach((name, l) => {
      for (const a of [v[2 * l]!, v[2 * l + 1]!]) {
        if (a === '-9') continue;
        const f = freq.get(`${name}/${a}`)!;
        ll += Math.log(Q[i]![0]! * f[0]! + Q[i]![1]! * f[1]!);
      }
    });
  });
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as {
    options: { fit: { model: string } };
    runs: { logLik: number }[];
  };
  assert.equal(json.options.fit.model, 'admixture');
  // Files hold 6 decimals: the recomputed ln L agrees to that precision.
  assert.ok(Math.abs(ll - json.runs[0]!.logLik) < 0.5, `recomputed ${ll} vs reported ${json.runs[0]!.logLik}`);
});

test('stratify sweep --model admixture --cv 5: the CV error is lowest at the simulated K = 3', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-cv-'));
  const sim = admixedData(21, { N: 120, L: 400, K: 3, alpha: 0.5, fst: 0.15 });
  const file = join(out, 'sim.str');
  writeFileSync(file, toText(writeStructure(sim.data)));
  const r = stratify(
    'sweep',
    file,
    '--model',
    'admixture',
    '--k',
    '1..5',
    '--starts',
    '2',
    '--replicates',
    '2',
    '--cv',
    '5',
    '--threads',
    '2',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const [head, ...rows] = readFileSync(join(out, 'fst-by-k.tsv'), 'utf8').trim().split('\n');
  const col = head!.split('\t').indexOf('cv_error');
  assert.ok(col > 0, head);
  const cv = rows.map((row) => Number(row.split('\t')[col]));
  assert.equal(cv.length, 5);
  assert.ok(
    cv.every((x) => Number.isFinite(x) && x > 0),
    cv.join(', '),
  );
  assert.equal(cv.indexOf(Math.min(...cv)) + 1, 3, `CV error per K: ${cv.join(', ')}`);
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as {
    runs: { K: number; model: string; cvError?: number }[];
  };
  // One CV error per K, on one of its replicates (the more likely one).
  for (let K = 1; K <= 5; K++) {
    const withCv = json.runs.filter((x) => x.K === K && x.cvError !== undefined);
    assert.equal(withCv.length, 1, `K = ${K}`);
  }
  assert.ok(json.runs.every((x) => x.model === 'admixture'));
  // The mixture model refuses --cv, before any computation.
  const bad = stratify('sweep', file, '--k', '2', '--cv', '5', '--out', join(out, 'bad'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /admixture/);
});

test('stratify run --marker-averaging: refused for the mixture model before computing; with the admixture model the options (and the Q and F updates) say so and Q rows are proportions', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-ma-'));
  const bad = stratify('run', dataPath('nancycats.str'), '--k', '2', '--marker-averaging', '--out', join(out, 'bad'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /marker averaging.*admixture/);
  const r = stratify(
    'run',
    dataPath('nancycats.str'),
    '--model',
    'admixture',
    '--marker-averaging',
    '--admixture-init',
    'random',
    '--q-update',
    'em',
    '--f-update',
    'newton',
    '--k',
    '2',
    '--starts',
    '1',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as {
    options: { fit: { markerAveraging?: boolean; admixtureInit?: string; qUpdate?: string; fUpdate?: string } };
  };
  assert.equal(json.options.fit.markerAveraging, true);
  assert.equal(json.options.fit.admixtureInit, 'random');
  assert.equal(json.options.fit.qUpdate, 'em');
  assert.equal(json.options.fit.fUpdate, 'newton');
  const Q = readFileSync(join(out, 'stratify.K2.r1.Q'), 'utf8').trim().split('\n');
  assert.equal(Q.length, 237);
  for (const row of Q) {
    const q = row.trim().split(/\s+/).map(Number);
    assert.ok(Math.abs(q[0]! + q[1]! - 1) < 1e-4 && q.every((x) => x >= 0));
  }
});

test('stratify run --supervised: K = the reference populations, references keep all their ancestry in their population’s column, the others are estimated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-supervised-'));
  const pops = readFileSync(join(ROOT, 'resources', 'examples', 'snp-three-populations.pops.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t') as [string, string]);
  // Every third individual is left to estimate ("-").
  const refs = pops.map(([id, pop], k) => `${id}\t${k % 3 === 2 ? '-' : pop}`).join('\n');
  writeFileSync(join(dir, 'refs.tsv'), `id\tpop\n${refs}\n`);
  const r = stratify(
    'run',
    join(ROOT, 'resources', 'examples', 'snp-three-populations.vcf'),
    ...['--supervised', join(dir, 'refs.tsv'), '--starts', '2', '--threads', '1', '--out', join(dir, 'out')],
  );
  assert.equal(r.status, 0, r.stderr);
  const order = [...new Set(pops.map(([, p]) => p))];
  assert.match(
    r.stderr,
    new RegExp(`K = 3, clusters 1\\.\\.3 = ${order.join(', ')}; 60 reference individuals, 30 estimated`),
  );
  const Q = readFileSync(join(dir, 'out', 'stratify.K3.r1.Q'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(' ').map(Number));
  pops.forEach(([, pop], k) => {
    const own = order.indexOf(pop);
    if (k % 3 !== 2)
      assert.deepEqual(
        Q[k],
        [0, 1, 2].map((c) => (c === own ? 1 : 0)),
        `reference ${k}`,
      );
    // Simulated without admixture: most of an estimated individual's ancestry is its own population's.
    else assert.ok(Q[k]![own]! > 0.6, `estimated ${k}: ${Q[k]!.join(' ')} (own cluster ${own + 1})`);
  });
});

test('stratify run --screen (mixture) and --screen-tolerance (admixture): the options are saved and only the kept starts run; bad values are refused', () => {
  const out = mkdtempSync(join(tmpdir(), 'stratify-screen-'));
  const bad = stratify('run', dataPath('nancycats.str'), '--k', '2', '--screen', '-1', '--out', join(out, 'bad'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /--screen takes a whole number/);
  const r = stratify(
    'run',
    dataPath('nancycats.str'),
    '--k',
    '3',
    '--starts',
    '12',
    '--screen',
    '2',
    '--screen-keep',
    '0.5',
    '--threads',
    '1',
    '--out',
    out,
  );
  assert.equal(r.status, 0, r.stderr);
  type Saved = {
    options: { screen?: { iterations: number; keep: number; tolerance?: number; starts?: number } };
    runs: { completedStarts: number; starts: { index: number }[] }[];
  };
  const json = JSON.parse(readFileSync(join(out, 'stratify.json'), 'utf8')) as Saved;
  assert.equal(json.options.screen?.iterations, 2);
  assert.equal(json.options.screen?.keep, 0.5);
  assert.equal(json.runs[0]!.completedStarts, 6);
  // The admixture model's own flags: every start to ln L change < 5, then the 2 most likely on.
  const badTolerance = stratify('run', dataPath('nancycats.str'), '--model', 'admixture', '--screen-tolerance', '-1');
  assert.notEqual(badTolerance.status, 0);
  assert.match(badTolerance.stderr, /--screen-tolerance takes a number/);
  const adm = join(out, 'admixture');
  const a = stratify(
    'run',
    dataPath('nancycats.str'),
    '--model',
    'admixture',
    '--k',
    '3',
    '--starts',
    '5',
    '--screen-tolerance',
    '5',
    '--screen-starts',
    '2',
    '--threads',
    '1',
    '--out',
    adm,
  );
  assert.equal(a.status, 0, a.stderr);
  const admJson = JSON.parse(readFileSync(join(adm, 'stratify.json'), 'utf8')) as Saved;
  assert.equal(admJson.options.screen?.tolerance, 5);
  assert.equal(admJson.options.screen?.starts, 2);
  assert.equal(admJson.runs[0]!.completedStarts, 2);
  assert.equal(admJson.runs[0]!.starts.length, 2);
});
