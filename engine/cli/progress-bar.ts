/** A one-line progress bar on a terminal; silent elsewhere. */
export class ProgressBar {
  private readonly started = Date.now();
  private last = 0;
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  get active(): boolean {
    return this.stream.isTTY === true;
  }

  /** `eta`: seconds left when known otherwise (an estimate before any start has finished). */
  update(done: number, total: number, label: string, eta?: number): void {
    if (!this.active) return;
    const now = Date.now();
    if (now - this.last < 100 && done < total) return;
    this.last = now;
    this.drawn = true;
    const width = 30;
    const f = total === 0 ? 1 : done / total;
    const filled = Math.round(f * width);
    const elapsed = (now - this.started) / 1000;
    const left = eta ?? (f > 0 ? (elapsed * (1 - f)) / f : NaN);
    const etaText = Number.isFinite(left) ? ` ETA ${eta !== undefined ? '~' : ''}${formatSeconds(left)}` : '';
    this.stream.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(100 * f).toFixed(0).padStart(3)}% ${label}${etaText}\x1b[K`,
    );
  }

  /** Ends the bar's line (once, and only when a bar was drawn). */
  done(): void {
    if (this.active && this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(0)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - 60 * m)).padStart(2, '0')}s`;
}
