/** CRC-32 (ISO 3309, as PNG uses) of bytes. */
function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/**
 * Writes the resolution into a PNG: a pHYs chunk (pixels per metre, unit 1) right after IHDR,
 * replacing any pHYs already there, so that the image opens at its print size (300 DPI at
 * 85 mm is 85 mm wide in a word processor, not 4 inches).
 */
export function withDpi(png: Uint8Array, dpi: number): Uint8Array<ArrayBuffer> {
  const signature = 8;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const type = (o: number) => String.fromCharCode(...png.subarray(o + 4, o + 8));
  if (png.length < 33 || type(signature) !== 'IHDR') throw new Error('not a PNG image');
  const chunks: Uint8Array[] = [png.subarray(0, signature)];
  const ppm = Math.round(dpi / 0.0254);
  const phys = new Uint8Array(21);
  const pv = new DataView(phys.buffer);
  pv.setUint32(0, 9);
  phys.set([0x70, 0x48, 0x59, 0x73], 4); // "pHYs"
  pv.setUint32(8, ppm);
  pv.setUint32(12, ppm);
  phys[16] = 1;
  pv.setUint32(17, crc32(phys.subarray(4, 17)));
  for (let o = signature; o < png.length;) {
    const length = view.getUint32(o);
    const end = o + 12 + length;
    if (type(o) !== 'pHYs') chunks.push(png.subarray(o, end));
    if (type(o) === 'IHDR') chunks.push(phys);
    o = end;
  }
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
