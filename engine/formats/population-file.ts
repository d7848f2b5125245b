import type { GenotypeData, Individual, Location } from '../data/genotype-data.ts';
import { siteColumns, siteOf, type SiteColumns } from './site-columns.ts';
import type { ByteSource } from '../io/byte-source.ts';
import { readAllLines, tokenize } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';

/** Population (and optional group and sampling site) of each individual id, from a side file. */
export type PopulationMap = Map<string, { population: string; group?: string; location?: Location }>;

/** First header cells that name the individual's id column. */
export const HEADER_IDS: ReadonlySet<string> = new Set(['id', 'sample', 'individual', 'iid', 'ind', 'name', 'label']);

/**
 * Reads a population file: two or more columns `id population [group]` separated by tabs,
 * commas or spaces, with an optional header row (recognised by its first cell, e.g. "id").
 * The Stratify labels layout (id, pop_index, pop, group, …) is recognised by its header, and
 * then the `pop` and `group` columns are used. A header may also name the sampling site:
 * `latitude` and `longitude` (degrees; `lat`, `lon`/`long`), or planar `x` and `y` (also names
 * ending in `_x`/`_y`); an empty cell leaves that individual without a site, and a value that is
 * not a number, or a latitude or longitude out of range, is an error naming its line and column.
 */
export async function readPopulationFile(source: ByteSource): Promise<PopulationMap> {
  const out: PopulationMap = new Map();
  let popCol = 1;
  let groupCol = 2;
  let site: SiteColumns | undefined;
  let first = true;
  for (const line of await readAllLines(source)) {
    if (line.text.trim() === '' || line.text.startsWith('#')) continue;
    const delim = line.text.includes('\t') ? '\t' : line.text.includes(',') ? ',' : undefined;
    const tok = tokenize(line.text, delim);
    if (first) {
      first = false;
      if (HEADER_IDS.has(tok[0]!.text.toLowerCase())) {
        const names = tok.map((t) => t.text.toLowerCase());
        const p = names.findIndex((n) => n === 'pop' || n === 'population');
        const g = names.findIndex((n) => n === 'group' || n === 'region');
        if (p > 0) popCol = p;
        groupCol = g > 0 ? g : -1;
        site = siteColumns(names);
        continue;
      }
    }
    if (tok.length < 2)
      throw new FormatError(
        source.name,
        line.number,
        line.text.length + 1,
        'fewer than 2 columns',
        'id and population',
      );
    const id = tok[0]!.text;
    if (out.has(id))
      throw new FormatError(source.name, line.number, 1, `id "${id}" listed twice`, 'one row per individual');
    const group = groupCol >= 0 ? tok[groupCol]?.text : undefined;
    const location = site ? siteOf(source.name, line.number, tok, site) : undefined;
    out.set(id, {
      population: tok[popCol]?.text ?? '',
      ...(group ? { group } : {}),
      ...(location ? { location } : {}),
    });
  }
  return out;
}

/**
 * Applies a population map; reports ids of the data that it does not list. The file defines the
 * populations: an individual it does not list has none (not the genotype file's own label, which
 * would put populations of two naming schemes side by side, e.g. "Borgou" and GENEPOP's "1").
 */
export function applyPopulations(
  data: GenotypeData,
  map: PopulationMap,
): { data: GenotypeData; unlabelled: string[]; unknown: string[] } {
  const ids = new Set(data.individuals.map((i) => i.id));
  const unlabelled: string[] = [];
  const individuals: Individual[] = data.individuals.map((ind) => {
    const m = map.get(ind.id);
    if (m === undefined) {
      unlabelled.push(ind.id);
      return { id: ind.id };
    }
    return {
      id: ind.id,
      ...(m.population !== '' ? { population: m.population } : {}),
      ...(m.group ? { group: m.group } : {}),
      ...(m.location ? { location: m.location } : {}),
    };
  });
  const unknown = [...map.keys()].filter((k) => !ids.has(k));
  return { data: { ...data, individuals }, unlabelled, unknown };
}
