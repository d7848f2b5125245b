// The WebAssembly row loops (engine/model/mixture/wasm-rows.ts) against plain loops written here,
// and the E step and expected counts through them against the JavaScript loops: the same bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wasmRows, wasmRowsAvailable } from '../../engine/model/mixture/wasm-rows.ts';
import { buildPreparedData } from '../../engine/model/prepared/prepared-data.ts';
import { eStep, eStepBuffers, expectedCounts } from '../../engine/model/mixture/e-step.ts';
import { randomModel } from '../../engine/model/mixture/mixture-model.ts';
import { createRng } from '../../engine/util/rng.ts';
import { makeData } from './synthetic.ts';

test('WebAssembly with SIMD is available in Node (else the engine silently takes the slower JavaScript loops)', () => {
  assert.equal(wasmRowsAvailable(), true);
});

test('the WebAssembly row loops add and gather rows exactly as plain loops do, for 8-, 16- and 32-bit codes (shared memory too), every K, from an offset, copied per call or resident', () => {
  const rng = createRng(5);
  const N = 37;
  const T = 300;
  const offset = 11;
  for (const make of [
    (n: number) => new Uint8Array(n),
    (n: number) => new Uint16Array(n),
    (n: number) => new Int32Array(n),
    (n: number) => new Uint16Array(new SharedArrayBuffer(n * 2)),
  ]) {
    const codes = make(offset + N + 5);
    const rowsOf = Math.min(T, codes instanceof Uint8Array ? 256 : T);
    for (let d = 0; d < codes.length; d++) codes[d] = Math.floor(rng.uniform() * rowsOf);
    for (const K of [1, 2, 3, 4, 5, 7, 8, 9, 16]) {
      // Codes copied in per call, or once (resident) for odd K.
      const w = wasmRows({ N, K, tableRows: T, resident: K % 2 === 1 ? [codes] : [] })!;
      const rows = Float64Array.from({ length: N * K }, () => rng.uniform() - 0.5);
      const table = Float64Array.from({ length: T * K }, () => rng.uniform() * 3);
      w.rows.set(rows);
      w.table.set(table);
      w.add(codes, offset);
      for (let d = 0; d < N; d++) for (let k = 0; k < K; k++) rows[d * K + k]! += table[codes[offset + d]! * K + k]!;
      assert.deepEqual(Array.from(w.rows), Array.from(rows), `add, ${codes.constructor.name}, K = ${K}`);
      w.gather(codes, offset);
      for (let d = 0; d < N; d++) for (let k = 0; k < K; k++) table[codes[offset + d]! * K + k]! += rows[d * K + k]!;
      assert.deepEqual(Array.from(w.table), Array.from(table), `gather, ${codes.constructor.name}, K = ${K}`);
    }
  }
});

test('E step and expected counts: the WebAssembly loops (rows, genotype logs, counts spread over alleles) give the bits of the JavaScript loops (16-bit codes, locus groups of SNPs, missing copies, K beyond the written-out 8)', () => {
  const rng = createRng(8);
  const N = 700;
  // 40 alleles: more than 255 distinct genotypes at a locus, so its codes are 16-bit; then SNPs that
  // locus-groups.ts combines, and a multi-allelic locus among them.
  const r = [40, 40, 2, 2, 2, 2, 5, 2, 2, 2];
  const data = buildPreparedData(
    makeData(N, r.length, 2, r, (l) => (rng.uniform() < 0.03 ? -1 : Math.floor(rng.uniform() * r[l]!))),
  );
  assert.ok(data.locusCodes instanceof Uint16Array, data.locusCodes.constructor.name);
  assert.ok(
    Array.from(data.groups.row).some((x) => x >= 0),
    'some loci are grouped',
  );
  for (const K of [2, 3, 6, 11]) {
    const model = randomModel(data, K, createRng(K));
    const js = eStepBuffers(data, K, { wasm: false });
    const wasm = eStepBuffers(data, K);
    assert.ok(wasm.wasm?.copies && !js.wasm);
    assert.equal(eStep(data, model, wasm), eStep(data, model, js), `K = ${K}: ln L`);
    assert.deepEqual(Array.from(wasm.posterior), Array.from(js.posterior), `K = ${K}: posterior`);
    for (const mode of ['skip', 'expect'] as const) {
      const a = expectedCounts(data, model, js.posterior, mode, undefined, wasm);
      const b = expectedCounts(data, model, js.posterior, mode, undefined, js);
      assert.deepEqual(Array.from(a.alleleCluster), Array.from(b.alleleCluster), `K = ${K}, ${mode}: counts`);
      assert.deepEqual(Array.from(a.cluster), Array.from(b.cluster));
    }
  }
});
