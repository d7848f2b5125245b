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
