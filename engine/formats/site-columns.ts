import type { Location } from '../data/genotype-data.ts';
import type { Token } from '../io/lines.ts';
import { FormatError } from '../io/format-error.ts';

/** Where a header puts a sampling site: two columns, geographic (degrees) or planar. */
export interface SiteColumns {
  readonly kind: Location['kind'];
  readonly a: number;
  readonly b: number;
}

const LATITUDE = ['latitude', 'lat'];
const LONGITUDE = ['longitude', 'lon', 'long', 'lng'];
/** Planar coordinates: `x`/`y`, or any names ending in `_x`/`_y` (e.g. nancycats' colony_x). */
const isX = (n: string) => n === 'x' || n.endsWith('_x');
const isY = (n: string) => n === 'y' || n.endsWith('_y');

/**
 * The site columns a header names (lower-cased names): `latitude` and `longitude` (`lat`,
 * `lon`/`long`/`lng`) before planar `x` and `y`; never the first column, which is the key.
 */
export function siteColumns(names: readonly string[]): SiteColumns | undefined {
  const lat = names.findIndex((n) => LATITUDE.includes(n));
  const lon = names.findIndex((n) => LONGITUDE.includes(n));
  if (lat > 0 && lon > 0) return { kind: 'geographic', a: lat, b: lon };
  const x = names.findIndex(isX);
  const y = names.findIndex(isY);
  if (x > 0 && y > 0) return { kind: 'planar', a: x, b: y };
  return undefined;
}

/**
 * The site in a row's site columns, checked; undefined when both cells are empty. A value that is
 * not a number, a latitude outside −90..90 or a longitude outside −180..180 is an error naming the
 * file, line and column.
 */
export function siteOf(
  file: string,
  lineNumber: number,
  tok: readonly Token[],
  site: SiteColumns,
): Location | undefined {
  const a = tok[site.a];
  const b = tok[site.b];
  if ((a?.text ?? '') === '' && (b?.text ?? '') === '') return undefined;
  const value = (t: Token | undefined, what: string, lo: number, hi: number): number => {
    const v = Number(t?.text);
    if (t === undefined || t.text === '' || !Number.isFinite(v) || v < lo || v > hi)
      throw new FormatError(
        file,
        lineNumber,
        t?.column ?? (tok.at(-1)?.column ?? 0) + (tok.at(-1)?.text.length ?? 0) + 1,
        `${what} "${t?.text ?? ''}"`,
        Number.isFinite(lo) ? `a number from ${lo} to ${hi}` : 'a number',
      );
    return v;
  };
  if (site.kind === 'geographic')
    return { kind: 'geographic', latitude: value(a, 'latitude', -90, 90), longitude: value(b, 'longitude', -180, 180) };
  return { kind: 'planar', x: value(a, 'x', -Infinity, Infinity), y: value(b, 'y', -Infinity, Infinity) };
}
