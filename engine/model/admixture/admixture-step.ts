// One step of the admixture fit: the EM or Newton updates of Q and F that 'auto' resolves to, as
// the map the accelerators (SQUAREM, Anderson) extrapolate.
import { type Acceleration, type FUpdate, type QUpdate } from '../../util/choices.ts';
import type { PreparedData } from '../prepared/prepared-data.ts';
import {
  emptyParams,
  emStep,
  type AdmixtureParams,
  type AdmixtureWork,
  type AdmixtureFitOptions,
} from './admixture.ts';
import { qNewtonStep, qNewtonWork } from './q-newton.ts';
import { fNewtonStep, fNewtonWork, fStepLogLik } from './f-newton.ts';

/**
 * The map the accelerators extrapolate: writes the update of `cur` into `out` (every row of Q and
 * every block of F on its simplex, ln L(out) ≥ ln L(cur)) and returns ln L(cur).
 */
export type AdmixtureStep = (cur: AdmixtureParams, out: AdmixtureParams) => number;

/**
 * The map and, where it is cheaper than the map, ln L(cur) alone with the same bits as the
 * map returns it (SQUAREM tests an extrapolated point with it before it maps from there).
 */
export interface AdmixtureMap {
  readonly step: AdmixtureStep;
  readonly logLik?: (cur: AdmixtureParams) => number;
}

/** 'auto' acceleration takes Anderson's on data of this many loci or more (with Newton updates). */
export const ANDERSON_FROM_LOCI = 8000;

/**
 * 'auto' resolved for data of L loci: Anderson acceleration where both blocks take Newton steps and
 * the data have ANDERSON_FROM_LOCI loci or more, else SQUAREM. Chosen on docs/admixture-acceleration.md
 * (10 starts per case, the same starts under both): on 1,000 × 10,000 simulated SNPs Anderson took
 * 2.7, 1.6 and 1.2 × less time at K = 2..4 to the same best ln L (−0.41 at K = 4); on the smaller
 * cases — eHGDP and nancycats microsatellites, 200 × 2,000 SNPs, simulated microsatellites — it was
 * faster at small K and up to 2.5 × slower where the fits travel far (eHGDP K ≥ 5), the same best
 * ln L on as many cases (18 of 27 each within 0.01 of the better). On many loci most of a fit is the
 * linear tail, which Anderson's history of steps shortens; on 2,000 × 20,000 SNPs at K = 3 one start
 * took 50 steps against SQUAREM's 64 and 31 ln L tests (from a random start; docs/algorithms.md §14).
 */
export function resolvedAcceleration(
  acceleration: Acceleration,
  L: number,
  qUpdate: QUpdate = 'auto',
  fUpdate: FUpdate = 'auto',
): Exclude<Acceleration, 'auto'> {
  if (acceleration !== 'auto') return acceleration;
  const newton = resolvedQUpdate(qUpdate, 'squarem', fUpdate) === 'newton' && resolvedFUpdate(fUpdate) === 'newton';
  return newton && L >= ANDERSON_FROM_LOCI ? 'anderson' : 'squarem';
}

/**
 * 'auto' resolved: Newton, except where Anderson acceleration runs with F by EM — there an
 * extrapolation can leave a frequency so small that the fit stalls with Newton's Q update (0.07
 * below the optimum in tests/model/admixture.test.ts's case; with F by Newton it does not). Chosen on
 * docs/admixture-q-update.md: on SNP data Newton was 1.1–13 × faster to the same or a higher ln L;
 * on eHGDP (microsatellites, K = 2..8 × 3 seeds) 1.5 × faster in all, with a higher best ln L over
 * the seeds at K = 7 and 8 and a lower one at K = 5 and 6 (by 9 and 15).
 */
export function resolvedQUpdate(
  qUpdate: QUpdate,
  acceleration: Acceleration = 'squarem',
  fUpdate: FUpdate = 'auto',
): 'newton' | 'em' {
  if (qUpdate !== 'auto') return qUpdate;
  return acceleration === 'anderson' && resolvedFUpdate(fUpdate) === 'em' ? 'em' : 'newton';
}

/**
 * 'auto' resolved: Newton. Chosen on docs/admixture-f-update.md: with F by EM, EM's F update crawls
 * when individuals are admixed between similar clusters (on eHGDP every start at K = 8 was still
 * climbing after 500 SQUAREM cycles); with F by Newton the same sweep ends sooner and no lower.
 */
export function resolvedFUpdate(fUpdate: FUpdate): 'newton' | 'em' {
  return fUpdate === 'auto' ? 'newton' : fUpdate;
}

/**
 * Whether the updates stall under this acceleration, so that sweeps refuse them: under Anderson
 * acceleration, one block by Newton and the other by EM (Newton's Q with EM's F stopped 0.07 below
 * the optimum in tests/model/admixture.test.ts's case; EM's Q with Newton's F crawled 0.06 below it
 * for 3,000 steps in another); both by Newton or both by EM converge.
 */
export function stallingUpdates(qUpdate: QUpdate, fUpdate: FUpdate, acceleration: Acceleration): boolean {
  return acceleration === 'anderson' && resolvedQUpdate(qUpdate, acceleration, fUpdate) !== resolvedFUpdate(fUpdate);
}

/**
 * The step of `qUpdate` and `fUpdate`. All EM: one EM step (emStep). Otherwise block relaxation
 * (ADMIXTURE's; Alexander, Novembre & Lange 2009): F first — by the EM step, or by one safeguarded
 * Newton step per locus with Q fixed (f-newton.ts) — then Q at the new F, by the EM step's update
 * or by one safeguarded Newton step per individual (q-newton.ts). Every one never lowers ln L: the
 * EM update of F with Q held fixed maximises the same minorizer in F, and no locus's or individual's
 * Newton step is kept unless its likelihood rises. A Newton step costs a few EM passes; how many
 * fewer steps it needs depends on the data (docs/admixture-q-update.md, docs/admixture-f-update.md).
 * With a Newton step, the map also gives ln L alone (an EM pass with F by EM, else F's ln L pass:
 * fStepLogLik), the bits the step returns, for SQUAREM's test of an extrapolated point.
 */
export function admixtureStep(
  md: PreparedData,
  work: AdmixtureWork,
  K: number,
  options: Pick<AdmixtureFitOptions, 'qUpdate' | 'fUpdate' | 'acceleration'>,
): AdmixtureMap {
  const acceleration = resolvedAcceleration(options.acceleration, md.L, options.qUpdate, options.fUpdate);
  const q = resolvedQUpdate(options.qUpdate, acceleration, options.fUpdate);
  const f = resolvedFUpdate(options.fUpdate);
  if (K < 2 || (q === 'em' && f === 'em')) return { step: (cur, out) => emStep(md, work, cur, out) };
  const qScratch = qNewtonWork(md.N, K);
  if (f === 'em') {
    const scratch = emptyParams(md, K);
    return {
      step: (cur, out) => {
        const ll = emStep(md, work, cur, out);
        out.Q.set(cur.Q);
        qNewtonStep(md, work, K, out.Q, out.F, qScratch);
        return ll;
      },
      // The EM pass alone (its update unused), without Q's Newton step.
      logLik: (cur) => emStep(md, work, cur, scratch),
    };
  }
  const fScratch = fNewtonWork(md, K);
  const emOut = q === 'em' ? emptyParams(md, K) : undefined;
  return {
    step: (cur, out) => {
      out.Q.set(cur.Q);
      out.F.set(cur.F);
      const ll = fNewtonStep(md, work, K, out.Q, out.F, fScratch);
      if (emOut) {
        // Q by the EM update at the new F (its F half is not used).
        emStep(md, work, out, emOut);
        out.Q.set(emOut.Q);
      } else qNewtonStep(md, work, K, out.Q, out.F, qScratch);
      return ll;
    },
    logLik: (cur) => fStepLogLik(md, work, K, cur.Q, cur.F),
  };
}
