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
//   planes(src, n, dst, words, out): a locus's PLINK .bed codes for n individuals at src (two bits
//     a genotype, low first: 00 homozygous for allele 0, 01 missing, 10 heterozygous, 11
//     homozygous for allele 1; read 8 bytes at a time, bits past the n-th individual ignored)
//     become its three planes at dst (`words` 32-bit words a plane, ≥ ⌈n / 32⌉), the major allele
//     being allele 1 when it has more copies; writes the i32s called, homozygotes for allele 0, for
//     allele 1 to out.
// Assembled with wabt (its wat2wasm, compiled to JavaScript).
import { watBase64 } from './wat.mjs';

/** The seven counts, in the order they are written. */
const COUNTS = ['n', 'qa', 'qb', 'pa', 'pb', 'hh', 'unlike'];
/** Steps of 16 bytes between widenings: a byte counter gains at most 8 a step (31 · 8 < 256). */
const STEPS = 31;
const get = (name) => `(local.get $${name})`;
/** The 16 bytes at offset s of plane `plane` (0, 1, 2) of the locus at `base` (its planes' addresses precomputed). */
const load = (base, plane) => `(v128.load (i32.add ${get(`${base}${plane}`)} ${get('s')}))`;
const count = (name, value) => `(local.set $b_${name} (i8x16.add ${get(`b_${name}`)} (i8x16.popcnt ${value})))`;
const widen = (name) =>
  `(local.set $w_${name} (i32x4.add ${get(`w_${name}`)} (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u ${get(`b_${name}`)}))))
        (local.set $b_${name} (v128.const i64x2 0 0))`;
const total = (name) =>
  `(i32.add (i32.add (i32x4.extract_lane 0 ${get(`w_${name}`)}) (i32x4.extract_lane 1 ${get(`w_${name}`)}))
      (i32.add (i32x4.extract_lane 2 ${get(`w_${name}`)}) (i32x4.extract_lane 3 ${get(`w_${name}`)})))`;

/** Sets $x to the 32 bits at even positions of `value` (written out where used: no call a word). */
const evenBits = (value) => `
    (local.set $x ${value})
    (local.set $x (i64.and ${get('x')} (i64.const 0x5555555555555555)))
    (local.set $x (i64.and (i64.or ${get('x')} (i64.shr_u ${get('x')} (i64.const 1))) (i64.const 0x3333333333333333)))
    (local.set $x (i64.and (i64.or ${get('x')} (i64.shr_u ${get('x')} (i64.const 2))) (i64.const 0x0f0f0f0f0f0f0f0f)))
    (local.set $x (i64.and (i64.or ${get('x')} (i64.shr_u ${get('x')} (i64.const 4))) (i64.const 0x00ff00ff00ff00ff)))
    (local.set $x (i64.and (i64.or ${get('x')} (i64.shr_u ${get('x')} (i64.const 8))) (i64.const 0x0000ffff0000ffff)))
    (local.set $x (i64.and (i64.or ${get('x')} (i64.shr_u ${get('x')} (i64.const 16))) (i64.const 0x00000000ffffffff)))`;
const even = (value) => `${evenBits(value)}
        (i32.wrap_i64 ${get('x')})`;

export const ldPairsWat = `
(module
  (import "env" "memory" (memory 1))
  (func (export "planes") (param $src i32) (param $n i32) (param $dst i32) (param $words i32) (param $out i32)
    (local $k i32) (local $used i32) (local $valid i32) (local $mask i32) (local $lo i64)
    (local $c i32) (local $h0 i32) (local $h1 i32) (local $plane i32) (local $at i32)
    (local $called i32) (local $n0 i32) (local $n1 i32) (local $x i64)
    (local.set $plane (i32.shl ${get('words')} (i32.const 2)))
    (memory.fill ${get('dst')} (i32.const 0) (i32.mul ${get('plane')} (i32.const 3)))
    (local.set $used (i32.shr_u (i32.add ${get('n')} (i32.const 31)) (i32.const 5)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u ${get('k')} ${get('used')}))
        ;; Each genotype's low and high bit, 32 of each gathered into an i32 (L, H): called = ¬L ∨ H,
        ;; homozygous for allele 0 = ¬L ∧ ¬H, for allele 1 = L ∧ H.
        (local.set $lo (i64.load (i32.add ${get('src')} (i32.shl ${get('k')} (i32.const 3)))))
        (local.set $h0 ${even(get('lo'))})
        (local.set $h1 ${even(`(i64.shr_u ${get('lo')} (i64.const 1))`)})
        (local.set $c (i32.or (i32.xor ${get('h0')} (i32.const -1)) ${get('h1')}))
        (local.set $mask (i32.and ${get('h0')} ${get('h1')}))
        (local.set $h0 (i32.xor (i32.or ${get('h0')} ${get('h1')}) (i32.const -1)))
        (local.set $h1 ${get('mask')})
        ;; Individuals past n (the last byte's padding, the next locus's bytes) are not read.
        (local.set $valid (i32.sub ${get('n')} (i32.shl ${get('k')} (i32.const 5))))
        (if (i32.lt_u ${get('valid')} (i32.const 32))
          (then
            (local.set $mask (i32.sub (i32.shl (i32.const 1) ${get('valid')}) (i32.const 1)))
            (local.set $c (i32.and ${get('c')} ${get('mask')}))
            (local.set $h0 (i32.and ${get('h0')} ${get('mask')}))
            (local.set $h1 (i32.and ${get('h1')} ${get('mask')}))))
        (local.set $at (i32.add ${get('dst')} (i32.shl ${get('k')} (i32.const 2))))
        (i32.store ${get('at')} ${get('c')})
        (i32.store (i32.add ${get('at')} ${get('plane')}) ${get('h0')})
        (i32.store (i32.add ${get('at')} (i32.shl ${get('plane')} (i32.const 1))) ${get('h1')})
        (local.set $called (i32.add ${get('called')} (i32.popcnt ${get('c')})))
        (local.set $n0 (i32.add ${get('n0')} (i32.popcnt ${get('h0')})))
        (local.set $n1 (i32.add ${get('n1')} (i32.popcnt ${get('h1')})))
        (local.set $k (i32.add ${get('k')} (i32.const 1)))
        (br $next)))
    ;; Homozygous = either homozygote; the third plane keeps the major allele's.
    (local.set $k (i32.const 0))
    (block $merged
      (loop $merge
        (br_if $merged (i32.ge_u ${get('k')} ${get('plane')}))
        (local.set $at (i32.add ${get('dst')} ${get('k')}))
        (local.set $h0 (i32.load (i32.add ${get('at')} ${get('plane')})))
        (local.set $h1 (i32.load (i32.add ${get('at')} (i32.shl ${get('plane')} (i32.const 1)))))
        (i32.store (i32.add ${get('at')} ${get('plane')}) (i32.or ${get('h0')} ${get('h1')}))
        (if (i32.le_u ${get('n1')} ${get('n0')})
          (then (i32.store (i32.add ${get('at')} (i32.shl ${get('plane')} (i32.const 1))) ${get('h0')})))
        (local.set $k (i32.add ${get('k')} (i32.const 4)))
        (br $merge)))
    (i32.store ${get('out')} ${get('called')})
    (i32.store offset=4 ${get('out')} ${get('n0')})
    (i32.store offset=8 ${get('out')} ${get('n1')}))
  (func (export "counts") (param $a i32) (param $b i32) (param $bytes i32) (param $out i32)
    (local $s i32) (local $stop i32)
    (local $a0 i32) (local $a1 i32) (local $a2 i32) (local $b0 i32) (local $b1 i32) (local $b2 i32)
    (local $ca v128) (local $cb v128) (local $ha v128) (local $hb v128) (local $hh v128) (local $pa v128) (local $pb v128)
    ${COUNTS.map((c) => `(local $b_${c} v128) (local $w_${c} v128)`).join(' ')}
    (local.set $a0 ${get('a')})
    (local.set $a1 (i32.add ${get('a')} ${get('bytes')}))
    (local.set $a2 (i32.add ${get('a1')} ${get('bytes')}))
    (local.set $b0 ${get('b')})
    (local.set $b1 (i32.add ${get('b')} ${get('bytes')}))
    (local.set $b2 (i32.add ${get('b1')} ${get('bytes')}))
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
          (local.set $pa ${load('a', 2)})
          (local.set $pb ${load('b', 2)})
          (local.set $hh (v128.and ${get('ha')} ${get('hb')}))
          ${count('n', `(v128.and ${get('ca')} ${get('cb')})`)}
          ${count('qa', `(v128.and ${get('ha')} ${get('cb')})`)}
          ${count('qb', `(v128.and ${get('hb')} ${get('ca')})`)}
          ${count('pa', `(v128.and ${get('pa')} ${get('cb')})`)}
          ${count('pb', `(v128.and ${get('pb')} ${get('ca')})`)}
          ${count('hh', get('hh'))}
          ${count('unlike', `(v128.and ${get('hh')} (v128.xor ${get('pa')} ${get('pb')}))`)}
          (local.set $s (i32.add ${get('s')} (i32.const 16)))
          (br_if $step (i32.lt_u ${get('s')} ${get('stop')})))
        ${COUNTS.map(widen).join('\n        ')}
        (br $chunk)))
    ${COUNTS.map((c, k) => `(i32.store offset=${4 * k} ${get('out')} ${total(c)})`).join('\n    ')}
  )
)`;

export const ldPairsBase64 = () => watBase64('ld-pairs.wat', ldPairsWat, true);
