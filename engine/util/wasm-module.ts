/** A WebAssembly module from its base64 text, compiled once per thread by the caller; null where WebAssembly (or a feature the module uses, such as SIMD) is not available. */
export function compileBase64(text: string): WebAssembly.Module | null {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
    return new WebAssembly.Module(bytes);
  } catch {
    return null;
  }
}

/** Byte offsets of consecutive regions of a WebAssembly memory, each 16-byte aligned, and the end. */
export function layout(sizes: readonly number[]): { at: number[]; end: number } {
  const at: number[] = [];
  let end = 0;
  for (const size of sizes) {
    at.push(end);
    end += Math.ceil(size / 16) * 16;
  }
  return { at, end };
}

/** The bytes of a typed array (a view, not a copy). */
export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** WebAssembly memory pages are 64 KiB. */
export const WASM_PAGE = 65536;

/**
 * A WebAssembly memory holding consecutive regions of the given byte sizes (each 16-byte aligned,
 * as layout) and each region's byte address by name; undefined where no memory that large can be had.
 */
export function regionMemory<R extends Record<string, number>>(
  regions: R,
): { readonly at: Record<keyof R, number>; readonly memory: WebAssembly.Memory } | undefined {
  const { at: starts, end } = layout(Object.values(regions));
  const at = Object.fromEntries(Object.keys(regions).map((name, r) => [name, starts[r]!])) as Record<keyof R, number>;
  try {
    return { at, memory: new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(end / WASM_PAGE)) }) };
  } catch {
    return undefined; // beyond what a WebAssembly memory can hold
  }
}
