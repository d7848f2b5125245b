// The admixture report scripts' suite of cases (docs/scripts/admixture-screening.ts,
// docs/scripts/admixture-starts.ts): real microsatellites (eHGDP, nancycats) and simulated admixed
// SNPs and microsatellites, each at the K values the reports sweep.
import { buildPreparedData, type PreparedData } from '../engine/model/prepared/prepared-data.ts';
import { readDataset } from '../engine/index.ts';
import { datasetFiles } from '../engine/node/file-source.ts';
import { admixedData } from '../tests/model/synthetic.ts';
import { dataPath } from '../data/datasets.ts';

export interface AdmixtureCase {
  readonly name: string;
  /** The case's data, read or simulated once per process. */
  readonly data: () => Promise<PreparedData>;
  readonly kValues: readonly number[];
}

const cached = new Map<string, Promise<PreparedData>>();
const once = (name: string, make: () => Promise<PreparedData>) => () => {
  if (!cached.has(name)) cached.set(name, make());
  return cached.get(name)!;
};

export const ADMIXTURE_CASES: readonly AdmixtureCase[] = [
  {
    name: 'eHGDP, 1,350 × 678 microsatellites',
    data: once('ehgdp', async () => buildPreparedData(await readDataset(datasetFiles(dataPath('eHGDP.str.gz')), {}))),
    kValues: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    name: 'nancycats, 237 × 9 microsatellites',
    data: once('cats', async () => buildPreparedData(await readDataset(datasetFiles(dataPath('nancycats.str')), {}))),
    kValues: [2, 3, 4, 5, 6, 7, 8],
  },
  {
    name: 'simulated 200 × 2000 SNPs, K = 4, F_ST 0.05',
    data: once('snp', async () =>
      buildPreparedData(admixedData(11, { N: 200, L: 2000, K: 4, alpha: 0.5, fst: 0.05 }).data),
    ),
    kValues: [2, 3, 4, 5, 6],
  },
  {
    name: 'simulated 300 × 50 microsatellites (12 alleles), K = 3, F_ST 0.05',
    data: once('msat', async () =>
      buildPreparedData(admixedData(12, { N: 300, L: 50, K: 3, alpha: 0.5, fst: 0.05, alleles: 12 }).data),
    ),
    kValues: [2, 3, 4, 5, 6],
  },
];
