import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesSource, FormatError, readDataset, textSource } from '../../engine/index.ts';

const INTERNAL = /popData|oneRowPerIndividual|extraColumns/;

/** Reading `text` fails with a FormatError whose message matches `want` at the given line. */
async function refused(name: string, source: ReturnType<typeof textSource>, want: RegExp, line: number) {
  await assert.rejects(readDataset({ main: source }), (e: unknown) => {
    assert.ok(e instanceof FormatError, String(e));
    assert.match(e.message, want);
    assert.doesNotMatch(e.message, INTERNAL, 'no internal option names');
    assert.equal(e.line, line, `${name}: line`);
    return true;
  });
}

test('prose, JSON and scripts are not read as STRUCTURE: a clear refusal at the first wordy line', async () => {
  const prose =
    '# Notes on the samples\n\nWe sampled 237 cats in 17 colonies in 1996 and typed 9 loci.\nThe colonies lie 2 to 40 km apart.\n';
  await refused('notes.txt', textSource('notes.txt', prose), /does not look like genotype data/, 3);
  const json = '{\n  "name": "stratify",\n  "version": "0.1.0",\n  "count": 12\n}\n';
  await refused('data.txt', textSource('data.txt', json), /does not look like genotype data/, 2);
  const bytes = new Uint8Array(400).map((_, k) => (k * 37 + 11) % 256);
  await refused('blob.dat', bytesSource('blob.dat', bytes), /binary file/, 1);
});

test('a STRUCTURE file whose values cannot be split names the reading options the user sees', async () => {
  // Two-value rows: a label and one allele: no layout fits (ploidy 2, label, population column).
  const text = 'a 1 2 3 4 5 6 7 8 9 10 11 12\nb 1 2 3 4 5 6 7 8 9 10 11 12 13\nc 1 2 3\n';
  await assert.rejects(readDataset({ main: textSource('odd.str', text) }), (e: unknown) => {
    assert.ok(e instanceof FormatError);
    assert.doesNotMatch(e.message, INTERNAL);
    return true;
  });
  // The layout message itself, reached with an explicit layout that leaves no loci.
  await assert.rejects(
    readDataset({ main: textSource('x.str', 'a 1 5 6\nb 1 5 6\n') }, { structure: { extraColumns: 3 } }),
    (e: unknown) =>
      e instanceof FormatError && /Reading options \(CLI: --ploidy/.test(e.message) && !INTERNAL.test(e.message),
  );
});
