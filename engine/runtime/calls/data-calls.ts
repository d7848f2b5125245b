import type { FilterOptions } from '../../data/filters.ts';
import { toText } from '../../formats/writers.ts';
import { exportDataset, filterDataset, filterListFiles, placeDataset } from '../../service/dataset.ts';
import type { ExportFormat } from '../../util/choices.ts';
import type { EngineApi, FileInput, OpenOptions } from '../engine-protocol.ts';
import { individualsInfo, filePreview, type EngineCall, type EngineState } from '../engine-state.ts';

/** The engine's calls on datasets: opening (and previewing) files, filters, sampling sites, exports, closing. */
export function dataCalls(
  s: EngineState,
  call: EngineCall,
): Pick<
  EngineApi,
  | 'openDataset'
  | 'previewFile'
  | 'filterDataset'
  | 'applySites'
  | 'exportDataset'
  | 'filterFiles'
  | 'closeDataset'
  | 'held'
> {
  const { readFiles } = call;
  return {
    openDataset: async (files: readonly FileInput[], options: OpenOptions) => {
      const { data } = await readFiles('openDataset', files, options);
      const datasetId = s.nextDataset++;
      s.datasets.set(datasetId, data);
      return s.info(datasetId, data);
    },
    previewFile: async (file: FileInput) => filePreview(s.source(file)),
    filterDataset: async (datasetId: number, options: FilterOptions) => {
      const r = filterDataset(s.dataset(datasetId), options);
      const id2 = s.nextDataset++;
      s.datasets.set(id2, r.data);
      s.filterLists.set(id2, {
        removedIndividuals: r.removedIndividuals,
        removedLoci: r.removedLoci,
        pruned: r.pruned,
      });
      return {
        ...s.info(id2, r.data),
        removedIndividuals: r.removedIndividuals,
        removedLoci: r.removedLoci,
        steps: r.steps,
      };
    },
    applySites: async (datasetId: number, file: FileInput) => {
      const placed = await placeDataset(s.dataset(datasetId), s.source(file));
      s.datasets.set(datasetId, placed.data);
      return {
        individuals: individualsInfo(placed.data),
        by: placed.by,
        located: placed.located,
        unlocated: placed.unlocated,
        unknown: placed.unknown,
      };
    },
    exportDataset: async (datasetId: number, format: ExportFormat, loci?: readonly number[]) => {
      const w = exportDataset(s.dataset(datasetId), format, loci);
      return { text: toText(w), notes: w.notes };
    },
    filterFiles: async (datasetId: number) => {
      const removed = s.filterLists.get(datasetId);
      if (!removed) throw new RangeError(`dataset ${datasetId} is not a filtered dataset`);
      return filterListFiles(removed);
    },
    closeDataset: async (datasetId: number) => {
      s.datasets.delete(datasetId);
      s.filterLists.delete(datasetId);
      for (const [id, sw] of s.sweeps) if (sw.datasetId === datasetId) s.sweeps.delete(id);
    },
    held: async () => ({ datasets: s.datasets.size, sweeps: s.sweeps.size }),
  };
}
