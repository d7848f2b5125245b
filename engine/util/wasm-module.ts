/**
 * A WebAssembly module from its base64 text, compiled once per thread by the caller; null where
 * WebAssembly (or a feature the module uses, such as SIMD) is not available. With `shared`, the
 * module's imported memory is declared shared (sharedVariant), for a memory several threads use.
 */
export function compileBase64(text: string, shared = false): WebAssembly.Module | null {
  try {
    const binary = atob(text);
    let bytes = new Uint8Array(binary.length);
    for (let k = 0; k < binary.length; k++) bytes[k] = binary.charCodeAt(k);
    if (shared) {
      const variant = sharedVariant(bytes);
      if (!variant) return null;
      bytes = variant;
    }
    return new WebAssembly.Module(bytes);
  } catch {
    return null;
  }
}

/**
 * The module's bytes with its imported memory declared shared: the memory type's limits flag 0x01
 * (minimum and maximum) becomes 0x03 (shared, which requires a maximum; the code is unchanged — a
 * module without atomics runs the same on a shared memory). Undefined when the module imports no
 * memory with a maximum (the kernels are compiled with --maximumMemory for this).
 */
export function sharedVariant(module: Uint8Array): Uint8Array<ArrayBuffer> | undefined {
  const bytes = new Uint8Array(module);
  let p = 8; // magic and version
  const leb = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++]!;
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
    }
  };
  const skipName = () => {
    const n = leb();
    p += n;
  };
  while (p < bytes.length) {
    const id = bytes[p++]!;
    const size = leb();
    const end = p + size;
    if (id !== 2) {
      p = end;
      continue;
    }
    const count = leb();
    for (let i = 0; i < count; i++) {
      skipName();
      skipName();
      const kind = bytes[p++]!;
      if (kind === 0) leb();
      else if (kind === 1) {
        p++; // reference type
        const flag = bytes[p++]!;
        leb();
        if (flag & 1) leb();
      } else if (kind === 3)
        p += 2; // value type, mutability
      else if (kind === 2) {
        if (bytes[p] !== 0x01) return undefined;
        bytes[p] = 0x03;
        return bytes;
      } else return undefined;
    }
    return undefined;
  }
  return undefined;
}

/**
 * Byte offsets of consecutive regions of a WebAssembly memory, each aligned to a cache line (64
 * bytes: two threads writing different regions never share a line), and the end.
 */
export function layout(sizes: readonly number[]): { at: number[]; end: number } {
  const at: number[] = [];
  let end = 0;
  for (const size of sizes) {
    at.push(end);
    end += Math.ceil(size / 64) * 64;
  }
  return { at, end };
}

/** The bytes of a typed array (a view, not a copy). */
export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** WebAssembly memory pages are 64 KiB. */
export const WASM_PAGE = 65536;

/** The most pages a kernel's memory may grow to: the maximum the AssemblyScript kernels declare (scripts/kernels/asc.mjs). */
export const WASM_MAX_PAGES = 65536;

/**
 * A WebAssembly memory holding consecutive regions of the given byte sizes (each 64-byte aligned,
 * as layout) and each region's byte address by name; undefined where no memory that large can be had.
 * `shared`: a shared memory (a SharedArrayBuffer; its size fixed), for modules compiled with compileBase64's `shared`.
 */
export function regionMemory<R extends Record<string, number>>(
  regions: R,
  shared = false,
): { readonly at: Record<keyof R, number>; readonly memory: WebAssembly.Memory } | undefined {
  const { at: starts, end } = layout(Object.values(regions));
  const at = Object.fromEntries(Object.keys(regions).map((name, r) => [name, starts[r]!])) as Record<keyof R, number>;
  const initial = Math.max(1, Math.ceil(end / WASM_PAGE));
  try {
    // A maximum as the modules declare one (the kernels' memory never grows).
    return { at, memory: new WebAssembly.Memory({ initial, maximum: initial, shared }) };
  } catch {
    return undefined; // beyond what a WebAssembly memory can hold
  }
}
