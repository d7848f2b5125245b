/**
 * Memory that worker threads can share: arrays the engine posts to its workers (genotypes, their
 * codes) are allocated here once, in a SharedArrayBuffer where the platform has one, so posting
 * them copies nothing.
 */

/** Whether this platform has shared memory (Node; browsers only when cross-origin isolated). */
export function sharedMemory(): boolean {
  return (
    typeof SharedArrayBuffer !== 'undefined' &&
    (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false
  );
}

/** A typed array's constructor. */
export type ArrayType<T> = {
  new (length: number): T;
  new (buffer: ArrayBufferLike): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** A typed array of `length` elements, in a SharedArrayBuffer when `shared`. */
export function allocate<T extends ArrayBufferView>(Type: ArrayType<T>, length: number, shared: boolean): T {
  return shared ? new Type(new SharedArrayBuffer(length * Type.BYTES_PER_ELEMENT)) : new Type(length);
}
