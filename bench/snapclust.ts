// The accuracy suite's peer: snapclust (R adegenet, `pop.ini = "ward"`) on a dataset, through
// bench/snapclust.R. Absent R or adegenet (Debian: apt install r-cran-adegenet), callers get the
// reason instead and say so in their report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MISSING, type GenotypeData } from '../engine/data/genotype-data.ts';

const SCRIPT = fileURLToPath(new URL('snapclust.R', import.meta.url));

/** Why snapclust cannot run here, or undefined when it can. */
export function snapclustMissing(): string | undefined {
  const r = spawnSync('Rscript', ['-e', 'suppressMessages(library(adegenet))'], { encoding: 'utf8' });
  if (r.error) return 'Rscript not found (apt install r-base-core r-cran-adegenet)';
  if (r.status !== 0) return 'R has no adegenet (apt install r-cran-adegenet)';
  return undefined;
}

/** The genotypes as snapclust's table: allele names joined by "/", NA where a copy is missing. */
function genotypeTable(data: GenotypeData): string {
  const { ploidy: P, individuals, loci, calls } = data;
  const N = individuals.length;
  const lines = [loci.map((_, l) => `L${l + 1}`).join('\t')];
  for (let i = 0; i < N; i++) {
    const row: string[] = [];
    for (let l = 0; l < loci.length; l++) {
      const copies: string[] = [];
      for (let p = 0; p < P; p++) {
        const a = calls[(l * N + i) * P + p]!;
        if (a === MISSING) break;
        copies.push(`a${a + 1}`);
      }
      row.push(copies.length === P ? copies.join('/') : 'NA');
    }
    lines.push(row.join('\t'));
  }
  return lines.join('\n') + '\n';
}

/**
 * snapclust's clustering of each dataset at its K (groups 0..K − 1) and each fit's seconds (R's own
 * clock, without R's start and reading the table), in one R process.
 */
export function snapclustGroups(
  jobs: readonly { data: GenotypeData; K: number }[],
): { groups: number[]; seconds: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'stratify-snapclust-'));
  try {
    const list = jobs.map((job, j) => {
      const file = join(dir, `genotypes-${j}.tsv`);
      writeFileSync(file, genotypeTable(job.data));
      return `${file}\t${job.K}\t${job.data.ploidy}`;
    });
    writeFileSync(join(dir, 'jobs.tsv'), list.join('\n') + '\n');
    const r = spawnSync('Rscript', [SCRIPT, join(dir, 'jobs.tsv')], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`snapclust failed: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
    const lines = r.stdout.trim().split('\n');
    return jobs.map((_, j) => ({
      seconds: Number(lines[2 * j]),
      groups: lines[2 * j + 1]!.trim()
        .split(/\s+/)
        .map((g) => Number(g) - 1),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
