// AssemblyScript source of PCA's two products over the genotypes (engine/analysis/pca.ts's
// GramProduct: z = Xᵀ Q and Y = X z), for blocks of locus groups whose codes are bytes: the same
// additions and products in the same order as the JavaScript, so the same bits (f64x2 lanes are
// IEEE double operations; no fused multiply-add). Compiled by scripts/kernels/wasm-pca-passes.mjs
// into engine/analysis/generated/pca-passes-wasm.ts; engine/analysis/pca-kernel.ts lays out the
// memory and calls it. Not TypeScript for tsc: f64, i32, usize, v128, load, store and @inline are
// AssemblyScript's.
//
// Rows of l doubles (l a multiple of 4, the caller pads): the individuals' rows (N × l), the
// columns' z (M × l), one table per group of a block (size × l, `tableBytes` apart), and `acc`
// (the genotypes of one locus × l). Where a group's loci are: `first` (int32, groups + 1); its
// table's rows: `size` (int32 per group); each locus's genotypes `genotypes` (int32 per locus),
// columns `colStart` (int32, L + 1), each column's values per genotype from `valueStart` (int32
// per column) in `values` (f64). A block: `count` groups listed in `list` (int32), whose codes are
// staged at `codes` (count × N bytes, in the list's order).

@inline function i32at(p: usize, i: i32): i32 {
  return load<i32>(p + ((<usize>i) << 2));
}
@inline function f64at(p: usize, i: i32): f64 {
  return load<f64>(p + ((<usize>i) << 3));
}

/** dst[0 .. bytes) = +0. */
@inline function zero(dst: usize, bytes: usize): void {
  memory.fill(dst, 0, bytes);
}

/** dst[k] += src[k] for the row's l doubles, two at a time. */
@inline function addRow(dst: usize, src: usize, rowBytes: usize): void {
  for (let k: usize = 0; k < rowBytes; k += 16) v128.store(dst + k, f64x2.add(v128.load(dst + k), v128.load(src + k)));
}

/** dst[k] += v · src[k] for the row's l doubles (a product, then a sum: two roundings, as JavaScript). */
@inline function addScaledRow(dst: usize, src: usize, v: f64, rowBytes: usize): void {
  const s = f64x2.splat(v);
  for (let k: usize = 0; k < rowBytes; k += 16)
    v128.store(dst + k, f64x2.add(v128.load(dst + k), f64x2.mul(s, v128.load(src + k))));
}

/** gatherBlock over columns k .. k + 20. */
function gather20(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    const q0 = v128.load(r);
    const q1 = v128.load(r, 16);
    const q2 = v128.load(r, 32);
    const q3 = v128.load(r, 48);
    const q4 = v128.load(r, 64);
    const q5 = v128.load(r, 80);
    const q6 = v128.load(r, 96);
    const q7 = v128.load(r, 112);
    const q8 = v128.load(r, 128);
    const q9 = v128.load(r, 144);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      v128.store(t, f64x2.add(v128.load(t), q0));
      v128.store(t, f64x2.add(v128.load(t, 16), q1), 16);
      v128.store(t, f64x2.add(v128.load(t, 32), q2), 32);
      v128.store(t, f64x2.add(v128.load(t, 48), q3), 48);
      v128.store(t, f64x2.add(v128.load(t, 64), q4), 64);
      v128.store(t, f64x2.add(v128.load(t, 80), q5), 80);
      v128.store(t, f64x2.add(v128.load(t, 96), q6), 96);
      v128.store(t, f64x2.add(v128.load(t, 112), q7), 112);
      v128.store(t, f64x2.add(v128.load(t, 128), q8), 128);
      v128.store(t, f64x2.add(v128.load(t, 144), q9), 144);
      c += <usize>N;
      table += tableBytes;
    }
  }
}

/** gatherBlock over columns k .. k + 8. */
function gather8(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    const q0 = v128.load(r);
    const q1 = v128.load(r, 16);
    const q2 = v128.load(r, 32);
    const q3 = v128.load(r, 48);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      v128.store(t, f64x2.add(v128.load(t), q0));
      v128.store(t, f64x2.add(v128.load(t, 16), q1), 16);
      v128.store(t, f64x2.add(v128.load(t, 32), q2), 32);
      v128.store(t, f64x2.add(v128.load(t, 48), q3), 48);
      c += <usize>N;
      table += tableBytes;
    }
  }
}

/** gatherBlock over columns k .. k + 4. */
function gather4(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    const q0 = v128.load(r);
    const q1 = v128.load(r, 16);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      v128.store(t, f64x2.add(v128.load(t), q0));
      v128.store(t, f64x2.add(v128.load(t, 16), q1), 16);
      c += <usize>N;
      table += tableBytes;
    }
  }
}

/** addBlock over columns k .. k + 20. */
function add20(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    let y0 = v128.load(r);
    let y1 = v128.load(r, 16);
    let y2 = v128.load(r, 32);
    let y3 = v128.load(r, 48);
    let y4 = v128.load(r, 64);
    let y5 = v128.load(r, 80);
    let y6 = v128.load(r, 96);
    let y7 = v128.load(r, 112);
    let y8 = v128.load(r, 128);
    let y9 = v128.load(r, 144);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      y0 = f64x2.add(y0, v128.load(t));
      y1 = f64x2.add(y1, v128.load(t, 16));
      y2 = f64x2.add(y2, v128.load(t, 32));
      y3 = f64x2.add(y3, v128.load(t, 48));
      y4 = f64x2.add(y4, v128.load(t, 64));
      y5 = f64x2.add(y5, v128.load(t, 80));
      y6 = f64x2.add(y6, v128.load(t, 96));
      y7 = f64x2.add(y7, v128.load(t, 112));
      y8 = f64x2.add(y8, v128.load(t, 128));
      y9 = f64x2.add(y9, v128.load(t, 144));
      c += <usize>N;
      table += tableBytes;
    }
    v128.store(r, y0);
    v128.store(r, y1, 16);
    v128.store(r, y2, 32);
    v128.store(r, y3, 48);
    v128.store(r, y4, 64);
    v128.store(r, y5, 80);
    v128.store(r, y6, 96);
    v128.store(r, y7, 112);
    v128.store(r, y8, 128);
    v128.store(r, y9, 144);
  }
}

/** addBlock over columns k .. k + 8. */
function add8(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    let y0 = v128.load(r);
    let y1 = v128.load(r, 16);
    let y2 = v128.load(r, 32);
    let y3 = v128.load(r, 48);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      y0 = f64x2.add(y0, v128.load(t));
      y1 = f64x2.add(y1, v128.load(t, 16));
      y2 = f64x2.add(y2, v128.load(t, 32));
      y3 = f64x2.add(y3, v128.load(t, 48));
      c += <usize>N;
      table += tableBytes;
    }
    v128.store(r, y0);
    v128.store(r, y1, 16);
    v128.store(r, y2, 32);
    v128.store(r, y3, 48);
  }
}

/** addBlock over columns k .. k + 4. */
function add4(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize, k: usize): void {
  for (let d = 0; d < N; d++) {
    const r = rows + <usize>d * rowBytes + k;
    let y0 = v128.load(r);
    let y1 = v128.load(r, 16);
    let c = codes + <usize>d;
    let table = tables + k;
    for (let b = 0; b < count; b++) {
      const t = table + <usize>load<u8>(c) * rowBytes;
      y0 = f64x2.add(y0, v128.load(t));
      y1 = f64x2.add(y1, v128.load(t, 16));
      c += <usize>N;
      table += tableBytes;
    }
    v128.store(r, y0);
    v128.store(r, y1, 16);
  }
}

/**
 * tables[b][codes[b·N + d]] += rows[d] for every individual d (in order) and group b of the block:
 * each individual's row, twenty, eight or four doubles at a time, is held in registers while it is
 * added to its code's row of every table.
 */
function gatherBlock(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize): void {
  let k: usize = 0;
  for (; k + 160 <= rowBytes; k += 160) gather20(codes, N, count, rows, tables, tableBytes, rowBytes, k);
  for (; k + 64 <= rowBytes; k += 64) gather8(codes, N, count, rows, tables, tableBytes, rowBytes, k);
  if (k < rowBytes) gather4(codes, N, count, rows, tables, tableBytes, rowBytes, k);
}

/**
 * rows[d] += tables[b][codes[b·N + d]] for every individual d and group b of the block (b in
 * order): each individual's row, twenty, eight or four doubles at a time, is held in registers
 * while the block's tables are added to it.
 */
function addBlock(codes: usize, N: i32, count: i32, rows: usize, tables: usize, tableBytes: usize, rowBytes: usize): void {
  let k: usize = 0;
  for (; k + 160 <= rowBytes; k += 160) add20(codes, N, count, rows, tables, tableBytes, rowBytes, k);
  for (; k + 64 <= rowBytes; k += 64) add8(codes, N, count, rows, tables, tableBytes, rowBytes, k);
  if (k < rowBytes) add4(codes, N, count, rows, tables, tableBytes, rowBytes, k);
}

/**
 * acc[g] = Σ of the rows of `table` (size rows) whose combined code holds genotype g of a locus
 * with G genotypes and `stride` (locus-groups.ts's locusMarginal, the same order).
 */
function marginal(table: usize, size: i32, stride: i32, G: i32, acc: usize, rowBytes: usize): void {
  zero(acc, <usize>G * rowBytes);
  const run = <usize>stride * rowBytes;
  const end = table + <usize>size * rowBytes;
  let at = table;
  while (at < end) {
    for (let g = 0; g < G; g++) {
      const out = acc + <usize>g * rowBytes;
      for (const stop = at + run; at < stop; at += rowBytes) addRow(out, at, rowBytes);
    }
  }
}

/** z[c] = Σ_g value_c(g) · acc[g] over the genotypes with a non-zero value (pca.ts's columnSums). */
function columnSums(i: i32, G: i32, acc: usize, z: usize, colStart: usize, valueStart: usize, values: usize, rowBytes: usize): void {
  for (let c = i32at(colStart, i); c < i32at(colStart, i + 1); c++) {
    const zc = z + <usize>c * rowBytes;
    zero(zc, rowBytes);
    const v0 = i32at(valueStart, c);
    for (let g = 0; g < G; g++) {
      const v = f64at(values, v0 + g);
      if (v == 0) continue;
      addScaledRow(zc, acc + <usize>g * rowBytes, v, rowBytes);
    }
  }
}

/** out[g] = Σ over locus i's columns c of value_c(g) · z[c] (pca.ts's locusTable). */
function locusTable(i: i32, G: i32, out: usize, z: usize, colStart: usize, valueStart: usize, values: usize, rowBytes: usize): void {
  zero(out, <usize>G * rowBytes);
  for (let c = i32at(colStart, i); c < i32at(colStart, i + 1); c++) {
    const v0 = i32at(valueStart, c);
    const zc = z + <usize>c * rowBytes;
    for (let g = 0; g < G; g++) {
      const v = f64at(values, v0 + g);
      if (v == 0) continue;
      addScaledRow(out + <usize>g * rowBytes, zc, v, rowBytes);
    }
  }
}

/**
 * Extends a table (size rows) by a locus of G genotypes whose rows are at `locus`: row c·G + g
 * becomes row c + locus row g (locus-groups.ts's extendGroupTable, the same order). Returns the new size.
 */
function extend(table: usize, size: i32, locus: usize, G: i32, rowBytes: usize): i32 {
  for (let c = size - 1; c >= 0; c--) {
    const from = table + <usize>c * rowBytes;
    for (let g = G - 1; g >= 0; g--) {
      const to = table + (<usize>c * <usize>G + <usize>g) * rowBytes;
      const add = locus + <usize>g * rowBytes;
      for (let k: usize = 0; k < rowBytes; k += 16) v128.store(to + k, f64x2.add(v128.load(from + k), v128.load(add + k)));
    }
  }
  return size * G;
}

/**
 * z of the block's loci's columns from the individuals' rows: each group's table gathers the rows
 * by combined code, then each locus's genotype sums (marginal) give its columns' z.
 */
export function transposeBlock(
  list: usize,
  count: i32,
  codes: usize,
  N: i32,
  l: i32,
  rows: usize,
  tables: usize,
  tableBytes: usize,
  acc: usize,
  z: usize,
  first: usize,
  size: usize,
  genotypes: usize,
  colStart: usize,
  valueStart: usize,
  values: usize,
): void {
  const rowBytes = (<usize>l) << 3;
  for (let b = 0; b < count; b++) zero(tables + <usize>b * tableBytes, <usize>i32at(size, i32at(list, b)) * rowBytes);
  gatherBlock(codes, N, count, rows, tables, tableBytes, rowBytes);
  for (let b = 0; b < count; b++) {
    const q = i32at(list, b);
    const table = tables + <usize>b * tableBytes;
    const n = i32at(size, q);
    let stride = n;
    for (let i = i32at(first, q); i < i32at(first, q + 1); i++) {
      const G = i32at(genotypes, i);
      stride /= G;
      marginal(table, n, stride, G, acc, rowBytes);
      columnSums(i, G, acc, z, colStart, valueStart, values, rowBytes);
    }
  }
}

/** rows += X z over the block's groups: each group's table built from its loci's tables, then added. */
export function timesBlock(
  list: usize,
  count: i32,
  codes: usize,
  N: i32,
  l: i32,
  rows: usize,
  tables: usize,
  tableBytes: usize,
  acc: usize,
  z: usize,
  first: usize,
  genotypes: usize,
  colStart: usize,
  valueStart: usize,
  values: usize,
): void {
  const rowBytes = (<usize>l) << 3;
  for (let b = 0; b < count; b++) {
    const q = i32at(list, b);
    const table = tables + <usize>b * tableBytes;
    const i0 = i32at(first, q);
    locusTable(i0, i32at(genotypes, i0), table, z, colStart, valueStart, values, rowBytes);
    let n = i32at(genotypes, i0);
    for (let i = i0 + 1; i < i32at(first, q + 1); i++) {
      const G = i32at(genotypes, i);
      locusTable(i, G, acc, z, colStart, valueStart, values, rowBytes);
      n = extend(table, n, acc, G, rowBytes);
    }
  }
  addBlock(codes, N, count, rows, tables, tableBytes, rowBytes);
}
