import fontUrl from './fonts/LiberationSans-Regular.ttf?url';
import { withDpi } from './png.ts';

/** Saves a file: through the desktop's save dialog in Electron, as a download in a browser. */
export async function saveFile(name: string, data: Blob | string, type = 'application/octet-stream'): Promise<void> {
  if (window.stratify?.isDesktop) {
    const payload = typeof data === 'string' ? data : new Uint8Array(await data.arrayBuffer());
    await window.stratify.saveFile(name, payload);
    return;
  }
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Renders an SVG string to a PNG of the given pixel width (height follows the aspect ratio),
 * with its resolution recorded (pHYs) when `dpi` is given.
 */
export async function svgToPng(svg: string, pixelWidth: number, dpi?: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const scale = pixelWidth / img.width;
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(img.width * scale);
    canvas.height = Math.round(img.height * scale);
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
    if (dpi === undefined) return blob;
    return new Blob([withDpi(new Uint8Array(await blob.arrayBuffer()), dpi)], { type: 'image/png' });
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The font embedded in PDF figures (Liberation Sans: Helvetica's and Arial's widths; fonts/LICENSE.txt). */
const PDF_FONT_FILE = 'LiberationSans-Regular.ttf';
const PDF_FONT_FAMILY = 'LiberationSans';

/** The TrueType font file as jsPDF takes it: a binary string (fetched once, on the first PDF export). */
let fontBytes: Promise<string> | undefined;
function pdfFont(): Promise<string> {
  fontBytes ??= fetch(fontUrl)
    .then((r) => {
      if (!r.ok) throw new Error(`the PDF font could not be loaded (${r.status})`);
      return r.arrayBuffer();
    })
    .then((buf) => {
      const bytes = new Uint8Array(buf);
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return bin;
    })
    .catch((e: unknown) => {
      fontBytes = undefined;
      throw e;
    });
  return fontBytes;
}

/**
 * Renders an SVG string to a one-page PDF at publication size: `widthMm` wide, the height from
 * the SVG's aspect ratio, vector shapes and text (jsPDF + svg2pdf.js, loaded on first use).
 */
export async function svgToPdf(svg: string, widthMm: number): Promise<Blob> {
  const [{ jsPDF }, { svg2pdf }, font] = await Promise.all([import('jspdf'), import('svg2pdf.js'), pdfFont()]);
  const el = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement as unknown as SVGSVGElement;
  // Every text in the embedded font (a family the PDF does not embed would be drawn with whatever
  // the reader substitutes).
  el.setAttribute('font-family', PDF_FONT_FAMILY);
  for (const t of el.querySelectorAll('[font-family]')) t.setAttribute('font-family', PDF_FONT_FAMILY);
  const w = Number(el.getAttribute('width'));
  const h = Number(el.getAttribute('height'));
  const heightMm = (widthMm * h) / w;
  const doc = new jsPDF({
    orientation: widthMm > heightMm ? 'landscape' : 'portrait',
    unit: 'mm',
    format: [widthMm, heightMm],
    compress: true,
  });
  doc.addFileToVFS(PDF_FONT_FILE, font);
  doc.addFont(PDF_FONT_FILE, PDF_FONT_FAMILY, 'normal');
  const holder = document.createElement('div');
  holder.style.position = 'absolute';
  holder.style.left = '-10000px';
  holder.appendChild(el);
  document.body.appendChild(holder);
  try {
    await svg2pdf(el, doc, { x: 0, y: 0, width: widthMm, height: heightMm });
  } finally {
    holder.remove();
  }
  return doc.output('blob');
}

/** Saves files as one zip (fflate, loaded when first asked for). */
export async function saveZip(name: string, files: Record<string, Uint8Array>): Promise<void> {
  const { zipSync } = await import('fflate');
  await saveFile(name, new Blob([zipSync(files)], { type: 'application/zip' }), 'application/zip');
}
