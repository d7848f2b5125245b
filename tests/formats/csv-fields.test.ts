// Delimited lines are split as spreadsheets write CSV: checked against csv-parse (an independent
// parser) on random fields holding delimiters, quotes and spaces, and through the genotype-table
// reader on a spreadsheet export whose ids contain commas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { tokenize } from '../../engine/io/lines.ts';
import { FormatError, readGenotypeTable, textSource } from '../../engine/index.ts';

/** A field as a spreadsheet writes it: quoted when it holds the delimiter, a quote or edge spaces. */
function encode(field: string, delimiter: string): string {
  const needs = field.includes(delimiter) || field.includes('"') || field !== field.trim() || field === '';
  return needs ? `"${field.replace(/"/g, '""')}"` : field;
}

test('fields split as csv-parse splits them (comma, semicolon and tab delimited)', () => {
  const field = fc.string({ unit: fc.constantFrom('a', 'B', '1', '/', ' ', '"', ',', ';', '\t', 'é'), maxLength: 8 });
  fc.assert(
    fc.property(fc.array(field, { minLength: 1, maxLength: 6 }), fc.constantFrom(',', ';', '\t'), (fields, d) => {
      const line = fields.map((f) => encode(f, d)).join(d);
      const expected = (parse(line, { delimiter: d, relax_column_count: true }) as string[][])[0] ?? [''];
      const got = tokenize(line, d).map((t) => t.text);
      assert.deepEqual(got, expected, JSON.stringify(line));
    }),
    { numRuns: 2000, seed: 42 },
  );
});

test('columns point at the first character of each field, quote included', () => {
  const line = 'id, "Smith, J" ,"A/G",,  T/T';
  assert.deepEqual(tokenize(line, ','), [
    { text: 'id', column: 1 },
    { text: 'Smith, J', column: 5 },
    { text: 'A/G', column: 17 },
    { text: '', column: 23 },
    { text: 'T/T', column: 26 },
  ]);
});

test('a genotype table exported by a spreadsheet: quoted ids with commas, quoted genotypes', async () => {
  const csv = 'id,pop,L1,L2\n"Smith, J",north,"A/G",T/T\n"O""Brien, K",south,A/A,"C/T"\n';
  const data = await readGenotypeTable(textSource('export.csv', csv));
  assert.deepEqual(
    data.individuals.map((i) => [i.id, i.population]),
    [
      ['Smith, J', 'north'],
      ['O"Brien, K', 'south'],
    ],
  );
  assert.equal(data.loci.length, 2);
  // An error after a quoted comma names the right column.
  const bad = 'id,pop,L1,L2\n"Smith, J",north,"A/G",T/T/C\n';
  const e = await readGenotypeTable(textSource('bad.csv', bad)).catch((x: unknown) => x);
  assert.ok(e instanceof FormatError);
  assert.deepEqual([e.line, e.column], [2, 24]);
});
