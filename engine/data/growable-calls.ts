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

  /** Writes a block of codes (each at most 127 in an Int8Array, as in {@link set}) at a reserved offset. */
  setBlock(offset: number, codes: Int8Array): void {
    this.buf.set(codes, offset);
  }

  push(code: number): void {
    this.set(this.reserve(1), code);
  }

  get(offset: number): number {
    return this.buf[offset]!;
  }

  /**
   * The filled part: the buffer itself when it is exactly full (a reader that knew the size
   * reserved it whole), else a copy trimmed to its length so the larger buffer can be dropped.
   * The builder must not be written to afterwards.
   */
  toArray(): AlleleCalls {
    return this.len === this.buf.length ? this.buf : this.buf.slice(0, this.len);
  }
}
