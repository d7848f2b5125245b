// Linkage pruning's pair counts (engine/data/ld-pair-counts.ts): two diploid loci held as bit
// planes — called, homozygous, homozygous for the major allele — give the seven popcounts r²
// needs over the individuals called at both, 128 individuals a step with WebAssembly SIMD
// (i8x16.popcnt into byte counters, widened to 32 bits every 31 steps, before a byte could
// overflow); the same integers as the JavaScript fallback's 32-bit popcounts.
//
// Export, over the imported memory "env" "memory" (byte addresses; `bytes` a plane, a multiple of 16):
//   counts(a, b, bytes, out): a locus's three planes lie at a, a + bytes, a + 2·bytes; writes to
//     the seven i32s at out: |Ca ∧ Cb|, |Ha ∧ Cb|, |Hb ∧ Ca|, |Pa ∧ Cb|, |Pb ∧ Ca|, |Ha ∧ Hb|,
//     |Ha ∧ Hb ∧ (Pa ⊕ Pb)| (C called, H homozygous, P homozygous for the major allele).
// Assembled with wabt (its wat2wasm, compiled to JavaScript).
import { watBase64 } from './wat.mjs';

/** The seven counts, in the order they are written. */
const COUNTS = ['n', 'qa', 'qb', 'pa', 'pb', 'hh', 'unlike'];
/** Steps of 16 bytes between widenings: a byte counter gains at most 8 a step (31 · 8 < 256). */
const STEPS = 31;
const get = (name) => `(local.get $${name})`;
/** The 16 bytes at offset s of plane `plane` (0, 1, 2) of the locus at `base`. */
const load = (base, plane) =>
  `(v128.load (i32.add (i32.add ${get(base)} ${get('s')}) (i32.mul ${get('bytes')} (i32.const ${plane}))))`;
const count = (name, value) => `(local.set $b_${name} (i8x16.add ${get(`b_${name}`)} (i8x16.popcnt ${value})))`;
const widen = (name) =>
  `(local.set $w_${name} (i32x4.add ${get(`w_${name}`)} (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u ${get(`b_${name}`)}))))
        (local.set $b_${name} (v128.const i64x2 0 0))`;
const total = (name) =>
  `(i32.add (i32.add (i32x4.extract_lane 0 ${get(`w_${name}`)}) (i32x4.extract_lane 1 ${get(`w_${name}`)}))
      (i32.add (i32x4.extract_lane 2 ${get(`w_${name}`)}) (i32x4.extract_lane 3 ${get(`w_${name}`)})))`;

export const ldPairsWat = `
(module
  (import "env" "memory" (memory 1))
  (func (export "counts") (param $a i32) (param $b i32) (param $bytes i32) (param $out i32)
    (local $s i32) (local $stop i32)
    (local $ca v128) (local $cb v128) (local $ha v128) (local $hb v128) (local $hh v128)
    ${COUNTS.map((c) => `(local $b_${c} v128) (local $w_${c} v128)`).join(' ')}
    (block $done
      (loop $chunk
        (br_if $done (i32.ge_u ${get('s')} ${get('bytes')}))
        (local.set $stop (i32.add ${get('s')} (i32.const ${16 * STEPS})))
        (if (i32.gt_u ${get('stop')} ${get('bytes')}) (then (local.set $stop ${get('bytes')})))
        (loop $step
          (local.set $ca ${load('a', 0)})
          (local.set $cb ${load('b', 0)})
          (local.set $ha ${load('a', 1)})
          (local.set $hb ${load('b', 1)})
          (local.set $hh (v128.and ${get('ha')} ${get('hb')}))
          ${count('n', `(v128.and ${get('ca')} ${get('cb')})`)}
          ${count('qa', `(v128.and ${get('ha')} ${get('cb')})`)}
          ${count('qb', `(v128.and ${get('hb')} ${get('ca')})`)}
          ${count('pa', `(v128.and ${load('a', 2)} ${get('cb')})`)}
          ${count('pb', `(v128.and ${load('b', 2)} ${get('ca')})`)}
          ${count('hh', get('hh'))}
          ${count('unlike', `(v128.and ${get('hh')} (v128.xor ${load('a', 2)} ${load('b', 2)}))`)}
          (local.set $s (i32.add ${get('s')} (i32.const 16)))
          (br_if $step (i32.lt_u ${get('s')} ${get('stop')})))
        ${COUNTS.map(widen).join('\n        ')}
        (br $chunk)))
    ${COUNTS.map((c, k) => `(i32.store offset=${4 * k} ${get('out')} ${total(c)})`).join('\n    ')}
  )
)`;

export const ldPairsBase64 = () => watBase64('ld-pairs.wat', ldPairsWat, true);
