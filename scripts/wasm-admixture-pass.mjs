// The WebAssembly form of the admixture model's EM pass (engine/model/admixture/em-pass.ts, written by
// gen-kernels.mjs): the same operations in the same order, so the same bits. The K products q_k·f_k,
// the weights and the additions to the update are done two columns at a time with f64x2 (each lane
// one IEEE operation); the sum d = Σ_k q_k f_k is added lane by lane, left to right, as the
// JavaScript does; ln of the running product is det-math.ts's fdlibm log (wasm-det-math.mjs).
//
// Exports, for codes of 8, 16 or 32 bits and for each K ≤ 8 with the columns written out (suffix kK,
// e.g. pass8k3), else a loop over the columns (no suffix; K is then the argument), with byte addresses
// in the imported memory "env" "memory":
//   pass{bits}(codes, mask, l0, l1, N, K, gOffs, start, row, count, Q, F, Qn, Fn, terms, state, flushes)
//     loci l0 ≤ l < l1; codes (and mask, a byte per entry, 1 = held out; 0: no mask) locus-major
//     from locus l0; gOffs (int32, per locus), start (int32, per genotype), row (int32) and count
//     (f64) per entry; Q, Qn shape (N, K), F, Fn shape (rows, K); terms K doubles of scratch; state
//     holds (ln L so far, running product) and is updated; flushes: room for as many doubles as
//     copies at a locus (the running products set aside there).
import wabtInit from 'wabt';
import { hexFloat, logFunction } from './wasm-det-math.mjs';

const LOAD = { 8: 'i32.load8_u', 16: 'i32.load16_u', 32: 'i32.load' };
/** Flush the running product into ln L below this (em-pass.ts). */
const FLUSH = `(f64.const ${hexFloat(1e-250)})`;
const get = (name) => `(local.get $${name})`;
const at = (offset) => (offset ? ` offset=${offset}` : '');

/** Locals and statements for one written-out K: loading q, the products x, d, and the updates. */
function unrolled(K) {
  const pairs = Array.from({ length: K >> 1 }, (_, j) => j);
  const odd = K % 2 === 1;
  const last = (K - 1) * 8;
  const locals = [
    ...pairs.map((j) => `(local $q${j} v128) (local $x${j} v128)`),
    ...(odd ? ['(local $qo f64) (local $xo f64)'] : []),
  ].join(' ');
  const loadQ = [
    ...pairs.map((j) => `(local.set $q${j} (v128.load${at(j * 16)} ${get('qi')}))`),
    ...(odd ? [`(local.set $qo (f64.load${at(last)} ${get('qi')}))`] : []),
  ].join('\n          ');
  const products = [
    ...pairs.map((j) => `(local.set $x${j} (f64x2.mul ${get(`q${j}`)} (v128.load${at(j * 16)} ${get('fr')})))`),
    ...(odd ? [`(local.set $xo (f64.mul ${get('qo')} (f64.load${at(last)} ${get('fr')})))`] : []),
  ];
  // d = x0 + x1 + … + x(K−1), left to right.
  const lanes = [
    ...pairs.flatMap((j) => [0, 1].map((lane) => `(f64x2.extract_lane ${lane} ${get(`x${j}`)})`)),
    ...(odd ? [get('xo')] : []),
  ];
  const sum = lanes.slice(1).reduce((acc, term) => `(f64.add ${acc} ${term})`, lanes[0]);
  const add = (base) => [
    ...pairs.map(
      (j) =>
        `(v128.store${at(j * 16)} ${get(base)} (f64x2.add (v128.load${at(j * 16)} ${get(base)}) (f64x2.mul ${get(`x${j}`)} (f64x2.splat ${get('s')}))))`,
    ),
    ...(odd
      ? [
          `(f64.store${at(last)} ${get(base)} (f64.add (f64.load${at(last)} ${get(base)}) (f64.mul ${get('xo')} ${get('s')})))`,
        ]
      : []),
  ];
  return {
    locals,
    loadQ,
    products: [...products, `(local.set $d ${sum})`].join('\n              '),
    updates: [...add('qni'), ...add('fnr')].join('\n              '),
  };
}

/** The same for K given at run time: the products kept in `terms`. */
function looped() {
  const loop = (name, body) => `(local.set $k (i32.const 0))
              (block $${name}Done
                (loop $${name}
                  (br_if $${name}Done (i32.ge_u ${get('k')} ${get('K8')}))
                  ${body}
                  (local.set $k (i32.add ${get('k')} (i32.const 8)))
                  (br $${name})))`;
  const cell = (base) => `(i32.add ${get(base)} ${get('k')})`;
  return {
    locals: '(local $x f64) (local $w f64)',
    loadQ: '',
    products: `(local.set $d (f64.const 0))
              ${loop(
                'products',
                `(local.set $x (f64.mul (f64.load ${cell('qi')}) (f64.load ${cell('fr')})))
                  (f64.store ${cell('terms')} ${get('x')})
                  (local.set $d (f64.add ${get('d')} ${get('x')}))`,
              )}`,
    updates: loop(
      'updates',
      `(local.set $w (f64.mul (f64.load ${cell('terms')}) ${get('s')}))
                  (f64.store ${cell('qni')} (f64.add (f64.load ${cell('qni')}) ${get('w')}))
                  (f64.store ${cell('fnr')} (f64.add (f64.load ${cell('fnr')}) ${get('w')}))`,
    ),
  };
}

/**
 * The running product, when it falls below 1e-250, is set aside (its logarithm is added to ln L
 * at the end of the locus, in the same order: a call in the loop over individuals would make it
 * keep fewer values in registers) and restarts at 1.
 */
const flush = `(if (f64.lt ${get('product')} ${FLUSH})
                      (then
                        (f64.store ${get('flushed')} ${get('product')})
                        (local.set $flushed (i32.add ${get('flushed')} (i32.const 8)))
                        (local.set $product (f64.const 1))))`;

function passFunction(bits, K) {
  const body = K === null ? looped() : unrolled(K);
  const K8 = K === null ? `(i32.shl ${get('K')} (i32.const 3))` : `(i32.const ${K * 8})`;
  return `
  (func (export "pass${bits}${K === null ? '' : `k${K}`}")
    (param $codes i32) (param $mask i32) (param $l0 i32) (param $l1 i32) (param $N i32) (param $K i32)
    (param $gOffs i32) (param $start i32) (param $row i32) (param $count i32)
    (param $Q i32) (param $F i32) (param $Qn i32) (param $Fn i32) (param $terms i32) (param $state i32)
    (param $flushes i32)
    (local $l i32) (local $flushed i32) (local $at i32) (local $i i32) (local $g i32) (local $j i32) (local $end i32) (local $gOff i32)
    (local $qi i32) (local $qni i32) (local $fr i32) (local $fnr i32) (local $r i32) (local $n i32)
    (local $k i32) (local $K8 i32)
    (local $c f64) (local $d f64) (local $s f64) (local $ll f64) (local $product f64) ${body.locals}
    (local.set $K8 ${K8})
    (local.set $ll (f64.load ${get('state')}))
    (local.set $product (f64.load offset=8 ${get('state')}))
    (local.set $l ${get('l0')})
    (local.set $flushed ${get('flushes')})
    (block $lociDone
      (loop $loci
        (br_if $lociDone (i32.ge_u ${get('l')} ${get('l1')}))
        (local.set $gOff (i32.load (i32.add ${get('gOffs')} (i32.shl ${get('l')} (i32.const 2)))))
        (local.set $qi ${get('Q')})
        (local.set $qni ${get('Qn')})
        (local.set $i (i32.const 0))
        (block $individualsDone
          (loop $individuals
            (br_if $individualsDone (i32.ge_u ${get('i')} ${get('N')}))
            (if (i32.or (i32.eqz ${get('mask')}) (i32.eqz (i32.load8_u ${get('mask')})))
              (then
                (local.set $g (i32.shl (i32.add ${get('gOff')} (${LOAD[bits]} ${get('codes')})) (i32.const 2)))
                (local.set $j (i32.load (i32.add ${get('start')} ${get('g')})))
                (local.set $end (i32.load offset=4 (i32.add ${get('start')} ${get('g')})))
                ${body.loadQ}
                (block $entriesDone
                  (loop $entries
                    (br_if $entriesDone (i32.ge_u ${get('j')} ${get('end')}))
                    (local.set $r (i32.mul (i32.load (i32.add ${get('row')} (i32.shl ${get('j')} (i32.const 2)))) ${get('K8')}))
                    (local.set $fr (i32.add ${get('F')} ${get('r')}))
                    (local.set $fnr (i32.add ${get('Fn')} ${get('r')}))
                    (local.set $c (f64.load (i32.add ${get('count')} (i32.shl ${get('j')} (i32.const 3)))))
                    ${body.products}
                    ;; The copies' factors d one at a time, flushing below 1e-250 after each: the
                    ;; first, the second by a select (no branch on hetero- against homozygotes, which
                    ;; would be mispredicted), the rest (polyploids) in a loop.
                    (local.set $product (f64.mul ${get('product')} ${get('d')}))
                    ${flush}
                    (local.set $n (i32.trunc_f64_u ${get('c')}))
                    (local.set $product
                      (select (f64.mul ${get('product')} ${get('d')}) ${get('product')} (i32.ge_u ${get('n')} (i32.const 2))))
                    ${flush}
                    (if (i32.gt_u ${get('n')} (i32.const 2))
                      (then
                        (local.set $n (i32.sub ${get('n')} (i32.const 2)))
                        (loop $copies
                          (local.set $product (f64.mul ${get('product')} ${get('d')}))
                          ${flush}
                          (local.set $n (i32.sub ${get('n')} (i32.const 1)))
                          (br_if $copies ${get('n')}))))
                    (local.set $s (f64.div ${get('c')} ${get('d')}))
                    ${body.updates}
                    (local.set $j (i32.add ${get('j')} (i32.const 1)))
                    (br $entries)))))
            (local.set $codes (i32.add ${get('codes')} (i32.const ${bits / 8})))
            (if ${get('mask')} (then (local.set $mask (i32.add ${get('mask')} (i32.const 1)))))
            (local.set $qi (i32.add ${get('qi')} ${get('K8')}))
            (local.set $qni (i32.add ${get('qni')} ${get('K8')}))
            (local.set $i (i32.add ${get('i')} (i32.const 1)))
            (br $individuals)))
        ;; ln L += ln of the products set aside in this locus, in order.
        (local.set $at ${get('flushes')})
        (block $logsDone
          (loop $logs
            (br_if $logsDone (i32.ge_u ${get('at')} ${get('flushed')}))
            (local.set $ll (f64.add ${get('ll')} (call $log (f64.load ${get('at')}))))
            (local.set $at (i32.add ${get('at')} (i32.const 8)))
            (br $logs)))
        (local.set $flushed ${get('flushes')})
        (local.set $l (i32.add ${get('l')} (i32.const 1)))
        (br $loci)))
    (f64.store ${get('state')} ${get('ll')})
    (f64.store offset=8 ${get('state')} ${get('product')}))`;
}

/** Written-out passes for K up to this; a loop over the columns beyond. */
export const UNROLLED_K = 8;
const KS = [null, ...Array.from({ length: UNROLLED_K }, (_, k) => k + 1)];

export const admixturePassWat = `(module
  (import "env" "memory" (memory 1))${logFunction}${KS.flatMap((K) => [8, 16, 32].map((bits) => passFunction(bits, K))).join('')}
)
`;

/** The assembled module, base64. */
export async function admixturePassBase64() {
  const wabt = await wabtInit();
  const module = wabt.parseWat('admixture-pass.wat', admixturePassWat, { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}
