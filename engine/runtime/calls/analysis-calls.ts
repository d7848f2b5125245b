import { analyzeSweep, fittedRuns } from '../../service/analyze-sweep.ts';
import { fitOptions } from '../../service/cluster-sweep.ts';
import { replicateQFiles, sweepResultFiles, sweepTableFile } from '../../service/sweep-files.ts';
import { markerPanel } from '../../service/select-markers.ts';
import { principalComponents } from '../../service/principal-components.ts';
import { checkFitAtK, FIT_CHECK_VIEW_MAX } from '../../service/fit-check.ts';
import { bootstrapSweepRun } from '../../service/bootstrap.ts';
import { CLUSTER_DEFAULTS, PUECHMAILLE_THRESHOLD } from '../../util/choices.ts';
import { replicatesForMannWhitney, smallestMannWhitneyP } from '../../util/rank-tests.ts';
import type { EngineApi } from '../engine-protocol.ts';
import type { EngineCall, EngineState } from '../engine-state.ts';

/** The engine's calls on a sweep's results: its files, F_ST per K, marker panels, PCA, the fit check, the bootstrap. */
export function analysisCalls(
  s: EngineState,
  call: EngineCall,
): Pick<
  EngineApi,
  | 'sweepFiles'
  | 'replicateQFiles'
  | 'sweepTable'
  | 'analyzeSweep'
  | 'selectMarkers'
  | 'principalComponents'
  | 'checkFit'
  | 'bootstrapAncestry'
> {
  const { progress, signal } = call;
  return {
    sweepFiles: async (sweepId: number, membershipThreshold?: number) => {
      const { data, runs, options, cancelled } = s.sweep(sweepId);
      return sweepResultFiles(data, options, runs, cancelled ?? false, {}, thresholdOf(membershipThreshold)).files;
    },
    replicateQFiles: async (sweepId: number) => {
      const { data, runs } = s.sweep(sweepId);
      return replicateQFiles(runs, data.individuals.length);
    },
    sweepTable: async (sweepId: number, membershipThreshold?: number) => {
      const { data, runs } = s.sweep(sweepId);
      return sweepTableFile(data, runs, thresholdOf(membershipThreshold));
    },
    analyzeSweep: async (sweepId: number, membershipThreshold?: number) => {
      const { data, runs } = s.sweep(sweepId);
      const analysis = analyzeSweep(data, runs, thresholdOf(membershipThreshold));
      const perK = analysis.perK.map((k) => {
        const { versusPrevious, ...rest } = k;
        return { ...rest, ...(versusPrevious ? { mannWhitneyP: versusPrevious.p } : {}) };
      });
      const fewest = Math.min(...perK.map((k) => k.replicates));
      const mannWhitneyPower = {
        replicates: fewest,
        smallestP: smallestMannWhitneyP(fewest, fewest),
        replicatesFor05: replicatesForMannWhitney(0.05),
      };
      const puechmaille = analysis.puechmaille;
      return {
        sweepId,
        perK,
        recommendedK: analysis.recommendedK,
        mannWhitneyPower,
        ...(puechmaille ? { puechmaille } : {}),
      };
    },
    selectMarkers: async (sweepId: number, K: number, pRel: number, pRed: number) => {
      const { data, runs } = s.sweep(sweepId);
      return markerPanel(data, fittedRuns(runs), K, pRel, pRed).selection;
    },
    principalComponents: async (datasetId: number, pcs: number) => {
      if (!Number.isInteger(pcs) || pcs < 1 || pcs > 50)
        throw new Error(`PCs: a whole number from 1 to 50, got ${pcs}`);
      const pc = principalComponents(s.dataset(datasetId), { pcs });
      return {
        pcs: pc.pcs,
        eigenvalues: Array.from(pc.eigenvalues),
        varianceFraction: Array.from(pc.varianceFraction),
        vectors: Array.from(pc.vectors),
        columns: pc.columns,
        loci: pc.loci,
        method: pc.method,
        iterations: pc.iterations,
        converged: pc.converged,
      };
    },
    checkFit: async (sweepId: number, K: number) => {
      const { data, runs } = s.sweep(sweepId);
      let last = -1;
      const c = checkFitAtK(data, runs, K, {
        onProgress: (fraction) => {
          // A message per percent at most.
          if (fraction - last < 0.01 && fraction < 1) return;
          last = fraction;
          progress({ kind: 'fit-check', fraction });
        },
      });
      return {
        K,
        replicate: c.replicate,
        model: c.model,
        N: c.N,
        ...(c.N <= FIT_CHECK_VIEW_MAX ? { matrix: c.matrix } : {}),
        populations: c.populations,
        means: c.means,
        loci: c.loci,
        lociTotal: c.lociTotal,
        iterations: c.iterations,
        ...(c.note ? { note: c.note } : {}),
      };
    },
    bootstrapAncestry: async (sweepId: number, K: number, B: number, shown?: Float64Array) => {
      const { data, runs, options } = s.sweep(sweepId);
      const b = await bootstrapSweepRun(
        s.pool(),
        data,
        runs,
        K,
        B,
        options?.seed ?? CLUSTER_DEFAULTS.seed,
        options?.fit ?? fitOptions({ model: 'admixture' }),
        shown,
        signal,
        (completed) => progress({ kind: 'bootstrap', completed, total: B }),
      );
      if (!b) throw new DOMException('the bootstrap was cancelled', 'AbortError');
      return {
        K,
        replicate: b.replicate,
        B: b.B,
        ...(b.blocks !== undefined ? { blocks: b.blocks } : {}),
        se: b.se,
        lower: b.lower,
        upper: b.upper,
      };
    },
  };
}

/** Puechmaille's membership threshold as the page sends it: absent, the published 0.5; else a number from 0 to 1. */
function thresholdOf(value: unknown): number {
  if (value === undefined) return PUECHMAILLE_THRESHOLD;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1))
    throw new RangeError(`membership threshold: a number from 0 to 1, got ${String(value)}`);
  return value;
}
