// The WebAssembly form of the admixture model's passes over the data, written by gen-kernels.mjs as
// JavaScript too: the EM pass (engine/model/admixture/em-pass.ts) and the passes of the Q block's
// Newton step (newton-passes.ts), with the same operations in the same order, so the same bits.
// Products, weights and additions of K columns are done two at a time with f64x2 (each lane one IEEE
// operation); sums over the columns (d = Σ_k q_k f_k) are added lane by lane, left to right, as the
// JavaScript does; logarithms are det-math.ts's fdlibm log (compiled from assembly/det-log.ts: wat.mjs's
// detLogFunction), taken after each
// locus of the products set aside during it (a call in the loop over individuals would make that
// loop keep fewer values in registers: about 25 % slower).
//
// Exports "log" (the logarithm the passes take, for tests), and, for codes of 8, 16 or 32 bits and for each K ≤ 12 (2..12 for the Newton passes, as in
// newton-passes.ts) with the columns written out (suffix kK,
// e.g. pass8k3), else a loop over the columns (no suffix; K is then the argument), with byte
// addresses in the imported memory "env" "memory". Every pass takes first
//   (codes, mask, l0, l1, N, K, gOffs, start, row, count, Q, F)
// — loci l0 ≤ l < l1; codes (and mask, a byte per entry, 1 = held out; 0: no mask) locus-major from
// locus l0; gOffs (int32, per locus), start (int32, per genotype), row (int32) and count (f64) per
// entry; Q shape (N, K), F shape (rows, K) — and then its own:
//   pass{bits}(…, Qn, Fn, terms, state, aside): the EM pass; Qn, Fn receive the sums; terms: K
//     doubles of scratch; state holds (ln L so far, running product) and is updated; aside: room
//     for as many doubles as copies at a locus.
//   derivatives{bits}(…, gradient, hessian, T8): per individual, Σ c f/d and the packed lower
//     triangle of Σ c f fᵀ/d² (T8 = 8·K(K+1)/2 bytes per individual's triangle) are added.
//   gains{bits}(…, step, pending, gain, ratio, asideP, asideI): per pending individual (a byte),
//     ratio ← ratio · Π (1 + Δ·f/d)^c; after each locus gain += ln of the ratios set aside there (room
//     for N doubles and N int32 individuals).
//   fderivatives{bits}(…, gradient, hessian, outer, T8, rowBase, lociLL, flushes): F's Newton
//     step's derivatives per row of F and ln L per locus (fDerivativesFunction).
//   floglik{bits}(…, lociLL, flushes): ln L per locus alone (F: the parameters, or a step check's trial
//     frequencies placed at the locus's rows).
import { detLogFunction, hexFloat, watBase64 } from './wat.mjs';

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

/**
 * The running product times the entry's c copies of d ($c, $d; $n scratch), flushing below 1e-250
 * after each: the first, the second by a select (no branch on hetero- against homozygotes, which
 * would be mispredicted), the rest (polyploids) in a loop. Shared by the EM pass and F's derivative pass.
 */
const copiesProduct = `(local.set $product (f64.mul ${get('product')} ${get('d')}))
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
                          (br_if $copies ${get('n')}))))`;

/** A loop of $name from `from` while below `to` (both bytes), 8 bytes a turn. */
const byteLoop = (name, from, to, body) => `(local.set $${name} ${from})
                    (block $${name}Done
                      (loop $${name}Loop
                        (br_if $${name}Done (i32.ge_u ${get(name)} ${to}))
                        ${body}
                        (local.set $${name} (i32.add ${get(name)} (i32.const 8)))
                        (br $${name}Loop)))`;

/** $ll += ln of each product set aside in this locus ($flushes up to $flushed), in order; the aside emptied. */
const addAsideLogs = `(local.set $at ${get('flushes')})
        (block $logsDone
          (loop $logs
            (br_if $logsDone (i32.ge_u ${get('at')} ${get('flushed')}))
            (local.set $ll (f64.add ${get('ll')} (call $log (f64.load ${get('at')}))))
            (local.set $at (i32.add ${get('at')} (i32.const 8)))
            (br $logs)))
        (local.set $flushed ${get('flushes')})`;

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
                    ${copiesProduct}
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
        ${addAsideLogs}
        (local.set $l (i32.add ${get('l')} (i32.const 1)))
        (br $loci)))
    (f64.store ${get('state')} ${get('ll')})
    (f64.store offset=8 ${get('state')} ${get('product')}))`;
}

// ——— The passes of the Q block's Newton step (newton-passes.ts) ———

/**
 * The loops over loci, individuals and their genotypes' entries shared by the Newton passes, with
 * `skip` (an i32 expression: the individual is passed over besides a held-out entry), `before` and
 * `after` each individual's entries, `entry` per entry ($fr: its row of F, $c: its count) and
 * `afterLocus`. Rows of Q advance in $qi, of the individual's other rows as `rows` say.
 */
function newtonLoops(name, bits, K, params, locals, { skip, before, entry, after, afterLocus, rows }) {
  const K8 = K === null ? `(i32.shl ${get('K')} (i32.const 3))` : `(i32.const ${K * 8})`;
  return `
  (func (export "${name}${bits}${K === null ? '' : `k${K}`}")
    (param $codes i32) (param $mask i32) (param $l0 i32) (param $l1 i32) (param $N i32) (param $K i32)
    (param $gOffs i32) (param $start i32) (param $row i32) (param $count i32) (param $Q i32) (param $F i32)
    ${params}
    (local $l i32) (local $i i32) (local $g i32) (local $j i32) (local $end i32) (local $gOff i32)
    (local $qi i32) (local $fr i32) (local $k i32) (local $K8 i32) (local $c f64) ${rows.map(([r]) => `(local $${r} i32)`).join(' ')}
    ${locals}
    (local.set $K8 ${K8})
    (local.set $l ${get('l0')})
    (block $lociDone
      (loop $loci
        (br_if $lociDone (i32.ge_u ${get('l')} ${get('l1')}))
        (local.set $gOff (i32.load (i32.add ${get('gOffs')} (i32.shl ${get('l')} (i32.const 2)))))
        (local.set $qi ${get('Q')})
        ${rows.map(([r, base]) => `(local.set $${r} ${get(base)})`).join('\n        ')}
        (local.set $i (i32.const 0))
        (block $individualsDone
          (loop $individuals
            (br_if $individualsDone (i32.ge_u ${get('i')} ${get('N')}))
            (if (i32.eqz (i32.or ${skip} (i32.and (i32.ne ${get('mask')} (i32.const 0)) (i32.ne (i32.load8_u ${get('mask')}) (i32.const 0)))))
              (then
                (local.set $g (i32.shl (i32.add ${get('gOff')} (${LOAD[bits]} ${get('codes')})) (i32.const 2)))
                (local.set $j (i32.load (i32.add ${get('start')} ${get('g')})))
                (local.set $end (i32.load offset=4 (i32.add ${get('start')} ${get('g')})))
                ${before}
                (block $entriesDone
                  (loop $entries
                    (br_if $entriesDone (i32.ge_u ${get('j')} ${get('end')}))
                    (local.set $fr (i32.add ${get('F')} (i32.mul (i32.load (i32.add ${get('row')} (i32.shl ${get('j')} (i32.const 2)))) ${get('K8')})))
                    (local.set $c (f64.load (i32.add ${get('count')} (i32.shl ${get('j')} (i32.const 3)))))
                    ${entry}
                    (local.set $j (i32.add ${get('j')} (i32.const 1)))
                    (br $entries)))
                ${after}))
            (local.set $codes (i32.add ${get('codes')} (i32.const ${bits / 8})))
            (if ${get('mask')} (then (local.set $mask (i32.add ${get('mask')} (i32.const 1)))))
            (local.set $qi (i32.add ${get('qi')} ${get('K8')}))
            ${rows.map(([r, , step]) => `(local.set $${r} (i32.add ${get(r)} ${step}))`).join('\n            ')}
            (local.set $i (i32.add ${get('i')} (i32.const 1)))
            (br $individuals)))
        ${afterLocus}
        (local.set $l (i32.add ${get('l')} (i32.const 1)))
        (br $loci))))`;
}

/** Pairs of columns (j: columns 2j, 2j + 1) and whether a last single column is left. */
const columns = (K) => ({ pairs: Array.from({ length: K >> 1 }, (_, j) => j), odd: K % 2 === 1, last: (K - 1) * 8 });

/** Loads of a row's K values at `base` into pair locals `${name}j` and single `${name}o`. */
function loadRow(K, name, base) {
  const { pairs, odd, last } = columns(K);
  return [
    ...pairs.map((j) => `(local.set $${name}${j} (v128.load${at(j * 16)} ${get(base)}))`),
    ...(odd ? [`(local.set $${name}o (f64.load${at(last)} ${get(base)}))`] : []),
  ].join('\n                ');
}
const rowLocals = (K, name) => {
  const { pairs, odd } = columns(K);
  return [...pairs.map((j) => `(local $${name}${j} v128)`), ...(odd ? [`(local $${name}o f64)`] : [])].join(' ');
};
/** Σ_k a_k b_k, the products by lanes, the sum left to right (as `a0 * b0 + a1 * b1 + …`). */
function dot(K, a, b) {
  const { pairs, odd } = columns(K);
  const products = pairs.map((j) => `(f64x2.mul ${get(`${a}${j}`)} ${get(`${b}${j}`)})`);
  const terms = [];
  products.forEach((p, j) => {
    terms.push(`(f64x2.extract_lane 0 (local.tee $pp${j} ${p}))`, `(f64x2.extract_lane 1 ${get(`pp${j}`)})`);
  });
  if (odd) terms.push(`(f64.mul ${get(`${a}o`)} ${get(`${b}o`)})`);
  return terms.slice(1).reduce((acc, t) => `(f64.add ${acc} ${t})`, terms[0]);
}
const dotLocals = (K) =>
  columns(K)
    .pairs.map((j) => `(local $pp${j} v128)`)
    .join(' ');
/** Column k of a row held in pair locals `${name}j` / single `${name}o`, as an f64. */
function lane(K, name, k) {
  const { odd } = columns(K);
  return odd && k === K - 1 ? get(`${name}o`) : `(f64x2.extract_lane ${k % 2} ${get(`${name}${k >> 1}`)})`;
}
/** memory[base + offset ..] += the pair (v128) or single (f64) value. */
const addTo = (base, offset, value, single) =>
  single
    ? `(f64.store${at(offset)} ${get(base)} (f64.add (f64.load${at(offset)} ${get(base)}) ${value}))`
    : `(v128.store${at(offset)} ${get(base)} (f64x2.add (v128.load${at(offset)} ${get(base)}) ${value}))`;

/** Packed lower triangle: the offset of (k, m), m ≤ k. */
const packed = (k, m) => (k * (k + 1)) / 2 + m;

/**
 * derivatives{bits}: per individual, gradient += Σ c f/d and the packed lower triangle of the
 * Hessian += Σ c f fᵀ/d² (newton-passes.ts's derivativesK / derivativesAnyK, the same operations).
 */
function derivativesFunction(bits, K) {
  const params = '(param $gradient i32) (param $hessian i32) (param $T8 i32)';
  const rows = [
    ['gi', 'gradient', get('K8')],
    ['hi', 'hessian', get('T8')],
  ];
  if (K === null) {
    return newtonLoops(
      'derivatives',
      bits,
      K,
      params,
      '(local $m i32) (local $t i32) (local $d f64) (local $u f64) (local $w f64) (local $f f64) (local $y f64)',
      {
        rows,
        skip: '(i32.const 0)',
        before: '',
        after: '',
        afterLocus: '',
        entry: `(local.set $d (f64.const 0))
                    ${byteLoop('k', '(i32.const 0)', get('K8'), `(local.set $d (f64.add ${get('d')} (f64.mul (f64.load (i32.add ${get('qi')} ${get('k')})) (f64.load (i32.add ${get('fr')} ${get('k')})))))`)}
                    (local.set $u (f64.div (f64.const 1) ${get('d')}))
                    (local.set $w (f64.mul ${get('c')} ${get('u')}))
                    (local.set $t ${get('hi')})
                    ${byteLoop(
                      'k',
                      '(i32.const 0)',
                      get('K8'),
                      `(local.set $f (f64.load (i32.add ${get('fr')} ${get('k')})))
                        (f64.store (i32.add ${get('gi')} ${get('k')}) (f64.add (f64.load (i32.add ${get('gi')} ${get('k')})) (f64.mul ${get('w')} ${get('f')})))
                        (local.set $y (f64.mul ${get('u')} ${get('f')}))
                        ${byteLoop(
                          'm',
                          '(i32.const 0)',
                          `(i32.add ${get('k')} (i32.const 8))`,
                          `(f64.store ${get('t')} (f64.add (f64.load ${get('t')}) (f64.mul ${get('y')} (f64.mul ${get('w')} (f64.load (i32.add ${get('fr')} ${get('m')}))))))
                        (local.set $t (i32.add ${get('t')} (i32.const 8)))`,
                        )}`,
                    )}`,
      },
    );
  }
  const { pairs, odd, last } = columns(K);
  const ks = Array.from({ length: K }, (_, k) => k);
  // Row k of the triangle: pairs (2p, 2p + 1) with 2p + 1 ≤ k, and m = k alone when k is even.
  const hPairs = (k) => Array.from({ length: (k + 1) >> 1 }, (_, p) => p);
  const locals = [
    rowLocals(K, 'q'),
    rowLocals(K, 'f'),
    rowLocals(K, 'v'),
    rowLocals(K, 'y'),
    dotLocals(K),
    '(local $u f64) (local $w f64)',
  ].join(' ');
  const pairsTimes = (name, scalar) => [
    ...pairs.map((j) => `(local.set $${name}${j} (f64x2.mul (f64x2.splat ${get(scalar)}) ${get(`f${j}`)}))`),
    ...(odd ? [`(local.set $${name}o (f64.mul ${get(scalar)} ${get('fo')}))`] : []),
  ];
  // Each entry's terms go straight into the individual's gradient and triangle in memory (summing
  // an individual's entries in locals first, then adding them, kept about 20 v128 locals live:
  // more than the registers, and the spills cost a quarter of the pass).
  const entry = [
    loadRow(K, 'f', 'fr'),
    `(local.set $u (f64.div (f64.const 1) ${dot(K, 'q', 'f')}))`,
    `(local.set $w (f64.mul ${get('c')} ${get('u')}))`,
    ...pairsTimes('v', 'w'),
    ...pairs.map((j) => addTo('gi', j * 16, get(`v${j}`), false)),
    ...(odd ? [addTo('gi', last, get('vo'), true)] : []),
    ...pairsTimes('y', 'u'),
    ...ks.flatMap((k) => [
      ...hPairs(k).map((p) =>
        addTo('hi', packed(k, 2 * p) * 8, `(f64x2.mul (f64x2.splat ${lane(K, 'y', k)}) ${get(`v${p}`)})`, false),
      ),
      ...(k % 2 === 0 ? [addTo('hi', packed(k, k) * 8, `(f64.mul ${lane(K, 'y', k)} ${lane(K, 'v', k)})`, true)] : []),
    ]),
  ].join('\n                    ');
  return newtonLoops('derivatives', bits, K, params, locals, {
    rows,
    skip: '(i32.const 0)',
    before: loadRow(K, 'q', 'qi'),
    entry,
    after: '',
    afterLocus: '',
  });
}

/**
 * gains{bits}: for each pending individual, ratio ← ratio · Π over its copies of (1 + Δ·f/d), set
 * aside (with the individual) when it leaves [1e-200, 1e200] after a locus, and gain += ln of what
 * was set aside, after the locus (newton-passes.ts's gainsK / gainsAnyK, the same operations).
 */
function gainsFunction(bits, K) {
  const params =
    '(param $step i32) (param $pending i32) (param $gain i32) (param $ratio i32) (param $asideP i32) (param $asideI i32)';
  const rows = [
    ['si', 'step', get('K8')],
    ['pi', 'pending', '(i32.const 1)'],
    ['ri', 'ratio', '(i32.const 8)'],
  ];
  const power = `(local.set $n (i32.trunc_f64_u ${get('c')}))
                    (local.set $y (select (f64.mul ${get('x')} ${get('x')}) ${get('x')} (i32.ge_u ${get('n')} (i32.const 2))))
                    (if (i32.gt_u ${get('n')} (i32.const 2))
                      (then
                        (local.set $n (i32.sub ${get('n')} (i32.const 2)))
                        (loop $powers
                          (local.set $y (f64.mul ${get('y')} ${get('x')}))
                          (local.set $n (i32.sub ${get('n')} (i32.const 1)))
                          (br_if $powers ${get('n')}))))
                    (local.set $p (f64.mul ${get('p')} ${get('y')}))`;
  const after = `(if (i32.or (f64.lt ${get('p')} (f64.const ${hexFloat(1e-200)})) (f64.gt ${get('p')} (f64.const ${hexFloat(1e200)})))
                  (then
                    (f64.store ${get('aside')} ${get('p')})
                    (i32.store ${get('asideAt')} ${get('i')})
                    (local.set $aside (i32.add ${get('aside')} (i32.const 8)))
                    (local.set $asideAt (i32.add ${get('asideAt')} (i32.const 4)))
                    (local.set $p (f64.const 1))))
                (f64.store ${get('ri')} ${get('p')})`;
  const afterLocus = `(local.set $a ${get('asideP')})
        (local.set $b ${get('asideI')})
        (block $asideDone
          (loop $asideLoop
            (br_if $asideDone (i32.ge_u ${get('a')} ${get('aside')}))
            (local.set $t (i32.add ${get('gain')} (i32.shl (i32.load ${get('b')}) (i32.const 3))))
            (f64.store ${get('t')} (f64.add (f64.load ${get('t')}) (call $log (f64.load ${get('a')}))))
            (local.set $a (i32.add ${get('a')} (i32.const 8)))
            (local.set $b (i32.add ${get('b')} (i32.const 4)))
            (br $asideLoop)))
        (local.set $aside ${get('asideP')})
        (local.set $asideAt ${get('asideI')})`;
  const common =
    '(local $p f64) (local $x f64) (local $y f64) (local $n i32) (local $aside i32) (local $asideAt i32) (local $a i32) (local $b i32) (local $t i32)';
  const skip = `(i32.eqz (i32.load8_u ${get('pi')}))`;
  // $aside/$asideAt start at the regions (set before the first locus by afterLocus's reset below).
  const init = (body) =>
    body.replace(
      '(local.set $K8',
      `(local.set $aside ${get('asideP')})\n    (local.set $asideAt ${get('asideI')})\n    (local.set $K8`,
    );
  if (K === null) {
    const entry = `(local.set $d (f64.const 0))
                    (local.set $e (f64.const 0))
                    (local.set $k (i32.const 0))
                    (block $kDone
                      (loop $kLoop
                        (br_if $kDone (i32.ge_u ${get('k')} ${get('K8')}))
                        (local.set $f (f64.load (i32.add ${get('fr')} ${get('k')})))
                        (local.set $d (f64.add ${get('d')} (f64.mul (f64.load (i32.add ${get('qi')} ${get('k')})) ${get('f')})))
                        (local.set $e (f64.add ${get('e')} (f64.mul (f64.load (i32.add ${get('si')} ${get('k')})) ${get('f')})))
                        (local.set $k (i32.add ${get('k')} (i32.const 8)))
                        (br $kLoop)))
                    (local.set $x (f64.add (f64.const 1) (f64.div ${get('e')} ${get('d')})))
                    ${power}`;
    return init(
      newtonLoops('gains', bits, K, params, `${common} (local $d f64) (local $e f64) (local $f f64)`, {
        rows,
        skip,
        before: `(local.set $p (f64.load ${get('ri')}))`,
        entry,
        after,
        afterLocus,
      }),
    );
  }
  const entry = `${loadRow(K, 'f', 'fr')}
                    (local.set $x (f64.add (f64.const 1) (f64.div ${dot(K, 's', 'f')} ${dot(K, 'q', 'f')})))
                    ${power}`;
  return init(
    newtonLoops(
      'gains',
      bits,
      K,
      params,
      `${common} ${rowLocals(K, 'q')} ${rowLocals(K, 's')} ${rowLocals(K, 'f')} ${dotLocals(K)}`,
      {
        rows,
        skip,
        before: `(local.set $p (f64.load ${get('ri')}))\n                ${loadRow(K, 'q', 'qi')}\n                ${loadRow(K, 's', 'si')}`,
        entry,
        after,
        afterLocus,
      },
    ),
  );
}

// ——— The derivative pass of the F block's Newton step (f-newton.ts) ———

/**
 * fderivatives{bits}k{K} (K = 2..12 written out; fderivatives{bits} loops over the columns): per entry (an allele of an individual's genotype, c copies),
 * with d = q·f, w = c/d and v = w/d, gradient[row] += w q and hessian[row] += v · outer[i] (the
 * packed lower triangle of q qᵀ, made by the caller per individual), rows counted from rowBase; ln
 * of each locus's copies (running products set aside below 1e-250, as the EM pass) into lociLL[l]
 * (f-newton.ts's fDerivativesPass, the same operations in the same order).
 * floglik{bits}k{K} (derivatives false): only the ln of each locus's copies, at F or at a step
 * check's trial frequencies (f-derivatives.ts's locusLogLik, the same operations in the same order).
 */
function fDerivativesFunction(bits, K, derivatives = true) {
  const params = derivatives
    ? '(param $gradient i32) (param $hessian i32) (param $outer i32) (param $T8 i32) (param $rowBase i32) (param $lociLL i32) (param $flushes i32)'
    : '(param $lociLL i32) (param $flushes i32)';
  const rows = derivatives ? [['oi', 'outer', get('T8')]] : [];
  const afterLocus = `;; ln of the locus's copies: the products set aside, in order, then the last one.
        (local.set $ll (f64.const 0))
        ${addAsideLogs}
        (f64.store (i32.add ${get('lociLL')} (i32.shl ${get('l')} (i32.const 3))) (f64.add ${get('ll')} (call $log ${get('product')})))
        (local.set $product (f64.const 1))`;
  const startProduct = (body) =>
    body.replace(
      '(local.set $K8',
      `(local.set $product (f64.const 1))\n    (local.set $flushed ${get('flushes')})\n    (local.set $K8`,
    );
  const name = derivatives ? 'fderivatives' : 'floglik';
  const common =
    '(local $d f64) (local $w f64) (local $v f64) (local $r i32) (local $gr i32) (local $hr i32) (local $n i32) (local $product f64) (local $flushed i32) (local $at i32) (local $ll f64)';
  if (K === null) {
    // K given at run time: loops over the columns and over the triangle (T8 bytes), as the JavaScript.
    const loop = (v, to, body) => byteLoop(v, '(i32.const 0)', to, body);
    const entry = [
      '(local.set $d (f64.const 0))',
      loop(
        'k',
        get('K8'),
        `(local.set $d (f64.add ${get('d')} (f64.mul (f64.load (i32.add ${get('qi')} ${get('k')})) (f64.load (i32.add ${get('fr')} ${get('k')})))))`,
      ),
      copiesProduct,
      ...(derivatives
        ? [
            `(local.set $w (f64.div ${get('c')} ${get('d')}))`,
            `(local.set $v (f64.div ${get('w')} ${get('d')}))`,
            `(local.set $r (i32.sub (i32.load (i32.add ${get('row')} (i32.shl ${get('j')} (i32.const 2)))) ${get('rowBase')}))`,
            `(local.set $gr (i32.add ${get('gradient')} (i32.mul ${get('r')} ${get('K8')})))`,
            `(local.set $hr (i32.add ${get('hessian')} (i32.mul ${get('r')} ${get('T8')})))`,
            loop(
              'k',
              get('K8'),
              `(f64.store (i32.add ${get('gr')} ${get('k')}) (f64.add (f64.load (i32.add ${get('gr')} ${get('k')})) (f64.mul ${get('w')} (f64.load (i32.add ${get('qi')} ${get('k')})))))`,
            ),
            loop(
              't',
              get('T8'),
              `(f64.store (i32.add ${get('hr')} ${get('t')}) (f64.add (f64.load (i32.add ${get('hr')} ${get('t')})) (f64.mul ${get('v')} (f64.load (i32.add ${get('oi')} ${get('t')})))))`,
            ),
          ]
        : []),
    ].join('\n                    ');
    return startProduct(
      newtonLoops(name, bits, K, params, `${common} (local $t i32)`, {
        rows,
        skip: '(i32.const 0)',
        before: '',
        entry,
        after: '',
        afterLocus,
      }),
    );
  }
  const T = (K * (K + 1)) / 2;
  const tPairs = Array.from({ length: T >> 1 }, (_, p) => p);
  const tOdd = T % 2 === 1;
  const { pairs, odd, last } = columns(K);
  const locals = [rowLocals(K, 'q'), rowLocals(K, 'f'), dotLocals(K), common].join(' ');
  const product = [loadRow(K, 'f', 'fr'), `(local.set $d ${dot(K, 'q', 'f')})`, copiesProduct];
  const derivativeUpdates = [
    `(local.set $w (f64.div ${get('c')} ${get('d')}))`,
    `(local.set $v (f64.div ${get('w')} ${get('d')}))`,
    `(local.set $r (i32.sub (i32.load (i32.add ${get('row')} (i32.shl ${get('j')} (i32.const 2)))) ${get('rowBase')}))`,
    `(local.set $gr (i32.add ${get('gradient')} (i32.mul ${get('r')} ${get('K8')})))`,
    `(local.set $hr (i32.add ${get('hessian')} (i32.mul ${get('r')} ${get('T8')})))`,
    ...pairs.map((j) => addTo('gr', j * 16, `(f64x2.mul (f64x2.splat ${get('w')}) ${get(`q${j}`)})`, false)),
    ...(odd ? [addTo('gr', last, `(f64.mul ${get('w')} ${get('qo')})`, true)] : []),
    ...tPairs.map((p) =>
      addTo('hr', p * 16, `(f64x2.mul (f64x2.splat ${get('v')}) (v128.load${at(p * 16)} ${get('oi')}))`, false),
    ),
    ...(tOdd
      ? [addTo('hr', (T - 1) * 8, `(f64.mul ${get('v')} (f64.load${at((T - 1) * 8)} ${get('oi')}))`, true)]
      : []),
  ];
  const entry = [...product, ...(derivatives ? derivativeUpdates : [])].join('\n                    ');
  return startProduct(
    newtonLoops(name, bits, K, params, locals, {
      rows,
      skip: '(i32.const 0)',
      before: loadRow(K, 'q', 'qi'),
      entry,
      after: '',
      afterLocus,
    }),
  );
}

/** Written-out passes for K up to this; a loop over the columns beyond. */
export const UNROLLED_K = 12;
const KS = [null, ...Array.from({ length: UNROLLED_K }, (_, k) => k + 1)];

/** The module's text (its log compiled from assembly/det-log.ts). */
export async function admixturePassWat() {
  return `(module
  (import "env" "memory" (memory 1))
  ${await detLogFunction('log')}
  (export "log" (func $log))${KS.flatMap((K) =>
    [8, 16, 32].flatMap((bits) => [
      passFunction(bits, K),
      // newton-passes.ts writes out K = 2..12 (K = 1 takes its loop over the columns).
      ...(K === 1 ? [] : [derivativesFunction(bits, K), gainsFunction(bits, K)]),
      // f-newton.ts's derivative pass and step check: K = 2..12 written out, a loop over the columns beyond.
      ...(K === 1 ? [] : [fDerivativesFunction(bits, K), fDerivativesFunction(bits, K, false)]),
    ]),
  ).join('')}
)
`;
}

/** The assembled module, base64. */
export async function admixturePassBase64() {
  return watBase64('admixture-pass.wat', await admixturePassWat(), true);
}
