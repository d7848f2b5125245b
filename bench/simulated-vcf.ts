import { createWriteStream, existsSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { createRng } from '../engine/util/rng.ts';
import { VCF_FIXED_COLUMNS } from '../engine/formats/writers.ts';

/**
 * Writes a VCF.gz of `V` biallelic SNPs × `S` samples (GT:DP, random frequencies, 1 % missing)
 * unless `file` exists: the large input of the parsing and desktop-opening benchmarks.
 */
export async function writeSimulatedVcfGz(file: string, V: number, S: number): Promise<void> {
  if (existsSync(file)) return;

  const t0 = performance.now();
  const gz = createGzip({ level: 1 });
  // Written beside and renamed when whole, so an interrupted run leaves no truncated file to reuse.
  const out = createWriteStream(`${file}.part`);
  gz.pipe(out);
  const rng = createRng(1);
  const write = async (s: string) => {
    if (!gz.write(s)) await once(gz, 'drain');
  };
  await write(
    '##fileformat=VCFv4.2\n##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">\n##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Depth">\n',
  );
  await write([...VCF_FIXED_COLUMNS, ...Array.from({ length: S }, (_, s) => `S${s + 1}`)].join('\t') + '\n');
  for (let v = 0; v < V; v++) {
    const p = 0.05 + 0.9 * rng.uniform();
    const cells: string[] = [];
    for (let s = 0; s < S; s++) {
      if (rng.uniform() < 0.01) cells.push('./.:0');
      else
        cells.push(`${rng.uniform() < p ? 1 : 0}/${rng.uniform() < p ? 1 : 0}:${10 + Math.floor(rng.uniform() * 20)}`);
    }
    await write(
      `${1 + Math.floor(v / 5000)}\t${1000 + 10 * v}\trs${v}\tA\tG\t50\tPASS\t.\tGT:DP\t${cells.join('\t')}\n`,
    );
  }
  gz.end();
  await once(out, 'finish');
  renameSync(`${file}.part`, file);
  console.log(
    `generated ${file} (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB compressed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
