import { fitOptions, restoreRuns, runSweep } from '../../service/cluster-sweep.ts';
import { supervisedFromPopulations, supervisedSweep } from '../../service/supervised.ts';
import { importResult } from '../../service/import-result.ts';
import { runSettingProblem } from '../../util/choices.ts';
import type { EngineApi, RunInfo, SweepRequest } from '../engine-protocol.ts';
import { runInfo, type EngineCall, type EngineState } from '../engine-state.ts';

/** The engine's calls that make a sweep: running one, and restoring one from a saved session or a result file. */
export function runCalls(
  s: EngineState,
  call: EngineCall,
): Pick<EngineApi, 'runSweep' | 'importSweep' | 'importResult'> {
  const { progress, signal } = call;
  return {
    runSweep: async (req: SweepRequest) => {
      const data = s.dataset(req.datasetId);
      if (req.threads !== undefined) {
        const cores = s.options.cores;
        const problem = runSettingProblem('threads', req.threads, cores, cores ? "this machine's cores" : undefined);
        if (problem) throw new RangeError(problem);
      }
      const { references, datasetId: _datasetId, threads: _threads, ...request } = req;
      const asked = { ...request, fit: fitOptions(req.fit) };
      const options = references ? supervisedSweep(asked, supervisedFromPopulations(data, references)) : asked;
      const res = await runSweep(
        data,
        options,
        s.pool(req.threads),
        (p) => {
          if (p.kind === 'start') {
            // The UI's start event: everything but which start it was and its ln L.
            const { start: _start, logLik: _logLik, ...event } = p;
            progress(event);
          } else if (p.kind === 'iteration' || p.kind === 'cv' || p.kind === 'estimate') progress(p);
          else progress({ kind: 'run', run: runInfo(p.run) });
        },
        signal,
      );
      const sweepId = s.nextSweep++;
      s.sweeps.set(sweepId, { datasetId: req.datasetId, runs: res.runs, cancelled: res.cancelled, options });
      return { sweepId, runs: res.runs.map(runInfo), cancelled: res.cancelled };
    },
    importSweep: async (datasetId: number, runs: readonly RunInfo[]) => {
      const restored = restoreRuns(s.dataset(datasetId), runs);
      const sweepId = s.nextSweep++;
      s.sweeps.set(sweepId, { datasetId, runs: restored });
      return { sweepId };
    },
    importResult: async (datasetId: number, name: string, text: string) => {
      const runs = importResult(s.dataset(datasetId), name, text);
      const sweepId = s.nextSweep++;
      s.sweeps.set(sweepId, { datasetId, runs });
      return { sweepId, runs: runs.map(runInfo) };
    },
  };
}
