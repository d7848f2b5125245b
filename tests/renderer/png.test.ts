import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { withDpi } from '../../renderer/src/export/png.ts';
import { ROOT } from '../helpers.ts';

/** The chunks of a PNG: type, data, and whether the stored CRC matches zlib's. */
function chunks(png: Uint8Array) {
  const b = Buffer.from(png);
  const out: { type: string; data: Buffer; crcOk: boolean }[] = [];
  for (let o = 8; o < b.length;) {
    const n = b.readUInt32BE(o);
    const type = b.toString('latin1', o + 4, o + 8);
    out.push({
      type,
      data: b.subarray(o + 8, o + 8 + n),
      crcOk: crc32(b.subarray(o + 4, o + 8 + n)) === b.readUInt32BE(o + 8 + n),
    });
    o += 12 + n;
  }
  return out;
}

test('withDpi writes one valid pHYs chunk after IHDR and keeps the image', () => {
  const png = readFileSync(join(ROOT, 'docs', 'screenshots', 'data-nancycats.png'));
  const once = withDpi(png, 300);
  const twice = withDpi(once, 150);
  for (const [out, dpi] of [
    [once, 300],
    [twice, 150],
  ] as const) {
    const c = chunks(out);
    assert.equal(c[0]!.type, 'IHDR');
    assert.equal(c[1]!.type, 'pHYs');
    assert.equal(c.filter((x) => x.type === 'pHYs').length, 1, 'an earlier pHYs is replaced');
    assert.ok(
      c.every((x) => x.crcOk),
      'every CRC is right',
    );
    // 1 inch = 0.0254 m: 300 DPI = 11,811 pixels per metre, unit 1 (metre).
    assert.equal(c[1]!.data.readUInt32BE(0), Math.round(dpi / 0.0254));
    assert.equal(c[1]!.data.readUInt32BE(4), Math.round(dpi / 0.0254));
    assert.equal(c[1]!.data[8], 1);
    // The pixels are untouched.
    const idat = (x: ReturnType<typeof chunks>) =>
      inflateSync(Buffer.concat(x.filter((y) => y.type === 'IDAT').map((y) => y.data)));
    assert.ok(idat(c).equals(idat(chunks(png))));
  }
  assert.throws(() => withDpi(new Uint8Array(10), 300), /not a PNG/);
});
