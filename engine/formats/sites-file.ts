import type { GenotypeData, Individual, Location } from '../data/genotype-data.ts';
import type { ByteSource } from '../io/byte-source.ts';
import { FormatError } from '../io/format-error.ts';
import { readAllLines, tokenize } from '../io/lines.ts';
import { siteColumns, siteOf } from './site-columns.ts';

/** A sampling-site file as read: one site per key (an individual's id or a population's name). */
export interface SitesTable {
  readonly file: string;
  /** The first column's header (e.g. "population", "site", "id"). */
  readonly keyName: string;
  readonly sites: ReadonlyMap<string, Location>;
}

/** How a sites file was matched to a dataset. */
export interface SitesApplied {
  readonly data: GenotypeData;
  /** What the keys named: individuals' ids or populations' names. */
  readonly by: 'individual' | 'population';
  /** Individuals given a site, and those left without one. */
  readonly located: number;
  readonly unlocated: number;
  /** Keys that name nothing in the data. */
  readonly unknown: readonly string[];
}

/**
 * Reads a file of sampling sites, as mapmixture's coordinates file and many papers' supplementary
 * tables give them: a header row, the key in the first column (a population's name or an
 * individual's id), and `latitude`/`longitude` (degrees; also `lat`, `lon`/`long`/`lng`) or planar
 * `x`/`y` columns anywhere after it. Columns are separated by tabs, commas or spaces; rows
 * starting with `#` are comments. Errors name the file, line and column.
 */
export async function readSitesFile(source: ByteSource): Promise<SitesTable> {
  const sites = new Map<string, Location>();
  const lineOf = new Map<string, number>();
  let header: { keyName: string; columns: NonNullable<ReturnType<typeof siteColumns>> } | undefined;
  for (const line of await readAllLines(source)) {
    if (line.text.trim() === '' || line.text.startsWith('#')) continue;
    const delim = line.text.includes('\t') ? '\t' : line.text.includes(',') ? ',' : undefined;
    const tok = tokenize(line.text, delim);
    if (!header) {
      const names = tok.map((t) => t.text.toLowerCase());
      const columns = siteColumns(names);
      if (!columns)
        throw new FormatError(
          source.name,
          line.number,
          1,
          `a header without site columns (${names.join(', ')})`,
          'a header row: key, then latitude and longitude (or x and y)',
        );
      header = { keyName: tok[0]!.text, columns };
      continue;
    }
    const key = tok[0]!.text;
    const location = siteOf(source.name, line.number, tok, header.columns);
    if (!location) continue;
    const before = sites.get(key);
    if (before && !sameLocation(before, location))
      throw new FormatError(
        source.name,
        line.number,
        1,
        `"${key}" has a second, different site (its first is on line ${lineOf.get(key)})`,
        'one site per key',
      );
    sites.set(key, location);
    lineOf.set(key, line.number);
  }
  if (!header) throw new FormatError(source.name, 1, 1, 'an empty file', 'a header row and one row per site');
  if (sites.size === 0)
    throw new FormatError(source.name, 2, 1, 'no row with a site', 'one row per site under the header');
  return { file: source.name, keyName: header.keyName, sites };
}

function sameLocation(a: Location, b: Location): boolean {
  if (a.kind === 'geographic' && b.kind === 'geographic')
    return a.latitude === b.latitude && a.longitude === b.longitude;
  if (a.kind === 'planar' && b.kind === 'planar') return a.x === b.x && a.y === b.y;
  return false;
}

/**
 * Gives each individual the site of its id or of its population, whichever the file's keys name
 * more of (so a file keyed by "site", "pop" or "sample" needs no setting). The file defines the
 * sites: an individual it does not reach has none afterwards. A file whose keys name no
 * individual and no population is an error, naming a few keys of each side.
 */
export function applySites(data: GenotypeData, table: SitesTable): SitesApplied {
  const ids = new Set(data.individuals.map((i) => i.id));
  const pops = new Set(data.individuals.flatMap((i) => (i.population !== undefined ? [i.population] : [])));
  const keys = [...table.sites.keys()];
  const byId = keys.filter((k) => ids.has(k)).length;
  const byPop = keys.filter((k) => pops.has(k)).length;
  if (byId === 0 && byPop === 0) {
    const sample = (xs: Iterable<string>) =>
      [...xs]
        .slice(0, 3)
        .map((x) => `"${x}"`)
        .join(', ');
    throw new FormatError(
      table.file,
      1,
      1,
      `none of its ${keys.length} keys is an individual or a population of the data (it lists ${sample(keys)}; the data has individuals ${sample(ids)}${pops.size > 0 ? ` and populations ${sample(pops)}` : ' and no populations'})`,
      "individuals' ids or populations' names in the first column",
    );
  }
  const by = byId >= byPop ? 'individual' : 'population';
  let located = 0;
  const individuals: Individual[] = data.individuals.map((ind) => {
    const key = by === 'individual' ? ind.id : ind.population;
    const location = key !== undefined ? table.sites.get(key) : undefined;
    const { location: _old, ...rest } = ind;
    if (!location) return rest;
    located++;
    return { ...rest, location };
  });
  const known = by === 'individual' ? ids : pops;
  return {
    data: { ...data, individuals },
    by,
    located,
    unlocated: data.individuals.length - located,
    unknown: keys.filter((k) => !known.has(k)),
  };
}
