import { createReadStream, existsSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { ByteSource } from '../io/byte-source.ts';
import type { DatasetFiles } from '../formats/read-dataset.ts';

/** Binary files, read in larger chunks: nothing splits their bytes into lines. */
const BINARY = new Set(['.bed']);

/**
 * A ByteSource over a file on disk, streamed in 64 KiB chunks (gunzip and line splitting run
 * faster on these than on 1 MiB chunks), or 1 MiB chunks for binary files (a stream of small
 * chunks costs more than the copy of a .bed's bytes).
 */
export function fileSource(path: string): ByteSource {
  const chunk = BINARY.has(extname(path).toLowerCase()) ? 1 << 20 : 1 << 16;
  return {
    name: path,
    size: statSync(path).size,
    async *chunks() {
      const stream = createReadStream(path, { highWaterMark: chunk });
      for await (const chunk of stream) yield chunk as Uint8Array;
    },
  };
}

const COMPANIONS: Record<string, string[]> = {
  '.bed': ['.bim', '.fam'],
  '.bim': ['.bed', '.fam'],
  '.fam': ['.bed', '.bim'],
  '.ped': ['.map'],
  '.map': ['.ped'],
};

/** The files of a dataset on disk: the file itself and, for PLINK, its companions beside it. */
export function datasetFiles(path: string): DatasetFiles {
  if (!existsSync(path)) throw new Error(`${path}: no such file`);
  const ext = extname(path).toLowerCase();
  const stem = join(dirname(path), basename(path, extname(path)));
  const companions = (COMPANIONS[ext] ?? [])
    .map((e) => [stem + e, stem + e.toUpperCase()].find((p) => existsSync(p)))
    .filter((p): p is string => p !== undefined)
    .map(fileSource);
  return { main: fileSource(path), companions };
}
