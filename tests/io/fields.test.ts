import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readAllText, scanFields } from '../../engine/io/fields.ts';
import { bytesSource, textSource } from '../../engine/io/byte-source.ts';
import { readAllLines, tokenize } from '../../engine/io/lines.ts';
import { FormatError, readDataset } from '../../engine/index.ts';
import { createRng } from '../../engine/util/rng.ts';

/** Every line's fields as scanFields reads them: number, then [text, column] per field. */
function scanned(text: string): unknown[] {
  const out: unknown[] = [];
  scanFields(text, (l) => {
    const fields = Array.from({ length: l.count }, (_, f) => [l.text(f), l.column(f)]);
    out.push([l.number, fields, l.count ? l.lastColumn : 0]);
  });
  return out;
}

test('scanFields splits lines and fields as readLines + tokenize do (random texts: spaces, tabs, CR, LF, CRLF, blank lines)', async () => {
  const rng = createRng(7).uniform;
  const pieces = ['a', 'bc', '12', '-3', 'x.y', ' ', '  ', '\t', ' \t ', '\n', '\r\n', '\r', '\n\n', 'é'];
  for (let trial = 0; trial < 300; trial++) {
    let text = '';
    const n = 1 + Math.floor(rng() * 40);
    for (let k = 0; k < n; k++) text += pieces[Math.floor(rng() * pieces.length)];
    const expected: unknown[] = [];
    for (const line of await readAllLines(textSource('t.txt', text, 3))) {
      const tok = tokenize(line.text);
      expected.push([line.number, tok.map((t) => [t.text, t.column]), tok.length ? tok[tok.length - 1]!.column : 0]);
    }
    assert.deepEqual(scanned(text), expected, JSON.stringify(text));
  }
});

test('LineFields.integer reads whole numbers and refuses anything else', () => {
  const got: number[] = [];
  scanFields('12 -7 0 007 1.5 1e3 - -- +4 12a 9007199254740991', (l) => {
    for (let f = 0; f < l.count; f++) got.push(l.integer(f));
  });
  assert.deepEqual(got, [12, -7, 0, 7, NaN, NaN, NaN, NaN, NaN, NaN, 9007199254740991]);
});

test('readAllText gunzips, drops a BOM and decodes UTF-8 split across chunks', async () => {
  const text = '\ufeffchr1 rs1 0 100 A G\nchrå rs2 0 200 C T\n';
  const plain = new TextEncoder().encode(text);
  assert.equal(await readAllText(bytesSource('x.bim', plain, 5)), text.slice(1));
  assert.equal(await readAllText(bytesSource('x.bim.gz', gzipSync(plain), 7)), text.slice(1));
});

const FAM = 'f a 0 0 1 -9\nf b 0 0 1 -9\nf c 0 0 1 -9\nf d 0 0 1 -9\n';
const BED = Uint8Array.from([0x6c, 0x1b, 0x01, 0, 0]);
const readBim = (bim: string) =>
  readDataset({ main: bytesSource('x.bed', BED), companions: [textSource('x.bim', bim), textSource('x.fam', FAM)] });

test('a .bim with the wrong number of columns or a position that is not a whole number names line and column', async () => {
  await assert.rejects(
    readBim('1 rs1 0 100 A G\n\n1  rs2 0 200 C\n'),
    (e: unknown) => e instanceof FormatError && e.line === 3 && e.column === 14 && /5 columns/.test(e.message),
  );
  await assert.rejects(
    readBim('1 rs1 0 100 A G\n1\trs2\t0\t2e5\tC\tT\n'),
    (e: unknown) => e instanceof FormatError && e.line === 2 && e.column === 9 && /position "2e5"/.test(e.message),
  );
  const ok = await readBim('chrZ rs1 0 100 A G\r\nchrZ rs2 0 -5 AC G\r\n');
  assert.deepEqual(
    ok.loci.map((l) => [l.chrom, l.name, l.pos, l.alleles]),
    [
      ['chrZ', 'rs1', 100, ['A', 'G']],
      ['chrZ', 'rs2', -5, ['AC', 'G']],
    ],
  );
});

test('a field the line does not have is refused, not read from another line', () => {
  assert.throws(() => scanFields('a b\nc\n', (l) => l.text(1)), /field 2 of line 2 is not read/);
});
