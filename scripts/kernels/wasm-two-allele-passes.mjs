// The admixture model's passes over diploid two-allele data (SNPs) as WebAssembly, compiled from
// AssemblyScript written here with the K clusters spelt out (1 ≤ K ≤ MAX_K), so that a locus's
// frequencies and sums stay in registers, and two individuals done at a time (f64x2). They compute
// what the general passes (wasm-admixture-passes.mjs; em-pass.ts, newton-passes.ts, f-derivatives.ts)
// compute, from genotypes packed two bits each (four to a byte, PLINK's order within a byte) instead of
// entry lists; engine/model/admixture/two-allele-passes.ts runs them and says where the results differ
// (sums in another order; F's Hessian given as halves of the locus's sum, the same Newton step).
//
// Memory is imported ("env" "memory", with a maximum declared so that it may also be a shared memory:
// wasm-module.ts's sharedVariant); arguments are byte addresses or counts. Common arguments:
//   codes: locus l0's bytes (bpl bytes per locus, individual 4j + s in bits 2s..2s+1 of byte j;
//     the code's copies of the locus's first and second allele come from the table `lut`);
//   l0, l1: the loci; offs: per locus its first row of F (int32, L + 1; a locus of one allele has one);
//   Qt: Q by cluster (K rows of Np = 4·bpl doubles; padding individuals are missing);
//   F: rows of K doubles; lut: per nibble (two individuals) 128 bytes: copies of the first allele (f64x2),
//     of the second, and four lane masks choosing each individual's two factors of its likelihood.
// Exports, per K (suffix):
//   floglik(codes, bpl, l0, l1, offs, Qt, F, lut, lociLL, aside): ψ_l (ln L of locus l) into lociLL.
//   fderivatives(…, lut, gradient, hessian, rowBase, lociLL, aside): per locus, rows r − rowBase of
//     gradient (Σ c q / d per allele) and hessian (at a two-allele locus half of
//     Σ (c_a/d_a² + c_b/d_b²) q qᵀ in each allele's row: the Newton step of the locus is that of the
//     general Hessians), and ψ_l.
//   qderivatives(…, lut, gradT, hessT, j0, j1): per individual of bytes j0 ≤ j < j1 (by coordinate, Np apart) the gradient Σ c f/d
//     and the packed lower triangle of Σ c f fᵀ/d², added, as they act on steps with Σ Δ = 0, in the
//     coordinates k = 1..K − 1 (K − 1 and K(K − 1)/2 sums; see the kernel). K = 1: nothing.
//   gains(…, lut, stepT, gainT, ratioT, j0, j1): per individual of bytes j0 ≤ j < j1, ratio ← ratio · Π (d′/d)^c with d′ at q + Δ
//     (stepT: Δ by cluster); a ratio that leaves [1e-200, 1e200] after a byte moves into gain as its ln.
//   listgains(…): a few individuals' step checks (see LIST_GAINS), for any K.
//   em(…, lut, QnT, Fn, state, aside): EM's sums Σ c q f/d per (individual, cluster) into QnT and per
//     (row, cluster) into Fn, added; state: (ln L so far, running product), updated.
// Products of likelihood factors flushed below 1e-250 are set aside (`aside`) and their logarithms
// taken after the locus (a call in the loop would keep fewer values in registers). Logarithms are
// det-math.ts's detLog written out here: the same on every platform, and the module has no data
// of its own (AssemblyScript's log would bring tables into the shared memory).
import { assembleBase64 } from './asc.mjs';

/** The largest K written out; above it the general passes run. */
export const MAX_K = 10;

const range = (n) => Array.from({ length: n }, (_, k) => k);
const triangle = (K) => range(K).flatMap((k) => range(k + 1).map((m) => [k, m]));
const sum = (terms) => terms.reduce((acc, t) => `f64x2.add(${acc}, ${t})`);
const lanes = (v) => `(f64x2.extract_lane(${v}, 0) + f64x2.extract_lane(${v}, 1))`;

const PRELUDE = `
import { detLog } from './det-log';
const ONE = f64x2.splat(1.0);
const TINY = f64x2.splat(1e-250);
const LOW = f64x2.splat(1e-200);
const HIGH = f64x2.splat(1e200);
@inline function logAside(aside: usize, n: i32): f64 {
  let ll: f64 = 0;
  for (let m = 0; m < n; m++) {
    const x = v128.load(aside + ((<usize>m) << 4));
    ll += detLog(f64x2.extract_lane(x, 0));
    ll += detLog(f64x2.extract_lane(x, 1));
  }
  return ll;
}
`;

/**
 * Loads the locus's two rows (fa*, fb*) as splats; at a locus of one allele fb is fa (no genotype
 * has copies of a second allele: its terms are 0), and nothing is written for a second row.
 */
function locusRows(K) {
  return `const r = load<i32>(offs + ((<usize>l) << 2));
    const two = load<i32>(offs + ((<usize>(l + 1)) << 2)) - r >= 2;
    const fr = F + (<usize>r) * ${K * 8};
    const frb = two ? fr + ${K * 8} : fr;
    ${range(K)
      .map(
        (k) =>
          `const fa${k} = f64x2.splat(load<f64>(fr, ${k * 8})); const fb${k} = f64x2.splat(load<f64>(frb, ${k * 8}));`,
      )
      .join('\n    ')}`;
}

/**
 * The loop over a locus's bytes, two individuals at a time (o: their byte offset in a by-cluster
 * row), with q*, d (first allele), e (second) and lb (the table's entry) in scope, and with
 * `copies` also ca, cb (copies) and HAS_A, HAS_B (lanes with copies of that allele: terms of an
 * allele without copies are masked to 0, as the general passes have no entry for them — their 0/0
 * where d or e is 0 would be NaN). Only the passes that use them load them: the optimiser keeps
 * unused loads (a load may trap).
 */
function pairs(K, body, afterByte = '', { copies = false, byteRange = false } = {}) {
  const loads = copies
    ? `const ca = v128.load(lb);
        const cb = v128.load(lb, 16);
        const HAS_A = v128.load(lb, 32);
        const HAS_B = v128.load(lb, 80);`
    : '';
  const pair = (h) => `{
        const nib = ${h === 0 ? 'byte & 15' : 'byte >> 4'};
        const lb = lut + ((<usize>nib) << 7);
        const o = ((<usize>j) << 5) + ${h * 16};
        ${loads}
        ${range(K)
          .map((k) => `const q${k} = v128.load(Qt + o + ${k} * qs);`)
          .join(' ')}
        const d = ${sum(range(K).map((k) => `f64x2.mul(q${k}, fa${k})`))};
        const e = ${sum(range(K).map((k) => `f64x2.mul(q${k}, fb${k})`))};
        ${body}
      }`;
  return `for (let j = ${byteRange ? 'j0' : '0'}; j < ${byteRange ? 'j1' : 'bpl'}; j++) {
      const byte = <u32>load<u8>(row + <usize>j);
      ${pair(0)}
      ${pair(1)}
      ${afterByte}
    }`;
}

/** The product of the pair's likelihood factors (d or e per copy; 1 if missing) into p. */
const FACTORS = `const x = v128.bitselect(d, v128.bitselect(e, ONE, v128.load(lb, 48)), v128.load(lb, 32));
        const y = v128.bitselect(d, v128.bitselect(e, ONE, v128.load(lb, 80)), v128.load(lb, 64));
        p = f64x2.mul(p, f64x2.mul(x, y));`;
/** After a byte: a product below 1e-250 set aside. */
const FLUSH = `if (v128.any_true(f64x2.lt(p, TINY))) {
        v128.store(aside + ((<usize>n) << 4), p);
        n++;
        p = ONE;
      }`;
const PSI = `logAside(aside, n) + detLog(f64x2.extract_lane(p, 0)) + detLog(f64x2.extract_lane(p, 1))`;

const COMMON = 'codes: usize, bpl: i32, l0: i32, l1: i32, offs: usize, Qt: usize, F: usize, lut: usize';

/** for each locus: its bytes at `row`, its rows loaded, `body`. */
function loci(K, body) {
  return `const qs = (<usize>bpl) << 5;
  for (let l = l0; l < l1; l++) {
    const row = codes + (<usize>(l - l0)) * <usize>bpl;
    ${locusRows(K)}
    ${body}
  }`;
}

function kernelsFor(K) {
  const T = (K * (K + 1)) / 2;
  const tri = triangle(K);
  const floglik = `
export function floglik${K}(${COMMON}, lociLL: usize, aside: usize): void {
  ${loci(
    K,
    `let p = ONE;
    let n = 0;
    ${pairs(K, FACTORS, FLUSH)}
    store<f64>(lociLL + ((<usize>l) << 3), ${PSI});`,
  )}
}`;
  const fderivatives = `
export function fderivatives${K}(${COMMON}, gradient: usize, hessian: usize, rowBase: i32, lociLL: usize, aside: usize): void {
  ${loci(
    K,
    `let p = ONE;
    let n = 0;
    ${range(K)
      .map((k) => `let A${k} = f64x2.splat(0); let B${k} = f64x2.splat(0);`)
      .join(' ')}
    ${tri.map((_, t) => `let H${t} = f64x2.splat(0);`).join(' ')}
    ${pairs(
      K,
      `${FACTORS}
        const id = f64x2.div(ONE, d);
        const ie = f64x2.div(ONE, e);
        const a = v128.and(f64x2.mul(ca, id), HAS_A);
        const b = v128.and(f64x2.mul(cb, ie), HAS_B);
        const w = f64x2.add(v128.and(f64x2.mul(a, id), HAS_A), v128.and(f64x2.mul(b, ie), HAS_B));
        ${range(K)
          .map((k) => `A${k} = f64x2.add(A${k}, f64x2.mul(a, q${k})); B${k} = f64x2.add(B${k}, f64x2.mul(b, q${k}));`)
          .join(' ')}
        ${range(K)
          .map((k) => `const w${k} = f64x2.mul(w, q${k});`)
          .join(' ')}
        ${tri.map(([k, m], t) => `H${t} = f64x2.add(H${t}, f64x2.mul(w${k}, q${m}));`).join(' ')}`,
      FLUSH,
      { copies: true },
    )}
    const ga = gradient + (<usize>(r - rowBase)) * ${K * 8};
    const ha = hessian + (<usize>(r - rowBase)) * ${T * 8};
    if (two) {
      ${range(K)
        .map((k) => `store<f64>(ga, ${lanes(`A${k}`)}, ${k * 8}); store<f64>(ga, ${lanes(`B${k}`)}, ${(K + k) * 8});`)
        .join(' ')}
      ${tri
        .map(
          (_, t) =>
            `const h${t} = 0.5 * ${lanes(`H${t}`)}; store<f64>(ha, h${t}, ${t * 8}); store<f64>(ha, h${t}, ${(T + t) * 8});`,
        )
        .join(' ')}
    } else {
      ${range(K)
        .map((k) => `store<f64>(ga, ${lanes(`A${k}`)}, ${k * 8});`)
        .join(' ')}
      ${tri.map((_, t) => `store<f64>(ha, ${lanes(`H${t}`)}, ${t * 8});`).join(' ')}
    }
    store<f64>(lociLL + ((<usize>l) << 3), ${PSI});`,
  )}
}`;
  // Q's derivatives as they act on the steps taken (Σ Δ = 0), in K − 1 coordinates: with f_b = 1 − f_a,
  // f_a·Δ = w·Δ for w_k = f_ak − f_a0 (w_0 = 0), and f_b·Δ = −w·Δ; so a copy of either allele adds
  // (a − b) w to the gradient and (v_a + v_b) w wᵀ to the Hessian (a = c_a/d, v_a = c_a/d², b and v_b
  // the second allele's), with the 1-direction left out — every term of the full sums' that moves
  // all components alike. w is taken from the allele of lower frequencies (w_k = f_b0 − f_bk where
  // Σ_k f_a > K/2): differences of frequencies near 1 would lose the digits of small ones. Sums for
  // k, m = 1..K − 1 only; two-allele-passes.ts's qDerivatives gives the solve the full K × K form.
  const tri1 = triangle(K - 1).map(([k, m]) => [k + 1, m + 1]);
  const qderivatives = `
export function qderivatives${K}(${COMMON}, gradT: usize, hessT: usize, j0: i32, j1: i32): void {
  ${loci(
    K,
    `const lowB = ${range(K)
      .map((k) => `f64x2.extract_lane(fa${k}, 0)`)
      .join(' + ')} > ${K / 2};
    ${range(K)
      .slice(1)
      .map((k) => `const w${k} = lowB ? f64x2.sub(fb0, fb${k}) : f64x2.sub(fa${k}, fa0);`)
      .join(' ')}
    ${tri1.map(([k, m], t) => `const W${t} = f64x2.mul(w${k}, w${m});`).join(' ')}
    ${pairs(
      K,
      `const id = f64x2.div(ONE, d);
        const ie = f64x2.div(ONE, e);
        const a = v128.and(f64x2.mul(ca, id), HAS_A);
        const b = v128.and(f64x2.mul(cb, ie), HAS_B);
        const ab = f64x2.sub(a, b);
        const v = f64x2.add(v128.and(f64x2.mul(a, id), HAS_A), v128.and(f64x2.mul(b, ie), HAS_B));
        ${range(K)
          .slice(1)
          .map(
            (k) =>
              `{ const at = gradT + o + ${k - 1} * qs; v128.store(at, f64x2.add(v128.load(at), f64x2.mul(ab, w${k}))); }`,
          )
          .join('\n        ')}
        ${tri1
          .map(
            (_, t) =>
              `{ const at = hessT + o + ${t} * qs; v128.store(at, f64x2.add(v128.load(at), f64x2.mul(v, W${t}))); }`,
          )
          .join('\n        ')}`,
      '',
      { copies: true, byteRange: true },
    )}`,
  )}
}`;
  const gains = `
export function gains${K}(${COMMON}, stepT: usize, gainT: usize, ratioT: usize, j0: i32, j1: i32): void {
  ${loci(
    K,
    `${pairs(
      K,
      `${range(K)
        .map((k) => `const s${k} = f64x2.add(q${k}, v128.load(stepT + o + ${k} * qs));`)
        .join(' ')}
        const d2 = ${sum(range(K).map((k) => `f64x2.mul(s${k}, fa${k})`))};
        const e2 = ${sum(range(K).map((k) => `f64x2.mul(s${k}, fb${k})`))};
        const x = v128.bitselect(d, v128.bitselect(e, ONE, v128.load(lb, 48)), v128.load(lb, 32));
        const y = v128.bitselect(d, v128.bitselect(e, ONE, v128.load(lb, 80)), v128.load(lb, 64));
        const x2 = v128.bitselect(d2, v128.bitselect(e2, ONE, v128.load(lb, 48)), v128.load(lb, 32));
        const y2 = v128.bitselect(d2, v128.bitselect(e2, ONE, v128.load(lb, 80)), v128.load(lb, 64));
        const at = ratioT + o;
        const ratio = f64x2.mul(v128.load(at), f64x2.div(f64x2.mul(x2, y2), f64x2.mul(x, y)));
        if (v128.any_true(v128.or(f64x2.lt(ratio, LOW), f64x2.gt(ratio, HIGH)))) {
          const g = gainT + o;
          store<f64>(g, load<f64>(g) + detLog(f64x2.extract_lane(ratio, 0)));
          store<f64>(g, load<f64>(g, 8) + detLog(f64x2.extract_lane(ratio, 1)), 8);
          v128.store(at, ONE);
        } else v128.store(at, ratio);`,
      '',
      { byteRange: true },
    )}`,
  )}
}`;
  const em = `
export function em${K}(${COMMON}, QnT: usize, Fn: usize, state: usize, aside: usize): void {
  let ll = load<f64>(state);
  let p = f64x2.replace_lane(ONE, 0, load<f64>(state, 8));
  ${loci(
    K,
    `let n = 0;
    ${range(K)
      .map((k) => `let A${k} = f64x2.splat(0); let B${k} = f64x2.splat(0);`)
      .join(' ')}
    ${pairs(
      K,
      `${FACTORS}
        const a = v128.and(f64x2.div(ca, d), HAS_A);
        const b = v128.and(f64x2.div(cb, e), HAS_B);
        ${range(K)
          .map(
            (
              k,
            ) => `{ const wa = f64x2.mul(a, f64x2.mul(q${k}, fa${k})); const wb = f64x2.mul(b, f64x2.mul(q${k}, fb${k}));
          A${k} = f64x2.add(A${k}, wa); B${k} = f64x2.add(B${k}, wb);
          const at = QnT + o + ${k} * qs; v128.store(at, f64x2.add(v128.load(at), f64x2.add(wa, wb))); }`,
          )
          .join('\n        ')}`,
      FLUSH,
      { copies: true },
    )}
    ll += logAside(aside, n);
    const fn = Fn + (<usize>r) * ${K * 8};
    ${range(K)
      .map((k) => `store<f64>(fn, load<f64>(fn, ${k * 8}) + ${lanes(`A${k}`)}, ${k * 8});`)
      .join(' ')}
    if (two) {
      ${range(K)
        .map((k) => `store<f64>(fn, load<f64>(fn, ${(K + k) * 8}) + ${lanes(`B${k}`)}, ${(K + k) * 8});`)
        .join(' ')}
    }`,
  )}
  store<f64>(state, ll + detLog(f64x2.extract_lane(p, 1)));
  store<f64>(state, f64x2.extract_lane(p, 0), 8);
}`;
  return [floglik, fderivatives, qderivatives, gains, em].join('\n');
}

/**
 * listgains(codes, bpl, L, offs, F, K, list, n, qs, steps, t, gain, product): for the n individuals of
 * `list` (int32), with their q and Δ rows in qs and steps (n × K each), the running product of
 * (d′/d)^c_a (e′/e)^c_b at q + tΔ, locus by locus (in `product`, a value that leaves [1e-200, 1e200]
 * moved into `gain` as its ln): two-allele-passes.ts's individualGains with the same operations in
 * the same order. Any K (a loop: a few individuals' checks, not a pass over all of them).
 */
const LIST_GAINS = `
export function listgains(codes: usize, bpl: i32, L: i32, offs: usize, F: usize, K: i32, list: usize, n: i32,
    qs: usize, steps: usize, t: f64, gain: usize, product: usize): void {
  const rowBytes = (<usize>K) << 3;
  for (let l = 0; l < L; l++) {
    const row = codes + (<usize>l) * (<usize>bpl);
    const r = load<i32>(offs + ((<usize>l) << 2));
    const two = load<i32>(offs + ((<usize>(l + 1)) << 2)) - r >= 2;
    const fa = F + (<usize>r) * rowBytes;
    const fb = two ? fa + rowBytes : fa;
    for (let j = 0; j < n; j++) {
      const i = load<i32>(list + ((<usize>j) << 2));
      const c = (<i32>load<u8>(row + (<usize>(i >> 2))) >> (2 * (i & 3))) & 3;
      if (c == ${1}) continue;
      const qi = qs + (<usize>j) * rowBytes;
      const si = steps + (<usize>j) * rowBytes;
      let d: f64 = 0;
      let da: f64 = 0;
      let e: f64 = 0;
      let db: f64 = 0;
      for (let k = 0; k < K; k++) {
        const at = (<usize>k) << 3;
        const qk = load<f64>(qi + at);
        const sk = t * load<f64>(si + at);
        d += qk * load<f64>(fa + at);
        da += sk * load<f64>(fa + at);
        e += qk * load<f64>(fb + at);
        db += sk * load<f64>(fb + at);
      }
      const x = (d + da) / d;
      const y = (e + db) / e;
      const pj = product + ((<usize>j) << 3);
      let p = load<f64>(pj) * (c == 0 ? x * x : c == 2 ? x * y : y * y);
      if (p < 1e-200 || p > 1e200) {
        const gj = gain + ((<usize>j) << 3);
        store<f64>(gj, load<f64>(gj) + detLog(p));
        p = 1;
      }
      store<f64>(pj, p);
    }
  }
}`;

/** The AssemblyScript source of every kernel for K = 1..MAX_K, and listgains. */
export function twoAlleleSource() {
  return [PRELUDE, ...range(MAX_K).map((k) => kernelsFor(k + 1)), LIST_GAINS].join('\n');
}

/** The compiled module, base64. */
export async function twoAllelePassesBase64() {
  return assembleBase64('two-allele-passes', twoAlleleSource(), { simd: true });
}
