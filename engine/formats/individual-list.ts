// Lists of individuals, as PLINK's --keep and --remove read them: a line per individual, either
// its id alone or "FID IID" (a .fam's first two columns), further columns ignored; blank lines
// and lines starting with '#' skipped.
import type { ByteSource } from '../io/byte-source.ts';
import { readAllText, scanFields } from '../io/fields.ts';
import { FormatError } from '../io/format-error.ts';

/** One listed individual: its id, or its family and individual ids, with the line it came from. */
export interface ListedIndividual {
  readonly line: number;
  /** The id alone (one column), or the IID (two or more). */
  readonly iid: string;
  /** The FID, where the line has two or more columns. */
  readonly fid?: string;
}

/** An individual as a list can name it: its id and, where the file has one, its family id and IID. */
export interface NamedIndividual {
  readonly id: string;
  readonly fid?: string;
  readonly iid?: string;
}

/** Which individuals a command reads: those listed in `keep` (all when absent), less those in `remove`. */
export interface IndividualSelection {
  readonly keep?: ByteSource;
  readonly remove?: ByteSource;
}

/** Reads a --keep / --remove list. */
export async function readIndividualList(source: ByteSource): Promise<ListedIndividual[]> {
  const out: ListedIndividual[] = [];
  scanFields(await readAllText(source), (line) => {
    if (line.count === 0 || line.text(0).startsWith('#')) return;
    out.push(
      line.count === 1
        ? { line: line.number, iid: line.text(0) }
        : { line: line.number, fid: line.text(0), iid: line.text(1) },
    );
  });
  return out;
}

/**
 * The indices (ascending) of the individuals a selection keeps. An entry that names no individual
 * is refused, naming its file and line: a list meant for these data that misses is a mistake a
 * shard or reference must not pass over. Refuses a selection that keeps nobody.
 */
export async function selectIndividuals(
  individuals: readonly NamedIndividual[],
  selection: IndividualSelection,
): Promise<number[]> {
  // Lookups by id and by FID + IID (both unique among the individuals).
  const byId = new Map<string, number>();
  const byPair = new Map<string, number>();
  individuals.forEach((ind, i) => {
    byId.set(ind.id, i);
    if (ind.fid !== undefined) byPair.set(`${ind.fid}\t${ind.iid ?? ind.id}`, i);
  });
  // An entry names an individual by its id; "FID IID" by both where the data have family ids
  // (the right IID in another family is not that individual), else by the IID or FID_IID.
  const find = (entry: ListedIndividual): number | undefined =>
    entry.fid === undefined
      ? byId.get(entry.iid)
      : byPair.size > 0
        ? byPair.get(`${entry.fid}\t${entry.iid}`)
        : (byId.get(entry.iid) ?? byId.get(`${entry.fid}_${entry.iid}`));
  const resolve = async (source: ByteSource): Promise<Set<number>> => {
    const found = new Set<number>();
    for (const entry of await readIndividualList(source)) {
      const i = find(entry);
      if (i === undefined) {
        const what = entry.fid === undefined ? `"${entry.iid}"` : `"${entry.fid} ${entry.iid}"`;
        throw new FormatError(source.name, entry.line, 1, `no individual ${what} in the data`, 'ids of the data read');
      }
      found.add(i);
    }
    return found;
  };
  const keep = selection.keep ? await resolve(selection.keep) : undefined;
  const remove = selection.remove ? await resolve(selection.remove) : new Set<number>();
  const kept: number[] = [];
  for (let i = 0; i < individuals.length; i++) if ((keep ? keep.has(i) : true) && !remove.has(i)) kept.push(i);
  if (kept.length === 0)
    throw new RangeError(
      `${[selection.keep && `--keep ${selection.keep.name}`, selection.remove && `--remove ${selection.remove.name}`].filter(Boolean).join(' with ')}: no individual left`,
    );
  return kept;
}
