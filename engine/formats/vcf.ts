import { LocusMajorBuilder } from '../data/builder.ts';
import { MAX_PLOIDY, MISSING, type GenotypeData, type Individual } from '../data/genotype-data.ts';
import type { ByteSource, ProgressCallback } from '../io/byte-source.ts';
import { readLines } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';
import type { NamedIndividual } from './individual-list.ts';

export interface VcfOptions {
  /** What to do with a site whose calls have another ploidy than the first site: default 'error'. */
  ploidyMismatch?: 'error' | 'skip';
  onProgress?: ProgressCallback;
  /**
   * The samples to read (indices into the header's, ascending) from the header's ids; the others'
   * columns are passed over unread, so memory follows the samples kept.
   */
  select?: (individuals: readonly NamedIndividual[]) => Promise<number[]>;
}

const FIXED = ['#CHROM', 'POS', 'ID', 'REF', 'ALT', 'QUAL', 'FILTER', 'INFO', 'FORMAT'];
const TAB = 9;
const COLON = 58;
const SLASH = 47;
const PIPE = 124;
const DOT = 46;

/**
 * Reads the GT field of a VCF (plain or gzip/BGZF-compressed) in a stream. Phased and unphased
 * calls, multi-allelic sites, '.' missing alleles and haploid calls are supported; CHROM and POS
 * are kept. Each sample line is scanned character by character, never split into strings.
 * Population labels come from a separate file (see population-file.ts).
 */
export async function readVcf(source: ByteSource, options: VcfOptions = {}): Promise<GenotypeData> {
  const file = source.name;
  let builder: LocusMajorBuilder | undefined;
  let nSamples = 0;
  let ploidy = 0;
  let sawUnphased = false;
  let skipped = 0;
  let lastLine = 0;
  let sawFileformat = false;
  // Per sample column, its place among the samples read (−1: passed over).
  let keptAt = new Int32Array(0);
  const codes = new Int32Array(MAX_PLOIDY);
  const missingCall = new Int32Array(MAX_PLOIDY).fill(MISSING);
  for await (const line of readLines(source, { onProgress: options.onProgress })) {
    lastLine = line.number;
    const t = line.text;
    if (t.startsWith('##')) {
      if (line.number === 1 && t.startsWith('##fileformat=VCF')) sawFileformat = true;
      continue;
    }
    if (t.startsWith('#')) {
      const cols = t.split('\t');
      for (let k = 0; k < Math.min(cols.length, FIXED.length); k++) {
        if (cols[k] !== FIXED[k]) {
          throw new FormatError(
            file,
            line.number,
            columnOf(cols, k),
            `header column ${k + 1} is "${cols[k]}"`,
            `"${FIXED[k]}" (tab-separated)`,
          );
        }
      }
      if (cols.length <= FIXED.length)
        throw new FormatError(
          file,
          line.number,
          t.length + 1,
          'the header names no samples',
          'sample columns after FORMAT',
        );
      const ids = cols.slice(FIXED.length);
      const seen = new Set<string>();
      ids.forEach((id, k) => {
        if (seen.has(id))
          throw new FormatError(
            file,
            line.number,
            columnOf(cols, FIXED.length + k),
            `duplicate sample id "${id}"`,
            'unique sample ids',
          );
        seen.add(id);
      });
      nSamples = ids.length;
      const kept = options.select ? await options.select(ids.map((id) => ({ id }))) : undefined;
      keptAt = new Int32Array(nSamples).fill(kept ? -1 : 0);
      if (kept) kept.forEach((s, k) => (keptAt[s] = k));
      else keptAt.forEach((_, s) => (keptAt[s] = s));
      const individuals: Individual[] = (kept ?? ids.map((_, s) => s)).map((s) => ({ id: ids[s]! }));
      builder = new LocusMajorBuilder(individuals, 1, 0);
      continue;
    }
    if (t.trim() === '') continue;
    if (builder === undefined) {
      throw new FormatError(
        file,
        line.number,
        1,
        sawFileformat ? 'a data line before the #CHROM header line' : 'not a VCF header',
        '##fileformat=VCF… and a #CHROM header line',
      );
    }
    // Fixed columns.
    const fields: string[] = [];
    let pos = 0;
    for (let k = 0; k < FIXED.length; k++) {
      const tab = t.indexOf('\t', pos);
      if (tab < 0)
        throw new FormatError(
          file,
          line.number,
          t.length + 1,
          `only ${k + 1} columns`,
          `${FIXED.length + nSamples} tab-separated columns`,
        );
      fields.push(t.slice(pos, tab));
      pos = tab + 1;
    }
    const [chrom, posText, id, ref, alt, , , , format] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const bp = Number(posText);
    if (!/^\d+$/.test(posText))
      throw new FormatError(
        file,
        line.number,
        t.indexOf('\t') + 2,
        `POS "${posText}" is not a whole number`,
        'a 1-based position',
      );
    const alts = alt === '.' || alt === '' ? [] : alt.split(',');
    // An empty or "." allele inside a list (".,T", "A,,T") names no allele: a GT index would point at nothing.
    const blank = alts.findIndex((a) => a === '' || a === '.');
    if (blank >= 0)
      throw new FormatError(
        file,
        line.number,
        columnOfField(t, 4) + alts.slice(0, blank).reduce((n, a) => n + a.length + 1, 0),
        `ALT "${alt}" has an empty or "." allele at position ${blank + 1}`,
        'comma-separated alleles, or "." alone for none',
      );
    if (ref === '')
      throw new FormatError(file, line.number, columnOfField(t, 3), `REF "${ref}" is empty`, 'the reference allele');
    const alleles = [ref, ...alts];
    const gtIndex = format.split(':').indexOf('GT');
    if (gtIndex < 0)
      throw new FormatError(file, line.number, columnOfField(t, 8), `FORMAT "${format}" has no GT`, 'a GT field');
    // First site fixes the ploidy.
    if (ploidy === 0) {
      ploidy = countAlleles(t, pos, gtIndex);
      if (ploidy < 1 || ploidy > MAX_PLOIDY)
        throw new FormatError(
          file,
          line.number,
          pos + 1,
          `ploidy ${ploidy} in the first call`,
          `1 to ${MAX_PLOIDY} alleles per call`,
        );
      // Diploid calls are held packed while the sites allow (builder.ts).
      builder = new LocusMajorBuilder(builder.individuals, ploidy, 1024, true);
    }
    const name = id !== '.' && id !== '' ? id : `${chrom}:${bp}`;
    const offset = builder.addLocus({ name, chrom, pos: bp, alleles });
    let badPloidy = false;
    for (let s = 0; s < nSamples; s++) {
      if (pos > t.length) {
        throw new FormatError(
          file,
          line.number,
          t.length + 1,
          `only ${s} sample columns`,
          `${nSamples} sample columns`,
        );
      }
      const at = keptAt[s]!;
      if (at < 0) {
        const tab = t.indexOf('\t', pos);
        pos = tab < 0 ? t.length + 1 : tab + 1;
        continue;
      }
      const start = pos;
      // Move to the GT subfield.
      for (let g = 0; g < gtIndex; g++) {
        while (pos < t.length && t.charCodeAt(pos) !== COLON && t.charCodeAt(pos) !== TAB) pos++;
        if (t.charCodeAt(pos) === COLON) pos++;
      }
      let n = 0;
      let callPhased = true;
      for (;;) {
        const c = t.charCodeAt(pos);
        let code: number;
        if (c === DOT) {
          code = MISSING;
          pos++;
        } else if (c >= 48 && c <= 57) {
          code = 0;
          while (pos < t.length) {
            const d = t.charCodeAt(pos);
            if (d < 48 || d > 57) break;
            code = code * 10 + (d - 48);
            pos++;
          }
          if (code >= alleles.length) {
            throw new FormatError(
              file,
              line.number,
              pos,
              `allele index ${code} but the site has ${alleles.length} allele(s)`,
              `0 to ${alleles.length - 1} or '.'`,
            );
          }
        } else {
          throw new FormatError(
            file,
            line.number,
            pos + 1,
            `unexpected "${t[pos] ?? 'end of line'}" in genotype of sample ${s + 1}`,
            "allele indices separated by '/' or '|', or '.'",
          );
        }
        if (n < MAX_PLOIDY) codes[n] = code;
        n++;
        const sep = t.charCodeAt(pos);
        if (sep === SLASH || sep === PIPE) {
          if (sep === SLASH) {
            sawUnphased = true;
            callPhased = false;
          }
          pos++;
          continue;
        }
        break;
      }
      if (n !== ploidy) {
        if (n === 1 && codes[0] === MISSING) {
          builder.setCall(offset + at * ploidy, missingCall, false);
        } else if (options.ploidyMismatch === 'skip') {
          badPloidy = true;
        } else {
          throw new FormatError(
            file,
            line.number,
            start + 1,
            `a call with ${n} allele(s) in a ${ploidy}-ploid dataset (mixed ploidy is not supported)`,
            `${ploidy} alleles per call; use the skip option for sites such as chrX in males`,
          );
        }
      } else {
        builder.setCall(offset + at * ploidy, codes, callPhased);
      }
      // Next sample.
      while (pos < t.length && t.charCodeAt(pos) !== TAB) pos++;
      pos++;
    }
    if (pos <= t.length && t.slice(pos).trim() !== '') {
      throw new FormatError(
        file,
        line.number,
        pos + 1,
        'more sample columns than header samples',
        `${nSamples} sample columns`,
      );
    }
    if (badPloidy) {
      builder.dropLastLocus();
      skipped++;
    }
  }
  if (lastLine === 0) throw new FormatError(file, 1, 1, 'the file is empty', 'a VCF header');
  if (builder === undefined)
    throw new FormatError(file, lastLine, 1, 'no #CHROM header line', 'a #CHROM header line naming the samples');
  if (builder.loci.length === 0)
    throw new FormatError(file, lastLine, 1, 'no variant records', 'at least one variant line');
  const warnings = skipped > 0 ? [`${skipped} site(s) with calls of another ploidy were skipped`] : [];
  return builder.finish(
    {
      format: 'vcf',
      file,
      assumptions: [`ploidy ${ploidy} (from the first call)`, 'genotypes from the GT field'],
      warnings,
    },
    !sawUnphased,
  );
}

function countAlleles(t: string, pos: number, gtIndex: number): number {
  for (let g = 0; g < gtIndex; g++) {
    while (pos < t.length && t.charCodeAt(pos) !== COLON && t.charCodeAt(pos) !== TAB) pos++;
    if (t.charCodeAt(pos) === COLON) pos++;
  }
  let n = 1;
  while (pos < t.length) {
    const c = t.charCodeAt(pos);
    if (c === COLON || c === TAB) break;
    if (c === SLASH || c === PIPE) n++;
    pos++;
  }
  return n;
}

function columnOf(cols: readonly string[], k: number): number {
  let c = 1;
  for (let j = 0; j < k; j++) c += cols[j]!.length + 1;
  return c;
}

function columnOfField(t: string, k: number): number {
  let pos = 0;
  for (let j = 0; j < k; j++) pos = t.indexOf('\t', pos) + 1;
  return pos + 1;
}
