import type { AlleleCalls } from './genotype-data.ts';

/**
 * An append-only buffer of allele codes that starts as an Int8Array and widens itself to an
 * Int16Array the first time a code above 127 is written. Capacity doubles as needed.
 */
export class GrowableCalls {
  private buf: AlleleCalls;
  private len = 0;

  constructor(initialCapacity = 1 << 16) {
    this.buf = new Int8Array(Math.max(16, initialCapacity));
  }

  get length(): number {
    return this.len;
  }

  /** Makes room for `n` more values and returns the offset at which they start. */
  reserve(n: number): number {
    const need = this.len + n;
    if (need > this.buf.length) {
      let cap = this.buf.length;
      while (cap < need) cap *= 2;
      const next = this.buf instanceof Int8Array ? new Int8Array(cap) : new Int16Array(cap);
      next.set(this.buf.subarray(0, this.len));
      this.buf = next;
    }
    const at = this.len;
    this.len = need;
    return at;
  }

  /** Shortens the buffer to `n` values. */
  truncate(n: number): void {
    this.len = Math.max(0, Math.min(this.len, n));
  }

  /** Writes one code at an offset previously reserved. */
  set(offset: number, code: number): void {
    if (code > 127 && this.buf instanceof Int8Array) {
      const wide = new Int16Array(this.buf.length);
      wide.set(this.buf);
      this.buf = wide;
    }
    this.buf[offset] = code;
  }

  push(code: number): void {
    this.set(this.reserve(1), code);
  }

  get(offset: number): number {
    return this.buf[offset]!;
  }

  /** The filled part, trimmed to its length (a copy, so the buffer can be dropped). */
  toArray(): AlleleCalls {
    return this.buf.slice(0, this.len);
  }
}
