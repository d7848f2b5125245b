// AssemblyScript source of the mixture model's per-locus loops (engine/model/mixture/genotype-rows.ts
// and e-step.ts): the same additions in the same order, two columns at a time with f64x2 (each lane
// one IEEE double addition, so the bits equal the JavaScript loops'), without bounds checks.
// Compiled by scripts/kernels/wasm-row-kernels.mjs into
// engine/model/mixture/generated/row-kernels-wasm.ts; engine/model/mixture/wasm-rows.ts calls it.
// Not TypeScript for tsc: usize, i32, f64, v128, load, store and sizeof are AssemblyScript's.
//
// Exports, for codes of 8, 16 or 32 bits, with byte addresses in the imported memory; for K ≤ 8 each
// runs the loop inlined with K a constant (its columns written out by the optimiser), else the loop
// over the columns:
//   add{bits}(codes, n, K, rows, table):     rows[d, :] += table[codes[d], :]            for d < n
//   gather{bits}(codes, n, K, rows, table):  table[codes[d], :] += rows[d, :]            for d < n
//   genotypeLogs(alleles, G, P, K, lt, out): out[g, :] = 0, then += lt[a, :] for each observed copy
//                                            a = alleles[g·P + p] (int16, missing < 0)  for g < G
//   spread(alleles, G, P, K, cnt, acc):      cnt[a, :] += acc[g, :] for each observed copy a of g

/**
 * dst[0 .. K) += src[0 .. K): columns two at a time, the last alone when K is odd. `K` a constant
 * 1..8 (written out at constant offsets once inlined), or 0: a loop over the K8 / 8 columns.
 */
@inline function addRow(dst: usize, src: usize, K: i32, K8: usize): void {
  if (K == 0) {
    let k: usize = 0;
    while (k + 16 <= K8) {
      v128.store(dst + k, f64x2.add(v128.load(dst + k), v128.load(src + k)));
      k += 16;
    }
    if (k < K8) store<f64>(dst + k, load<f64>(dst + k) + load<f64>(src + k));
  } else {
    // Constant offsets on the loads and stores (the address computed once).
    if (K >= 2) v128.store(dst, f64x2.add(v128.load(dst), v128.load(src)));
    if (K >= 4) v128.store(dst, f64x2.add(v128.load(dst, 16), v128.load(src, 16)), 16);
    if (K >= 6) v128.store(dst, f64x2.add(v128.load(dst, 32), v128.load(src, 32)), 32);
    if (K >= 8) v128.store(dst, f64x2.add(v128.load(dst, 48), v128.load(src, 48)), 48);
    if (K == 1) store<f64>(dst, load<f64>(dst) + load<f64>(src));
    if (K == 3) store<f64>(dst, load<f64>(dst, 16) + load<f64>(src, 16), 16);
    if (K == 5) store<f64>(dst, load<f64>(dst, 32) + load<f64>(src, 32), 32);
    if (K == 7) store<f64>(dst, load<f64>(dst, 48) + load<f64>(src, 48), 48);
  }
}

/** dst[0 .. K) = +0 (K as in addRow). */
@inline function zeroRow(dst: usize, K: i32, K8: usize): void {
  if (K == 0) memory.fill(dst, 0, K8);
  else {
    if (K >= 2) v128.store(dst, v128.splat<i64>(0));
    if (K >= 4) v128.store(dst, v128.splat<i64>(0), 16);
    if (K >= 6) v128.store(dst, v128.splat<i64>(0), 32);
    if (K >= 8) v128.store(dst, v128.splat<i64>(0), 48);
    if (K == 1) store<f64>(dst, 0);
    if (K == 3) store<f64>(dst, 0, 16);
    if (K == 5) store<f64>(dst, 0, 32);
    if (K == 7) store<f64>(dst, 0, 48);
  }
}

/** Each individual's row meets its genotype's row: add (rows += table) or gather (table += rows). */
@inline function rowLoop<T>(codes: usize, n: i32, K: i32, Kargument: i32, rows: usize, table: usize, gather: bool): void {
  const K8: usize = (<usize>(K == 0 ? Kargument : K)) << 3;
  let o = rows;
  const end = codes + <usize>n * sizeof<T>();
  while (codes < end) {
    const t = table + <usize>load<T>(codes) * K8;
    if (gather) addRow(t, o, K, K8);
    else addRow(o, t, K, K8);
    o += K8;
    codes += sizeof<T>();
  }
}

/**
 * A locus's genotypes and their copies: genotypeLogs (`logs`) clears a genotype's row of out and
 * adds lt[a] for each observed copy a; spread adds acc[g] to cnt[a] for each.
 */
@inline function copyLoop(
  alleles: usize,
  G: i32,
  P: i32,
  K: i32,
  Kargument: i32,
  byAllele: usize,
  byGenotype: usize,
  logs: bool,
): void {
  const K8: usize = (<usize>(K == 0 ? Kargument : K)) << 3;
  let g = byGenotype;
  const end = byGenotype + <usize>G * K8;
  while (g < end) {
    if (logs) zeroRow(g, K, K8);
    for (let p = P; p != 0; p--) {
      const allele = <i32>load<i16>(alleles);
      if (allele >= 0) {
        const a = byAllele + <usize>allele * K8;
        if (logs) addRow(g, a, K, K8);
        else addRow(a, g, K, K8);
      }
      alleles += 2;
    }
    g += K8;
  }
}

/**
 * rowLoop with K's columns written out for K ≤ 8 (K a constant in each branch once inlined; the
 * branch is taken once a call), else the loop over the columns.
 */
@inline function rowsAnyK<T>(codes: usize, n: i32, K: i32, rows: usize, table: usize, gather: bool): void {
  if (K == 1) rowLoop<T>(codes, n, 1, K, rows, table, gather);
  else if (K == 2) rowLoop<T>(codes, n, 2, K, rows, table, gather);
  else if (K == 3) rowLoop<T>(codes, n, 3, K, rows, table, gather);
  else if (K == 4) rowLoop<T>(codes, n, 4, K, rows, table, gather);
  else if (K == 5) rowLoop<T>(codes, n, 5, K, rows, table, gather);
  else if (K == 6) rowLoop<T>(codes, n, 6, K, rows, table, gather);
  else if (K == 7) rowLoop<T>(codes, n, 7, K, rows, table, gather);
  else if (K == 8) rowLoop<T>(codes, n, 8, K, rows, table, gather);
  else rowLoop<T>(codes, n, 0, K, rows, table, gather);
}

/** copyLoop with K's columns written out for K ≤ 8, as rowsAnyK. */
@inline function copiesAnyK(alleles: usize, G: i32, P: i32, K: i32, byAllele: usize, byGenotype: usize, logs: bool): void {
  if (K == 1) copyLoop(alleles, G, P, 1, K, byAllele, byGenotype, logs);
  else if (K == 2) copyLoop(alleles, G, P, 2, K, byAllele, byGenotype, logs);
  else if (K == 3) copyLoop(alleles, G, P, 3, K, byAllele, byGenotype, logs);
  else if (K == 4) copyLoop(alleles, G, P, 4, K, byAllele, byGenotype, logs);
  else if (K == 5) copyLoop(alleles, G, P, 5, K, byAllele, byGenotype, logs);
  else if (K == 6) copyLoop(alleles, G, P, 6, K, byAllele, byGenotype, logs);
  else if (K == 7) copyLoop(alleles, G, P, 7, K, byAllele, byGenotype, logs);
  else if (K == 8) copyLoop(alleles, G, P, 8, K, byAllele, byGenotype, logs);
  else copyLoop(alleles, G, P, 0, K, byAllele, byGenotype, logs);
}

export function add8(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u8>(codes, n, K, rows, table, false);
}
export function add16(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u16>(codes, n, K, rows, table, false);
}
export function add32(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u32>(codes, n, K, rows, table, false);
}
export function gather8(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u8>(codes, n, K, rows, table, true);
}
export function gather16(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u16>(codes, n, K, rows, table, true);
}
export function gather32(codes: usize, n: i32, K: i32, rows: usize, table: usize): void {
  rowsAnyK<u32>(codes, n, K, rows, table, true);
}
export function genotypeLogs(alleles: usize, G: i32, P: i32, K: i32, lt: usize, out: usize): void {
  copiesAnyK(alleles, G, P, K, lt, out, true);
}
export function spread(alleles: usize, G: i32, P: i32, K: i32, cnt: usize, acc: usize): void {
  copiesAnyK(alleles, G, P, K, cnt, acc, false);
}
