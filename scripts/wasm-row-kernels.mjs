// The WebAssembly form of the mixture model's two row loops (engine/model/mixture/genotype-rows.ts):
// the same additions in the same order, two columns at a time with f64x2 (WebAssembly SIMD; each lane
// is one IEEE double addition, so the bits equal the JavaScript loops'), without bounds checks.
// About 3–4× faster than the written-out JavaScript on eHGDP's rows (bench/clustering.ts).
//
// Exports add8/add16/add32 and gather8/gather16/gather32 (the codes' width in bits), and the same
// for each K ≤ 8 with the columns written out (add8k3, …), each (codes, n, K, rows, table) with byte
// addresses in the imported memory "env" "memory":
//   add:    rows[d, :] += table[codes[d], :]   for d < n
//   gather: table[codes[d], :] += rows[d, :]   for d < n
// Assembled with wabt (its wat2wasm, compiled to JavaScript).
import wabtInit from 'wabt';

const LOAD = { 8: 'i32.load8_u', 16: 'i32.load16_u', 32: 'i32.load' };

/** One loop: `dst` row of each pair gets `src` row added (add: dst = rows; gather: dst = table). */
function rowLoop(name, bits, dst, src) {
  return `
  (func (export "${name}${bits}") (param $codes i32) (param $n i32) (param $K i32) (param $rows i32) (param $table i32)
    (local $end i32) (local $K8 i32) (local $o i32) (local $t i32) (local $k i32)
    (local.set $K8 (i32.shl (local.get $K) (i32.const 3)))
    (local.set $o (local.get $rows))
    (local.set $end (i32.add (local.get $codes) (i32.mul (local.get $n) (i32.const ${bits / 8}))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        (local.set $t (i32.add (local.get $table) (i32.mul (${LOAD[bits]} (local.get $codes)) (local.get $K8))))
        (local.set $k (i32.const 0))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $k) (i32.const 16)) (local.get $K8)))
            (v128.store (i32.add (local.get ${dst}) (local.get $k))
              (f64x2.add (v128.load (i32.add (local.get ${dst}) (local.get $k)))
                         (v128.load (i32.add (local.get ${src}) (local.get $k)))))
            (local.set $k (i32.add (local.get $k) (i32.const 16)))
            (br $pairs)))
        (if (i32.lt_u (local.get $k) (local.get $K8))
          (then
            (f64.store (i32.add (local.get ${dst}) (local.get $k))
              (f64.add (f64.load (i32.add (local.get ${dst}) (local.get $k)))
                       (f64.load (i32.add (local.get ${src}) (local.get $k)))))))
        (local.set $o (i32.add (local.get $o) (local.get $K8)))
        (local.set $codes (i32.add (local.get $codes) (i32.const ${bits / 8})))
        (br $next))))`;
}

/** The same loop for a fixed K ≤ 8: the columns written out, at constant offsets from the rows' addresses. */
function rowLoopK(name, bits, K, dst, src) {
  const pairs = Array.from({ length: K >> 1 }, (_, j) => j * 16);
  const body = pairs
    .map(
      (at) => `
        (v128.store offset=${at} (local.get ${dst})
          (f64x2.add (v128.load offset=${at} (local.get ${dst})) (v128.load offset=${at} (local.get ${src}))))`,
    )
    .join('');
  const tail =
    K % 2 === 1
      ? `
        (f64.store offset=${(K - 1) * 8} (local.get ${dst})
          (f64.add (f64.load offset=${(K - 1) * 8} (local.get ${dst})) (f64.load offset=${(K - 1) * 8} (local.get ${src}))))`
      : '';
  return `
  (func (export "${name}${bits}k${K}") (param $codes i32) (param $n i32) (param $K i32) (param $rows i32) (param $table i32)
    (local $end i32) (local $o i32) (local $t i32)
    (local.set $o (local.get $rows))
    (local.set $end (i32.add (local.get $codes) (i32.mul (local.get $n) (i32.const ${bits / 8}))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        (local.set $t (i32.add (local.get $table) (i32.mul (${LOAD[bits]} (local.get $codes)) (i32.const ${K * 8}))))${body}${tail}
        (local.set $o (i32.add (local.get $o) (i32.const ${K * 8})))
        (local.set $codes (i32.add (local.get $codes) (i32.const ${bits / 8})))
        (br $next))))`;
}

/** Written-out loops for K up to this; a loop over the columns beyond. */
export const UNROLLED_K = 8;

export const rowKernelsWat = `(module
  (import "env" "memory" (memory 1))${[8, 16, 32]
    .flatMap((bits) => [
      rowLoop('add', bits, '$o', '$t'),
      rowLoop('gather', bits, '$t', '$o'),
      ...Array.from({ length: UNROLLED_K }, (_, k) => [
        rowLoopK('add', bits, k + 1, '$o', '$t'),
        rowLoopK('gather', bits, k + 1, '$t', '$o'),
      ]).flat(),
    ])
    .join('')}
)
`;

/** The assembled module, base64. */
export async function rowKernelsBase64() {
  const wabt = await wabtInit();
  const module = wabt.parseWat('row-kernels.wat', rowKernelsWat, { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}
