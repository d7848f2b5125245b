import { color, interpolateRdBu } from 'd3';
import type { Segment } from './structure-layout.ts';

/**
 * The fit check's heat map, ordered like the bar plot (evalAdmix's plotCorRes reading): below the
 * diagonal each pair of individuals, above it the mean of their two populations, on it the
 * population's own mean; red positive, blue negative, white zero, saturated at ±limit.
 */

/** The colour of a correlation (RGB 0..255): RdBu reversed, so positive is red. NaN: grey. */
export function residualColour(v: number, limit: number): [number, number, number] {
  if (Number.isNaN(v)) return [200, 200, 200];
  const t = 0.5 - Math.max(-1, Math.min(1, v / limit)) / 2;
  const c = color(interpolateRdBu(t))!.rgb();
  return [Math.round(c.r), Math.round(c.g), Math.round(c.b)];
}

/**
 * RGBA pixels of the heat map, one per pair (n × n, n = order.length): order maps plot positions
 * to individuals (the dataset's indices into matrix, shape N × N), group gives each individual's
 * population index into means (shape G × G). Without a matrix (too many individuals to send) both
 * triangles show the population means.
 */
export function heatmapPixels(
  matrix: Float32Array | undefined,
  N: number,
  order: readonly number[],
  group: Int32Array,
  means: Float64Array,
  G: number,
  limit: number,
): Uint8ClampedArray<ArrayBuffer> {
  const n = order.length;
  const px = new Uint8ClampedArray(n * n * 4);
  for (let r = 0; r < n; r++) {
    const i = order[r]!;
    for (let c = 0; c < n; c++) {
      const j = order[c]!;
      const v = r > c && matrix ? matrix[i * N + j]! : means[group[i]! * G + group[j]!]!;
      const [R, Gr, B] = residualColour(v, limit);
      const x = (r * n + c) * 4;
      px[x] = R;
      px[x + 1] = Gr;
      px[x + 2] = B;
      px[x + 3] = 255;
    }
  }
  return px;
}

/** A symmetric colour limit that shows the data: the 99th percentile of |pair values|, at least 0.02. */
export function colourLimit(matrix: Float32Array | Float64Array): number {
  const values: number[] = [];
  const step = Math.max(1, Math.floor(matrix.length / 200_000));
  for (let x = 0; x < matrix.length; x += step) if (!Number.isNaN(matrix[x]!)) values.push(Math.abs(matrix[x]!));
  values.sort((a, b) => a - b);
  const p99 = values.length ? values[Math.floor(0.99 * (values.length - 1))]! : 0;
  // (rounded first: a float32 0.2 is 0.2000000029, not above 0.2)
  return Math.max(0.02, Math.ceil(Math.round(p99 * 1e4) / 100) / 100);
}

/** Draws the heat map into a canvas of side `size` px, with population separators. */
export function drawResidualHeatmap(
  canvas: HTMLCanvasElement,
  pixels: Uint8ClampedArray<ArrayBuffer>,
  n: number,
  segments: readonly Segment[],
  size: number,
): void {
  const dpr = globalThis.devicePixelRatio || 1;
  canvas.width = Math.round(size * dpr);
  canvas.height = Math.round(size * dpr);
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const ctx = canvas.getContext('2d');
  if (!ctx || n === 0) return;
  const source = document.createElement('canvas');
  source.width = n;
  source.height = n;
  source.getContext('2d')!.putImageData(new ImageData(pixels, n, n), 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  const scale = canvas.width / n;
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.55)';
  ctx.lineWidth = Math.max(1, dpr);
  for (const s of segments.slice(1)) {
    const at = Math.round(s.start * scale) + 0.5;
    ctx.beginPath();
    ctx.moveTo(at, 0);
    ctx.lineTo(at, canvas.height);
    ctx.moveTo(0, at);
    ctx.lineTo(canvas.width, at);
    ctx.stroke();
  }
}
