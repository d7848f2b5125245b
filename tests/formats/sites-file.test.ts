// A coordinates file gives sampling sites per population or per individual (whichever its keys
// name), replaces the sites a population file gave, and bad values are refused with file, line
// and column before anything changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormatError, readDataset, textSource } from '../../engine/index.ts';
import { placeDataset } from '../../engine/service/dataset.ts';

const GENEPOP = `cattle
L1
L2
Pop
b1, 101102 201201
b2, 101101 201202
Pop
d1, 103103 202202
d2, 103104 202202
e1, 103104 202202
`;
const POPS =
  'id\tpopulation\tlatitude\tlongitude\nb1\tBorgou\t1\t2\nb2\tBorgou\t1\t2\nd1\tDaGo\t3\t4\nd2\tDaGo\t3\t4\n';

async function cattle() {
  return readDataset({ main: textSource('cattle.gen', GENEPOP) }, { populations: textSource('pops.tsv', POPS) });
}

test('a file keyed by population gives every individual of the population its site', async () => {
  // mapmixture's layout: Site, Lat, Lon; keys match population names, not ids.
  const sites = textSource('coords.csv', 'Site,Lat,Lon\nBorgou,9.5,2.6\nDaGo,-12.25,-70\nNowhere,0,0\n');
  const r = await placeDataset(await cattle(), sites);
  assert.equal(r.by, 'population');
  assert.deepEqual(
    r.data.individuals.map((i) => i.location),
    [
      { kind: 'geographic', latitude: 9.5, longitude: 2.6 },
      { kind: 'geographic', latitude: 9.5, longitude: 2.6 },
      { kind: 'geographic', latitude: -12.25, longitude: -70 },
      { kind: 'geographic', latitude: -12.25, longitude: -70 },
      // e1 is in no population of pops.tsv: the file replaces its sites, so it has none.
      undefined,
    ],
  );
  assert.equal(r.located, 4);
  assert.equal(r.unlocated, 1);
  assert.deepEqual(r.unknown, ['Nowhere']);
  // Populations and groups are kept.
  assert.deepEqual(
    r.data.individuals.map((i) => i.population),
    ['Borgou', 'Borgou', 'DaGo', 'DaGo', undefined],
  );
});

test('a file keyed by id gives planar sites per individual', async () => {
  const sites = textSource('xy.txt', 'sample x y\nb1 10 20\nd2 -1.5 3e2\n');
  const r = await placeDataset(await cattle(), sites);
  assert.equal(r.by, 'individual');
  assert.deepEqual(r.data.individuals[0]!.location, { kind: 'planar', x: 10, y: 20 });
  assert.deepEqual(r.data.individuals[3]!.location, { kind: 'planar', x: -1.5, y: 300 });
  assert.equal(r.data.individuals[1]!.location, undefined);
  assert.equal(r.located, 2);
});

async function refusal(text: string): Promise<FormatError> {
  const e = await placeDataset(await cattle(), textSource('bad.tsv', text)).catch((x: unknown) => x);
  assert.ok(e instanceof FormatError, `expected a FormatError, got ${String(e)}`);
  return e;
}

test('bad values name the file, line and column', async () => {
  let e = await refusal('pop\tlatitude\tlongitude\nBorgou\t91\t2\n');
  assert.deepEqual([e.file, e.line, e.column], ['bad.tsv', 2, 8]);
  assert.match(e.message, /latitude "91".*from -90 to 90/);
  e = await refusal('pop\tlatitude\tlongitude\nBorgou\t9\tEast\n');
  assert.deepEqual([e.line, e.column], [2, 10]);
  assert.match(e.message, /longitude "East"/);
  e = await refusal('pop\tlatitude\tlongitude\nBorgou\t9\n');
  assert.equal(e.line, 2);
  assert.match(e.message, /longitude ""/);
});

test('a header without site columns, a key with two sites and keys that match nothing are refused', async () => {
  let e = await refusal('pop\televation\nBorgou\t300\n');
  assert.equal(e.line, 1);
  assert.match(e.message, /header without site columns/);
  e = await refusal('# sites\npop,lat,lon\nBorgou,1,2\nDaGo,3,4\nBorgou,1,2.5\n');
  assert.equal(e.line, 5);
  assert.match(e.message, /"Borgou" has a second, different site \(its first is on line 3\)/);
  e = await refusal('pop,lat,lon\nParis,48.9,2.35\n');
  assert.match(
    e.message,
    /none of its 1 keys .* "Paris".* individuals "b1", "b2", "d1" and populations "Borgou", "DaGo"/,
  );
});

test('a repeated key with the same site is one site', async () => {
  const r = await placeDataset(await cattle(), textSource('s.csv', 'pop,lat,lon\nBorgou,1,2\nBorgou,1,2\n'));
  assert.equal(r.located, 2);
});
