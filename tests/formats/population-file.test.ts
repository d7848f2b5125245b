// A population file defines the populations: what it does not name has none, a file that names no
// individual of the data is refused before anything runs, and a table of measurements is not read
// as haploid genotypes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError, readDataset, textSource } from '../../engine/index.ts';

// GENEPOP: two populations, labelled by GENEPOP's own scheme (their index) when read alone.
const GENEPOP = `cattle
L1
L2
Pop
b1, 101102 201201
b2, 101101 201202
Pop
d1, 103103 202202
d2, 103104 202202
`;

test("individuals the population file does not name have no population, not the genotype file's label", async () => {
  const pops = textSource('pops.tsv', 'id\tpopulation\nb1\tBorgou\nb2\tBorgou\n');
  const data = await readDataset({ main: textSource('cattle.gen', GENEPOP) }, { populations: pops });
  assert.deepEqual(
    data.individuals.map((i) => i.population),
    ['Borgou', 'Borgou', undefined, undefined],
  );
  assert.ok(data.source!.warnings.some((w) => /2 individual\(s\) not in pops\.tsv: d1, d2/.test(w)));
});

test('a population file that names no individual of the data is refused, with both sides shown', async () => {
  const pops = textSource('pops.tsv', 'id\tpopulation\nBorgou_1\tBorgou\nBlonde_1\tBlonde\n');
  await assert.rejects(
    readDataset({ main: textSource('cattle.gen', GENEPOP) }, { populations: pops }),
    (e: unknown) => {
      assert.ok(e instanceof FormatError, String(e));
      assert.equal(e.file, 'pops.tsv');
      assert.match(
        e.message,
        /none of its 2 ids is an individual of cattle\.gen \(it lists "Borgou_1", "Blonde_1"; the data has "b1", "b2", "d1"\)/,
      );
      return true;
    },
  );
});

test('a CSV of measurements is refused as such, naming the cell', async () => {
  const csv = 'id,weight,height\na,72.5,180.2\nb,64.1,171.0\n';
  await assert.rejects(readDataset({ main: textSource('people.csv', csv) }), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.equal(e.line, 2);
    assert.equal(e.column, 3);
    assert.match(
      e.message,
      /"72\.5" in column "weight" is a decimal number: the table looks like measurements, not genotypes/,
    );
    return true;
  });
  // Haploid allele names that are whole numbers (microsatellite sizes) are still genotypes.
  const haploid = await readDataset({ main: textSource('mt.csv', 'id,L1,L2\na,120,A\nb,122,G\n') });
  assert.equal(haploid.ploidy, 1);
});

test('sampling sites: latitude/longitude or planar x/y columns; empty cells leave no site', async () => {
  const geo = textSource(
    'sites.tsv',
    'id\tpop\tgroup\tlatitude\tlongitude\nb1\tBorgou\tAFRICA\t9.5\t2.6\nb2\tBorgou\tAFRICA\t9.5\t2.6\nd1\tN\tEUROPE\t\t\nd2\tN\tEUROPE\t-45\t170.25\n',
  );
  const data = await readDataset({ main: textSource('cattle.gen', GENEPOP) }, { populations: geo });
  assert.deepEqual(
    data.individuals.map((i) => i.location),
    [
      { kind: 'geographic', latitude: 9.5, longitude: 2.6 },
      { kind: 'geographic', latitude: 9.5, longitude: 2.6 },
      undefined,
      { kind: 'geographic', latitude: -45, longitude: 170.25 },
    ],
  );
  const planar = textSource(
    'xy.tsv',
    'id\tpop\tcolony_x\tcolony_y\nb1\tA\t263.3\t171.1\nb2\tA\t1\t2\nd1\tB\t3\t4\nd2\tB\t5\t6\n',
  );
  const cats = await readDataset({ main: textSource('cattle.gen', GENEPOP) }, { populations: planar });
  assert.deepEqual(cats.individuals[0]!.location, { kind: 'planar', x: 263.3, y: 171.1 });
});

test('a latitude out of range or a coordinate that is not a number names its file, line and column', async () => {
  const cases: [string, RegExp][] = [
    ['id\tpop\tlat\tlon\nb1\tA\t91\t0\n', /sites\.tsv:2:6.*latitude "91".*a number from -90 to 90/s],
    ['id\tpop\tlat\tlon\nb1\tA\t10\teast\n', /sites\.tsv:2:9.*longitude "east"/s],
    ['id\tpop\tx\ty\nb1\tA\t1\t\n', /sites\.tsv:2:.*y ""/s],
  ];
  for (const [text, why] of cases) {
    const err = await readDataset(
      { main: textSource('cattle.gen', GENEPOP) },
      { populations: textSource('sites.tsv', text) },
    ).catch((e: unknown) => e);
    assert.ok(err instanceof FormatError, String(err));
    assert.match(`${err.file}:${err.line}:${err.column} ${err.message}`, why);
  }
});
