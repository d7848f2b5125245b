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

/** Renders an SVG string to a PNG of the given pixel width (height follows the aspect ratio). */
export async function svgToPng(svg: string, pixelWidth: number): Promise<Blob> {
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
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
