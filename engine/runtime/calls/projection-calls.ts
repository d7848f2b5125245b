import { projectOntoSweep } from '../../service/project.ts';
import type { EngineApi, FileInput, OpenOptions } from '../engine-protocol.ts';
import { individualsInfo, type EngineCall, type EngineState } from '../engine-state.ts';

/** The engine's call that projects new samples onto a sweep's fit. */
export function projectionCalls(s: EngineState, call: EngineCall): Pick<EngineApi, 'projectSamples'> {
  const { progress, signal, readFiles } = call;
  return {
    projectSamples: async (
      sweepId: number,
      K: number,
      files: readonly FileInput[],
      options: OpenOptions,
      shown?: Float64Array,
      frequencyPrior?: number,
    ) => {
      const { data, runs } = s.sweep(sweepId);
      const { data: samples, main } = await readFiles('projectSamples', files, options);
      const p = await projectOntoSweep(s.pool(), data, runs, K, samples, shown, frequencyPrior, signal, (done, total) =>
        progress({ kind: 'projection', done, total }),
      );
      return {
        K,
        model: p.reference.model,
        file: main.name,
        individuals: individualsInfo(samples).map(({ location: _l, ...rest }) => rest),
        Q: p.Q,
        copies: p.copies,
        markers: p.counts,
        run: p.reference.run,
        ...(p.frequencyPrior !== undefined ? { frequencyPrior: p.frequencyPrior } : {}),
      };
    },
  };
}
