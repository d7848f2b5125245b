/** A CSV document from a header and rows (RFC 4180 quoting). */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | undefined)[])[]): string {
  const cell = (v: string | number | undefined) => {
    const s = v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
