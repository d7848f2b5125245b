// The WebAssembly form of the mixture model's per-locus loops (engine/model/mixture/genotype-rows.ts
// and e-step.ts): the same additions in the same order, two columns at a time with f64x2
// (WebAssembly SIMD; each lane is one IEEE double addition, so the bits equal the JavaScript loops'),
// without bounds checks. About 3× faster than the written-out JavaScript on eHGDP (bench/clustering.ts).
//
// Exports, for codes of 8, 16 or 32 bits and for each K ≤ 8 with the columns written out (suffix kK,
// e.g. add8k3), else a loop over the columns (no suffix; K is then the argument), with byte addresses
// in the imported memory "env" "memory":
//   add{bits}(codes, n, K, rows, table):     rows[d, :] += table[codes[d], :]            for d < n
//   gather{bits}(codes, n, K, rows, table):  table[codes[d], :] += rows[d, :]            for d < n
//   genotypeLogs(alleles, G, P, K, lt, out): out[g, :] = 0, then += lt[a, :] for each observed copy
//                                            a = alleles[g·P + p] (int16, missing < 0)  for g < G
//   spread(alleles, G, P, K, acc, cnt):      cnt[a, :] += acc[g, :] for each observed copy a of g
// Assembled with wabt (its wat2wasm, compiled to JavaScript).
import { watBase64 } from './wat.mjs';

const LOAD = { 8: 'i32.load8_u', 16: 'i32.load16_u', 32: 'i32.load' };

/**
 * Statements adding the K doubles at `src` to those at `dst` (i32 locals holding byte addresses).
 * K a number: written out at constant offsets; K null: a loop over column pairs with locals $k and
 * $K8 (= 8K) and a last single column when K is odd.
 */
function addRow(dst, src, K) {
  const pair = (at, index) => `
        (v128.store${at} (${index(dst)})
          (f64x2.add (v128.load${at} (${index(dst)})) (v128.load${at} (${index(src)}))))`;
  const single = (at, index) => `
        (f64.store${at} (${index(dst)})
          (f64.add (f64.load${at} (${index(dst)})) (f64.load${at} (${index(src)}))))`;
  if (K !== null) {
    const base = (p) => `local.get ${p}`;
    const pairs = Array.from({ length: K >> 1 }, (_, j) => pair(j ? ` offset=${j * 16}` : '', base)).join('');
    return pairs + (K % 2 === 1 ? single(` offset=${(K - 1) * 8}`, base) : '');
  }
  const at = (p) => `i32.add (local.get ${p}) (local.get $k)`;
  return `
        (local.set $k (i32.const 0))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $k) (i32.const 16)) (local.get $K8)))${pair('', at)}
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $pairs)))
        (if (i32.lt_u (local.get $k) (local.get $K8))
          (then${single('', at)}))`;
}

/** Statements setting the K doubles at `dst` to +0. */
function zeroRow(dst, K) {
  if (K !== null)
    return (
      Array.from(
        { length: K >> 1 },
        (_, j) => `
        (v128.store${j ? ` offset=${j * 16}` : ''} (local.get ${dst}) (v128.const i64x2 0 0))`,
      ).join('') + (K % 2 === 1 ? `\n        (f64.store offset=${(K - 1) * 8} (local.get ${dst}) (f64.const 0))` : '')
    );
  return `
        (memory.fill (local.get ${dst}) (i32.const 0) (local.get $K8))`;
}

const suffix = (K) => (K === null ? '' : `k${K}`);
const K8 = (K) => (K === null ? '(i32.shl (local.get $K) (i32.const 3))' : `(i32.const ${K * 8})`);
const LOCALS = '(local $K8 i32) (local $k i32) (local $end i32)';

/** add / gather: each individual's row meets its genotype's row (add: dst = rows; gather: dst = table). */
function rowLoop(name, bits, K, dst, src) {
  return `
  (func (export "${name}${bits}${suffix(K)}") (param $codes i32) (param $n i32) (param $K i32) (param $rows i32) (param $table i32)
    ${LOCALS} (local $o i32) (local $t i32)
    (local.set $K8 ${K8(K)})
    (local.set $o (local.get $rows))
    (local.set $end (i32.add (local.get $codes) (i32.mul (local.get $n) (i32.const ${bits / 8}))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        (local.set $t (i32.add (local.get $table) (i32.mul (${LOAD[bits]} (local.get $codes)) (local.get $K8))))${addRow(dst, src, K)}
        (local.set $o (i32.add (local.get $o) (local.get $K8)))
        (local.set $codes (i32.add (local.get $codes) (i32.const ${bits / 8})))
        (br $next))))`;
}

/**
 * The loop over a locus's genotypes and their copies: `zero` clears the genotype's row first
 * (genotypeLogs); each observed copy a adds lt[a] to out[g] (genotypeLogs: dst = $g, src = $a) or
 * acc[g] to cnt[a] (spread: dst = $a, src = $g).
 */
function copyLoop(name, K, zero, dst, src) {
  return `
  (func (export "${name}${suffix(K)}") (param $alleles i32) (param $G i32) (param $P i32) (param $K i32) (param $byAllele i32) (param $byGenotype i32)
    ${LOCALS} (local $g i32) (local $a i32) (local $p i32) (local $allele i32)
    (local.set $K8 ${K8(K)})
    (local.set $g (local.get $byGenotype))
    (local.set $end (i32.add (local.get $byGenotype) (i32.mul (local.get $G) (local.get $K8))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $g) (local.get $end)))${zero ? zeroRow('$g', K) : ''}
        (local.set $p (local.get $P))
        (block $copiesDone
          (loop $copies
            (br_if $copiesDone (i32.eqz (local.get $p)))
            (local.set $allele (i32.load16_s (local.get $alleles)))
            (if (i32.ge_s (local.get $allele) (i32.const 0))
              (then
                (local.set $a (i32.add (local.get $byAllele) (i32.mul (local.get $allele) (local.get $K8))))${addRow(dst, src, K)}))
            (local.set $alleles (i32.add (local.get $alleles) (i32.const 2)))
            (local.set $p (i32.sub (local.get $p) (i32.const 1)))
            (br $copies)))
        (local.set $g (i32.add (local.get $g) (local.get $K8)))
        (br $next))))`;
}

/** Written-out loops for K up to this; a loop over the columns beyond. */
export const UNROLLED_K = 8;
const KS = [null, ...Array.from({ length: UNROLLED_K }, (_, k) => k + 1)];

export const rowKernelsWat = `(module
  (import "env" "memory" (memory 1))${KS.flatMap((K) => [
    ...[8, 16, 32].flatMap((bits) => [rowLoop('add', bits, K, '$o', '$t'), rowLoop('gather', bits, K, '$t', '$o')]),
    copyLoop('genotypeLogs', K, true, '$g', '$a'),
    copyLoop('spread', K, false, '$a', '$g'),
  ]).join('')}
)
`;

/** The assembled module, base64. */
export function rowKernelsBase64() {
  return watBase64('row-kernels.wat', rowKernelsWat, true);
}
