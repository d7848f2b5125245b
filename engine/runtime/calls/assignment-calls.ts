import { assignIndividualsOn } from '../../service/assign.ts';
import type { AssignRequest, EngineApi } from '../engine-protocol.ts';
import type { EngineCall, EngineState } from '../engine-state.ts';

/** The engine's call for assignment to known populations (a cross-validated classifier). */
export function assignmentCalls(s: EngineState, call: EngineCall): Pick<EngineApi, 'assign'> {
  const { progress, signal } = call;
  return {
    assign: async (req: AssignRequest) => {
      const classifier = {
        structure: req.classifier,
        k: 2,
        learning: req.learning,
        alpha: 'auto',
        ...(req.score ? { score: req.score } : {}),
      } as const;
      const data = s.dataset(req.datasetId);
      let shown = -1;
      const a = await assignIndividualsOn(
        s.pool(),
        data,
        {
          by: req.by,
          classifier,
          folds: req.folds,
          seed: req.seed,
          curveSizes: req.curveSizes,
          variables: req.variables ?? 'auto',
          ...(req.maxSearch !== undefined ? { maxSearch: req.maxSearch } : {}),
        },
        (p) => {
          // A message per percent at most.
          const percent = Math.floor((100 * p.done) / p.total);
          if (percent === shown) return;
          shown = percent;
          progress({ kind: 'structure-search', done: p.done, total: p.total, work: p.work });
        },
        signal,
      );
      const ev = a.evaluation;
      return {
        classes: a.data.classes,
        accuracy: ev.accuracy,
        logLoss: ev.logLoss,
        confusion: ev.confusion,
        posterior: a.posterior,
        labels: a.data.labels,
        curve: a.curve,
        variables: a.variables,
        variablesReason: a.variablesReason,
        qualityIndex: a.qualityIndex,
        unlabelled: a.unlabelled,
        ...(a.exclusion ? { exclusion: a.exclusion } : {}),
      };
    },
  };
}
